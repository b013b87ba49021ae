package flightsql_test

import (
	"context"
	"testing"
	"time"
)

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
