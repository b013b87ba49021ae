package txnstore

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TRUNCATE inside a transaction, as PostgreSQL's: the table reads empty to
// the transaction from the TRUNCATE on (plus what the transaction writes
// after it), other transactions keep reading the committed rows until
// COMMIT, ROLLBACK (or ROLLBACK TO a savepoint made before it) forgets it,
// and COMMIT empties the table with the transaction's other writes.
//
// The overlay does it by reading an empty table in place of the store's
// (Table.base): every read path (Scan, Lookup, ScanPrefix, ON CONFLICT's
// existence check) then merges the pending rows over nothing. At COMMIT a
// primary-key table's keys, as they are then, are deleted first in the
// same atomic group as its pending rows; a log table, which Fluss cannot
// delete from, is replaced by an empty one first (Txn.Recreate), then
// takes the pending rows. The caller holds the table locked whole
// (ACCESS EXCLUSIVE), so no other transaction writes a row of it between.

// Truncate empties the table as the transaction sees it: its pending
// writes are dropped (a staged one discarded) and the store's rows hidden
// until COMMIT, which deletes them. A transaction that staged another
// table's writes on disk cannot truncate (spill.go: it writes that table
// alone).
func (pt *Table) Truncate() error {
	if err := pt.tx.checkWrite(pt); err != nil {
		return err
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.bulk != nil {
		pt.bulk.Discard()
		pt.bulk = nil
		if pt.tx.spilled == pt {
			pt.tx.spilled = nil
		}
	}
	// The dropped records stay in tx.all (a savepoint may bring them
	// back) and are released with the transaction.
	pt.rows, pt.recs, pt.lazy, pt.appended = map[string]slot{}, nil, nil, nil
	pt.truncated = true
	pt.base = emptyTable{info: pt.info, schema: pt.schema}
	return nil
}

// Truncated reports whether the transaction truncated the table.
func (pt *Table) Truncated() bool {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.truncated
}

// truncateWrites is what COMMIT writes before a truncated primary-key
// table's pending rows: the deletion of every key the store holds now.
func (pt *Table) truncateWrites(ctx context.Context) ([]fluss.TableWrite, error) {
	proj := append([]int(nil), pt.keyIdx...)
	r, err := pt.newest.Scan(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var ws []fluss.TableWrite
	for {
		b, err := r.Next(ctx)
		if err != nil {
			releaseWrites(ws)
			return nil, err
		}
		if b == nil {
			return ws, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		ws = append(ws, fluss.TableWrite{Path: pt.info.Path, TableID: pt.info.TableID, Kind: fluss.WriteDelete, Rec: b})
	}
}

// recreateTruncated replaces each truncated log table by an empty one
// (Txn.Recreate) and points its pending rows at it, before COMMIT writes
// them. Fluss cannot delete a log table's rows, and the new table is a
// catalog change: it is not part of the atomic group, so a failure of the
// group after it leaves the table empty.
func (tx *Txn) recreateTruncated(ctx context.Context) error {
	for _, pt := range tx.order {
		if pt.info.HasPrimaryKey() || !pt.Truncated() || pt.deleteRows() {
			continue
		}
		if tx.Recreate == nil {
			return sqlerr.New(sqlerr.FeatureNotSupported, "TRUNCATE of log table \"%s\" inside a transaction is not supported here", pt.info.Path.Table)
		}
		t, err := tx.Recreate(ctx, pt.info)
		if err != nil {
			return err
		}
		pt.Rebase(t.Info(), t)
		pt.mu.Lock()
		pt.truncated = false // done: the new table is empty
		pt.mu.Unlock()
	}
	return nil
}

// OnRollback registers undo to run if the transaction does not commit, or
// is rolled back to a savepoint made before now: what PostgreSQL's
// rollback undoes that lives outside the overlay (TRUNCATE ... RESTART
// IDENTITY's sequence restarts). The undos run newest first.
func (tx *Txn) OnRollback(undo func()) {
	tx.undo = append(tx.undo, undo)
}

// AtEnd registers fn to run when the transaction ends, committed or not
// (a temporary table's ON COMMIT DROP).
func (tx *Txn) AtEnd(fn func()) {
	tx.atEnd = append(tx.atEnd, fn)
}

// AtCommit registers fn to run when the transaction commits, after its
// writes are durable and before its locks are released (a DROP TABLE in a
// block drops the table then, under its ACCESS EXCLUSIVE lock, so that a
// transaction waiting for the table finds it gone). fn decides itself
// whether a rollback to a savepoint undid what it commits (OnRollback).
// The first error ends the commit with it; the writes stay committed.
func (tx *Txn) AtCommit(fn func(context.Context) error) {
	tx.atCommit = append(tx.atCommit, fn)
}

// runAtCommit runs the AtCommit functions in the order registered.
func (tx *Txn) runAtCommit(ctx context.Context) error {
	for _, fn := range tx.atCommit {
		if err := fn(ctx); err != nil {
			return err
		}
	}
	return nil
}

// DeleteRowsProperty marks a table (a custom property of its descriptor)
// created ON COMMIT DELETE ROWS: every commit deletes its rows, so it is
// always empty outside the transaction writing it, and COMMIT writes
// nothing of it.
const DeleteRowsProperty = "sqlgate.on-commit-delete-rows"

// deleteRows reports whether pt's rows go at every commit.
func (pt *Table) deleteRows() bool {
	return pt.info.Descriptor.CustomProperties[DeleteRowsProperty] != ""
}

// runUndo runs, newest first, and forgets the undos registered after the
// first n.
func (tx *Txn) runUndo(n int) {
	for i := len(tx.undo) - 1; i >= n; i-- {
		tx.undo[i]()
		tx.undo[i] = nil
	}
	tx.undo = tx.undo[:n]
}

// emptyTable is what a truncated table's pending view reads in place of
// the store's table: no rows.
type emptyTable struct {
	info   fluss.TableInfo
	schema *arrow.Schema
}

func (e emptyTable) Info() fluss.TableInfo { return e.info }

func (e emptyTable) Append(context.Context, arrow.RecordBatch) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, e.notWritable()
}

func (e emptyTable) Upsert(context.Context, arrow.RecordBatch, fluss.UpsertOptions) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, e.notWritable()
}

func (e emptyTable) Delete(context.Context, arrow.RecordBatch) (fluss.WriteResult, error) {
	return fluss.WriteResult{}, e.notWritable()
}

// notWritable: the overlay writes its pending rows, never its base.
func (e emptyTable) notWritable() error {
	return sqlerr.New(sqlerr.InternalError, "write to the truncated view of table %q", e.info.Path.Table)
}

func (e emptyTable) Lookup(_ context.Context, _ arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	return e.none(projection), nil
}

func (e emptyTable) Scan(_ context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return emptyReader{projectSchema(e.schema, opts.Projection)}, nil
}

func (e emptyTable) ScanPrefix(_ context.Context, _ arrow.RecordBatch, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return emptyReader{projectSchema(e.schema, opts.Projection)}, nil
}

// none is a record of no rows with the projection's columns.
func (e emptyTable) none(projection []int) arrow.RecordBatch {
	s := projectSchema(e.schema, projection)
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	return b.NewRecordBatch()
}

type emptyReader struct{ s *arrow.Schema }

func (r emptyReader) Schema() *arrow.Schema                           { return r.s }
func (r emptyReader) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (r emptyReader) Close()                                          {}

var (
	_ fluss.Table         = emptyTable{}
	_ fluss.PrefixScanner = emptyTable{}
)
