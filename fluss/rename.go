package fluss

import "context"

// TableRenamer is implemented by stores that can rename a table in place
// (ALTER TABLE t RENAME TO u): the table keeps its id, rows, log offsets
// and properties, and only its name in its database changes, atomically.
// The embedded store does (its catalog is sqlgate's own); a Fluss 0.9.1
// cluster cannot (its Admin API has no rename, nor has Fluss 1.0's: the
// pull request adding Admin#renameTable, apache/fluss#2106, is not in a
// release), so fluss/remote does not implement it and the engine refuses
// the statement there.
type TableRenamer interface {
	// RenameTable renames the table at from to to (same database): 42P01
	// when from does not exist, 42P07 when to does.
	RenameTable(ctx context.Context, from, to TablePath) (TableInfo, error)
}
