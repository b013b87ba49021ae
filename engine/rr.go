package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// REPEATABLE READ, as PostgreSQL 15 runs it: the transaction takes one
// snapshot of the store at its first statement (not at BEGIN) and every
// read of the transaction sees that snapshot with its own writes laid over
// it (txnTables, txnstore.Table's base). A write to a row that a commit changed
// after the snapshot cannot re-read the row as READ COMMITTED does
// (recheckSource): it fails with 40001. The lock manager's stamps say
// which rows may have changed since the snapshot's commit sequence
// (txn.snapSeq, read before the snapshot, so no commit the snapshot misses
// is stamped at or below it); since a stamp slot is shared by many keys,
// the change is confirmed by comparing the row in the snapshot with the
// newest committed row (fluss.Snapshot.RowChanged) before failing. A row
// locked by a concurrent transaction is waited for first: if that
// transaction committed a change, 40001; if it rolled back, the row is
// unchanged and the write proceeds.

// canRepeatableRead: the store holds snapshots and this server's row locks
// order all its writers, so that a change since the snapshot is seen.
func (s *session) canRepeatableRead() bool {
	_, ok := s.eng.store.(fluss.Snapshotter)
	return ok && s.eng.locks != nil
}

// isolationChangeable refuses to change the open block's isolation level
// after its first query, as PostgreSQL does (25001); setting the same
// level again is allowed.
func (s *session) isolationChangeable(level string) error {
	if s.tx == nil || !s.tx.queried || s.settings["transaction_isolation"] == level {
		return nil
	}
	return sqlerr.New(sqlerr.ActiveSQLTransaction, "SET TRANSACTION ISOLATION LEVEL must be called before any query")
}

// firstQuery marks the open block as queried and, at REPEATABLE READ,
// takes its snapshot: it runs before each statement other than SET, SHOW
// and the transaction statements (which take no snapshot in PostgreSQL).
func (s *session) firstQuery(ctx context.Context) error {
	tx := s.tx
	if tx == nil || tx.queried {
		return nil
	}
	tx.queried = true
	if s.settings["transaction_isolation"] != "repeatable read" {
		return nil
	}
	sn, ok := s.eng.store.(fluss.Snapshotter)
	if !ok || s.eng.locks == nil {
		_, err := s.isolationLevel("repeatable read")
		return err
	}
	// The sequence first: a commit that lands between the two is in the
	// snapshot yet stamped later, which RowChanged then finds unchanged.
	seq := s.eng.locks.Seq()
	snap, err := sn.Snapshot(ctx)
	if err != nil {
		return err
	}
	tx.Snap, tx.SnapSeq = snap, seq
	return nil
}
