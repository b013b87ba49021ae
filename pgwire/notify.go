package pgwire

import "github.com/jackc/pgx/v5/pgproto3"

// Notification is one LISTEN / NOTIFY notification for the client
// (NotificationResponse 'A').
type Notification struct {
	// PID is the sending session's backend process id.
	PID     uint32
	Channel string
	Payload string
}

// Notifier is an optional Session interface: the session's LISTEN /
// NOTIFY. pgwire sends the session's notifications as PostgreSQL 15 does,
// only while the session is idle outside a transaction block: just before
// a ReadyForQuery with status 'I', and at once, without waiting for a
// message, when one arrives for a session idle there.
type Notifier interface {
	// SetNotificationWaker gives the session the function to call, from
	// any goroutine and without blocking, when a notification arrives for
	// it.
	SetNotificationWaker(wake func())
	// TakeNotifications appends the notifications delivered to the
	// session since the last call onto dst.
	TakeNotifications(dst []Notification) []Notification
	// Listening reports whether the session listens to any channel.
	Listening() bool
}

// An idle listening session must be woken when a notification arrives,
// which the executor's own read of the socket (readInline, the blocking
// wait) cannot be without a signal of its own. So a session that listens
// is served by a reader goroutine from its next wait on, as a TLS
// connection always is, and its executor waits in receive for a message,
// an idle timeout or a wake (notifyC), whichever comes first; the socket
// leaves the blocking wait for the netpoller first. The connection stays
// so after UNLISTEN: a reader goroutine cannot be stopped in its read.

// initNotify hooks the session's notifications up, if it has any.
func (c *conn) initNotify() {
	n, ok := c.session.(Notifier)
	if !ok {
		return
	}
	c.notifier = n
	c.notifyC = make(chan struct{}, 1)
	n.SetNotificationWaker(c.wakeNotify)
}

// wakeNotify is the session's waker: it never blocks (one pending wake is
// enough, each takes every queued notification).
func (c *conn) wakeNotify() {
	select {
	case c.notifyC <- struct{}{}:
	default:
	}
}

// listenReader starts the reader goroutine for a session that began to
// listen while the executor reads the socket itself; it reports whether
// it did.
func (c *conn) listenReader() bool {
	if c.notifier == nil || c.rd != nil || !c.notifier.Listening() {
		return false
	}
	if c.raw != nil {
		c.raw.leaveBlock() // the reader waits on the netpoller
	}
	c.startReader(false)
	return true
}

// appendNotifications queues the session's notifications for the client.
func (c *conn) appendNotifications() {
	if c.notifier == nil {
		return
	}
	c.notes = c.notifier.TakeNotifications(c.notes[:0])
	for i := range c.notes {
		n := &c.notes[i]
		c.send(&pgproto3.NotificationResponse{PID: n.PID, Channel: n.Channel, Payload: n.Payload})
	}
	clear(c.notes)
}

// pushNotifications sends what arrived for a session idle outside a
// transaction block, at once; false: the socket failed.
func (c *conn) pushNotifications() bool {
	if c.session.TxStatus() != 'I' {
		return true // sent after the block ends, before its ReadyForQuery
	}
	c.appendNotifications()
	if len(c.out) == 0 {
		return true
	}
	return c.flush() == nil
}
