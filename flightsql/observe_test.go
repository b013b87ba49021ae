package flightsql_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// userConn is a PostgreSQL connection to ts as user.
func (ts *testServer) userConn(t *testing.T, user, password string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), strings.Replace(ts.pg, "admin:"+adminPassword, user+":"+password, 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// TestFlightSessionsInStatActivity: a Flight SQL connection is a row of
// pg_stat_activity, and pg_terminate_backend ends it.
func TestFlightSessionsInStatActivity(t *testing.T) {
	ts := startServer(t)
	cl, ctx := ts.client(t, "bob", bobPassword)
	if _, err := cl.Execute(ctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	pg := ts.pgConn(t)
	var pid int32
	var user, state string
	if err := pg.QueryRow(context.Background(), "SELECT pid, usename, state FROM pg_stat_activity WHERE application_name = 'flightsql'").
		Scan(&pid, &user, &state); err != nil {
		t.Fatal(err)
	}
	if user != "bob" || state != "idle" {
		t.Errorf("the Flight SQL session: user %q state %q", user, state)
	}
	var ok bool
	if err := pg.QueryRow(context.Background(), "SELECT pg_terminate_backend($1, 5000)", pid).Scan(&ok); err != nil || !ok {
		t.Fatalf("pg_terminate_backend: %v %v", ok, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := pg.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", pid).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the terminated Flight SQL session is still listed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := cl.Execute(ctx, "SELECT 1"); err == nil {
		t.Error("the terminated Flight SQL connection still runs queries")
	}
}

// TestFlightStatementInStatActivity: while a Flight SQL statement runs,
// pg_stat_activity shows its connection active with the statement's text
// (here an UPDATE waiting for a row lock a PostgreSQL session holds:
// wait_event_type Lock), and idle again after it; pg_cancel_backend ends
// it with 57014, by another user only with PostgreSQL's 42501, and the
// connection stays usable; pg_terminate_backend of a connection whose
// statement runs closes it.
func TestFlightStatementInStatActivity(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t, "CREATE TABLE locked (id INT PRIMARY KEY, n INT)", "INSERT INTO locked VALUES (1, 0)", "GRANT ALL ON locked TO bob")
	ctx := context.Background()
	holder, watcher := ts.pgConn(t), ts.pgConn(t)
	cl, fctx := ts.client(t, "bob", bobPassword)
	if _, err := cl.Execute(fctx, "SELECT 1"); err != nil {
		t.Fatal(err)
	}
	var pid int32
	if err := watcher.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE application_name = 'flightsql'").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	const update = "UPDATE locked SET n = n + 1 WHERE id = 1"
	for _, end := range []string{"cancel", "terminate"} {
		t.Run(end, func(t *testing.T) {
			for _, s := range []string{"BEGIN", "SELECT n FROM locked WHERE id = 1 FOR UPDATE"} {
				if _, err := holder.Exec(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			defer holder.Exec(ctx, "ROLLBACK")
			done := make(chan error, 1)
			go func() {
				_, err := cl.ExecuteUpdate(fctx, update)
				done <- err
			}()
			var state, query, wait string
			deadline := time.Now().Add(10 * time.Second)
			for {
				err := watcher.QueryRow(ctx, "SELECT state, query, coalesce(wait_event_type, '') FROM pg_stat_activity WHERE pid = $1", pid).
					Scan(&state, &query, &wait)
				if err != nil {
					t.Fatal(err)
				}
				if state == "active" && wait == "Lock" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the Flight SQL session never showed waiting: state %q query %q wait %q", state, query, wait)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if query != update {
				t.Errorf("pg_stat_activity.query of the running Flight SQL statement: %q", query)
			}
			var ok bool
			if end == "terminate" {
				if err := watcher.QueryRow(ctx, "SELECT pg_terminate_backend($1, 5000)", pid).Scan(&ok); err != nil || !ok {
					t.Fatalf("pg_terminate_backend: %v %v", ok, err)
				}
				select {
				case err := <-done:
					if err == nil {
						t.Error("the terminated connection's UPDATE succeeded")
					}
				case <-time.After(10 * time.Second):
					t.Fatal("the terminated connection's UPDATE did not end")
				}
				if _, err := cl.Execute(fctx, "SELECT 1"); err == nil {
					t.Error("the terminated Flight SQL connection still runs queries")
				}
				return
			}
			// another user may not; bob's other (PostgreSQL) session may
			bob := ts.userConn(t, "bob", bobPassword)
			ts.pgExec(t, "CREATE USER alice PASSWORD 'alice-secret'")
			alice := ts.userConn(t, "alice", "alice-secret")
			var pe *pgconn.PgError
			err := alice.QueryRow(ctx, "SELECT pg_cancel_backend($1)", pid).Scan(&ok)
			if !errors.As(err, &pe) || pe.Code != "42501" || pe.Message != "must be a member of the role whose query is being canceled or member of pg_signal_backend" {
				t.Errorf("alice cancels bob's Flight SQL statement: %v", err)
			}
			select {
			case err := <-done:
				t.Fatalf("the waiting UPDATE ended before its cancel: %v", err)
			default:
			}
			if err := bob.QueryRow(ctx, "SELECT pg_cancel_backend($1)", pid).Scan(&ok); err != nil || !ok {
				t.Fatalf("pg_cancel_backend: %v %v", ok, err)
			}
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "SQLSTATE 57014") {
					t.Errorf("the cancelled Flight SQL UPDATE: %v (want 57014)", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the cancelled Flight SQL UPDATE did not end")
			}
			if err := watcher.QueryRow(ctx, "SELECT state FROM pg_stat_activity WHERE pid = $1", pid).Scan(&state); err != nil || state != "idle" {
				t.Errorf("after the cancel the Flight SQL session is %q (%v), want idle", state, err)
			}
			holder.Exec(ctx, "ROLLBACK")
			if n, err := cl.ExecuteUpdate(fctx, update); err != nil || n != 1 {
				t.Errorf("the Flight SQL connection after the cancel: %d, %v", n, err)
			}
		})
	}
}
