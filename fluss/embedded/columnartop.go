package embedded

import (
	"container/heap"
	"context"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// An image scan with a top hint (fluss.TopHint: ORDER BY col LIMIT N with
// nothing between, or only a filter of integer ranges) first reads the
// sort column (and the ranges' columns) of every image chunk and finds the
// N best rows by a bounded heap (topPrepass), then reads the chunks again
// for exactly those rows: a chunk without one is left out without reading
// its other columns, and a chunk with some hands out only them. The
// caller's top-N gets every row it would have kept, in the same order
// (ties: the first in scan order, as a top-N keeps them). The primary
// key's chunk statistics are no help here (the image is in the store's key
// order, which is not SQL order: Fluss's varint and hashed buckets), but
// the sort column's values are: ORDER BY id LIMIT 10 over 1M rows reads
// the id column and ten rows of the others. Chunks read from the row
// store (merge-on-read) pass whole.

// maxTopHint is the largest N a scan keeps a heap of keys for.
const maxTopHint = 1 << 16

// topKey is one row's sort key: rank places NULLs, key the value as an
// unsigned number in the hint's direction.
type topKey struct {
	rank uint8
	key  uint64
}

func topKeyLess(a, b topKey) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.key < b.key
}

// topFilter holds the N best keys seen so far, the worst on top. Once
// final (topPrepass: the sort column of every image chunk offered), it
// keeps the rows better than thr, the worst of the N, and the first ties
// rows equal to it: exactly the N rows of the image chunks the top-N
// keeps (all of them when full is false: fewer than N rows).
type topFilter struct {
	hint  fluss.TopHint
	h     topKeys
	final bool
	full  bool
	thr   topKey
	ties  int64
	// some says, per image chunk, that the prepass offered it a row the
	// heap took (a chunk without one holds none of the N).
	some []bool
}

type topKeys []topKey

func (h topKeys) Len() int           { return len(h) }
func (h topKeys) Less(i, j int) bool { return topKeyLess(h[j], h[i]) }
func (h topKeys) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topKeys) Push(x any)        { *h = append(*h, x.(topKey)) }
func (h *topKeys) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// newTopFilter returns the filter of hint over a scan of schema, nil when
// the hint does not apply (a column of another type, N out of range).
func newTopFilter(hint *fluss.TopHint, schema *arrow.Schema) *topFilter {
	if hint == nil || hint.N <= 0 || hint.N > maxTopHint || hint.Column < 0 || hint.Column >= schema.NumFields() {
		return nil
	}
	for _, r := range hint.Ranges {
		if r.Column < 0 || r.Column >= schema.NumFields() {
			return nil
		}
		switch schema.Field(r.Column).Type.ID() {
		case arrow.INT16, arrow.INT32, arrow.INT64:
		default:
			return nil
		}
	}
	switch schema.Field(hint.Column).Type.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.TIMESTAMP:
		return &topFilter{hint: *hint}
	}
	return nil
}

// keyAt is row i of a (of a type newTopFilter accepts) as a topKey.
func (f *topFilter) keyAt(a arrow.Array, i int) topKey {
	if a.IsNull(i) {
		if f.hint.NullsFirst {
			return topKey{rank: 0}
		}
		return topKey{rank: 2}
	}
	var v int64
	switch x := a.(type) {
	case *array.Int8:
		v = int64(x.Value(i))
	case *array.Int16:
		v = int64(x.Value(i))
	case *array.Int32:
		v = int64(x.Value(i))
	case *array.Int64:
		v = x.Value(i)
	case *array.Date32:
		v = int64(x.Value(i))
	case *array.Timestamp:
		v = int64(x.Value(i))
	}
	u := uint64(v) ^ 1<<63
	if f.hint.Desc {
		u = ^u
	}
	return topKey{rank: 1, key: u}
}

// offer reports whether the row of key k is among the N best seen so far,
// counting it in.
func (f *topFilter) offer(k topKey) bool {
	if int64(len(f.h)) < f.hint.N {
		heap.Push(&f.h, k)
		return true
	}
	if topKeyLess(k, f.h[0]) {
		f.h[0] = k
		heap.Fix(&f.h, 0)
		return true
	}
	return false
}

// keep offers the rows of a (a chunk of the sort column) and returns those
// among the N best seen so far. Once N are held, a row is first compared
// with the worst of them on its value alone, in a loop over the values
// without a call per row: most rows of a large table stop there.
// Rows outside the hint's ranges (in, when not nil, says which are
// inside) are not offered: the caller's filter drops them.
func (f *topFilter) keep(a arrow.Array, in []bool) []int32 {
	switch x := a.(type) {
	case *array.Int8:
		return keepValues(f, a, x.Int8Values(), in)
	case *array.Int16:
		return keepValues(f, a, x.Int16Values(), in)
	case *array.Int32:
		return keepValues(f, a, x.Int32Values(), in)
	case *array.Int64:
		return keepValues(f, a, x.Int64Values(), in)
	case *array.Date32:
		return keepValues(f, a, x.Date32Values(), in)
	case *array.Timestamp:
		return keepValues(f, a, x.TimestampValues(), in)
	}
	return nil
}

func keepValues[T ~int8 | ~int16 | ~int32 | ~int64](f *topFilter, a arrow.Array, vals []T, in []bool) []int32 {
	var out []int32
	nulls := a.NullN() > 0
	for i, v := range vals {
		if in != nil && !in[i] {
			continue
		}
		if f.final {
			if !f.full {
				out = append(out, int32(i))
				continue
			}
			var k topKey
			if !nulls || a.IsValid(i) {
				k = topKey{rank: 1, key: uint64(int64(v)) ^ 1<<63}
				if f.hint.Desc {
					k.key = ^k.key
				}
			} else {
				k = f.keyAt(a, i)
			}
			if topKeyLess(k, f.thr) || (k == f.thr && f.ties > 0) {
				if k == f.thr {
					f.ties--
				}
				out = append(out, int32(i))
			}
			continue
		}
		if int64(len(f.h)) == f.hint.N && f.h[0].rank == 1 && (!nulls || a.IsValid(i)) {
			// both non-null: only the value decides
			u := uint64(int64(v)) ^ 1<<63
			if f.hint.Desc {
				u = ^u
			}
			if u >= f.h[0].key {
				continue
			}
		}
		if f.offer(f.keyAt(a, i)) {
			out = append(out, int32(i))
		}
	}
	return out
}

// topPrepass offers the sort column of every image chunk left to read
// (not those merged from the row store, nor those the ranges' statistics
// leave out) to s.top and makes it final, so that the chunks are then
// read for exactly their rows among the N: each chunk's other columns are
// read only when it holds one of them.
func (s *imageScan) topPrepass() error {
	f := s.top
	at := s.chunk
	defer func() { s.chunk = at }()
	for k := at; k < s.end; k++ {
		if (s.delta != nil && s.delta.changed[k]) || (len(s.ranges) > 0 && s.img.excludes(k, s.ranges)) {
			continue
		}
		s.chunk = k
		s.cur = make([]arrow.Array, len(s.pos))
		key, err := s.chunkColumn(f.hint.Column)
		if err != nil {
			return err
		}
		s.cur[f.hint.Column] = key
		var in []bool
		if len(f.hint.Ranges) > 0 {
			if in, err = s.inRanges(); err != nil {
				return err
			}
		}
		if f.some == nil {
			f.some = make([]bool, s.end)
		}
		f.some[k] = len(f.keep(key, in)) > 0
		s.finishChunk(false)
		s.releaseCur()
	}
	f.final = true
	if int64(len(f.h)) == f.hint.N {
		f.full, f.thr = true, f.h[0]
		for _, k := range f.h {
			if k == f.thr {
				f.ties++
			}
		}
	}
	return nil
}

// readTopChunk reads the current chunk through s.top: the rows of it that
// may be among the caller's N, all columns, or nil when there are none
// (then only the sort column was read).
func (s *imageScan) readTopChunk(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.top.final {
		if err := s.topPrepass(); err != nil {
			return nil, err
		}
	}
	if s.top.some != nil && !s.top.some[s.chunk] {
		return nil, nil
	}
	col := s.top.hint.Column
	s.cur = make([]arrow.Array, len(s.pos))
	key, err := s.chunkColumn(col)
	if err != nil {
		return nil, err
	}
	s.cur[col] = key
	var in []bool
	if len(s.top.hint.Ranges) > 0 {
		if in, err = s.inRanges(); err != nil {
			return nil, err
		}
	}
	keep := s.top.keep(key, in)
	if len(keep) == 0 {
		return nil, nil
	}
	for i := range s.pos {
		if s.cur[i] == nil {
			if s.cur[i], err = s.chunkColumn(i); err != nil {
				return nil, err
			}
		}
	}
	if len(keep) == key.Len() {
		return array.NewRecordBatch(s.schema, s.cur, int64(len(keep))), nil
	}
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	ib.AppendValues(keep, nil)
	idx := ib.NewArray()
	ib.Release()
	defer idx.Release()
	cols := make([]arrow.Array, len(s.cur))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, a := range s.cur {
		if cols[i], err = compute.TakeArray(ctx, a, idx); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "taking a chunk's top rows: %v", err)
		}
	}
	return array.NewRecordBatch(s.schema, cols, int64(len(keep))), nil
}

// inRanges reads the current chunk's columns of the top hint's ranges
// into s.cur and says which rows lie within all of them (a NULL within
// none).
func (s *imageScan) inRanges() ([]bool, error) {
	rows := int(s.img.man.Chunks[s.chunk].Rows)
	in := make([]bool, rows)
	for i := range in {
		in[i] = true
	}
	for _, r := range s.top.hint.Ranges {
		if r.Column < 0 || r.Column >= len(s.cur) {
			return nil, sqlerr.New(sqlerr.InternalError, "top hint range of column %d of %d", r.Column, len(s.cur))
		}
		if s.cur[r.Column] == nil {
			a, err := s.chunkColumn(r.Column)
			if err != nil {
				return nil, err
			}
			s.cur[r.Column] = a
		}
		switch x := s.cur[r.Column].(type) {
		case *array.Int16:
			within(in, x, x.Int16Values(), r)
		case *array.Int32:
			within(in, x, x.Int32Values(), r)
		case *array.Int64:
			within(in, x, x.Int64Values(), r)
		default:
			return nil, sqlerr.New(sqlerr.InternalError, "top hint range over a %s column", x.DataType())
		}
	}
	return in, nil
}

// within clears in for the rows of a (values vals) outside r or NULL.
func within[T ~int16 | ~int32 | ~int64](in []bool, a arrow.Array, vals []T, r fluss.ColumnRange) {
	nulls := a.NullN() > 0
	for i, v := range vals {
		if in[i] && (int64(v) < r.Lo || int64(v) > r.Hi || (nulls && a.IsNull(i))) {
			in[i] = false
		}
	}
}

// chunkColumn reads output column i of the current chunk, as readChunk
// does.
func (s *imageScan) chunkColumn(i int) (arrow.Array, error) {
	p := s.pos[i]
	a, err := s.img.files.chunk(s.chunk, p)
	if err == nil && a.Len() != int(s.img.man.Chunks[s.chunk].Rows) {
		a.Release()
		err = corrupt("chunk %d has %d rows, its manifest %d", s.chunk, a.Len(), s.img.man.Chunks[s.chunk].Rows)
	}
	if err != nil {
		s.img.bad.Store(true)
		file := filepath.Join(s.img.dir, s.img.man.Columns[p].File)
		s.s.log.Error("a columnar image of a table is damaged; its scans read the row store until it is rebuilt", "table", s.t.info.Path.String(), "file", file, "error", err)
		s.releaseCur()
		return nil, corrupt("columnar image file %s of %s is damaged (chunk %d): %v", file, s.t.info.Path, s.chunk, err)
	}
	return a, nil
}
