package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// lockTables runs LOCK TABLE: only in a transaction block (25P01), each
// table must exist (42P01), and the lock is held to the transaction's end.
// sqlgate's table locks are ddllock.go's two: the intent lock writers take
// (PostgreSQL's ROW EXCLUSIVE) and the whole-table lock of DDL (ACCESS
// EXCLUSIVE). The modes map onto them by what they conflict with:
//   - ACCESS SHARE and ROW SHARE conflict with no writer and sqlgate's
//     reads take no lock, so they take none (pg_dump's LOCK TABLE ... IN
//     ACCESS SHARE MODE; a concurrent DDL statement is not held off, which
//     PostgreSQL's would be);
//   - ROW EXCLUSIVE takes the intent lock;
//   - SHARE UPDATE EXCLUSIVE and stronger take the whole-table lock: it
//     holds off writers, as each of them does, and also other holders of
//     those modes (SHARE holders do not conflict on PostgreSQL).
//
// Any mode is allowed in a read-only transaction, as on PostgreSQL (only
// a hot standby refuses the modes above ROW EXCLUSIVE).
func (s *session) lockTables(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if s.txStatus == 'I' {
		return nil, outsideTransactionBlock("LOCK TABLE")
	}
	weak := d.LockMode == "ACCESS SHARE" || d.LockMode == "ROW SHARE"
	intent := d.LockMode == "ROW EXCLUSIVE"
	tx := s.writeTxn()
	for _, n := range d.Tables {
		info, err := s.resolveTable(ctx, n)
		if err != nil {
			return nil, err
		}
		if weak || s.eng.locks == nil || tx.Locks == nil {
			continue
		}
		s.startLocking(tx)
		req := rowlock.Request{Table: info.TableID, Name: info.Path.Table, Timeout: tx.LockTimeout,
			DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt}
		if d.NoWait {
			req.Wait = rowlock.NoWait
		}
		if intent {
			err = tx.Locks.LockIntent(ctx, req)
		} else {
			err = tx.Locks.LockWhole(ctx, req)
		}
		if sqlerr.CodeOf(err) == sqlerr.LockNotAvailable && d.NoWait {
			err = sqlerr.New(sqlerr.LockNotAvailable, "could not obtain lock on relation \"%s\"", info.Path.Table)
		}
		if err != nil {
			return nil, err
		}
	}
	return tagOnly("LOCK TABLE"), nil
}
