package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Table locks, as PostgreSQL takes them (package rowlock's modes): every
// statement that changes a table's schema or replaces or drops the table
// (ALTER TABLE's actions, in place or by rewrite, RENAME, identity
// columns, TRUNCATE, DROP TABLE, DROP SCHEMA ... CASCADE) locks it whole
// before it reads the table's version (lockDDLTable: ACCESS EXCLUSIVE),
// waiting for the transactions that read or write the table, and holds
// the lock until its own transaction ends. Every other statement locks the
// tables it names before it runs (lockStatement: ROW EXCLUSIVE on those it
// writes, its data-modifying WITH queries' too, ROW SHARE on the one its
// FOR UPDATE locks, ACCESS SHARE on those it reads) and then checks that
// the catalog did not change since it was bound, binding it again if it
// did: a statement that waited for the DDL reads or writes the table as
// the DDL left it. A statement being bound waits for the DDL holding or
// awaiting its tables first (awaitStatement), so that a SELECT * that
// waited for ADD COLUMN describes the new column. LOCK TABLE takes any
// mode (locktable.go).
//
// The locks last until the statement's transaction ends: a block's, an
// implicit one's (a write's, a pipeline's up to Sync), or, for a read
// outside any, until its result has been read (queryResult.Close): a
// lock per table per statement, taken and released under the lock
// manager's mutex, never per row.
//
// Without them, ALTER TABLE ... ADD COLUMN changed the schema under a
// transaction's pending rows (its COMMIT failed: the batch lacked the new
// column, or a panic turned into XX000), DROP TABLE or TRUNCATE of a log
// table replaced the table under them, and a read streaming its result
// while ALTER TABLE rewrote or dropped the table failed (40001, 0A000). The
// wait honours lock_timeout (55P03), statement_timeout and cancel, and a
// cycle of waits through row, advisory and table locks is a deadlock
// (40P01), since they are one lock manager's.
//
// A store without row locks (a Fluss cluster: other servers write it)
// has none of this.

// lockDDLTable locks the table at path whole for the statement's
// transaction and returns it as it is once locked: another statement may
// have replaced it (a rewrite, a TRUNCATE of a log table, DROP and
// CREATE) while this one waited, and its new table is locked then.
func (s *session) lockDDLTable(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	for {
		info, err := s.eng.storeTable(ctx, path)
		if err != nil || s.eng.locks == nil {
			return info, err
		}
		if err := s.lockForBuild(ctx, info); err != nil { // uniqueddl.go
			return info, err
		}
		now, err := s.eng.storeTable(ctx, path)
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

// tableLock is a table lock a statement takes before it runs.
type tableLock struct {
	id   int64
	name string
	mode rowlock.TableMode
}

// tableLocks lists the table locks ps takes before it runs, as
// PostgreSQL's parse analysis takes them: ROW EXCLUSIVE on the tables it
// writes (its data-modifying WITH queries' too), ROW SHARE on the one its
// FOR UPDATE / FOR SHARE locks, ACCESS SHARE on the other stored tables
// it reads (through views too). A table is listed once, in the strongest
// of its modes.
func (ps *statement) tableLocks(out []tableLock) []tableLock {
	add := func(id int64, name string, mode rowlock.TableMode) {
		for i := range out {
			if out[i].id == id {
				out[i].mode = max(out[i].mode, mode)
				return
			}
		}
		out = append(out, tableLock{id: id, name: name, mode: mode})
	}
	reads := func(ps *statement) {
		for _, r := range ps.reads {
			if !r.view {
				add(r.id, r.path.Table, rowlock.AccessShareLock)
			}
		}
	}
	if info, ok := writtenTableInfo(ps.bound); ok {
		add(info.TableID, info.Path.Table, rowlock.RowExclusiveLock)
	}
	if ps.locked != nil {
		add(ps.locked.TableID, ps.locked.Path.Table, rowlock.RowShareLock)
	}
	if ps.with != nil {
		for _, p := range ps.with.parts {
			add(p.target.TableID, p.target.Path.Table, rowlock.RowExclusiveLock)
			reads(p.ps)
		}
	}
	reads(ps)
	return out
}

// lockOwner is the session's lock owner (its transactions' and its
// statements' outside one), made at its first lock.
func (s *session) lockOwner() *rowlock.Txn {
	if s.rowLocks == nil {
		s.rowLocks = s.eng.locks.NewTxn(int32(s.info.ProcessID))
	}
	return s.rowLocks
}

// locksOutlastStatement reports whether the session's locks last beyond
// the running statement: in a transaction block, or in an implicit
// transaction (a write's, or a pipeline's or Query string's held one).
func (s *session) locksOutlastStatement() bool {
	return s.tx != nil || s.implicit != nil || s.held
}

// lockStatement takes ps's table locks (tableLocks) before it runs, then
// binds it again if the catalog changed since it was bound (a DDL
// statement that held a table ran meanwhile), until the tables it is bound
// to are the ones it holds: a reader or writer that waited for ALTER TABLE
// reads or writes the table as the ALTER left it, and DDL waits for the
// readers and writers holding the table. The locks last until the
// statement's transaction ends: outside a transaction block, until its
// result is read (execBound, releaseStatementLocks). A write in a
// read-only transaction takes only its read locks (the write refuses
// itself: write.go).
func (s *session) lockStatement(ctx context.Context, ps *statement) error {
	if s.eng.locks == nil || ps.bound == nil {
		return nil
	}
	for {
		var buf [4]tableLock
		locks := ps.tableLocks(buf[:0])
		if len(locks) == 0 {
			return nil
		}
		owner := s.lockOwner()
		req := rowlock.Request{Timeout: s.lockTimeout.Of(s.setting("lock_timeout")),
			DeadlockTimeout: s.deadlockTimeout.Of(s.setting("deadlock_timeout")), Statement: s.stmtText}
		var wtx *txn
		for _, l := range locks {
			if l.mode > rowlock.AccessShareLock {
				if wtx == nil {
					wtx = s.writeTxn()
					s.startLocking(wtx)
				}
				if wtx.readOnly {
					continue
				}
			}
			req.Table, req.Name, req.TableMode = l.id, l.name, l.mode
			if err := owner.LockRelation(ctx, req); err != nil {
				return err
			}
		}
		if ps.catalog == s.eng.catalog.Load() && ps.searchPath == s.setting("search_path") {
			return nil
		}
		if err := ps.replan(ctx); err != nil {
			return err
		}
	}
}

// awaitStatement waits, as a statement is bound, for the DDL statements
// that hold or await the tables it was bound to (rowlock's AwaitRelation:
// it keeps no lock it did not hold; lockStatement takes them when it
// runs), and reports whether the catalog changed meanwhile: it is bound
// again then, to the tables as the DDL left them, as PostgreSQL's parse
// analysis locks a table before it reads its columns (a SELECT * that
// waited for ADD COLUMN describes the new column).
func (s *session) awaitStatement(ctx context.Context, ps *statement) (bool, error) {
	if s.eng.locks == nil || ps.bound == nil {
		return false, nil
	}
	var buf [4]tableLock
	locks := ps.tableLocks(buf[:0])
	if len(locks) == 0 {
		return false, nil
	}
	owner := s.lockOwner()
	req := rowlock.Request{Timeout: s.lockTimeout.Of(s.setting("lock_timeout")),
		DeadlockTimeout: s.deadlockTimeout.Of(s.setting("deadlock_timeout")), Statement: s.stmtText}
	for _, l := range locks {
		req.Table, req.Name, req.TableMode = l.id, l.name, l.mode
		if err := owner.AwaitRelation(ctx, req); err != nil {
			return false, err
		}
	}
	return ps.catalog != s.eng.catalog.Load(), nil
}

// releaseStatementLocks ends the locks a statement took outside any
// transaction (its reads' ACCESS SHARE, its transaction-level advisory
// locks) once it is done: its result read, or its error raised.
func (s *session) releaseStatementLocks() {
	if s.rowLocks != nil && !s.locksOutlastStatement() {
		s.rowLocks.Release(false)
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
// statement's transaction, as lockStatement does for a bound write (COPY
// FROM: its table is read at its start), and returns the table as it is
// once locked.
func (s *session) lockWrittenPath(ctx context.Context, path fluss.TablePath) (fluss.TableInfo, error) {
	for {
		info, err := s.eng.storeTable(ctx, path)
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
		now, err := s.eng.storeTable(ctx, path)
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
