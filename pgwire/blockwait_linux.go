//go:build linux

package pgwire

import (
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The blocking wait. While one connection is the only busy one on the
// server, it waits for its next message with its thread blocked in read(2)
// on a socket taken out of the runtime's netpoller, as a PostgreSQL backend
// does, instead of parking its goroutine on the netpoller: the park and the
// wake-up through epoll cost 3.3-4 µs more server CPU per round trip
// (bench/cmd/waitbench), four round trips per W10 transaction, the whole
// gap to PostgreSQL at one client (bench/LEDGER.md, twenty-eighth session).
// With more busy connections every waiting one would hold a thread and each
// wake-up would have to win a P back (a prototype that blocked every
// connection lost at 8 and 32 clients), so the socket goes back to the
// netpoller as soon as another connection is busy.
//
// Who may block: every connection's wait for a message on the socket
// (settle, in readInline) adds one to the server's waits counter, and a
// new session adds one too. A connection whose own waits follow one
// another with nobody else's in between (the counter moved by exactly its
// own 1) soleWaitsToBlock times in a row is alone busy; it takes the
// server's one blocker token and moves its socket out of the netpoller. It
// gives the token back, returning to the netpoller, at its first wait that
// finds the counter moved by someone else, or, while it waits idle, within
// one blockSlice of another connection's wait or arrival, or after a
// second of idleness (blockIdleSlices). Idle sessions
// (a pool's spare connections, a monitoring session between its polls) do
// not count, which is why the rule is activity rather than the number of
// sessions: pgbench-like drivers, the bench harness among them, keep a
// second, idle session open.
//
// The mechanics (enterBlock, leaveBlock): the socket's descriptor is
// duplicated and the net.Conn closed, which makes the runtime remove it
// from its epoll set (a socket left there wakes the thread in epoll_wait
// at each message too: that is why waiting in ppoll lost); the descriptor
// is made blocking, with SO_RCVTIMEO = blockSlice so that a blocked read
// returns now and then to look at the idle deadline and at the other
// connections. Back to the netpoller through net.FileConn, which makes
// the socket non-blocking again and registers it. While blocked:
//   - reads are read(2) through package syscall, which hands the P off
//     (entersyscall) so that the garbage collector's stop-the-world and the
//     other goroutines never wait for the blocked thread;
//   - writes are send(2) with MSG_DONTWAIT as raw system calls, as on the
//     netpoller (they never block), and a full socket buffer is waited for
//     in poll(2), bounded by the write deadline (streaming results);
//   - the idle timeouts (idle_session_timeout and
//     idle_in_transaction_session_timeout) are read deadlines checked when
//     the bounded read returns empty, so they fire up to a blockSlice late;
//   - the end of the connection's context (server shutdown,
//     pg_terminate_backend) wakes the read at once by shutdown(2) of the
//     socket's reading side (interrupt): it reads end of stream and the
//     FATAL can still be written; Shutdown's last resort shuts both sides;
//   - the watcher peeks at the descriptor (MSG_PEEK | MSG_DONTWAIT) as it
//     would through the RawConn;
//   - a COPY FROM's reader goroutine reads the descriptor as the executor
//     would; the socket changes modes only in the executor's own waits.
// TLS connections stay on the netpoller (their reads go through crypto/tls
// and a reader goroutine); Unix-domain sockets block as TCP ones do.
//
// What the blocked thread costs the runtime, measured (perf stat of the
// bench server, W10 at one client, synchronous_commit off, per
// transaction; bench/LEDGER.md, twenty-ninth session): epoll_pwait 3.2-6.6
// -> 0.03-0.09, read(2) 5.6-7.3 -> 4.0 (no read that finds nothing),
// context switches unchanged (4.7-5.3 both ways), nanosleep 0.2 -> 0.4-0.5
// (the runtime's monitor ticks while a P sits in a system call; it takes
// the P from the blocked thread when other goroutines need it, so the
// garbage collector and the store's goroutines never wait for a client).
// Under load 14-33 the server's CPU per W10 transaction fell from a median
// of 99 to 86 µs (seven alternated runs each); on a quieter host the
// ratio to PostgreSQL moved ±0.2 between runs of the same binary and no
// run separated the two (bench/LEDGER.md, twenty-ninth session): not yet
// confirmed there. bench/cmd/wirewait's empty Query, the cheapest round
// trip, took 0.5-1.9 µs less per round trip.

// blockSlice bounds one blocking read: how late an idle timeout fires and
// how long an idle blocked connection may hold its thread after another
// connection became busy. A connection idle in the blocking wait wakes
// 1/blockSlice times a second, a few µs each.
const blockSlice = 5 * time.Millisecond

// blockIdleSlices is how many empty blockSlices in a row (a second on an
// idle host; longer when a slice ends late) an idle connection waits blocked before it goes back to the netpoller,
// where waiting costs nothing: an idle session does not wake the server
// 1/blockSlice times a second for ever. It blocks again after
// soleWaitsToBlock waits once it is busy.
const blockIdleSlices = int(time.Second / blockSlice)

// With GOMAXPROCS=1 the blocking wait is not used (settle): the runtime's
// monitor takes the only P from the blocked thread at each wait, and
// waitbench measured the blocking read dearer than the netpoller there
// (10.4 against 9.7 µs per round trip, bench/LEDGER.md 2026-12-05 03:41).

// soleWaitsToBlock is how many waits in a row a connection must make with
// no other connection's in between before it blocks: enough that a busy
// connection among several (8 clients whose others sit in a commit) rarely
// takes the socket out of the netpoller only to bring it back at once (a
// round trip of the two costs some ten system calls).
const soleWaitsToBlock = 32

// settle counts a wait of the executor for the next message (readInline,
// with nothing buffered) and moves the socket into the blocking wait or
// out of it. Executor only, while no reader goroutine runs.
func (s *rawSock) settle() {
	if s.srv == nil {
		return
	}
	v := s.srv.waits.Add(1)
	sole := v == s.last+1
	s.last = v
	if s.fd.Load() >= 0 {
		if !sole {
			s.leaveBlock()
		}
		return
	}
	if !sole {
		s.sole = 0
		return
	}
	if s.sole++; s.sole < soleWaitsToBlock || s.interrupted.Load() || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	if !s.srv.blocker.CompareAndSwap(nil, s) {
		return // another connection holds it, idle: it gives it up within a blockSlice
	}
	if !s.enterBlock() {
		s.srv.blocker.CompareAndSwap(s, nil)
		s.sole = 0
	}
}

// othersBusy: another connection waited (or arrived) since this one's last
// wait.
func (s *rawSock) othersBusy() bool { return s.srv != nil && s.srv.waits.Load() != s.last }

// enterBlock takes the socket out of the netpoller; false leaves it there
// (a failed system call). Executor only.
func (s *rawSock) enterBlock() bool {
	fd, derr := -1, error(nil)
	if err := s.rc.Control(func(sfd uintptr) {
		fd, derr = unix.FcntlInt(sfd, unix.F_DUPFD_CLOEXEC, 0)
	}); err != nil || derr != nil {
		return false
	}
	tv := syscall.NsecToTimeval(int64(blockSlice))
	if syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv) != nil ||
		syscall.SetNonblock(fd, false) != nil {
		// Nothing changed for the netpoller's descriptor but, at worst,
		// the blocking flag both share: put it back.
		_ = syscall.SetNonblock(fd, true)
		_ = syscall.Close(fd)
		return false
	}
	s.mu.Lock()
	// Closing the net.Conn removes the socket from the runtime's epoll set
	// (EPOLL_CTL_DEL) and closes its descriptor; the socket lives on in fd.
	_ = s.nc.Close()
	s.fd.Store(int64(fd))
	s.mu.Unlock()
	if s.interrupted.Load() {
		// The interruption may have gone to the closed net.Conn.
		_ = syscall.Shutdown(fd, syscall.SHUT_RD)
	}
	return true
}

// leaveBlock returns the socket to the netpoller; on a failed system call
// it stays out (and works, blocking). Executor only, while no reader
// goroutine runs.
func (s *rawSock) leaveBlock() {
	fd := int(s.fd.Load())
	if fd < 0 {
		return
	}
	// net.FileConn duplicates the descriptor it is given, makes the
	// socket non-blocking and registers it; it gets a duplicate of fd, so
	// that fd is still ours (and the socket alive) if it fails.
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return
	}
	f := os.NewFile(uintptr(dup), "pgwire")
	nc, err := net.FileConn(f)
	_ = f.Close()
	var rc syscall.RawConn
	if err == nil {
		if rc = rawConnOf(nc); rc == nil {
			_ = nc.Close()
		}
	}
	if rc == nil {
		_ = syscall.SetNonblock(fd, false)
		return
	}
	s.mu.Lock()
	s.nc, s.rc = nc, rc
	s.fd.Store(-1)
	_ = syscall.Close(fd)
	s.mu.Unlock()
	if !s.rdl.IsZero() {
		_ = nc.SetReadDeadline(s.rdl)
	}
	if !s.wdl.IsZero() {
		_ = nc.SetWriteDeadline(s.wdl)
	}
	if s.interrupted.Load() {
		_ = nc.SetReadDeadline(time.Unix(1, 0))
	}
	if s.srv != nil {
		s.srv.blocker.CompareAndSwap(s, nil)
	}
	s.sole = 0
}

// blocking reports whether the socket is out of the netpoller (tests).
func (s *rawSock) blocking() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fd.Load() >= 0
}

// readBlocking is Read in the blocking wait: one read(2), repeated when
// the bounded wait ends empty, until data, end of stream, an error, the
// read deadline, or (leave) another connection's activity or a second of
// idleness while the executor waits alone on the socket.
func (s *rawSock) readBlocking(p []byte) (n int, err error, leave bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for empty := 0; ; {
		fd := int(s.fd.Load())
		if fd < 0 {
			if s.closed {
				return 0, net.ErrClosed, false
			}
			return 0, nil, true // back on the netpoller already
		}
		// Before every read, as the netpoller refuses a read past its
		// deadline: a client that sends a message a byte at a time faster
		// than blockSlice must not outlive its idle timeout. And after an
		// interrupt, data that arrives later is still readable after
		// shutdown(2) of the reading side: end of stream, as the
		// netpoller's past deadline refuses it.
		if s.interrupted.Load() {
			return 0, io.EOF, false
		}
		if !s.rdl.IsZero() && !time.Now().Before(s.rdl) {
			return 0, os.ErrDeadlineExceeded, false
		}
		n, err := syscall.Read(fd, p)
		switch err {
		case nil:
			if n == 0 {
				return 0, io.EOF, false
			}
			return n, nil, false
		case syscall.EINTR:
		case syscall.EAGAIN: // SO_RCVTIMEO: a blockSlice went by
			if empty++; !s.shared.Load() && (s.othersBusy() || empty >= s.idleSlices) {
				return 0, nil, true
			}
		default:
			return 0, err, false
		}
	}
}

// writeBlocking is Write in the blocking wait: send(2) without waiting,
// and poll(2) for room when the socket's buffer is full.
func (s *rawSock) writeBlocking(fd int, p []byte) (int, error) {
	w := 0
	for w < len(p) {
		n, e := sysSend(uintptr(fd), p[w:])
		switch e {
		case 0:
			w += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			if err := s.waitWritable(fd); err != nil {
				return w, err
			}
		default:
			return w, e
		}
	}
	return w, nil
}

// waitWritable waits in poll(2) until fd can take data, or the write
// deadline passes (os.ErrDeadlineExceeded). A socket shut down (abort)
// polls writable, and the next send fails.
func (s *rawSock) waitWritable(fd int) error {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
	for {
		timeout := -1
		if !s.wdl.IsZero() {
			d := time.Until(s.wdl)
			if d <= 0 {
				return os.ErrDeadlineExceeded
			}
			timeout = int((d + time.Millisecond - 1) / time.Millisecond)
		}
		n, err := unix.Poll(fds, timeout)
		switch {
		case err == unix.EINTR:
		case err != nil:
			return err
		case n > 0:
			return nil
		}
	}
}

// SetReadDeadline sets the deadline of reads (the idle timeouts).
// Executor only.
func (s *rawSock) SetReadDeadline(t time.Time) {
	s.rdl = t
	if s.fd.Load() < 0 {
		_ = s.nc.SetReadDeadline(t)
	}
}

// SetWriteDeadline sets the deadline of writes (streaming results).
// Executor only.
func (s *rawSock) SetWriteDeadline(t time.Time) {
	s.wdl = t
	if s.fd.Load() < 0 {
		_ = s.nc.SetWriteDeadline(t)
	}
}

// interrupt ends a read in progress or the next one: the connection's
// context ended. Any goroutine.
func (s *rawSock) interrupt() {
	s.interrupted.Store(true)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if fd := s.fd.Load(); fd >= 0 {
		_ = syscall.Shutdown(int(fd), syscall.SHUT_RD)
		return
	}
	_ = s.nc.SetReadDeadline(time.Unix(1, 0))
}

// abort cuts the socket both ways (Shutdown's last resort). Any goroutine.
func (s *rawSock) abort() {
	s.interrupted.Store(true)
	s.mu.RLock()
	defer s.mu.RUnlock()
	if fd := s.fd.Load(); fd >= 0 {
		_ = syscall.Shutdown(int(fd), syscall.SHUT_RDWR)
		return
	}
	_ = s.nc.Close()
}

// close closes the socket when the connection ends. Executor only; a
// COPY reader blocked in read(2) is woken first (shutdown of the reading
// side), so that the descriptor is closed under nobody.
func (s *rawSock) close() {
	if fd := int(s.fd.Load()); fd >= 0 {
		_ = syscall.Shutdown(fd, syscall.SHUT_RD)
		s.mu.Lock()
		_ = syscall.Close(fd)
		s.fd.Store(-1)
		s.closed = true
		s.mu.Unlock()
	} else {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		_ = s.nc.Close()
	}
	if s.srv != nil {
		s.srv.blocker.CompareAndSwap(s, nil)
	}
}

// peerGone is the watcher's peek (watch.go) at the socket wherever it is.
func (s *rawSock) peerGone() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if fd := s.fd.Load(); fd >= 0 {
		return peekGone(uintptr(fd))
	}
	return peerGone(s.rc)
}
