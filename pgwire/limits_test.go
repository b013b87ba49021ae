package pgwire

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestMaxConnectionsPerUser: one user beyond its limit gets FATAL 53300
// with PostgreSQL's message; other users are not affected, and the slot is
// free again once the session ends.
func TestMaxConnectionsPerUser(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxConnectionsPerUser = 1 })
	a := dialRaw(t, ts.addr, "alice")
	a.until("ReadyForQuery")

	a2 := dialRaw(t, ts.addr, "alice")
	e := receiveError(t, a2)
	if e.Severity != "FATAL" || e.Code != "53300" || e.Message != `too many connections for role "alice"` {
		t.Errorf("second alice: %s %s %q", e.Severity, e.Code, e.Message)
	}

	b := dialRaw(t, ts.addr, "bob")
	b.until("ReadyForQuery")

	a.send(&pgproto3.Terminate{})
	_ = a.nc.Close()
	for deadline := time.Now().Add(5 * time.Second); ; {
		again := dialRaw(t, ts.addr, "alice")
		msg, err := again.fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.AuthenticationOk); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice still refused: %#v", msg)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMaxRowSize: a row larger than MaxRowSize fails its statement with
// 54000, under the simple and extended protocols and in COPY TO, and the
// session keeps serving.
func TestMaxRowSize(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxRowSize = 40 })
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")

	check := func(what string, msgs ...pgproto3.FrontendMessage) {
		t.Helper()
		rc.send(msgs...)
		got := rc.until("ReadyForQuery")
		joined := strings.Join(got, "|")
		if !strings.Contains(joined, "ErrorResponse ERROR 54000") || strings.Contains(joined, "DataRow") {
			t.Errorf("%s: %v", what, got)
		}
	}
	// "SELECT types" has one row of about 150 bytes.
	check("simple", &pgproto3.Query{String: "SELECT types"})
	check("extended", &pgproto3.Parse{Query: "SELECT types"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})

	rc.send(&pgproto3.Query{String: "SELECT series 2"})
	if got := strings.Join(rc.until("ReadyForQuery"), "|"); got != "RowDescription 1|DataRow 1|DataRow 2|CommandComplete SELECT 2|ReadyForQuery I" {
		t.Errorf("small rows after the error: %s", got)
	}

	small := startServer(t, func(c *Config) { c.MaxRowSize = 2 })
	rc2 := dialRaw(t, small.addr, "tester")
	rc2.until("ReadyForQuery")
	rc2.send(&pgproto3.Query{String: "COPYOUT text"})
	if got := strings.Join(rc2.until("ReadyForQuery"), "|"); !strings.HasSuffix(got, "ErrorResponse ERROR 54000|ReadyForQuery I") {
		t.Errorf("COPY TO: %s", got)
	}
}
