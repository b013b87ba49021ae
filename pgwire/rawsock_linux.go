//go:build linux

package pgwire

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// rawSock reads and writes a plain socket with raw read(2) and write(2)
// calls, waiting through the netpoller (syscall.RawConn) only when the
// socket is not ready. Why: the socket is non-blocking, so these calls
// never block, and a raw call skips the runtime's syscall bookkeeping
// (entersyscall), which wakes the runtime's monitor thread (sysmon) from
// its deep sleep whenever a syscall starts after the process went idle.
// With one client each query comes after an idle wait, so every query
// paid a futex wake-up of sysmon and its short sleeps (one futex and half
// a nanosleep per query, measured with strace) on top of the read and the
// write themselves.
//
// A read that finds nothing parks the goroutine on the netpoller, except
// in the blocking wait (blockwait_linux.go), where the only busy
// connection's thread blocks in read(2) on the socket taken out of the
// netpoller. Tried and dropped on the way (twenty-seventh and twenty-eighth
// sessions, bench/LEDGER.md):
//   - Retrying the non-blocking read for up to 10 or 50 µs before parking
//     (holding the P): at one client W10's server CPU per transaction rose
//     from about 100 to 140-165 µs and its rate fell by a quarter. pgx's
//     client answers a reply 25 µs or more later, so the spin almost never
//     catches the next message, and on a small machine it takes the CPU the
//     client needs. Measured again with pgbench (a C client) at 8 clients
//     (thirty-sixth session): holding the P for 8 or 30 µs ran 22-35% fewer
//     transactions, and yielding between reads (runtime.Gosched) 10-15%
//     fewer at 30 µs, even at 8 µs: pgbench's next message comes some 100 µs
//     after a reply there, a Gosched wakes the idle P's thread (wakep), and
//     a spinner on the global run queue is found before the netpoller's
//     ready connections.
//   - Waiting in ppoll(2) inside the read callback: the socket stays in the
//     runtime's edge-triggered epoll set, so each message also woke the
//     thread parked in epoll_wait (7.8 context switches per transaction
//     against 4.4): the blocking wait takes the socket out of that set.
//   - Blocking every connection in read(2): it lost at 8 and 32 clients (a
//     thread per waiting connection, a P to win back at each wake-up), so
//     only one connection at a time may block, and only while the others
//     are idle.
//
// What the park costs more than PostgreSQL: bench/cmd/waitbench (one
// connection's ping-pong, the client busy 20 µs between round trips)
// measured 10.7 µs of server CPU per round trip through the netpoller and
// 7.4 µs for a socket taken out of it with the thread blocking in read(2);
// a C server with PostgreSQL's loop (recv, epoll_wait on EAGAIN), measured
// beside it and not kept in the tree, took 5.8 µs (bench/LEDGER.md,
// 2026-12-05 03:41); bench/cmd/wirewait measures the same on the bench
// server itself (2026-12-05, twenty-ninth session).
//
// Under the race detector the calls go through package syscall instead
// (rawsys_linux_race.go). The functions handed to RawConn are method values made once, so that a
// read or a write allocates nothing; the state they work on is in the
// struct. One reader and one writer at a time (the conn's rules).
type rawSock struct {
	rc syscall.RawConn
	nc net.Conn // rc's connection: deadlines, closing

	rbuf   []byte
	rn     int
	rerr   syscall.Errno
	readFn func(uintptr) bool

	wbuf    []byte
	wn      int
	werr    syscall.Errno
	writeFn func(uintptr) bool

	// The blocking wait (blockwait_linux.go). fd is the socket's own
	// descriptor while it is out of the netpoller (nc is closed then), -1
	// while on it; only the executor changes it, under mu's write lock,
	// and the other goroutines (the watcher, interrupt, abort, a COPY's
	// reader) use the descriptor under its read lock, so that it is never
	// closed under them (a reused descriptor number would be another
	// connection's socket). Only the executor reads fd without mu.
	mu sync.RWMutex
	fd atomic.Int64
	// rdl and wdl are the read and write deadlines (SetReadDeadline,
	// SetWriteDeadline), kept for the blocking wait and carried from one
	// mode to the other.
	rdl, wdl time.Time
	// interrupted: the connection's context ended (interrupt); sticky
	// across mode changes.
	interrupted atomic.Bool
	// shared: a reader goroutine reads the socket (COPY FROM's data), so
	// the socket must not change modes inside a read.
	shared atomic.Bool
	// closed: the connection ended (close); guarded by mu.
	closed bool
	// srv is the server whose connections' waits decide the mode; nil:
	// always on the netpoller. last is the server's wait count after this
	// connection's last wait, sole how many of its waits in a row nobody
	// else's came between.
	srv  *Server
	last uint64
	sole int
	// idleSlices is how many empty blockSlices the blocking wait takes
	// before it returns to the netpoller (blockIdleSlices; Server.blockIdle
	// for tests).
	idleSlices int
}

// newRawSock returns the rawSock of nc, whose RawConn is rc; srv (may be
// nil) is the server whose connections' activity allows the blocking wait.
func newRawSock(nc net.Conn, rc syscall.RawConn, srv *Server) *rawSock {
	s := &rawSock{rc: rc, nc: nc, srv: srv, idleSlices: blockIdleSlices}
	if srv != nil {
		if n := srv.blockIdle.Load(); n > 0 {
			s.idleSlices = int(n)
		}
	}
	s.readFn, s.writeFn = s.readOnce, s.writeSome
	s.fd.Store(-1)
	return s
}

// Read reads at least one byte, waiting for the socket to be readable
// (read deadlines apply); 0 bytes read is io.EOF.
func (s *rawSock) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for s.fd.Load() >= 0 {
		n, err, leave := s.readBlocking(p)
		if !leave {
			return n, err
		}
		s.leaveBlock() // another connection became busy while this one waited
	}
	s.rbuf, s.rn, s.rerr = p, 0, 0
	err := s.rc.Read(s.readFn)
	s.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case s.rerr != 0:
		return 0, s.rerr
	case s.rn == 0:
		return 0, io.EOF
	}
	return s.rn, nil
}

// readOnce is one read(2); false asks RawConn to wait for readability.
func (s *rawSock) readOnce(fd uintptr) bool {
	for {
		n, e := sysRead(fd, s.rbuf)
		switch e {
		case 0:
			s.rn = int(n)
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			s.rerr = e
		}
		return true
	}
}

// Write writes all of p, waiting for the socket to be writable as needed
// (write deadlines apply).
func (s *rawSock) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if fd := s.fd.Load(); fd >= 0 {
		return s.writeBlocking(int(fd), p)
	}
	s.wbuf, s.wn, s.werr = p, 0, 0
	err := s.rc.Write(s.writeFn)
	n := s.wn
	s.wbuf = nil
	switch {
	case err != nil:
		return n, err
	case s.werr != 0:
		return n, s.werr
	}
	return n, nil
}

// writeSome writes what the socket takes; false (more to write) asks
// RawConn to wait for writability.
func (s *rawSock) writeSome(fd uintptr) bool {
	for {
		rest := s.wbuf[s.wn:]
		n, e := sysWrite(fd, rest)
		switch e {
		case 0:
			s.wn += int(n)
			if s.wn == len(s.wbuf) {
				return true
			}
			if n == 0 {
				return false // nothing taken: wait rather than spin
			}
		case syscall.EINTR:
		case syscall.EAGAIN:
			return false
		default:
			s.werr = e
			return true
		}
	}
}
