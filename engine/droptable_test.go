package engine_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestDropTableInBlock: DROP TABLE inside a transaction block is the
// block's, as PostgreSQL's: the table is gone at once for the dropping
// session, other sessions' statements on it wait for the block (ACCESS
// EXCLUSIVE), COMMIT drops it (the waiter then finds it gone), and
// ROLLBACK, or ROLLBACK TO a savepoint made before the DROP, keeps it with
// its rows and the views a CASCADE took.
func TestDropTableInBlock(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b := open(), open()
	setup := func() {
		t.Helper()
		mustRun(t, a, "DROP VIEW IF EXISTS tv; DROP TABLE IF EXISTS t; DROP TABLE IF EXISTS u")
		mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 10), (2, 20)")
		mustRun(t, a, "CREATE TABLE u (a INT); INSERT INTO u VALUES (1)")
		mustRun(t, a, "CREATE VIEW tv AS SELECT v FROM t")
	}
	gone := func(where, query string) {
		t.Helper()
		mustRun(t, a, "SAVEPOINT g")
		if _, _, err := run(t, a, query); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			t.Errorf("%s: %s: %v, want 42P01", where, query, err)
		}
		mustRun(t, a, "ROLLBACK TO g")
	}

	cases := []struct {
		name string
		// drop runs in a's block; end ends it.
		drop, end string
	}{
		{name: "commit", drop: "DROP TABLE t CASCADE", end: "COMMIT"},
		{name: "rollback", drop: "DROP TABLE t CASCADE", end: "ROLLBACK"},
		{name: "two tables, commit", drop: "DROP TABLE t, u CASCADE", end: "COMMIT"},
		{name: "rollback to a savepoint before", drop: "SAVEPOINT s; DROP TABLE t, u CASCADE; ROLLBACK TO s", end: "COMMIT"},
		{name: "after the block's rows, commit", drop: "INSERT INTO t VALUES (3, 30); DROP TABLE t CASCADE", end: "COMMIT"},
		{name: "after the block's rows, rollback to a savepoint", drop: "INSERT INTO t VALUES (3, 30); SAVEPOINT s; DROP TABLE t CASCADE; ROLLBACK TO s", end: "COMMIT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup()
			kept := c.end == "ROLLBACK" || strings.Contains(c.drop, "ROLLBACK TO")
			mustRun(t, a, "BEGIN")
			mustRun(t, a, c.drop)
			if !strings.Contains(c.drop, "ROLLBACK TO") {
				gone("in the block", "SELECT * FROM t")
				gone("in the block", "SELECT * FROM tv")
				gone("in the block", "INSERT INTO t VALUES (9, 1)")
				gone("in the block", "TRUNCATE t")
			}
			// The other session waits for the block's end.
			read := runAsync(t, b, "SELECT count(*) FROM t")
			if !strings.Contains(c.drop, "ROLLBACK TO") && !waiting(read) {
				t.Fatal("a read of the table did not wait for the block that dropped it")
			}
			_, notices, err := runNotices(t, a, c.end)
			if err != nil || len(warnings(notices)) != 0 {
				t.Fatalf("%s: %v %v", c.end, notices, err)
			}
			r := answer(t, read, "the read after "+c.end)
			wantRows := "2"
			if strings.Contains(c.drop, "INSERT") {
				wantRows = "3"
			}
			if kept {
				if r.err != nil || len(r.lines) != 1 || r.lines[0] != wantRows {
					t.Errorf("the waiting read: %v %v, want %s", r.lines, r.err, wantRows)
				}
				if got := mustRun(t, a, "SELECT count(*) FROM tv"); got[0] != wantRows {
					t.Errorf("the view after %s: %v", c.end, got)
				}
				mustRun(t, a, "INSERT INTO t VALUES (4, 40)")
				mustRun(t, a, "SELECT count(*) FROM u")
				return
			}
			if sqlerr.CodeOf(r.err) != sqlerr.UndefinedTable {
				t.Errorf("the waiting read: %v %v, want 42P01", r.lines, r.err)
			}
			for _, q := range []string{"SELECT * FROM t", "SELECT * FROM tv"} {
				if _, _, err := run(t, b, q); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
					t.Errorf("after COMMIT: %s: %v, want 42P01", q, err)
				}
			}
			_, _, err = run(t, b, "SELECT * FROM u")
			if two := strings.Contains(c.drop, "t, u"); two != (sqlerr.CodeOf(err) == sqlerr.UndefinedTable) {
				t.Errorf("u after COMMIT: %v", err)
			}
			// The name is free again.
			mustRun(t, a, "CREATE TABLE t (a INT); DROP TABLE t")
		})
	}
}

// TestDropTableInBlockThenCreate: a block that drops a table and makes one
// of the same name (CREATE TABLE, or RENAME TO it: dbt's and migration
// tools' rebuilds) runs the drop at once, since the store's name is taken
// until the drop runs: the new table is the block's, and a ROLLBACK then
// undoes the rename but warns that the drop was not rolled back.
func TestDropTableInBlockThenCreate(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a := open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 10)")
	mustRun(t, a, "CREATE VIEW tv AS SELECT v FROM t")
	mustRun(t, a, "BEGIN; DROP TABLE t CASCADE; CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')")
	if got := mustRun(t, a, "SELECT a FROM t"); len(got) != 1 || got[0] != "x" {
		t.Errorf("the new t in the block: %v", got)
	}
	mustRun(t, a, "COMMIT")
	if got := mustRun(t, a, "SELECT a FROM t"); len(got) != 1 || got[0] != "x" {
		t.Errorf("the new t after COMMIT: %v", got)
	}
	if _, _, err := run(t, a, "SELECT * FROM tv"); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("the cascaded view after COMMIT: %v, want 42P01", err)
	}

	mustRun(t, a, "CREATE TABLE t_new (b INT); INSERT INTO t_new VALUES (7)")
	mustRun(t, a, "BEGIN; DROP TABLE t; ALTER TABLE t_new RENAME TO t")
	_, notices, err := runNotices(t, a, "ROLLBACK")
	if ws := warnings(notices); err != nil || len(ws) != 1 || !strings.Contains(ws[0].Detail, "DROP TABLE t") {
		t.Errorf("ROLLBACK after the drop ran: %+v %v, want its warning", ws, err)
	}
	// the rename is undone (txddl.go); the drop it needed ran
	if got := mustRun(t, a, "SELECT b FROM t_new"); len(got) != 1 || got[0] != "7" {
		t.Errorf("the renamed table after ROLLBACK: %v", got)
	}
	wantErr(t, a, "SELECT * FROM t", sqlerr.UndefinedTable, `relation "t" does not exist`)
}

// TestDropTableInBlockDependents: what the block dropped already depends
// on nothing: DROP TABLE child; DROP TABLE parent (a foreign key), or a
// table a view that a CASCADE took read too, runs without CASCADE, as in
// PostgreSQL; COMMIT drops them in order, ROLLBACK keeps them all.
func TestDropTableInBlockDependents(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a := open()
	mustRun(t, a, "CREATE TABLE p (id INT PRIMARY KEY); CREATE TABLE c (id INT PRIMARY KEY, pid INT REFERENCES p (id))")
	mustRun(t, a, "CREATE TABLE x (id INT PRIMARY KEY); CREATE VIEW pv AS SELECT p.id FROM p JOIN x ON p.id = x.id")
	mustRun(t, a, "INSERT INTO p VALUES (1); INSERT INTO c VALUES (1, 1)")
	for _, end := range []string{"ROLLBACK", "COMMIT"} {
		mustRun(t, a, "BEGIN")
		if _, _, err := run(t, a, "SAVEPOINT s; DROP TABLE p"); sqlerr.CodeOf(err) != sqlerr.DependentObjectsStillExist {
			t.Fatalf("DROP TABLE p before its dependents: %v, want 2BP01", err)
		}
		mustRun(t, a, "ROLLBACK TO s")
		mustRun(t, a, "DROP TABLE c")
		mustRun(t, a, "DROP TABLE x CASCADE")
		mustRun(t, a, "DROP TABLE p")
		mustRun(t, a, end)
		for _, tbl := range []string{"p", "c", "x", "pv"} {
			_, _, err := run(t, a, "SELECT count(*) FROM "+tbl)
			if kept := end == "ROLLBACK"; kept != (err == nil) {
				t.Errorf("%s after %s: %v", tbl, end, err)
			}
		}
	}
}
