package activity

import (
	"context"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

type fakeControl struct{ cancels, terms int }

func (f *fakeControl) CancelStatement()              { f.cancels++ }
func (f *fakeControl) Terminate()                    { f.terms++ }
func (f *fakeControl) Setting(string) (string, bool) { return "", false }

type roles map[string]bool

func (r roles) Role(name string) (bool, bool) { s, ok := r[name]; return ok, s }

// TestStateMachine: state, xact_start and query follow the events as
// PostgreSQL's pg_stat_activity does: a transaction block keeps its
// start across statements, ReadyForQuery 'I' ends it.
func TestStateMachine(t *testing.T) {
	r := New(nil, nil)
	b := r.Register(pgwire.SessionInfo{User: "u", Database: "d", ProcessID: 7, RemoteAddr: "10.0.0.1:5555",
		Params: map[string]string{"application_name": "app"}}, &fakeControl{}, ClientBackend)
	row := func() Row { x, _ := r.Lookup(7); return x }
	if x := row(); x.State != "idle" || x.ClientAddr != "10.0.0.1" || x.ClientPort != 5555 || x.ApplicationName != "app" || !x.XactStart.IsZero() {
		t.Fatalf("new session: %+v", x)
	}
	t0 := time.Now()
	b.StatementStarted("BEGIN", t0)
	b.Ready('T')
	b.StatementStarted("SELECT 1", t0.Add(time.Second))
	if x := row(); x.State != "active" || x.Query != "SELECT 1" || !x.XactStart.Equal(t0) || !x.QueryStart.Equal(t0.Add(time.Second)) {
		t.Errorf("in a block: %+v", x)
	}
	b.Ready('E')
	if x := row(); x.State != "idle in transaction (aborted)" || x.WaitEvent != "ClientRead" {
		t.Errorf("failed block: %+v", x)
	}
	b.Ready('I')
	if x := row(); x.State != "idle" || !x.XactStart.IsZero() || x.Query != "SELECT 1" {
		t.Errorf("after the block: %+v", x)
	}
	b.Ended()
	if _, ok := r.Lookup(7); ok {
		t.Error("an ended session is still listed")
	}
}

func TestSplitAddr(t *testing.T) {
	for _, c := range []struct {
		in   string
		host string
		port int
	}{{"127.0.0.1:5432", "127.0.0.1", 5432}, {"[::1]:40000", "::1", 40000}, {"", "", -1}, {"/tmp/.s.PGSQL.5432", "", -1}} {
		if h, p := splitAddr(c.in); h != c.host || p != c.port {
			t.Errorf("splitAddr(%q) = %q, %d", c.in, h, p)
		}
	}
}

// TestSignalRules: PostgreSQL 15's pg_signal_backend rules, table-driven.
func TestSignalRules(t *testing.T) {
	rs := roles{"admin": true, "alice": false, "bob": false}
	for _, c := range []struct {
		caller, target string
		terminate      bool
		code           sqlerr.Code
	}{
		{"admin", "alice", false, ""}, {"admin", "admin", true, ""}, {"alice", "alice", true, ""},
		{"bob", "alice", false, sqlerr.InsufficientPrivilege}, {"bob", "alice", true, sqlerr.InsufficientPrivilege},
		{"alice", "admin", false, sqlerr.InsufficientPrivilege}, {"alice", "admin", true, sqlerr.InsufficientPrivilege},
	} {
		r := New(rs, nil)
		ctl := &fakeControl{}
		r.Register(pgwire.SessionInfo{User: c.target, ProcessID: 9}, ctl, ClientBackend)
		ok, err := r.Signal(context.Background(), c.caller, 9, c.terminate, 0)
		if (c.code == "") != (err == nil) || err != nil && sqlerr.CodeOf(err) != c.code || ok != (c.code == "") {
			t.Errorf("%s signals %s (terminate %v): %v %v", c.caller, c.target, c.terminate, ok, err)
		}
		if want := c.code == ""; want != (ctl.cancels+ctl.terms == 1) {
			t.Errorf("%s signals %s: control called %d+%d times", c.caller, c.target, ctl.cancels, ctl.terms)
		}
	}
	if ok, err := New(rs, nil).Signal(context.Background(), "admin", 12345, true, 0); ok || err != nil {
		t.Errorf("no such pid: %v %v", ok, err)
	}
}
