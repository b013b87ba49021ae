package txnstore

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Transactions larger than memory.
//
// A transaction holds its writes in memory (table.go) until they pass
// Txn.spillAt bytes. Then, when everything it holds is plain writes to one
// table (appends to a log table, or full-row upserts without ON CONFLICT to
// a primary-key table) that it has not read (an INSERT ... SELECT from the
// same table, an UPDATE, an ON CONFLICT read it while they write) and it
// has no savepoint, the table's pending writes
// are handed to the store's bulk writer (fluss.BulkUpserter or
// fluss.BulkAppender, the path of a COPY outside a block), which stages
// them on disk in bounded memory and commits them as one atomic write at
// COMMIT; later plain writes to the table go straight to it. A COPY, an
// INSERT ... SELECT or a block of INSERTs of any size thus commits whole or
// not at all, invisible to others until COMMIT, and a ROLLBACK, a failed
// statement outside a block or a crash leaves nothing (the store removes
// its staging; Txn.Release discards it).
//
// Once a table is staged its pending rows are no longer in memory here, so
// what would read them or need them undone fails with 0A000, naming the
// limit: reading the table in the same transaction (a scan, a lookup, an
// ON CONFLICT, an UPDATE or DELETE of it), writing a second table, and
// SAVEPOINT. Row locks are unchanged: every write locks its keys before it
// is staged, and the locks last until COMMIT or ROLLBACK.

// defaultSpillBytes is SpillLimit(0).
const defaultSpillBytes = 64 << 20

// SpillLimit returns the spill threshold New takes for an option's value
// (the engine's Options.TransactionSpillBytes): 0 is the default, below 0
// never.
func SpillLimit(opt int64) int64 {
	switch {
	case opt < 0:
		return 0
	case opt == 0:
		return defaultSpillBytes
	}
	return opt
}

// staged is the error of an operation a staged table cannot serve.
func (pt *Table) staged(what string) error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "%s table \"%s\" after this transaction staged more than %d bytes of writes to it on disk is not supported", what, pt.info.Path.Table, pt.tx.spillAt).
		WithHint("Commit the large write first, or read and change the table before writing that much to it in the transaction.")
}

// checkWrite refuses a write to another table than the one the
// transaction staged.
func (tx *Txn) checkWrite(pt *Table) error {
	if tx.spilled != nil && tx.spilled != pt {
		return sqlerr.New(sqlerr.FeatureNotSupported, "writing table \"%s\" after this transaction staged more than %d bytes of writes to table \"%s\" on disk is not supported", pt.info.Path.Table, tx.spillAt, tx.spilled.info.Path.Table).
			WithHint("Commit the large write first, in a transaction of its own.")
	}
	return nil
}

// addStaged hands a validated record (owned by the caller) to the table's
// bulk writer.
func (pt *Table) addStaged(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if err := pt.bulk.Add(ctx, rec); err != nil {
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: rec.NumRows()}, nil
}

// maybeSpill stages pt's pending writes on disk once the transaction holds
// more than spillAt bytes and may (see above).
func (tx *Txn) maybeSpill(ctx context.Context, pt *Table) error {
	if tx.spillAt <= 0 || tx.bytes <= tx.spillAt || tx.spilled != nil || len(tx.savepoints) > 0 {
		return nil
	}
	if tx.otherWrites(pt) != nil {
		return nil
	}
	pt.mu.Lock()
	plain := !pt.read && !pt.truncated && !pt.deleteRows()
	for _, pr := range pt.recs {
		plain = plain && !pr.del && !pr.ignoreExisting
	}
	pt.mu.Unlock()
	if !plain {
		return nil
	}
	var bulk fluss.BulkUpsert
	var err error
	if pt.info.HasPrimaryKey() {
		bu, ok := pt.newest.(fluss.BulkUpserter)
		if !ok {
			return nil
		}
		bulk, err = bu.BeginUpsert(ctx)
	} else {
		ba, ok := pt.newest.(fluss.BulkAppender)
		if !ok {
			return nil
		}
		bulk, err = ba.BeginAppend(ctx)
	}
	if err != nil {
		return err
	}
	ws, err := pt.writes(nil)
	if err != nil {
		bulk.Discard()
		return err
	}
	defer releaseWrites(ws)
	for _, w := range ws {
		if err := bulk.Add(ctx, w.Rec); err != nil {
			bulk.Discard()
			return err
		}
	}
	// The rows are the bulk writer's now: forget them here.
	pt.mu.Lock()
	mine := map[arrow.RecordBatch]bool{}
	for _, pr := range pt.recs {
		mine[pr.rec] = true
	}
	for _, r := range pt.appended {
		mine[r] = true
	}
	pt.rows, pt.recs, pt.lazy, pt.appended = map[string]slot{}, nil, nil, nil
	pt.bulk = bulk
	pt.mu.Unlock()
	kept := tx.all[:0]
	for _, r := range tx.all {
		if mine[r] {
			tx.bytes -= RecordBytes(r)
			r.Release()
		} else {
			kept = append(kept, r)
		}
	}
	clear(tx.all[len(kept):])
	tx.all = kept
	tx.spilled = pt
	return nil
}

// RecordBytes is what a transaction counts for r against its limit (and
// maybeSpill gives back): the bytes of its columns' buffers.
func RecordBytes(r arrow.RecordBatch) int64 {
	var n int64
	for _, c := range r.Columns() {
		n += int64(c.Data().SizeInBytes())
	}
	return n
}

// commitStaged commits a transaction whose writes were staged: they are
// all in the staged table's bulk writer (checkWrite kept the others out).
func (tx *Txn) commitStaged(ctx context.Context) error {
	pt := tx.spilled
	if other := tx.otherWrites(pt); other != nil {
		return tx.checkWrite(other)
	}
	_, err := pt.bulk.Commit(ctx)
	return err
}

// otherWrites returns a table other than pt the transaction wrote, if any.
func (tx *Txn) otherWrites(pt *Table) *Table {
	for _, other := range tx.order {
		if other != pt && other.HasWrites() {
			return other
		}
	}
	return nil
}

// discardStaged forgets the staged writes, if any (a rollback, or after a
// commit, when it does nothing).
func (tx *Txn) discardStaged() {
	if tx.spilled != nil {
		tx.spilled.bulk.Discard()
		tx.spilled.bulk = nil
		tx.spilled = nil
	}
}
