package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Table locks of DDL and writers: one rule for every statement that
// changes a table's schema or replaces or drops the table (ALTER TABLE's
// actions, in place or by rewrite, RENAME, identity columns, TRUNCATE,
// DROP TABLE, DROP SCHEMA ... CASCADE): before it reads the table's version it locks the table
// whole (lockDDLTable: rowlock's LockWhole, PostgreSQL's ACCESS
// EXCLUSIVE), waiting for the transactions that write the table, and
// holds the lock until its own transaction ends. A write statement takes
// the table's intent lock (PostgreSQL's ROW EXCLUSIVE) before it runs,
// and then checks that the catalog did not change since it was bound,
// binding it again if it did (lockWritten): a writer that waited for the
// DDL writes the table as the DDL left it.
//
// Without it, ALTER TABLE ... ADD COLUMN changed the schema under a
// transaction's pending rows (its COMMIT failed: the batch lacked the new
// column, or a panic turned into XX000), and DROP TABLE or TRUNCATE of a
// log table replaced the table under them. The wait honours lock_timeout
// (55P03), statement_timeout and cancel, and a cycle of waits through
// row, advisory and table locks is a deadlock (40P01), since they are one
// lock manager's. Reads take no table lock: they read the committed rows
// of the table as it was when they were bound (PostgreSQL's readers would
// wait for the ACCESS EXCLUSIVE lock).
//
// A store without row locks (a Fluss cluster: other servers write it)
// has none of this.

// lockDDLTable locks the table at path whole for the statement's
// transaction and returns it as it is once locked: another statement may
// have replaced it (a rewrite, a TRUNCATE of a log table, DROP and
// CREATE) while this one waited, and its new table is locked then.
func (s *session) lockDDLTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	for {
		info, err := s.eng.store.GetTable(ctx, path)
		if err != nil || s.eng.locks == nil {
			return info, err
		}
		if err := s.lockForBuild(ctx, info); err != nil { // uniqueddl.go
			return info, err
		}
		now, err := s.eng.store.GetTable(ctx, path)
		if err != nil || now.TableID == info.TableID {
			return now, err
		}
	}
}

// writtenTableInfo is the table a bound INSERT, UPDATE, DELETE or MERGE
// writes, as it was bound.
func writtenTableInfo(b binder.Statement) (fluss.TableInfo, bool) {
	switch w := b.(type) {
	case *binder.Insert:
		return w.Table, true
	case *binder.Update:
		return w.Table, true
	case *binder.Delete:
		return w.Table, true
	case *binder.Merge:
		return w.Table, true
	}
	return fluss.TableInfo{}, false
}

// lockWritten takes, for a write statement, the intent lock of the table
// it writes, then binds it again if the catalog changed since it was
// bound (a DDL statement that held the table ran meanwhile), until the
// table it is bound to is the one it holds. Any other statement is left
// to execBound's own check.
func (s *session) lockWritten(ctx context.Context, ps *statement) error {
	if s.eng.locks == nil {
		return nil
	}
	for {
		info, ok := writtenTableInfo(ps.bound)
		if !ok {
			return nil
		}
		tx := s.writeTxn()
		if tx.readOnly || tx.Locks == nil {
			return nil // (the write refuses itself: write.go)
		}
		s.startLocking(tx)
		if err := tx.Locks.LockIntent(ctx, rowlock.Request{Table: info.TableID, Name: info.Path.Table,
			Timeout: tx.LockTimeout, DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt}); err != nil {
			return err
		}
		if ps.catalog == s.eng.catalog.Load() && ps.searchPath == s.setting("search_path") {
			return nil
		}
		if err := ps.replan(ctx); err != nil {
			return err
		}
		if now, _ := writtenTableInfo(ps.bound); now.TableID == info.TableID {
			return nil
		}
	}
}

// locksTable reports whether an ALTER TABLE of actions locks its table
// whole: all do but those whose PostgreSQL lock (SHARE UPDATE EXCLUSIVE)
// lets writers go on, and which change nothing a write reads.
func locksTable(actions []sql.AlterAction) bool {
	for _, a := range actions {
		switch a.Kind {
		case sql.AlterValidateConstraint, sql.AlterSetStatistics, sql.AlterClusterOn, sql.AlterSetWithoutCluster:
		default:
			return true
		}
	}
	return false
}

// lockWrittenPath takes the intent lock of the table at path for the
// statement's transaction, as lockWritten does for a bound write (COPY
// FROM: its table is read at its start), and returns the table as it is
// once locked.
func (s *session) lockWrittenPath(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	for {
		info, err := s.eng.store.GetTable(ctx, path)
		if err != nil || s.eng.locks == nil {
			return info, err
		}
		tx := s.writeTxn()
		if tx.readOnly || tx.Locks == nil {
			return info, nil
		}
		s.startLocking(tx)
		if err := tx.Locks.LockIntent(ctx, rowlock.Request{Table: info.TableID, Name: info.Path.Table,
			Timeout: tx.LockTimeout, DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt}); err != nil {
			return info, err
		}
		now, err := s.eng.store.GetTable(ctx, path)
		if err != nil || now.TableID == info.TableID {
			return now, err
		}
	}
}

// copyColumnsNow points COPY FROM's columns, found when it was prepared,
// at the table as it is now: a DDL statement it waited for may have
// moved them (DROP COLUMN of an earlier one). Columns whose names or
// types changed fail it, as a prepared statement's result columns do.
func (ps *statement) copyColumnsNow(info fluss.TableInfo) error {
	cols, err := copyColumns(info, ps.parsed.Copy.Columns) // copy.go
	if err != nil {
		return err
	}
	if !sameColumns(cols, ps.cols) {
		return cachedPlanChanged()
	}
	ps.cols = cols
	return nil
}

// lockSchemaTables locks whole the tables of the schemas DROP SCHEMA ...
// CASCADE drops, before the server-wide DDL lock: it waits for their
// writers as DROP TABLE does. A schema that does not exist has none.
func (s *session) lockSchemaTables(ctx context.Context, dbs []string) error {
	if s.eng.locks == nil {
		return nil
	}
	for _, db := range dbs {
		tables, err := s.eng.store.ListTables(ctx, db)
		if err != nil {
			continue // (the statement reports it)
		}
		for _, t := range tables {
			if _, err := s.lockDDLTable(ctx, t.Path); err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
				return err
			}
		}
	}
	return nil
}
