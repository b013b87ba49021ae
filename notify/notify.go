package notify

import (
	"slices"
	"sync"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Limits of PostgreSQL 15 (async.c): a channel is a name (NAMEDATALEN - 1
// bytes), a payload shorter than NOTIFY_PAYLOAD_MAX_LENGTH.
const (
	MaxChannelBytes = 63
	MaxPayloadBytes = 8000
)

// Notification is one notification as a listener receives it.
type Notification struct {
	// PID is the sender's backend process id.
	PID     uint32
	Channel string
	Payload string
}

// CheckNotify returns PostgreSQL's error for a channel or payload NOTIFY
// and pg_notify refuse, nil when both are fine.
func CheckNotify(channel, payload string) error {
	switch {
	case channel == "":
		return sqlerr.New(sqlerr.InvalidParameterValue, "channel name cannot be empty")
	case len(channel) > MaxChannelBytes:
		return sqlerr.New(sqlerr.InvalidParameterValue, "channel name too long")
	case len(payload) >= MaxPayloadBytes:
		return sqlerr.New(sqlerr.InvalidParameterValue, "payload string too long")
	}
	return nil
}

// Hub is the server's notification hub: the registered listeners of each
// database, and the delivery of committed notifications.
type Hub struct {
	mu sync.Mutex
	// registered are, by database, the listeners that listen to at least
	// one channel: PostgreSQL's backends registered in its queue.
	registered map[string]map[*Listener]struct{}
}

// NewHub returns a hub with no listeners.
func NewHub() *Hub {
	return &Hub{registered: map[string]map[*Listener]struct{}{}}
}

// Listener is one session's side of the hub: the channels it listens to
// (committed LISTENs) and the notifications queued for it.
type Listener struct {
	hub  *Hub
	db   string
	wake func()
	// mu guards listening and queue: the committing session writes queue,
	// the owner reads and drains it.
	mu        sync.Mutex
	listening []string // in the order LISTENed, as pg_listening_channels shows them
	queue     []Notification
}

// NewListener returns the listener of a session connected to database db
// (notifications stay within a database, as in PostgreSQL); wake (may be
// nil) is called whenever a notification is queued for it, and must not
// block. As PostgreSQL signals every listening backend of the database,
// whatever the channel, a woken idle session reads its queue at once
// (Take), which drops what it does not listen to.
func (h *Hub) NewListener(db string, wake func()) *Listener {
	return &Listener{hub: h, db: db, wake: wake}
}

// Action is a LISTEN or UNLISTEN of a transaction.
type Action struct {
	// Listen: LISTEN Channel; else UNLISTEN Channel, or UNLISTEN * when
	// Channel is "".
	Listen  bool
	Channel string
}

// Pending is what a transaction queued: its LISTEN / UNLISTEN actions and
// its notifications (without duplicates), with the savepoints' marks. The
// zero value is empty and ready.
type Pending struct {
	actions []Action
	notes   []Notification
	marks   []mark
}

type mark struct{ actions, notes int }

// Empty reports whether the transaction queued nothing.
func (p *Pending) Empty() bool { return len(p.actions) == 0 && len(p.notes) == 0 }

// Listen queues LISTEN / UNLISTEN a.
func (p *Pending) Listen(a Action) { p.actions = append(p.actions, a) }

// Notify queues a notification (checked by CheckNotify first), unless the
// transaction queued the same channel and payload already.
func (p *Pending) Notify(channel, payload string) {
	for _, n := range p.notes {
		if n.Channel == channel && n.Payload == payload {
			return
		}
	}
	p.notes = append(p.notes, Notification{Channel: channel, Payload: payload})
}

// Savepoint marks a savepoint; RollbackTo(i) forgets what was queued since
// savepoint i (0-based) and keeps it; Release(i) keeps what was queued
// and forgets savepoints i and after.
func (p *Pending) Savepoint() {
	p.marks = append(p.marks, mark{len(p.actions), len(p.notes)})
}

// RollbackTo forgets what was queued since savepoint i, which stays.
func (p *Pending) RollbackTo(i int) {
	if i < 0 || i >= len(p.marks) {
		return
	}
	m := p.marks[i]
	p.actions, p.notes = p.actions[:m.actions], p.notes[:m.notes]
	p.marks = p.marks[:i+1]
}

// Release forgets savepoint i and those after it, keeping what they queued.
func (p *Pending) Release(i int) {
	if i >= 0 && i < len(p.marks) {
		p.marks = p.marks[:i]
	}
}

// Reset empties p (the transaction ended).
func (p *Pending) Reset() { *p = Pending{} }

// Commit applies a committed transaction's pending actions to l, the
// committing session's listener, and hands its notifications, sent by
// process pid in database db, to every registered listener of db. As
// PostgreSQL's queue, a registered listener gets every notification of its
// database, and Take keeps those of the channels it listens to when it
// reads them: a LISTEN committed while a notification waited unread makes
// it delivered. p is emptied.
func (h *Hub) Commit(l *Listener, db string, pid uint32, p *Pending) {
	if p.Empty() {
		return
	}
	var woken []*Listener
	h.mu.Lock()
	if l != nil && len(p.actions) > 0 {
		l.mu.Lock()
		for _, a := range p.actions {
			h.apply(l, a)
		}
		// Only once all are applied, as PostgreSQL's AtCommit_Notify: an
		// UNLISTEN a; LISTEN a keeps what waited unread.
		if len(l.listening) == 0 {
			h.unregister(l)
		}
		l.mu.Unlock()
	}
	for _, n := range p.notes {
		n.PID = pid
		for r := range h.registered[db] {
			r.mu.Lock()
			r.queue = append(r.queue, n)
			r.mu.Unlock()
			if !slices.Contains(woken, r) {
				woken = append(woken, r)
			}
		}
	}
	h.mu.Unlock()
	p.Reset()
	for _, r := range woken {
		if r.wake != nil {
			r.wake()
		}
	}
}

// apply is one committed LISTEN / UNLISTEN of l: a listener registers
// with its first channel (and Commit unregisters it, its unread
// notifications dropped, when its transaction leaves it listening to
// none, as PostgreSQL's backend leaves the queue). Under h.mu and l.mu.
func (h *Hub) apply(l *Listener, a Action) {
	switch {
	case a.Listen:
		if slices.Contains(l.listening, a.Channel) {
			return
		}
		l.listening = append(l.listening, a.Channel)
		set := h.registered[l.db]
		if set == nil {
			set = map[*Listener]struct{}{}
			h.registered[l.db] = set
		}
		set[l] = struct{}{}
	case a.Channel == "":
		l.listening = l.listening[:0]
	default:
		if i := slices.Index(l.listening, a.Channel); i >= 0 {
			l.listening = slices.Delete(l.listening, i, i+1)
		}
	}
}

// unregister takes l out of its database's listeners. Under h.mu and l.mu.
func (h *Hub) unregister(l *Listener) {
	if set := h.registered[l.db]; set != nil {
		delete(set, l)
		if len(set) == 0 {
			delete(h.registered, l.db)
		}
	}
	l.queue = nil
}

// Close ends l's listening (the session ended) and drops its queue.
func (l *Listener) Close() {
	h := l.hub
	h.mu.Lock()
	l.mu.Lock()
	l.listening = nil
	h.unregister(l)
	l.mu.Unlock()
	h.mu.Unlock()
}

// Listening reports whether l listens to any channel.
func (l *Listener) Listening() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.listening) > 0
}

// Channels returns the channels l listens to, in the order LISTENed
// (pg_listening_channels).
func (l *Listener) Channels() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.listening)
}

// Pending reports whether notifications are queued for l.
func (l *Listener) Pending() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue) > 0
}

// Take appends the queued notifications of the channels l still listens
// to onto dst, in order, and empties the queue.
func (l *Listener) Take(dst []Notification) []Notification {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, n := range l.queue {
		if slices.Contains(l.listening, n.Channel) {
			dst = append(dst, n)
		}
	}
	clear(l.queue)
	l.queue = l.queue[:0]
	return dst
}
