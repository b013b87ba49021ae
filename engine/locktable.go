package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// execLock is LOCK TABLE: each table in turn is locked in the mode asked
// for (ACCESS EXCLUSIVE by default), held until the transaction block
// ends, with PostgreSQL's conflict table (package rowlock); NOWAIT fails
// at once with 55P03 where it would wait. As in PostgreSQL it runs in a
// transaction block only (25P01), and a table replaced while the lock was
// awaited (dropped and created again) is locked as it is now.
func (s *session) execLock(ctx context.Context, l *sql.LockStmt) (pgwire.Result, error) {
	if s.tx == nil && !s.held {
		return nil, sqlerr.New(sqlerr.NoActiveSQLTransaction, "LOCK TABLE can only be used in transaction blocks")
	}
	mode, ok := rowlock.ParseTableMode(l.Mode)
	if !ok {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"%s\"", l.Mode)
	}
	if s.eng.locks == nil {
		return s.lockOnCluster(ctx, l, mode)
	}
	owner := s.lockOwner()
	req := rowlock.Request{TableMode: mode, Timeout: s.lockTimeout.Of(s.setting("lock_timeout")),
		DeadlockTimeout: s.deadlockTimeout.Of(s.setting("deadlock_timeout")), Statement: s.stmtText}
	if l.NoWait {
		req.Wait = rowlock.NoWait
	}
	// PostgreSQL's LockTableAclCheck: ACCESS SHARE needs SELECT (or a
	// write privilege), the stronger modes a write privilege.
	priv := access.Update
	if mode == rowlock.AccessShareLock {
		priv = access.Select
	}
	for _, n := range l.Tables {
		for {
			info, err := s.lockedTable(ctx, n, priv)
			if err != nil {
				return nil, err
			}
			req.Table, req.Name = info.TableID, info.Path.Table
			if err := owner.LockRelation(ctx, req); err != nil {
				return nil, err
			}
			now, err := s.eng.storeTable(ctx, info.Path)
			if err != nil || now.TableID == info.TableID {
				if err != nil {
					return nil, err
				}
				break
			}
		}
	}
	return tagOnly("LOCK TABLE"), nil
}

// lockOnCluster is LOCK TABLE where other servers write the store too (a
// Fluss cluster): no lock held here would hold them off. ACCESS SHARE and
// ROW SHARE, which only keep schema changes away (pg_dump's LOCK TABLE
// ... IN ACCESS SHARE MODE), are taken as checks that the tables exist
// and may be read; the stronger modes, which promise to hold writers off,
// are refused (0A000) after the same checks.
func (s *session) lockOnCluster(ctx context.Context, l *sql.LockStmt, mode rowlock.TableMode) (pgwire.Result, error) {
	for _, n := range l.Tables {
		if _, err := s.lockedTable(ctx, n, access.Select); err != nil {
			return nil, err
		}
	}
	if mode > rowlock.RowShareLock {
		return nil, notOnThisStore("LOCK TABLE ... IN " + l.Mode + " MODE").
			WithDetail("Other servers write this store too, and a lock held in this server would not hold them off.")
	}
	return tagOnly("LOCK TABLE"), nil
}

// lockedTable is the table LOCK TABLE n locks, checked for priv: n's
// table, or for a partition of a PostgreSQL-partitioned table (whose rows
// are its parent's Fluss partition, pgpartitions.go) its parent, with the
// privilege checked on the partition, as PostgreSQL checks it.
func (s *session) lockedTable(ctx context.Context, n sql.ObjectName, priv access.Privilege) (fluss.TableInfo, error) {
	v, isPart, err := s.partitionNamed(ctx, n)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	if isPart {
		if err := s.need(v.ACLKey(), v.Path, priv); err != nil {
			return fluss.TableInfo{}, err
		}
		path, ok := s.partitionParent(ctx, v)
		if !ok {
			return fluss.TableInfo{}, sqlerr.UndefinedRelation(v.Path.Table)
		}
		return s.eng.storeTable(ctx, path)
	}
	info, err := s.resolveTable(ctx, n)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	return info, s.need(info.TableID, info.Path, priv)
}
