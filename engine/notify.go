package engine

import (
	"github.com/sqlgate/sqlgate/notify"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
)

// LISTEN, UNLISTEN, NOTIFY and pg_notify over the server's hub (package
// notify, whose doc has PostgreSQL's rules). What the session's current
// transaction queued is kept here, beside the transaction rather than in
// it: pg_notify may run in a statement with no transaction state of its
// own (a SELECT outside a block), whose rows stream after Execute
// returns. The transaction's end decides its fate:
//
//   - commit (once the writes are durable): execCommit, EndImplicit at a
//     pipeline's Sync or a Query string's end, EndStatementTransaction
//     after a lone statement of a simple Query, and a NOTIFY, LISTEN,
//     UNLISTEN or DISCARD ALL (UNLISTEN *) run alone outside any
//     transaction, at once;
//   - rollback: endTxn (ROLLBACK, a failed COMMIT, PREPARE TRANSACTION,
//     the session's end), an error outside a block (FailTransaction,
//     failed: pgwire reports a failed statement before it ends its
//     transaction), EndImplicit without commit; ROLLBACK TO SAVEPOINT
//     drops what was queued since the savepoint (execSavepoint).
//
// Delivery: the session's listener, made at its first LISTEN, is woken by
// the hub through the function pgwire gave (SetNotificationWaker), and
// pgwire takes the notifications (TakeNotifications) when the session is
// idle outside a transaction.

// sessionNotify is the session's side of LISTEN / NOTIFY.
type sessionNotify struct {
	pending  notify.Pending
	listener *notify.Listener
	wake     func()
}

// SetNotificationWaker implements pgwire.Notifier.
func (s *session) SetNotificationWaker(wake func()) { s.ntf.wake = wake }

// TakeNotifications implements pgwire.Notifier.
func (s *session) TakeNotifications(dst []pgwire.Notification) []pgwire.Notification {
	if s.ntf.listener == nil {
		return dst
	}
	for _, n := range s.ntf.listener.Take(nil) {
		dst = append(dst, pgwire.Notification{PID: n.PID, Channel: n.Channel, Payload: n.Payload})
	}
	return dst
}

// Listening implements pgwire.Notifier.
func (s *session) Listening() bool { return s.ntf.listener != nil && s.ntf.listener.Listening() }

// execNotify runs LISTEN, UNLISTEN and NOTIFY: queued in the current
// transaction, or committed at once when the statement is its own.
func (s *session) execNotify(kind sql.Kind, n *sql.NotifyStmt) (pgwire.Result, error) {
	var tag string
	switch kind {
	case sql.Notify:
		if err := s.Notify(n.Channel, n.Payload); err != nil {
			return nil, err
		}
		tag = "NOTIFY"
	case sql.Listen:
		s.ntf.pending.Listen(notify.Action{Listen: true, Channel: n.Channel})
		tag = "LISTEN"
	default:
		s.ntf.pending.Listen(notify.Action{Channel: n.Channel})
		tag = "UNLISTEN"
	}
	if s.tx == nil && s.implicit == nil && !s.held {
		s.commitNotifications()
	}
	return tagOnly(tag), nil
}

// unlistenAll is DISCARD ALL's UNLISTEN *.
func (s *session) unlistenAll() {
	if s.ntf.listener == nil {
		return
	}
	s.ntf.pending.Listen(notify.Action{})
	if s.tx == nil && s.implicit == nil && !s.held {
		s.commitNotifications()
	}
}

// Notify queues a notification in the current transaction
// (functions.Notifications: NOTIFY and pg_notify).
func (s *session) Notify(channel, payload string) error {
	if err := notify.CheckNotify(channel, payload); err != nil {
		return err
	}
	s.ntf.pending.Notify(channel, payload)
	return nil
}

// ListeningChannels is pg_listening_channels (functions.Notifications).
func (s *session) ListeningChannels() []string {
	if s.ntf.listener == nil {
		return nil
	}
	return s.ntf.listener.Channels()
}

// commitNotifications hands what the committed transaction queued to the
// hub: its LISTEN / UNLISTEN actions, then its notifications.
func (s *session) commitNotifications() {
	if s.ntf.pending.Empty() {
		return
	}
	if s.ntf.listener == nil {
		s.ntf.listener = s.eng.notifyHub.NewListener(s.info.Database, s.ntf.wake)
	}
	s.eng.notifyHub.Commit(s.ntf.listener, s.info.Database, s.info.ProcessID, &s.ntf.pending)
}

// dropNotifications forgets what the transaction queued (rolled back).
func (s *session) dropNotifications() { s.ntf.pending.Reset() }

// closeNotifications ends the session's listening.
func (s *session) closeNotifications() {
	s.ntf.pending.Reset()
	if s.ntf.listener != nil {
		s.ntf.listener.Close()
	}
}
