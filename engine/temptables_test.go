package engine_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// TestTempTablesAreSessionLocal: a temporary table shadows a permanent one
// of its name in its own session only, and it is gone (with its schema)
// when the session ends; a restart drops what a crashed server left.
func TestTempTablesAreSessionLocal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(store, engine.Options{})
	open := func(pid uint32) pgwire.Session {
		s, err := eng.NewSession(ctx, pgwire.SessionInfo{User: "sqlgate", Database: "sqlgate", ProcessID: pid})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := open(11), open(12)
	mustRun := func(s pgwire.Session, sql string) []string {
		t.Helper()
		lines, _, err := run(t, s, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return lines
	}
	mustRun(a, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('permanent')")
	mustRun(a, "CREATE TEMP TABLE t (v TEXT); INSERT INTO t VALUES ('temp of a')")
	if got := mustRun(a, "SELECT v FROM t"); !slices.Equal(got, []string{"temp of a"}) {
		t.Fatalf("session a reads %v", got)
	}
	if got := mustRun(b, "SELECT v FROM t"); !slices.Equal(got, []string{"permanent"}) {
		t.Fatalf("session b reads %v", got)
	}
	a.Close()
	dbs, _ := store.ListDatabases(ctx)
	if !slices.Equal(dbs, []string{"public"}) {
		t.Fatalf("after the session ended: databases %v", dbs)
	}
	c := open(11) // the same process id again: a fresh temporary schema
	if got := mustRun(c, "SELECT v FROM t"); !slices.Equal(got, []string{"permanent"}) {
		t.Fatalf("a new session reads %v", got)
	}
	// a server that stops without ending its sessions leaves pg_temp_N;
	// the next engine over the store drops it
	mustRun(c, "CREATE TEMP TABLE left_behind (a INT)")
	_ = engine.New(store, engine.Options{})
	dbs, _ = store.ListDatabases(ctx)
	if !slices.Equal(dbs, []string{"public"}) {
		t.Fatalf("after a restart: databases %v", dbs)
	}
	b.Close()
	c.Close()
	store.Close()
}
