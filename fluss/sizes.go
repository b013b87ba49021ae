package fluss

import "context"

// TableSizer is implemented by stores that can say how many bytes a
// table takes on disk (pg_relation_size and its kin). A store that cannot
// (a Fluss cluster, whose table info carries no size) lacks it, and the
// sizes read 0.
type TableSizer interface {
	// TableSize is what the table at path takes now, its partitions'
	// included; ok is false when there is no such table.
	TableSize(ctx context.Context, path TablePath) (size TableSize, ok bool, err error)
	// StoreSize is what the whole store takes on disk: every table,
	// the key-value state, the commit log and the catalog files.
	StoreSize(ctx context.Context) (int64, error)
}

// TableSize is a table's bytes on disk, split as PostgreSQL splits a
// relation's: Data the rows' own files (its bucket logs: the table's
// main fork), Key the primary-key state's share of the key-value store
// (its primary-key index; 0 for a log table).
type TableSize struct {
	Data, Key int64
}
