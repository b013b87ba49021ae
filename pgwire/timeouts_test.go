package pgwire

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

func TestParseGUCDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"250", 250 * time.Millisecond, true},
		{"250ms", 250 * time.Millisecond, true},
		{"1.5s", 1500 * time.Millisecond, true},
		{"2 min", 2 * time.Minute, true},
		{"'3s'", 3 * time.Second, true},
		{"1h", time.Hour, true},
		{"1d", 24 * time.Hour, true},
		{"500us", 500 * time.Microsecond, true},
		{"-1", -time.Millisecond, true},
		{"", 0, false},
		{"10 parsecs", 0, false},
		{"abc", 0, false},
	} {
		got, ok := parseGUCDuration(tc.in)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("parseGUCDuration(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestSettingDurationFollowsChanges: the parsed time settings a conn keeps
// (parsedDuration) follow each new value of the setting, an unparsable or
// removed one included, in any order.
func TestSettingDurationFollowsChanges(t *testing.T) {
	s := &fakeSession{settings: map[string]string{}}
	c := &conn{session: s}
	for _, step := range []struct {
		which int
		value string // "" removes the setting
		want  time.Duration
	}{
		{durStatementTimeout, "100ms", 100 * time.Millisecond},
		{durStatementTimeout, "100ms", 100 * time.Millisecond},
		{durStatementTimeout, "2s", 2 * time.Second},
		{durStatementTimeout, "0", 0},
		{durStatementTimeout, "bogus", 0},
		{durStatementTimeout, "5min", 5 * time.Minute},
		{durStatementTimeout, "", 0},
		{durStatementTimeout, "7", 7 * time.Millisecond},
		{durIdleSession, "1s", time.Second},
		{durIdleInTransaction, "-5", 0},
		{durIdleInTransaction, "30s", 30 * time.Second},
		{durIdleSession, "1s", time.Second},
		{durStatementTimeout, "7", 7 * time.Millisecond},
	} {
		name := durationSettingNames[step.which]
		if step.value == "" {
			delete(s.settings, name)
		} else {
			s.settings[name] = step.value
		}
		if got := c.settingDuration(step.which); got != step.want {
			t.Errorf("%s = %q: %v, want %v", name, step.value, got, step.want)
		}
	}
}

// receiveError reads messages until an ErrorResponse and returns it.
func receiveError(t *testing.T, rc *rawConn) *pgproto3.ErrorResponse {
	t.Helper()
	for {
		msg, err := rc.fe.Receive()
		if err != nil {
			t.Fatalf("receive: %v", err)
		}
		if e, ok := msg.(*pgproto3.ErrorResponse); ok {
			cp := *e
			return &cp
		}
	}
}

// TestStatementTimeout: a statement running past statement_timeout is
// cancelled with PostgreSQL's 57014 message, under the simple and the
// extended protocol, and the session goes on.
func TestStatementTimeout(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")

	start := time.Now()
	// The SET takes effect for the next statement of the same string.
	rc.send(&pgproto3.Query{String: "SETTING statement_timeout 100ms; SLEEP"})
	e := receiveError(t, rc)
	if e.Code != "57014" || e.Message != "canceling statement due to statement timeout" || e.Severity != "ERROR" {
		t.Errorf("simple: %s %s %q", e.Severity, e.Code, e.Message)
	}
	if got := rc.until("ReadyForQuery"); got[len(got)-1] != "ReadyForQuery I" {
		t.Errorf("after timeout: %v", got)
	}
	if el := time.Since(start); el < 100*time.Millisecond || el > 5*time.Second {
		t.Errorf("timeout after %v", el)
	}

	rc.send(&pgproto3.Parse{Query: "SLEEP"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	e = receiveError(t, rc)
	if e.Code != "57014" || e.Message != "canceling statement due to statement timeout" {
		t.Errorf("extended: %s %q", e.Code, e.Message)
	}
	rc.until("ReadyForQuery")

	// Quick statements are unaffected, the timer of each one is reset.
	for range 3 {
		rc.send(&pgproto3.Query{String: "SELECT series 2"})
		if got := rc.until("ReadyForQuery"); len(got) != 5 || got[3] != "CommandComplete SELECT 2" {
			t.Fatalf("after timeouts: %v", got)
		}
	}

	// A CancelRequest still says "user request".
	for len(ts.backend.started) > 0 {
		<-ts.backend.started // the SLEEPs above
	}
	rc.send(&pgproto3.Query{String: "SETTING statement_timeout 0; SLEEP"})
	waitStarted(t, ts)
	cancelConn(t, ts.addr, rc.key)
	e = receiveError(t, rc)
	if e.Code != "57014" || e.Message != "canceling statement due to user request" {
		t.Errorf("cancel: %s %q", e.Code, e.Message)
	}
	rc.until("ReadyForQuery")
}

func waitStarted(t *testing.T, ts *testServer) {
	t.Helper()
	select {
	case <-ts.backend.started:
	case <-time.After(5 * time.Second):
		t.Fatal("statement did not start")
	}
}

func cancelConn(t *testing.T, addr string, key *pgproto3.BackendKeyData) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	b, _ := (&pgproto3.CancelRequest{ProcessID: key.ProcessID, SecretKey: key.SecretKey}).Encode(nil)
	if _, err := nc.Write(b); err != nil {
		t.Fatal(err)
	}
	_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _ = io.Copy(io.Discard, nc)
}

// TestIdleTimeouts: idle_in_transaction_session_timeout ends a session idle
// in a transaction block with FATAL 25P03, and only then;
// idle_session_timeout ends one idle outside with FATAL 57P05.
func TestIdleTimeouts(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	// The limit is well above the gaps of the busy loop below, so that a
	// loaded machine (make test runs packages in parallel) cannot stretch
	// a gap past it.
	rc.send(&pgproto3.Query{String: "SETTING idle_in_transaction_session_timeout 400"})
	rc.until("ReadyForQuery")
	// Idle outside a transaction block: nothing happens.
	time.Sleep(600 * time.Millisecond)
	rc.send(&pgproto3.Query{String: "BEGIN"})
	if got := rc.until("ReadyForQuery"); got[len(got)-1] != "ReadyForQuery T" {
		t.Fatalf("BEGIN: %v", got)
	}
	// Busy inside it, with messages closer together than the limit.
	for range 4 {
		time.Sleep(40 * time.Millisecond)
		rc.send(&pgproto3.Query{String: "SELECT series 1"})
		rc.until("ReadyForQuery")
	}
	start := time.Now()
	e := receiveError(t, rc)
	if e.Severity != "FATAL" || e.Code != "25P03" || e.Message != "terminating connection due to idle-in-transaction timeout" {
		t.Errorf("idle in transaction: %s %s %q", e.Severity, e.Code, e.Message)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("ended after %v", el)
	}
	if _, err := rc.fe.Receive(); err == nil || !isClosed(err) {
		t.Errorf("connection still open: %v", err)
	}

	rc2 := dialRaw(t, ts.addr, "tester")
	rc2.until("ReadyForQuery")
	rc2.send(&pgproto3.Query{String: "SETTING idle_session_timeout 100ms"})
	rc2.until("ReadyForQuery")
	e = receiveError(t, rc2)
	if e.Severity != "FATAL" || e.Code != "57P05" || e.Message != "terminating connection due to idle-session timeout" {
		t.Errorf("idle session: %s %s %q", e.Severity, e.Code, e.Message)
	}
}

func isClosed(err error) bool {
	var ne net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || !(errors.As(err, &ne) && ne.Timeout())
}

// BenchmarkSimpleQueryRoundTrip: one simple Query ("BEGIN" to the fake
// session) and its answer over a loopback socket, client (pgx) and server
// in this process: what pgwire's Query path costs per message, a
// transaction's BEGIN and COMMIT each being one.
func BenchmarkSimpleQueryRoundTrip(b *testing.B) {
	ts := startServer(b, nil)
	conn := ts.connect(b, pgx.QueryExecModeSimpleProtocol)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
			b.Fatal(err)
		}
	}
}
