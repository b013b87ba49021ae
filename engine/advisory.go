package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Advisory locks and the notices functions raise (functions.Session's
// Advisory and Warn).
//
// A session's advisory locks live in the server's lock manager beside its
// row locks: those held for the transaction (pg_advisory_xact_lock) by the
// session's row-lock owner, so that they end with the transaction's row
// locks (COMMIT, ROLLBACK, an error's abort of a block; inside a
// savepoint the error gives back those taken since it, abortLocks), and the
// session-level ones (pg_advisory_lock) by a second owner of the session
// that no transaction's end releases. A statement outside a transaction
// block is its own transaction: its advisory locks end when its rows have
// been sent (EndStatementTransaction) or, in a pipeline, at Sync
// (EndImplicit).

// advisoryLocks implements functions.AdvisoryLocks for a session.
type advisoryLocks struct {
	s *session
	// owner holds the session-level locks (nil until the first).
	owner *rowlock.Txn
}

// txnOwner is the session's row-lock owner, which holds its
// transaction-level advisory locks.
func (a *advisoryLocks) txnOwner() *rowlock.Txn {
	s := a.s
	if s.rowLocks == nil {
		s.rowLocks = s.eng.locks.NewTxn(int32(s.info.ProcessID))
	}
	return s.rowLocks
}

func (a *advisoryLocks) sessionOwner() *rowlock.Txn {
	if a.owner == nil {
		a.owner = a.s.eng.locks.NewSessionTxn(a.txnOwner())
	}
	return a.owner
}

func (a *advisoryLocks) key(tag functions.AdvisoryTag) rowlock.AdvisoryKey {
	return rowlock.AdvisoryKey{Database: functions.DatabaseOID(a.s.info.Database), Class: tag.Class, Object: tag.Object, Form: tag.Form}
}

func (a *advisoryLocks) LockAdvisory(ctx context.Context, tag functions.AdvisoryTag, shared, session, try bool) (bool, error) {
	s := a.s
	if s.eng.locks == nil {
		return false, notOnThisStore("an advisory lock").
			WithDetail("Other servers use this store too, and an advisory lock held in this server would not exclude their sessions.")
	}
	owner := a.txnOwner()
	if session {
		owner = a.sessionOwner()
	}
	wait := rowlock.Block
	if try {
		wait = rowlock.SkipLocked
	}
	key := a.key(tag)
	ok, err := owner.LockAdvisory(ctx, rowlock.AdvisoryRequest{Key: key, Shared: shared, Wait: wait,
		Timeout: s.lockTimeout.Of(s.setting("lock_timeout")), DeadlockTimeout: s.deadlockTimeout.Of(s.setting("deadlock_timeout")),
		Statement: s.stmtText})
	if ok && !session && s.tx != nil {
		// ROLLBACK TO a savepoint made before gives the lock back, as the
		// end of PostgreSQL's subtransaction releases its locks.
		s.tx.OnRollback(func() { owner.UnlockAdvisory(key, shared) })
	}
	return ok, err
}

func (a *advisoryLocks) UnlockAdvisory(tag functions.AdvisoryTag, shared bool) bool {
	return a.owner != nil && a.owner.UnlockAdvisory(a.key(tag), shared)
}

func (a *advisoryLocks) UnlockAllAdvisory() {
	if a.owner != nil {
		a.owner.Release(false)
	}
}

// EndStatementTransaction implements pgwire.StatementTransactions: a
// statement that ran outside a transaction block and outside a held
// implicit transaction has ended, and with it its transaction: the
// transaction-level advisory locks it took go.
func (s *session) EndStatementTransaction() {
	if s.tx == nil && s.implicit == nil && !s.held && s.rowLocks != nil {
		s.rowLocks.Release(false)
	}
	if s.tx == nil && s.implicit == nil && !s.held {
		s.commitNotifications() // notify.go: a lone statement's pg_notify
	}
}

// warn queues a notice a function raised while the statement ran
// (functions.Session.Warn); pgwire sends it before the rows that follow.
// The executor's workers may raise one too, hence the lock.
func (s *session) warn(e *sqlerr.Error) {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	s.notices = append(s.notices, e)
}

// TakeNotices implements pgwire.RuntimeNotices.
func (s *session) TakeNotices() []*sqlerr.Error {
	s.noticeMu.Lock()
	defer s.noticeMu.Unlock()
	out := s.notices
	s.notices = nil
	return out
}
