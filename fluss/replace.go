package fluss

import "context"

// TableReplacer is implemented by stores that can fill a table before it
// takes another's place: ALTER TABLE's rewrite (a column's new type, a
// dropped or renamed column), which PostgreSQL does by writing a new
// relation file and swapping it in at commit. StageReplacement makes an
// empty table with the descriptor given and a new id, reached by no name
// (its handle, Table, writes and reads it); Replace makes it the table
// at the path in one catalog change (a crash leaves the old table or the
// new one, never neither, never part of the rows), and removes the old
// table's files; Discard, or a crash before Replace, leaves nothing of
// it. Replace fails with 40001 when rows were written to the old table
// since StageReplacement (the copy would miss them): the caller copies
// again. The embedded store implements it; a Fluss 0.9.1 cluster has no
// rename and no atomic change of two tables, so it does not.
type TableReplacer interface {
	StageReplacement(ctx context.Context, path TablePath, desc TableDescriptor) (StagedReplacement, error)
}

// StagedReplacement is a table being filled to replace another
// (TableReplacer).
type StagedReplacement interface {
	// Table is the staged table's handle.
	Table() Table
	// Replace swaps the staged table in and returns its info. props are
	// custom properties set on the new table in the same catalog change
	// (nil: none): the caller's record of what it has left to do after
	// the swap (RewritePendingProperty), durable exactly when the swap is.
	// An error with a non-zero TableID is the store's work after the
	// swap failing: the table is replaced all the same. Past the swap
	// ctx's end stops nothing (the replacement is all or nothing).
	Replace(ctx context.Context, props map[string]string) (TableInfo, error)
	// Discard removes the staged table; after Replace it does nothing.
	Discard(ctx context.Context) error
}

// RewrittenFromProperty names, on a table ALTER TABLE rewrote, the id of
// the table it replaced (and, after a comma, the ids that table was
// rewritten from, newest first: at most RewrittenFromDepth): a transaction that wrote the old table fails its
// COMMIT with 40001 (engine/txnstore) rather than the 55000 of a table
// dropped and created again.
const RewrittenFromProperty = ReservedPropertyPrefix + "rewritten_from"

// RewrittenFromDepth bounds the ids RewrittenFromProperty lists.
const RewrittenFromDepth = 16

// RewritePendingProperty holds, on a table ALTER TABLE rewrote, what the
// rewrite had still to do in other objects after the swap (other tables'
// foreign keys, owned sequences, views, the old index tables: engine's
// rewritefollow.go), set in the swap's own catalog change and reset once
// done: a crash in between leaves it for the server's next start to finish.
const RewritePendingProperty = ReservedPropertyPrefix + "rewrite_pending"
