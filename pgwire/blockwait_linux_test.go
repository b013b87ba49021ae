//go:build linux

package pgwire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// noIdleReturn keeps srv's blocked sessions from going back to the
// netpoller when idle (blockIdleSlices): after it, the netpoller's own
// deadlines and close cannot stand in for the blocking wait's wake-ups
// (interrupt, the read deadline, another session's activity), so a test
// of those fails when they break instead of passing a second late.
func noIdleReturn(srv *Server) {
	srv.blockIdle.Store(math.MaxInt32)
}

// blockedSession starts a server whose sessions never take the idle
// return (noIdleReturn) and a session driven into the blocking wait.
func blockedSession(t *testing.T) (*testServer, *rawConn, *rawSock) {
	t.Helper()
	ts := startServer(t, nil)
	noIdleReturn(ts.srv)
	a := dialRaw(t, ts.addr, "tester")
	a.until("ReadyForQuery")
	return ts, a, driveToBlocking(t, ts, a, "I")
}

// sockOf returns the rawSock of the session whose BackendKeyData rc got.
func sockOf(t *testing.T, ts *testServer, rc *rawConn) *rawSock {
	t.Helper()
	ts.srv.mu.Lock()
	c := ts.srv.conns[rc.key.ProcessID]
	ts.srv.mu.Unlock()
	if c == nil || c.sock == nil {
		t.Fatal("no raw socket for the session")
	}
	return c.sock
}

// connOf returns the conn of rc's session.
func connOf(t *testing.T, ts *testServer, rc *rawConn) *conn {
	t.Helper()
	ts.srv.mu.Lock()
	defer ts.srv.mu.Unlock()
	c := ts.srv.conns[rc.key.ProcessID]
	if c == nil {
		t.Fatal("no such session")
	}
	return c
}

// query runs a simple Query and returns its messages, ReadyForQuery
// included, joined by "|".
func (rc *rawConn) query(sql string) string {
	rc.t.Helper()
	rc.send(&pgproto3.Query{String: sql})
	return strings.Join(rc.until("ReadyForQuery"), "|")
}

const oneRow = "RowDescription 1|DataRow 1|CommandComplete SELECT 1|ReadyForQuery "

// driveToBlocking runs queries on rc, the only busy session, until its
// socket is in the blocking wait (soleWaitsToBlock waits in a row, and a
// few for the server's own count to settle); txStatus is the session's.
func driveToBlocking(t *testing.T, ts *testServer, rc *rawConn, txStatus string) *rawSock {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		// One P: the blocking wait is off (settle); these tests need it.
		prev := runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	}
	s := sockOf(t, ts, rc)
	for i := 0; i < 4*soleWaitsToBlock && !s.blocking(); i++ {
		if got := rc.query("SELECT series 1"); got != oneRow+txStatus {
			t.Fatalf("query %d: %s", i, got)
		}
	}
	if !s.blocking() {
		t.Fatal("the only busy session did not move to the blocking wait")
	}
	return s
}

// TestBlockingWaitSwitches: the only busy session moves to the blocking
// wait; another session's query moves it back to the netpoller while it
// waits idle (between statements and inside a transaction block, and in
// the middle of a message it is reading); it keeps answering right
// throughout, and returns to the blocking wait once it is alone again.
func TestBlockingWaitSwitches(t *testing.T) {
	ts, a, s := blockedSession(t)
	if ts.srv.blocker.Load() != s {
		t.Error("the blocking session does not hold the server's token")
	}

	// Between statements: b's session and query end a's blocking wait.
	b := dialRaw(t, ts.addr, "tester")
	b.until("ReadyForQuery")
	if got := b.query("SELECT series 2"); got != "RowDescription 1|DataRow 1|DataRow 2|CommandComplete SELECT 2|ReadyForQuery I" {
		t.Fatalf("b: %s", got)
	}
	waitFor(t, func() bool { return !s.blocking() })
	if got := a.query("SELECT series 1"); got != oneRow+"I" {
		t.Fatalf("a after the switch: %s", got)
	}

	// b leaves; inside a transaction block a blocks again, then b's
	// arrival moves it back.
	b.send(&pgproto3.Terminate{})
	_ = b.nc.Close()
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 1 })
	if got := a.query("BEGIN"); got != "CommandComplete BEGIN|ReadyForQuery T" {
		t.Fatalf("BEGIN: %s", got)
	}
	s = driveToBlocking(t, ts, a, "T")
	c := dialRaw(t, ts.addr, "tester")
	c.until("ReadyForQuery")
	waitFor(t, func() bool { return !s.blocking() })
	if got := a.query("SELECT series 1"); got != oneRow+"T" {
		t.Fatalf("a in its block after the switch: %s", got)
	}
	if got := a.query("COMMIT"); got != "CommandComplete COMMIT|ReadyForQuery I" {
		t.Fatalf("COMMIT: %s", got)
	}

	// In the middle of a message: a sends half a query and blocks
	// reading the rest when c's query moves it back to the netpoller.
	c.send(&pgproto3.Terminate{})
	_ = c.nc.Close()
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 1 })
	s = driveToBlocking(t, ts, a, "I")
	msg, err := (&pgproto3.Query{String: "SELECT series 3"}).Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.nc.Write(msg[:7]); err != nil {
		t.Fatal(err)
	}
	d := dialRaw(t, ts.addr, "tester")
	d.until("ReadyForQuery")
	d.query("SELECT series 1")
	waitFor(t, func() bool { return !s.blocking() })
	if _, err := a.nc.Write(msg[7:]); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(a.until("ReadyForQuery"), "|"); got != "RowDescription 1|DataRow 1|DataRow 2|DataRow 3|CommandComplete SELECT 3|ReadyForQuery I" {
		t.Fatalf("a's split query: %s", got)
	}

	// Both busy, one query each in turn: neither blocks.
	for i := 0; i < 2*soleWaitsToBlock; i++ {
		a.query("SELECT series 1")
		d.query("SELECT series 1")
	}
	if s.blocking() || sockOf(t, ts, d).blocking() {
		t.Error("a session blocked while another was busy")
	}
}

// TestBlockingWaitIdleTimeouts: idle_session_timeout and
// idle_in_transaction_session_timeout end a session waiting in the
// blocking wait with their FATAL errors, as on the netpoller.
func TestBlockingWaitIdleTimeouts(t *testing.T) {
	ts, a, s := blockedSession(t)
	a.query("SETTING idle_session_timeout 100ms")
	if !s.blocking() {
		t.Fatal("the session left the blocking wait")
	}
	e := receiveError(t, a)
	if e.Severity != "FATAL" || e.Code != "57P05" || e.Message != "terminating connection due to idle-session timeout" {
		t.Errorf("idle session: %s %s %q", e.Severity, e.Code, e.Message)
	}
	if _, err := a.fe.Receive(); err == nil || !isClosed(err) {
		t.Errorf("connection still open: %v", err)
	}

	b := dialRaw(t, ts.addr, "tester")
	b.until("ReadyForQuery")
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 1 })
	b.query("SETTING idle_in_transaction_session_timeout 100")
	s = driveToBlocking(t, ts, b, "I")
	if got := b.query("BEGIN"); got != "CommandComplete BEGIN|ReadyForQuery T" {
		t.Fatalf("BEGIN: %s", got)
	}
	e = receiveError(t, b)
	if e.Severity != "FATAL" || e.Code != "25P03" || e.Message != "terminating connection due to idle-in-transaction timeout" {
		t.Errorf("idle in transaction: %s %s %q", e.Severity, e.Code, e.Message)
	}
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 0 && ts.srv.blocker.Load() == nil })
}

// TestBlockingWaitTrickledMessageTimesOut: a message that arrives a byte
// at a time, each sooner than blockSlice, still ends at the idle timeout
// (57P05), as on the netpoller: the deadline is checked before every
// read, not only when a slice ends empty.
func TestBlockingWaitTrickledMessageTimesOut(t *testing.T) {
	_, a, s := blockedSession(t)
	a.query("SETTING idle_session_timeout 100ms")
	if !s.blocking() {
		t.Fatal("the session left the blocking wait")
	}
	msg, err := (&pgproto3.Query{String: "SELECT series 1 " + strings.Repeat("-", 400)}).Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	// Bytes one at a time until the server closes the connection (or the
	// whole message went, which the FATAL check below then fails).
	for _, c := range msg {
		if _, err := a.nc.Write([]byte{c}); err != nil {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	e := receiveError(t, a)
	if e.Severity != "FATAL" || e.Code != "57P05" {
		t.Errorf("a message trickled past the idle timeout: %s %s %q", e.Severity, e.Code, e.Message)
	}
}

// TestBlockingWaitCancelAndStatementTimeout: a session in the blocking
// wait runs a statement that statement_timeout cancels, then one a
// CancelRequest cancels (its connection is no session: the first stays
// in the blocking wait), and goes on.
func TestBlockingWaitCancelAndStatementTimeout(t *testing.T) {
	ts, a, s := blockedSession(t)

	a.send(&pgproto3.Query{String: "SETTING statement_timeout 100ms; SLEEP"})
	e := receiveError(t, a)
	if e.Code != "57014" || e.Message != "canceling statement due to statement timeout" {
		t.Errorf("statement timeout: %s %q", e.Code, e.Message)
	}
	a.until("ReadyForQuery")
	<-ts.backend.started

	a.send(&pgproto3.Query{String: "SETTING statement_timeout 0; SLEEP"})
	waitStarted(t, ts)
	cancelConn(t, ts.addr, a.key)
	e = receiveError(t, a)
	if e.Code != "57014" || e.Message != "canceling statement due to user request" {
		t.Errorf("cancel: %s %q", e.Code, e.Message)
	}
	a.until("ReadyForQuery")
	if got := a.query("SELECT series 1"); got != oneRow+"I" {
		t.Fatalf("after the cancel: %s", got)
	}
	if !s.blocking() {
		t.Error("a cancel request moved the session out of the blocking wait")
	}
}

// TestBlockingWaitTerminate: pg_terminate_backend (SessionControl's
// Terminate) of a session blocked in read(2) ends it with FATAL 57P01 and
// frees its slot and the server's token.
func TestBlockingWaitTerminate(t *testing.T) {
	ts, a, _ := blockedSession(t)
	connOf(t, ts, a).Terminate()
	if got := strings.Join(a.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 57P01" {
		t.Errorf("terminated: %s", got)
	}
	if _, err := a.fe.Receive(); err == nil || !isClosed(err) {
		t.Errorf("connection still open: %v", err)
	}
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 0 && ts.srv.blocker.Load() == nil })
}

// TestBlockingWaitShutdown: Shutdown wakes a session blocked in read(2)
// at once (it would otherwise wait for the caller's deadline and fail),
// and the client is told FATAL 57P01.
func TestBlockingWaitShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	backend := newFakeBackend()
	srv := NewServer(Config{Backend: backend})
	noIdleReturn(srv)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), ln) }()
	ts := &testServer{srv: srv, backend: backend, addr: ln.Addr().String()}

	a := dialRaw(t, ts.addr, "tester")
	a.until("ReadyForQuery")
	driveToBlocking(t, ts, a, "I")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	<-served
	if got := strings.Join(a.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 57P01" {
		t.Errorf("shut down: %s", got)
	}
}

// TestBlockingWaitClientGone: a client that disconnects while its session
// is blocked in read(2) ends the session: the server's count drops and
// the token is free for the next session, which blocks in turn.
func TestBlockingWaitClientGone(t *testing.T) {
	ts, a, _ := blockedSession(t)
	_ = a.nc.Close()
	waitFor(t, func() bool { return ts.srv.sessions.Load() == 0 && ts.srv.blocker.Load() == nil })
	ts.backend.mu.Lock()
	closed := ts.backend.sessions
	ts.backend.mu.Unlock()
	if closed != 1 {
		t.Errorf("%d sessions closed, want 1", closed)
	}
	b := dialRaw(t, ts.addr, "tester")
	b.until("ReadyForQuery")
	driveToBlocking(t, ts, b, "I")
}

// TestBlockingWaitCopyAndLargeResults: COPY FROM STDIN (whose data a
// reader goroutine reads from the blocking socket) and a result larger
// than the socket's buffers (the writes wait in poll(2)) on a session in
// the blocking wait.
func TestBlockingWaitCopyAndLargeResults(t *testing.T) {
	ts, a, s := blockedSession(t)

	a.send(&pgproto3.Query{String: "COPYIN text"})
	if got := strings.Join(a.until("CopyInResponse"), ";"); got != "CopyInResponse" {
		t.Fatalf("got %s", got)
	}
	a.send(&pgproto3.CopyData{Data: []byte("1\tone\n2\t")}, &pgproto3.CopyData{Data: []byte("\\N\n")})
	time.Sleep(20 * time.Millisecond) // the reader waits for the rest
	a.send(&pgproto3.CopyData{Data: []byte("3\tthree\n")}, &pgproto3.CopyDone{})
	if got := strings.Join(a.until("ReadyForQuery"), ";"); got != "CommandComplete COPY 3;ReadyForQuery I" {
		t.Fatalf("got %s", got)
	}
	if got := strings.Join(<-ts.backend.copied, ";"); got != "1|one;2|NULL;3|three" {
		t.Fatalf("copied %s", got)
	}
	if !s.blocking() {
		t.Error("COPY moved the session out of the blocking wait")
	}

	// About 1.7 MB of DataRows through small socket buffers, read only
	// after the server has filled them: its sends wait in poll(2) (seen
	// with strace when written). A minute's deadline: the race detector
	// is slow at this.
	const n = 100000
	if err := a.nc.(*net.TCPConn).SetReadBuffer(8 << 10); err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetsockoptInt(int(s.fd.Load()), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 8<<10); err != nil {
		t.Fatal(err)
	}
	_ = a.nc.SetDeadline(time.Now().Add(time.Minute))
	a.send(&pgproto3.Query{String: "SELECT series 100000"})
	time.Sleep(100 * time.Millisecond)
	rows := 0
	for {
		m, err := a.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*pgproto3.DataRow); ok {
			rows++
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	if rows != n {
		t.Errorf("%d rows, want %d", rows, n)
	}
	if got := a.query("SELECT series 1"); got != oneRow+"I" {
		t.Fatalf("after the large result: %s", got)
	}
}

// TestRawSockBlockingMode: rawSock's two modes on a bare socket: bytes
// move both ways out of the netpoller, a write larger than the buffers
// waits for the reader, the read and write deadlines end a blocked read or
// write with a timeout, the way back to the netpoller keeps the socket,
// and interrupt wakes a blocked read with end of stream.
func TestRawSockBlockingMode(t *testing.T) {
	client, server := tcpPair(t)
	s := newRawSock(server, rawConnOf(server), nil)
	s.idleSlices = math.MaxInt // only the deadline or the interrupt may end a read
	if !s.enterBlock() || !s.blocking() {
		t.Fatal("enterBlock failed")
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	got := make(chan []byte, 1)
	go func() {
		time.Sleep(20 * time.Millisecond)
		b, _ := io.ReadAll(io.LimitReader(client, int64(len(big))))
		got <- b
	}()
	if n, err := s.Write(big); n != len(big) || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the client read %d bytes, not what was written", len(b))
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = client.Write([]byte("hello"))
	}()
	buf := make([]byte, 16)
	if n, err := io.ReadFull(s, buf[:5]); err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("Read: %q, %v", buf[:n], err)
	}

	s.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := s.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read past the deadline: %v", err)
	}
	s.SetReadDeadline(time.Time{})
	s.SetWriteDeadline(time.Now().Add(20 * time.Millisecond))
	huge := bytes.Repeat(big, 16) // more than loopback's buffers, both ends
	sent, err := s.Write(huge)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Write nobody reads past the deadline: %v", err)
	}
	s.SetWriteDeadline(time.Time{})
	// Drain what the timed-out write left in the buffers: the bytes it
	// reports written, all of them (a drain bounded by time left some
	// behind at load 35, read below in place of "back").
	if _, err := io.CopyN(io.Discard, client, int64(sent)); err != nil {
		t.Fatalf("draining the %d bytes written: %v", sent, err)
	}

	s.leaveBlock()
	if s.blocking() {
		t.Fatal("leaveBlock failed")
	}
	if _, err := client.Write([]byte("again")); err != nil {
		t.Fatal(err)
	}
	if n, err := io.ReadFull(s, buf[:5]); err != nil || string(buf[:n]) != "again" {
		t.Fatalf("Read on the netpoller again: %q, %v", buf[:n], err)
	}
	if _, err := s.Write([]byte("back")); err != nil {
		t.Fatal(err)
	}
	if n, err := io.ReadFull(client, buf[:4]); err != nil || string(buf[:n]) != "back" {
		t.Fatalf("client read: %q, %v", buf[:n], err)
	}

	if !s.enterBlock() {
		t.Fatal("enterBlock again failed")
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		s.interrupt()
	}()
	if n, err := s.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("interrupted read: %d, %v", n, err)
	}
	s.close()
	if _, err := s.Read(buf); err == nil {
		t.Fatal("Read after close succeeded")
	}
}

// TestBlockingWaitIdleReturns: a session idle in the blocking wait goes
// back to the netpoller (blockIdleSlices), gives the token back, and
// blocks again once it is busy.
func TestBlockingWaitIdleReturns(t *testing.T) {
	ts := startServer(t, nil)
	a := dialRaw(t, ts.addr, "tester")
	a.until("ReadyForQuery")
	s := driveToBlocking(t, ts, a, "I")
	waitFor(t, func() bool { return !s.blocking() && ts.srv.blocker.Load() == nil })
	if got := a.query("SELECT series 1"); got != oneRow+"I" {
		t.Fatalf("after the return: %s", got)
	}
	driveToBlocking(t, ts, a, "I")
}

// TestBlockingWaitUnixSocket: a session on a Unix-domain socket blocks,
// answers, and is terminated as one on TCP.
func TestBlockingWaitUnixSocket(t *testing.T) {
	path := t.TempDir() + "/.s.PGSQL.5432"
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	backend := newFakeBackend()
	srv := NewServer(Config{Backend: backend})
	noIdleReturn(srv)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-served
	})
	ts := &testServer{srv: srv, backend: backend}
	nc, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	a := &rawConn{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
	a.send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "tester", "database": "db"}})
	a.until("ReadyForQuery")
	driveToBlocking(t, ts, a, "I")
	if got := a.query("SELECT series 2"); got != "RowDescription 1|DataRow 1|DataRow 2|CommandComplete SELECT 2|ReadyForQuery I" {
		t.Fatalf("blocked Unix session: %s", got)
	}
	connOf(t, ts, a).Terminate()
	if got := strings.Join(a.until("ErrorResponse"), "|"); got != "ErrorResponse FATAL 57P01" {
		t.Errorf("terminated: %s", got)
	}
	waitFor(t, func() bool { return srv.sessions.Load() == 0 && srv.blocker.Load() == nil })
}
