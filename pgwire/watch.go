package pgwire

import (
	"errors"
	"net"
	"sync/atomic"
	"syscall"
	"time"
)

// The executor reads the socket itself (conn.readInline) whenever it can:
// a query then costs one read (plus the EAGAIN read Go's netpoller makes)
// and one write, and no goroutine hand-off. Nobody reads the socket while
// a statement runs, so a client that vanishes mid-statement is noticed by a
// watcher goroutine instead: it wakes every watchInterval while messages
// are being handled and, when one message has been running for a whole
// interval, peeks at the socket without consuming anything (MSG_PEEK |
// MSG_DONTWAIT); end of stream or a socket error cancels the connection's
// context, which cancels the statement. Between messages the watcher parks
// on a channel, so an idle or fast connection costs at most one wake-up per
// interval, and no timer is armed per query.

// watchInterval is how often a running message is checked; a dropped
// client's statement is cancelled within about two intervals.
const watchInterval = 100 * time.Millisecond

// sockWatch is the state the executor shares with the watcher goroutine.
type sockWatch struct {
	rc syscall.RawConn
	// sock, when set, is the socket's rawSock: the watcher peeks through it,
	// since the descriptor under rc is closed while the socket is in the
	// blocking wait (blockwait_linux.go).
	sock *rawSock
	// busy is the sequence number of the message being handled, 0 between
	// messages. Only the executor writes it.
	busy atomic.Uint64
	seq  uint64 // the executor's counter behind busy
	// parked is set by the watcher before it waits on kick; the executor
	// kicks it when it starts a message and sees parked.
	parked atomic.Bool
	kick   chan struct{}
}

// rawConnOf returns the socket under nc when the watcher can peek at it:
// plain TCP (or Unix) connections, not TLS (whose close_notify is data to a
// peek) and not in-memory pipes.
func rawConnOf(nc net.Conn) syscall.RawConn {
	if !canPeek {
		return nil
	}
	switch nc := nc.(type) {
	case *net.TCPConn:
		rc, err := nc.SyscallConn()
		if err == nil {
			return rc
		}
	case *net.UnixConn:
		rc, err := nc.SyscallConn()
		if err == nil {
			return rc
		}
	}
	return nil
}

func newSockWatch(rc syscall.RawConn, sock *rawSock) *sockWatch {
	w := &sockWatch{rc: rc, sock: sock, kick: make(chan struct{}, 1)}
	w.parked.Store(true) // the watcher starts parked
	return w
}

// begin marks the start of a message; end marks its end.
func (w *sockWatch) begin() {
	w.seq++
	w.busy.Store(w.seq)
	if w.parked.Load() {
		select {
		case w.kick <- struct{}{}:
		default: // a kick is already pending
		}
	}
}

func (w *sockWatch) end() { w.busy.Store(0) }

// watchLoop runs until the connection's context ends.
func (c *conn) watchLoop(w *sockWatch) {
	done := c.ctx.Done()
	t := time.NewTimer(watchInterval)
	t.Stop()
	for {
		select {
		case <-w.kick:
		case <-done:
			return
		}
		w.parked.Store(false)
		var last uint64
		for {
			t.Reset(watchInterval)
			select {
			case <-t.C:
			case <-done:
				t.Stop()
				return
			}
			b := w.busy.Load()
			if b == 0 {
				// Between messages: park. The executor stores busy before
				// it loads parked, we store parked before loading busy, so
				// one of us sees the other (a stale kick costs one tick).
				w.parked.Store(true)
				if w.busy.Load() == 0 {
					break
				}
				w.parked.Store(false)
				continue
			}
			if b == last && w.peerGone() {
				c.logger.Debug("pgwire: client gone while a statement ran")
				c.cancel()
				return
			}
			last = b
		}
	}
}

// peerGone peeks at the connection's socket wherever it is now.
func (w *sockWatch) peerGone() bool {
	if w.sock != nil {
		return w.sock.peerGone()
	}
	return peerGone(w.rc)
}

// peerGone peeks at the socket: true on end of stream or a socket error,
// false when data is pending or none has arrived yet.
func peerGone(rc syscall.RawConn) bool {
	gone := false
	err := rc.Control(func(fd uintptr) { gone = peekGone(fd) })
	return gone || err != nil
}

// peekGone is peerGone's peek at the descriptor fd.
func peekGone(fd uintptr) bool {
	n, err := peek(fd)
	switch {
	case err == nil:
		return n == 0
	case errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EWOULDBLOCK), errors.Is(err, syscall.EINTR):
		return false
	}
	return true
}
