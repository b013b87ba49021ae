package pgwire

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestPortalContextReuse: a portal's context goes back to the connection
// for the next Bind only when its result ended normally and nothing
// cancelled it or armed a timer on it; otherwise close cancels it, and the
// next Bind gets a fresh one.
func TestPortalContextReuse(t *testing.T) {
	for _, tc := range []struct {
		name      string
		done      bool // the result was exhausted and closed
		timed     bool // statement_timeout was armed
		cancelled bool // a CancelRequest or the connection cancelled it
		reused    bool
	}{
		{name: "exhausted", done: true, reused: true},
		{name: "closed early", done: false},
		{name: "timer armed", done: true, timed: true},
		{name: "cancelled", done: true, cancelled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent, stop := context.WithCancel(context.Background())
			defer stop()
			var spare spareContext
			ctx, cancel := spare.get(parent)
			p := &portal{ctx: ctx, cancel: cancel, spare: &spare, done: tc.done, timed: tc.timed}
			if tc.cancelled {
				cancel()
			}
			p.close()
			if p.ctx != nil || p.cancel != nil {
				t.Error("a closed portal keeps its context")
			}
			next, nextCancel := spare.get(parent)
			defer nextCancel()
			if got := next == ctx; got != tc.reused {
				t.Errorf("context reused: %v, want %v", got, tc.reused)
			}
			if !tc.reused && ctx.Err() == nil {
				t.Error("a context not reused was not cancelled")
			}
			if next.Err() != nil {
				t.Errorf("the next portal's context is already done: %v", next.Err())
			}
			stop()
			if next.Err() == nil {
				t.Error("the next portal's context does not end with the connection's")
			}
		})
	}
}

// TestPortalContextAfterCancel: a statement cancelled by a CancelRequest
// (its context not reused) leaves the next executions of a prepared
// statement unaffected, and so does one that ran to its end before.
func TestPortalContextAfterCancel(t *testing.T) {
	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	rc.send(&pgproto3.Parse{Name: "s", Query: "SELECT series 2"}, &pgproto3.Parse{Name: "z", Query: "SLEEP"}, &pgproto3.Sync{})
	rc.until("ReadyForQuery")
	cancelBetweenSeries(t, ts, rc,
		[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "s"}, &pgproto3.Execute{}, &pgproto3.Sync{}},
		[]pgproto3.FrontendMessage{&pgproto3.Bind{PreparedStatement: "z"}, &pgproto3.Execute{}, &pgproto3.Sync{}})
}

// cancelBetweenSeries sends series (a statement of two rows) three times,
// then sleep, which a CancelRequest cancels (57014), then series three
// times more, each of which must answer as before.
func cancelBetweenSeries(t *testing.T, ts *testServer, rc *rawConn, series, sleep []pgproto3.FrontendMessage) {
	t.Helper()
	run := func(when string) {
		t.Helper()
		rc.send(series...)
		if got := rc.until("ReadyForQuery"); len(got) != 5 || got[3] != "CommandComplete SELECT 2" {
			t.Fatalf("%s: %v", when, got)
		}
	}
	for range 3 {
		run("before the cancel")
	}
	rc.send(sleep...)
	waitStarted(t, ts)
	cancelConn(t, ts.addr, rc.key)
	if e := receiveError(t, rc); e.Code != "57014" {
		t.Errorf("cancel: %s %q", e.Code, e.Message)
	}
	rc.until("ReadyForQuery")
	for range 3 {
		run("after the cancel")
	}
}

// TestPortalRecycle: a portal closed by Sync (closePortals) comes back from
// newPortal for the next Bind, zeroed: nothing of the previous execution
// (parameters, formats, result state, context) leaks into the next one.
func TestPortalRecycle(t *testing.T) {
	c := &conn{portals: portalSet{named: map[string]*portal{}}}
	p := c.newPortal()
	p.name, p.params, p.formats = "", p.paramBuf[:1:1], []int16{1}
	p.paramBuf[0] = int64(42)
	p.done, p.suspended, p.doneTag = true, true, "SELECT 1"
	c.portals.put(p)
	c.closePortals()
	if n := c.portals.len(); n != 0 {
		t.Fatalf("closePortals left %d portals", n)
	}
	q := c.newPortal()
	if q != p {
		t.Fatal("the closed portal was not reused")
	}
	if q.params != nil || q.formats != nil || q.paramBuf[0] != nil || q.done || q.suspended || q.doneTag != "" || q.ctx != nil {
		t.Errorf("reused portal not zeroed: %+v", *q)
	}
	if r := c.newPortal(); r == q {
		t.Error("a portal in use handed out twice")
	}
}

// TestQueryContextReuse: a statement's context (a simple Query's, a
// Parse's) serves the next statement when nothing cancelled it, and one a
// CancelRequest cancelled is replaced; a simple Query cancelled mid-run
// leaves the next ones unaffected.
func TestQueryContextReuse(t *testing.T) {
	parent, stop := context.WithCancel(context.Background())
	defer stop()
	c := &conn{}
	ctx1, cancel1 := c.beginRunning(parent)
	c.endRunning(ctx1, cancel1)
	ctx2, cancel2 := c.beginRunning(parent)
	if ctx2 != ctx1 || ctx2.Err() != nil {
		t.Fatalf("an uncancelled statement context was not reused (same %v, err %v)", ctx2 == ctx1, ctx2.Err())
	}
	c.cancelRunning() // a CancelRequest
	c.endRunning(ctx2, cancel2)
	ctx3, cancel3 := c.beginRunning(parent)
	defer c.endRunning(ctx3, cancel3)
	if ctx3 == ctx2 || ctx3.Err() != nil {
		t.Fatalf("a cancelled statement context was reused (same %v, err %v)", ctx3 == ctx2, ctx3.Err())
	}
	stop()
	if ctx3.Err() == nil {
		t.Error("the statement context does not end with the connection's")
	}

	ts := startServer(t, nil)
	rc := dialRaw(t, ts.addr, "tester")
	rc.until("ReadyForQuery")
	cancelBetweenSeries(t, ts, rc, []pgproto3.FrontendMessage{&pgproto3.Query{String: "SELECT series 2"}},
		[]pgproto3.FrontendMessage{&pgproto3.Query{String: "SLEEP"}})
}
