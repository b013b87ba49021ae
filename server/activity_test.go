package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/pgwire"
)

// usersServer starts a server with password authentication: admin is a
// superuser, alice and bob are not. It returns a connect function.
func usersServer(t *testing.T) func(user string) *pgx.Conn {
	t.Helper()
	var users pgwire.Users
	for _, u := range []string{"admin", "alice", "bob"} {
		if err := users.SetPassword(u, u+"-pw", false); err != nil {
			t.Fatal(err)
		}
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	srv, err := Start(context.Background(), Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(t.TempDir(), "data"),
		Auth: pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: &users, FailureDelay: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	return func(user string) *pgx.Conn {
		t.Helper()
		url := fmt.Sprintf("postgres://%s:%s-pw@%s/sqlgate?sslmode=disable&application_name=app_%s", user, user, srv.Addr(), user)
		c, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
}

func pidOf(t *testing.T, c *pgx.Conn) int32 {
	t.Helper()
	var pid int32
	if err := c.QueryRow(context.Background(), "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	return pid
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// TestStatActivity: pg_stat_activity lists every session with PostgreSQL
// 15's state, query and timestamps; another user's session shows its
// identity only, as in PostgreSQL.
func TestStatActivity(t *testing.T) {
	connect := usersServer(t)
	ctx := context.Background()
	admin, alice := connect("admin"), connect("alice")
	alicePID := pidOf(t, alice)
	if _, err := alice.Exec(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Exec(ctx, "SELECT 42"); err != nil {
		t.Fatal(err)
	}
	q := `SELECT usename, application_name, coalesce(client_addr::text, ''), client_port > 0, coalesce(state, 'NULL'), query,
		backend_type, xact_start IS NOT NULL, xact_start <= query_start, query_start <= state_change,
		backend_start <= query_start, coalesce(wait_event, 'NULL')
		FROM pg_stat_activity WHERE pid = $1`
	type act struct {
		user, app, addr                    string
		port                               bool
		state, query, btype                string
		hasXact, xactFirst, qFirst, bFirst bool
		wait                               string
	}
	read := func(c *pgx.Conn, pid int32) act {
		t.Helper()
		var a act
		if err := c.QueryRow(ctx, q, pid).Scan(&a.user, &a.app, &a.addr, &a.port, &a.state, &a.query, &a.btype,
			&a.hasXact, &a.xactFirst, &a.qFirst, &a.bFirst, &a.wait); err != nil {
			t.Fatal(err)
		}
		return a
	}
	want := act{"alice", "app_alice", "127.0.0.1/32", true, "idle in transaction", "SELECT 42", "client backend", true, true, true, true, "ClientRead"}
	if got := read(admin, alicePID); got != want {
		t.Errorf("alice's session as admin sees it:\n got %+v\nwant %+v", got, want)
	}
	// The transaction ends: idle, no xact_start; SET application_name shows.
	if _, err := alice.Exec(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Exec(ctx, "SET application_name = 'renamed'"); err != nil {
		t.Fatal(err)
	}
	var state, app string
	var xactNull bool
	if err := admin.QueryRow(ctx, "SELECT state, application_name, xact_start IS NULL FROM pg_stat_activity WHERE pid = $1", alicePID).Scan(&state, &app, &xactNull); err != nil {
		t.Fatal(err)
	}
	if state != "idle" || app != "renamed" || !xactNull {
		t.Errorf("after COMMIT and SET: state %q, application_name %q, xact_start NULL %v", state, app, xactNull)
	}
	// The asking session is active, running this very query.
	var myState, myQuery string
	if err := alice.QueryRow(ctx, "SELECT state, query FROM pg_stat_activity WHERE pid = pg_backend_pid()").Scan(&myState, &myQuery); err != nil {
		t.Fatal(err)
	}
	if myState != "active" || !strings.Contains(myQuery, "pg_backend_pid()") {
		t.Errorf("own session: %q %q", myState, myQuery)
	}
	// alice may not see what admin runs.
	var qtext string
	var stateNull, startNull bool
	if err := alice.QueryRow(ctx, "SELECT query, state IS NULL, backend_start IS NULL FROM pg_stat_activity WHERE usename = 'admin'").Scan(&qtext, &stateNull, &startNull); err != nil {
		t.Fatal(err)
	}
	if qtext != "<insufficient privilege>" || !stateNull || !startNull {
		t.Errorf("admin's session as alice sees it: %q, state NULL %v, backend_start NULL %v", qtext, stateNull, startNull)
	}
	// A closed session leaves the view.
	bob := connect("bob")
	bobPID := pidOf(t, bob)
	bob.Close(ctx)
	waitFor(t, func() bool {
		var n int
		if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", bobPID).Scan(&n); err != nil {
			t.Fatal(err) // else a failing query would read as "bob has left"
		}
		return n == 0
	})
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blockOnLock makes victim wait for a row lock holder keeps, and returns
// the channel its statement's error arrives on once it ends.
func blockOnLock(t *testing.T, holder, victim, watcher *pgx.Conn) <-chan error {
	t.Helper()
	ctx := context.Background()
	for _, s := range []string{"CREATE TABLE IF NOT EXISTS locked (id INT PRIMARY KEY, n INT)", "INSERT INTO locked VALUES (1, 0) ON CONFLICT DO NOTHING",
		"GRANT ALL ON locked TO PUBLIC", "BEGIN", "SELECT n FROM locked WHERE id = 1 FOR UPDATE"} {
		if _, err := holder.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	victimPID := pidOf(t, victim)
	done := make(chan error, 1)
	go func() {
		_, err := victim.Exec(ctx, "UPDATE locked SET n = n + 1 WHERE id = 1")
		done <- err
	}()
	waitFor(t, func() bool {
		var w string
		_ = watcher.QueryRow(ctx, "SELECT coalesce(wait_event_type, '') FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", victimPID).Scan(&w)
		return w == "Lock"
	})
	return done
}

// TestCancelBackend: pg_cancel_backend ends another session's running
// statement with 57014 and the session stays usable; only a superuser or
// the same user may, else 42501 worded as PostgreSQL 15 words it.
func TestCancelBackend(t *testing.T) {
	connect := usersServer(t)
	ctx := context.Background()
	admin, alice, alice2, bob := connect("admin"), connect("alice"), connect("alice"), connect("bob")
	done := blockOnLock(t, admin, alice, admin)
	adminPID := pidOf(t, admin)
	var victim int32
	if err := admin.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'").Scan(&victim); err != nil {
		t.Fatal(err)
	}

	// pgAdmin's dashboard shows who blocks whom.
	var blockers []int32
	if err := admin.QueryRow(ctx, "SELECT pg_blocking_pids($1)", victim).Scan(&blockers); err != nil || len(blockers) != 1 || blockers[0] != adminPID {
		t.Errorf("pg_blocking_pids(alice) = %v, %v; want [%d]", blockers, err, adminPID)
	}
	if err := admin.QueryRow(ctx, "SELECT pg_blocking_pids($1)", adminPID).Scan(&blockers); err != nil || len(blockers) != 0 {
		t.Errorf("pg_blocking_pids(admin) = %v, %v; want []", blockers, err)
	}
	var ok bool
	err := bob.QueryRow(ctx, "SELECT pg_cancel_backend($1)", victim).Scan(&ok)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" || pe.Message != "must be a member of the role whose query is being canceled or member of pg_signal_backend" {
		t.Errorf("bob cancels alice: %v", err)
	}
	err = alice2.QueryRow(ctx, "SELECT pg_cancel_backend($1)", adminPID).Scan(&ok)
	if !errors.As(err, &pe) || pe.Code != "42501" || pe.Message != "must be a superuser to cancel superuser query" {
		t.Errorf("alice cancels admin: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("the waiting UPDATE ended before any cancel: %v", err)
	default:
	}
	// The same user may.
	if err := alice2.QueryRow(ctx, "SELECT pg_cancel_backend($1)", victim).Scan(&ok); err != nil || !ok {
		t.Fatalf("alice cancels her other session: %v %v", ok, err)
	}
	select {
	case err := <-done:
		if pgCode(err) != "57014" {
			t.Errorf("cancelled UPDATE: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled UPDATE did not end")
	}
	var one int
	if err := alice.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Errorf("the cancelled session is not usable: %v", err)
	}
	// No such process: false, no error.
	if err := bob.QueryRow(ctx, "SELECT pg_cancel_backend(1)").Scan(&ok); err != nil || ok {
		t.Errorf("pg_cancel_backend(1) = %v, %v", ok, err)
	}
	if _, err := admin.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}

// TestTerminateBackend: pg_terminate_backend closes the target's
// connection with FATAL 57P01; a non-superuser cannot end a superuser's
// session; a timeout waits for the session to be gone.
func TestTerminateBackend(t *testing.T) {
	connect := usersServer(t)
	ctx := context.Background()
	admin, alice, bob := connect("admin"), connect("alice"), connect("bob")
	done := blockOnLock(t, admin, alice, admin)
	adminPID := pidOf(t, admin)
	var victim int32
	if err := admin.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'").Scan(&victim); err != nil {
		t.Fatal(err)
	}
	var ok bool
	var pe *pgconn.PgError
	if err := bob.QueryRow(ctx, "SELECT pg_terminate_backend($1)", adminPID).Scan(&ok); !errors.As(err, &pe) || pe.Code != "42501" ||
		pe.Message != "must be a superuser to terminate superuser process" {
		t.Errorf("bob terminates admin: %v", err)
	}
	if err := bob.QueryRow(ctx, "SELECT pg_terminate_backend($1)", victim).Scan(&ok); !errors.As(err, &pe) || pe.Code != "42501" ||
		pe.Message != "must be a member of the role whose process is being terminated or member of pg_signal_backend" {
		t.Errorf("bob terminates alice: %v", err)
	}
	if err := bob.QueryRow(ctx, "SELECT pg_terminate_backend($1, -1)", victim).Scan(&ok); pgCode(err) != "22003" {
		t.Errorf("negative timeout: %v", err)
	}
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1, 5000)", victim).Scan(&ok); err != nil || !ok {
		t.Fatalf("admin terminates alice: %v %v", ok, err)
	}
	select {
	case err := <-done:
		if pgCode(err) != "57P01" {
			t.Errorf("terminated UPDATE: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the terminated UPDATE did not end")
	}
	waitFor(t, func() bool { return alice.IsClosed() || alice.Ping(ctx) != nil })
	// The timeout waited for the session to end: it is gone already.
	var n int
	if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", victim).Scan(&n); err != nil || n != 0 {
		t.Errorf("terminated session still listed: %d %v", n, err)
	}
	if _, err := admin.Exec(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	// An idle session is ended too: its socket closes after FATAL 57P01.
	bobPID := pidOf(t, bob)
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1, 5000)", bobPID).Scan(&ok); err != nil || !ok {
		t.Fatalf("admin terminates idle bob: %v %v", ok, err)
	}
	if err := bob.Ping(ctx); err == nil {
		t.Error("the terminated idle session still answers")
	}
}
