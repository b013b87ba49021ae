package fluss

import "context"

// ScanPathReporter is implemented by a RecordReader that can say which of
// its store's read paths serves it (for a primary-key table of the
// embedded store: "columnar image" or "row store"), so that EXPLAIN
// ANALYZE can show it.
type ScanPathReporter interface {
	ScanPath() string
}

// SplitScanner is implemented by tables whose scan can be split into
// parts read at the same time (by several workers): SplitScan returns
// readers of disjoint parts of one consistent snapshot whose rows together
// are the scan's, part 0 first in the scan's order. It returns nil (and no
// error) when the table cannot be split that many ways; the caller then
// scans it whole. opts.Limit must be 0.
type SplitScanner interface {
	SplitScan(ctx context.Context, opts ScanOptions, parts int) ([]RecordReader, error)
}

// ColumnRange is a scan hint (ScanOptions.Ranges): the caller's filter
// keeps only rows whose table column Column lies within [Lo, Hi], both
// inclusive, compared as int64 (the column is of an integer, date, time or
// timestamp type; NULL is outside every range). A store may leave out
// stored chunks that hold no such row, by their statistics; the caller
// keeps its filter, which decides every row.
type ColumnRange struct {
	Column int
	Lo, Hi int64
}

// ChunkReporter is implemented by a RecordReader that reads stored chunks
// and can skip them by ScanOptions.Ranges: how many it read, skipped and
// merged so far, for EXPLAIN ANALYZE.
type ChunkReporter interface {
	ScanChunks() ChunkCounts
}

// ChunkCounts are a scan's stored chunks: Read from the chunks, Skipped by
// their statistics, Merged: read from the row store instead, because
// writes made since the chunks were built touched their rows (the embedded
// store's merge-on-read), and TopPruned: left out because a top hint
// (ScanOptions.Top) said none of their rows could be kept, after reading
// the sort column alone.
type ChunkCounts struct {
	Read, Skipped, Merged, TopPruned int64
}

// Add returns the sum of c and o.
func (c ChunkCounts) Add(o ChunkCounts) ChunkCounts {
	return ChunkCounts{Read: c.Read + o.Read, Skipped: c.Skipped + o.Skipped, Merged: c.Merged + o.Merged, TopPruned: c.TopPruned + o.TopPruned}
}

// StatsAnswerer is implemented by tables that can answer some aggregates
// over their whole current state from stored statistics, without reading
// rows: ScanStats returns the row count and, for each table column of
// cols, its non-null count and, when known exactly, its minimum and
// maximum as int64 (integer-like columns). ok is false when the store
// cannot answer exactly now (the caller then reads the rows).
type StatsAnswerer interface {
	ScanStats(ctx context.Context, cols []int) (st TableStats, ok bool, err error)
}

// TableStats is ScanStats's answer.
type TableStats struct {
	Rows    int64
	Columns []ColumnStats
}

// ColumnStats are one column's statistics. MinMax says Min and Max are
// known; they are meaningful only when NonNull > 0.
type ColumnStats struct {
	NonNull  int64
	MinMax   bool
	Min, Max int64
}

// TopHint is a scan hint (ScanOptions.Top): the caller keeps, of the rows
// the scan returns, only the first N in the order of output column Column
// (an integer, date or timestamp column compared as int64; Desc and
// NullsFirst as in ORDER BY), ties in scan order: ORDER BY col LIMIT N
// with nothing between the scan and the top-N that drops or adds rows. A
// store may leave out any row that N rows before it in the scan's order
// already beat (lower key, or an equal key), which cannot be among the
// caller's N; it returns the rest in the order it would have returned them.
// Stores that cannot use it ignore it.
//
// Ranges, when set, are the whole of a filter between the scan and the
// top-N (keyset pagination: WHERE id > $1 ORDER BY id LIMIT n): the filter
// keeps exactly the rows whose output column Column lies within every
// range (NULL within none); the store offers only those rows to its count
// of N.
type TopHint struct {
	Column           int
	Desc, NullsFirst bool
	N                int64
	Ranges           []ColumnRange
}
