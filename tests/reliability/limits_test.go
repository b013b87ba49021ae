package reliability

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// limitServer is an engine and a wire server wired as server.Start wires
// them, with the limits server.Start does not expose yet.
type limitServer struct {
	addr     string
	spillDir string
	events   *executions
}

type limitConfig struct {
	queryMemory    int64
	maxConnections int
	maxMessage     int
}

func startLimitServer(t *testing.T, cfg limitConfig) *limitServer {
	t.Helper()
	dir := t.TempDir()
	store, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spill := t.TempDir()
	eng := engine.New(store, engine.Options{QueryMemoryLimit: cfg.queryMemory, SpillDir: spill})
	ev := &executions{}
	wire := pgwire.NewServer(pgwire.Config{
		Backend:        &observedBackend{Backend: eng, events: ev},
		MaxConnections: cfg.maxConnections,
		MaxMessageSize: cfg.maxMessage,
		ServerVersion:  engine.ServerVersion,
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() { wire.Serve(context.Background(), ln); close(served) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		wire.Shutdown(ctx)
		<-served
		store.Close()
	})
	return &limitServer{addr: ln.Addr().String(), spillDir: spill, events: ev}
}

func (s *limitServer) connString() string {
	return "postgres://sqlgate@" + s.addr + "/sqlgate?sslmode=disable&connect_timeout=10"
}

// loadBig fills big(id, grp, name) with n rows: grp = id % groups and
// name a 40-character string that sorts like id.
func loadBig(t *testing.T, conn *pgx.Conn, n, groups int) {
	t.Helper()
	mustExec(t, conn, "CREATE TABLE big (id BIGINT NOT NULL, grp INT NOT NULL, name TEXT NOT NULL)")
	rows := make([][]any, n)
	for i := range rows {
		rows[i] = []any{int64(i), int32(i % groups), bigName(i)}
	}
	if got, err := conn.CopyFrom(context.Background(), pgx.Identifier{"big"}, []string{"id", "grp", "name"}, pgx.CopyFromRows(rows)); err != nil || got != int64(n) {
		t.Fatalf("CopyFrom: %d %v", got, err)
	}
}

func bigName(i int) string { return fmt.Sprintf("name-%08d-%s", i, strings.Repeat("x", 26)) }

// TestQueryMemoryLimitHolds: with a 256 KiB per-query limit, a query whose
// state cannot spill fails with 53200 while other sessions keep working,
// and queries that can spill (GROUP BY, ORDER BY) spill to the spill
// directory, return the right answer and leave no spill file behind.
func TestQueryMemoryLimitHolds(t *testing.T) {
	const rows, groups = 20000, 5000
	srv := startLimitServer(t, limitConfig{queryMemory: 256 << 10})
	ctx := context.Background()
	a := connect(t, srv.connString())
	b := connect(t, srv.connString())
	loadBig(t, a, rows, groups)

	// An aggregate without GROUP BY keeps all its state in one group: it
	// cannot spill, so it must stop at the limit.
	var s string
	err := a.QueryRow(ctx, "SELECT string_agg(name, ',') FROM big").Scan(&s)
	if code := sqlState(err); code != "53200" {
		t.Errorf("string_agg over %d rows under a 256 KiB limit: %v (SQLSTATE %q), want 53200", rows, err, code)
	}
	// The failing session and the others keep serving.
	for name, c := range map[string]*pgx.Conn{"the failed session": a, "another session": b} {
		var n int64
		if err := c.QueryRow(ctx, "SELECT count(*) FROM big").Scan(&n); err != nil || n != rows {
			t.Errorf("%s after 53200: count(*) = %d, %v", name, n, err)
		}
	}

	// GROUP BY with more groups than fit: spills and is still right.
	r, err := b.Query(ctx, "SELECT grp, count(*), min(name), max(id) FROM big GROUP BY grp")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int32]bool{}
	for r.Next() {
		var grp int32
		var n, maxID int64
		var minName string
		if err := r.Scan(&grp, &n, &minName, &maxID); err != nil {
			t.Fatal(err)
		}
		if seen[grp] {
			t.Errorf("group %d returned twice", grp)
		}
		seen[grp] = true
		lastID := int64(grp) + int64(rows-groups)
		if n != rows/groups || minName != bigName(int(grp)) || maxID != lastID {
			t.Errorf("group %d: count %d min %q max %d, want %d %q %d", grp, n, minName, maxID, rows/groups, bigName(int(grp)), lastID)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatalf("GROUP BY over the limit: %v", err)
	}
	if len(seen) != groups {
		t.Errorf("GROUP BY returned %d groups, want %d", len(seen), groups)
	}

	// ORDER BY of ~1 MiB under a 256 KiB limit: an external sort. Its runs
	// live in the spill directory from the first spill to the end of the
	// merge; a watcher records whether any appeared. (Checking when the
	// first row arrives is not enough: the whole result fits the socket
	// buffers, so on a loaded machine the server may finish, and remove
	// its runs, before the client reads a row.)
	spilled := make(chan bool, 1)
	stop := make(chan struct{})
	go func() {
		for {
			if runs, err := os.ReadDir(srv.spillDir); err == nil && len(runs) > 0 {
				spilled <- true
				return
			}
			select {
			case <-stop:
				spilled <- false
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	r, err = a.Query(ctx, "SELECT id, name FROM big ORDER BY name DESC")
	if err != nil {
		t.Fatal(err)
	}
	want := int64(rows - 1)
	for r.Next() {
		var id int64
		var name string
		if err := r.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		if id != want || name != bigName(int(want)) {
			t.Fatalf("ORDER BY DESC: row %d is id %d, want %d", rows-1-want, id, want)
		}
		want--
	}
	close(stop)
	if !<-spilled {
		t.Errorf("ORDER BY over the limit returned its rows but nothing spilled to %s", srv.spillDir)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("ORDER BY over the limit: %v", err)
	}
	if want != -1 {
		t.Errorf("ORDER BY returned %d rows, want %d", rows-1-want, rows)
	}

	// Window functions over one partition of ~1 MiB: the partition spills
	// and the functions stream over it (row_number, a running sum, lag).
	r, err = b.Query(ctx, "SELECT id, row_number() OVER (ORDER BY id), sum(id) OVER (ORDER BY id), lag(name) OVER (ORDER BY id) FROM big ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	next := int64(0)
	for r.Next() {
		var id, rn int64
		var sum pgtype.Numeric
		var prev pgtype.Text
		if err := r.Scan(&id, &rn, &sum, &prev); err != nil {
			t.Fatal(err)
		}
		var total int64
		if v, err := sum.Int64Value(); err == nil {
			total = v.Int64
		}
		wantPrev := pgtype.Text{}
		if id > 0 {
			wantPrev = pgtype.Text{String: bigName(int(id - 1)), Valid: true}
		}
		if id != next || rn != id+1 || total != id*(id+1)/2 || prev != wantPrev {
			t.Fatalf("window row %d: id %d row_number %d sum %d lag %v", next, id, rn, total, prev)
		}
		next++
	}
	if err := r.Err(); err != nil || next != rows {
		t.Fatalf("window functions over the limit: %d rows, %v", next, err)
	}
	// A sliding frame cannot stream over a spilled partition: 53200. The
	// window reads name and the outer count reads the window's value: the
	// partition spills only when it holds the wide column (a window's
	// input keeps only what its functions read), and an unread window
	// output is pruned as PostgreSQL's remove_unused_subquery_outputs does.
	var n int64
	err = a.QueryRow(ctx, "SELECT count(w) FROM (SELECT max(name) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS w FROM big) s").Scan(&n)
	if code := sqlState(err); code != "53200" {
		t.Errorf("sliding window frame over the limit: %v (SQLSTATE %q), want 53200", err, code)
	}

	entries, err := os.ReadDir(srv.spillDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		t.Errorf("spill directory holds %d entries after the queries ended: %v", len(entries), entries[0].Name())
	}
}

// TestOversizedMessageIsRefused: a message longer than MaxMessageSize gets
// FATAL 08P01 before its body is read, and other sessions are unaffected.
func TestOversizedMessageIsRefused(t *testing.T) {
	srv := startLimitServer(t, limitConfig{maxMessage: 64 << 10})
	other := connect(t, srv.connString())

	// A raw client announces a 1 GiB Query and sends no body: the server
	// must answer from the length prefix alone, without waiting for (or
	// allocating) the body.
	nc, fe := rawConnect(t, srv.addr)
	var hdr [5]byte
	hdr[0] = 'Q'
	binary.BigEndian.PutUint32(hdr[1:], 1<<30)
	if _, err := nc.Write(hdr[:]); err != nil {
		t.Fatal(err)
	}
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	msg, err := fe.Receive()
	if er, ok := msg.(*pgproto3.ErrorResponse); err != nil || !ok || er.Code != "08P01" || er.Severity != "FATAL" {
		t.Fatalf("1 GiB message: got %T %+v, %v; want FATAL 08P01", msg, msg, err)
	}
	if _, err := fe.Receive(); err == nil {
		t.Error("the connection stays open after FATAL 08P01")
	}

	// Through pgx: a 100 KB query text.
	c := connect(t, srv.connString())
	_, err = c.Exec(context.Background(), "SELECT '"+strings.Repeat("x", 100<<10)+"'")
	if code := sqlState(err); code != "08P01" {
		t.Errorf("100 KB query through pgx: %v (SQLSTATE %q), want 08P01", err, code)
	}

	var one int
	if err := other.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("another session after 08P01: %d %v", one, err)
	}
}

// TestTooManyConnections: beyond MaxConnections a client gets FATAL 53300,
// and a slot freed by a closing client is available again.
func TestTooManyConnections(t *testing.T) {
	const max = 3
	srv := startLimitServer(t, limitConfig{maxConnections: max})
	ctx := context.Background()
	conns := make([]*pgx.Conn, max)
	for i := range conns {
		conns[i] = connect(t, srv.connString())
	}
	_, err := pgx.Connect(ctx, srv.connString())
	if code := sqlState(err); code != "53300" {
		t.Fatalf("connection %d of %d: %v (SQLSTATE %q), want 53300", max+1, max, err, code)
	}
	conns[0].Close(ctx)
	// The slot is released when the server sees the Terminate; poll briefly.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := pgx.Connect(ctx, srv.connString())
		if err == nil {
			c.Close(ctx)
			break
		}
		if sqlState(err) != "53300" || time.Now().After(deadline) {
			t.Fatalf("after a client closed: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, c := range conns[1:] {
		var one int
		if err := c.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			t.Errorf("an admitted session: %v", err)
		}
	}
}

// TestClosedSocketCancelsStatement: a client that closes its socket while
// a long query runs must not leave the query running: the statement's
// context is cancelled and its result closed promptly.
func TestClosedSocketCancelsStatement(t *testing.T) {
	srv := startLimitServer(t, limitConfig{})
	setup := connect(t, srv.connString())
	loadBig(t, setup, 2000, 7)
	var one int
	if err := setup.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Fatal(err)
	}

	nc, fe := rawConnect(t, srv.addr)
	// 2000^3 = 8e9 joined rows: far longer than the test.
	const long = "SELECT count(*) FROM big a, big b, big c WHERE a.id + b.id + c.id > -1"
	fe.Send(&pgproto3.Query{String: long})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	started, ok := srv.events.waitFor(long, "execute", 20*time.Second)
	if !ok {
		t.Fatal("the long query never started")
	}
	time.Sleep(200 * time.Millisecond) // let it get going
	if _, done := srv.events.find(long, "closed"); done {
		t.Fatal("the long query finished on its own; the test needs a longer one")
	}
	closedAt := time.Now()
	nc.Close()
	if at, ok := srv.events.waitFor(long, "cancelled", 5*time.Second); !ok {
		t.Error("closing the socket did not cancel the statement's context within 5 s")
	} else {
		t.Logf("statement context cancelled %v after the socket closed (started %v before)", at.Sub(closedAt).Round(time.Millisecond), closedAt.Sub(started).Round(time.Millisecond))
	}
	if at, ok := srv.events.waitFor(long, "closed", 10*time.Second); !ok {
		t.Error("the statement was still running 10 s after its client's socket closed")
	} else {
		t.Logf("statement stopped %v after the socket closed", at.Sub(closedAt).Round(time.Millisecond))
	}
	if err := setup.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Errorf("another session afterwards: %v", err)
	}
}

// TestPanicInSessionIsContained: a statement whose execution panics gets
// XX000, and the server, the session and other sessions keep working.
func TestPanicInSessionIsContained(t *testing.T) {
	srv := startLimitServer(t, limitConfig{})
	ctx := context.Background()
	c := connect(t, srv.connString())
	other := connect(t, srv.connString())
	_, err := c.Exec(ctx, "SELECT /* panic */ 1")
	if code := sqlState(err); code != "XX000" {
		t.Errorf("panicking statement: %v (SQLSTATE %q), want XX000", err, code)
	}
	for name, conn := range map[string]*pgx.Conn{"the session": c, "another session": other} {
		var one int
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Errorf("%s after a panic: %d %v", name, one, err)
		}
	}
	fresh := connect(t, srv.connString())
	if _, err := fresh.Exec(ctx, "SELECT 1"); err != nil {
		t.Errorf("a new session after a panic: %v", err)
	}
}

// rawConnect opens a protocol-level client and completes the startup.
func rawConnect(t *testing.T, addr string) (net.Conn, *pgproto3.Frontend) {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "sqlgate", "database": "sqlgate"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatalf("startup: %v", err)
		}
		switch m := msg.(type) {
		case *pgproto3.ErrorResponse:
			t.Fatalf("startup: %s %s", m.Code, m.Message)
		case *pgproto3.ReadyForQuery:
			nc.SetReadDeadline(time.Time{})
			return nc, fe
		}
	}
}

// executions records what happened to each executed statement, by SQL.
type executions struct {
	mu     sync.Mutex
	events []execEvent
	notify chan struct{}
}

type execEvent struct {
	sql, what string
	at        time.Time
}

func (e *executions) add(sql, what string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.events = append(e.events, execEvent{sql, what, time.Now()})
	if e.notify != nil {
		close(e.notify)
		e.notify = nil
	}
}

func (e *executions) find(sql, what string) (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, ev := range e.events {
		if strings.Contains(ev.sql, sql) && ev.what == what {
			return ev.at, true
		}
	}
	return time.Time{}, false
}

func (e *executions) waitFor(sql, what string, d time.Duration) (time.Time, bool) {
	deadline := time.After(d)
	for {
		e.mu.Lock()
		if e.notify == nil {
			e.notify = make(chan struct{})
		}
		ch := e.notify
		e.mu.Unlock()
		if at, ok := e.find(sql, what); ok {
			return at, true
		}
		select {
		case <-ch:
		case <-deadline:
			return time.Time{}, false
		}
	}
}

// observedBackend wraps the engine to see, from the server's side, when a
// statement starts, when its context is cancelled and when its result is
// closed; a statement containing "/* panic */" panics, standing in for a
// bug anywhere below the wire server.
type observedBackend struct {
	pgwire.Backend
	events *executions
}

func (b *observedBackend) NewSession(ctx context.Context, info pgwire.SessionInfo) (pgwire.Session, error) {
	s, err := b.Backend.NewSession(ctx, info)
	if err != nil {
		return nil, err
	}
	return &observedSession{Session: s, events: b.events}, nil
}

type observedSession struct {
	pgwire.Session
	events *executions
}

func (s *observedSession) Prepare(ctx context.Context, sql string, oids []uint32) ([]pgwire.Statement, error) {
	stmts, err := s.Session.Prepare(ctx, sql, oids)
	for i, st := range stmts {
		// The wire server serves a statement as COPY when it implements
		// CopyStatement with a format; those pass through unwrapped.
		if cs, ok := st.(pgwire.CopyStatement); !ok || cs.CopyOptions().Format == "" {
			stmts[i] = &observedStatement{Statement: st, events: s.events}
		}
	}
	return stmts, err
}

type observedStatement struct {
	pgwire.Statement
	events *executions
}

func (st *observedStatement) Execute(ctx context.Context, params []any) (pgwire.Result, error) {
	if strings.Contains(st.SQL(), "/* panic */") {
		panic("observedStatement: a deliberate panic")
	}
	st.events.add(st.SQL(), "execute")
	r, err := st.Statement.Execute(ctx, params)
	if err != nil {
		return nil, err
	}
	or := &observedResult{Result: r, sql: st.SQL(), events: st.events, done: make(chan struct{})}
	go func() {
		select {
		case <-ctx.Done():
			st.events.add(st.SQL(), "cancelled")
		case <-or.done:
		}
	}()
	return or, nil
}

type observedResult struct {
	pgwire.Result
	sql    string
	events *executions
	once   sync.Once
	done   chan struct{}
}

func (r *observedResult) Close() {
	r.Result.Close()
	r.once.Do(func() {
		r.events.add(r.sql, "closed")
		close(r.done)
	})
}
