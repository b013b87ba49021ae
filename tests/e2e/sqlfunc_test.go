package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestSQLFunctionsSurviveRestart creates LANGUAGE sql functions through
// psql (a BEGIN ATOMIC body with a CASE ... END inside, whose ';'s psql
// and the server's splitter must both keep in the statement; a RETURN
// body; a default; STRICT; RETURNS TABLE and SETOF), calls them, restarts the server over the same
// data directory and calls them again: they are stored with the views
// and grants, and pg_proc shows the same facts.
func TestSQLFunctionsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	srv := testbin.StartServer(t, dir)
	url := "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	psqlScript(t, url, `
CREATE TABLE sfr (id int PRIMARY KEY, n int);
INSERT INTO sfr VALUES (1, 10), (2, 20);
CREATE FUNCTION sfr_sign(a int) RETURNS text LANGUAGE sql IMMUTABLE
BEGIN ATOMIC
  SELECT 1;
  SELECT CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END;
END;
CREATE FUNCTION sfr_n(i int, plus int DEFAULT 1) RETURNS int LANGUAGE sql STABLE STRICT AS $$ SELECT n + plus FROM sfr WHERE id = i $$;
CREATE FUNCTION sfr_twice(x int) RETURNS int LANGUAGE sql RETURN x * 2;
CREATE FUNCTION sfr_rows(lim int) RETURNS TABLE(id int, n int) LANGUAGE sql STABLE ROWS 5 AS $$ SELECT id, n FROM sfr WHERE id <= lim ORDER BY id $$;
CREATE FUNCTION sfr_ids() RETURNS SETOF int LANGUAGE sql AS $$ SELECT id FROM sfr ORDER BY id $$;
CREATE VIEW sfr_view AS SELECT sfr_twice(id) AS t FROM sfr;
CREATE FUNCTION sfr_pos(x int) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT x > 0 $$;
CREATE FUNCTION sfr_seven() RETURNS int LANGUAGE sql RETURN 7;
CREATE TABLE sfr_tc (id int PRIMARY KEY, v int CHECK (sfr_pos(v)), d int DEFAULT sfr_seven(), g int GENERATED ALWAYS AS (sfr_twice(v)) STORED);
INSERT INTO sfr_tc (id, v) VALUES (1, 5);
COPY sfr_tc (id, v) FROM STDIN;
2	6
\.
`)
	const calls = "SELECT sfr_sign(-3), sfr_sign(0), sfr_n(1), sfr_n(2, 5), sfr_n(NULL), sfr_twice(21), " +
		"(SELECT string_agg(id || ':' || n, ',') FROM sfr_rows(5)), (SELECT array_agg(i) FROM sfr_ids() i)"
	const facts = "SELECT proname, prolang, provolatile, proisstrict, pronargdefaults, pg_get_function_arguments(oid), " +
		"proretset, prorows, pg_get_function_result(oid) FROM pg_proc WHERE proname LIKE 'sfr%' ORDER BY 1"
	want := func(conn string) (string, string) {
		return psqlScript(t, conn, calls+";"), psqlScript(t, conn, facts+";")
	}
	gotCalls, gotFacts := want(url)
	if !strings.Contains(gotCalls, "neg|zero|11|25||42|1:10,2:20|{1,2}") {
		t.Fatalf("calls before the restart:\n%s", gotCalls)
	}
	for _, f := range []string{"sfr_n|14|s|t|1|i integer, plus integer DEFAULT 1|f|0|integer", "sfr_sign|14|i|f|0|a integer|f|0|text",
		"sfr_twice|14|v|f|0|x integer|f|0|integer", "sfr_ids|14|v|f|0||t|1000|SETOF integer", "sfr_rows|14|s|f|0|lim integer|t|5|TABLE(id integer, n integer)"} {
		if !strings.Contains(gotFacts, f) {
			t.Errorf("pg_proc before the restart lacks %q:\n%s", f, gotFacts)
		}
	}
	// the server's own splitter: a BEGIN ATOMIC body in a multi-statement
	// simple query
	conn := connect(t, url)
	ctx := context.Background()
	mustExec(t, conn, "CREATE FUNCTION sfr_abs(a int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN a < 0 THEN -a ELSE a END; END; SELECT 1")
	var abs int
	if err := conn.QueryRow(ctx, "SELECT sfr_abs(-7)").Scan(&abs); err != nil || abs != 7 {
		t.Fatalf("sfr_abs(-7) = %d, %v", abs, err)
	}
	conn.Close(ctx)

	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	srv.Stop(sctx)
	cancel()
	srv = testbin.StartServer(t, dir)
	url = "postgres://sqlgate@" + srv.Addr().String() + "/sqlgate?sslmode=disable"
	afterCalls, afterFacts := want(url)
	if afterCalls != gotCalls {
		t.Errorf("calls after the restart:\n%s\nbefore:\n%s", afterCalls, gotCalls)
	}
	for _, line := range strings.Split(gotFacts, "\n") {
		if strings.HasPrefix(line, "sfr") && !strings.Contains(afterFacts, line+"\n") {
			t.Errorf("pg_proc after the restart lacks %q:\n%s", line, afterFacts)
		}
	}
	if out := psqlScript(t, url, "SELECT sfr_abs(-9);"); !strings.Contains(out, "\n9\n") {
		t.Errorf("sfr_abs after the restart:\n%s", out)
	}
	// the view's dependency on the function is stored with it
	conn = connect(t, url)
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "DROP FUNCTION sfr_twice"); err == nil || !strings.Contains(err.Error(), "2BP01") {
		t.Errorf("DROP FUNCTION of a function a view calls, after the restart: %v", err)
	}
	// a table's CHECK, DEFAULT and generated column call SQL functions on
	// every write (INSERT, UPDATE, COPY), before and after the restart,
	// and DROP FUNCTION finds the table depending on them
	psqlScript(t, url, "INSERT INTO sfr_tc (id, v) VALUES (3, 7);\nUPDATE sfr_tc SET v = v + 1 WHERE id = 1;\nCOPY sfr_tc (id, v) FROM STDIN;\n4\t8\n\\.\n")
	if out := psqlScript(t, url, "SELECT * FROM sfr_tc ORDER BY id;"); !strings.Contains(out, "1|6|7|12\n2|6|7|12\n3|7|7|14\n4|8|7|16\n") {
		t.Errorf("sfr_tc after the restart:\n%s", out)
	}
	for _, c := range []struct{ sql, want string }{
		{"INSERT INTO sfr_tc (id, v) VALUES (5, -1)", `violates check constraint "sfr_tc_v_check" (SQLSTATE 23514)`},
		{"UPDATE sfr_tc SET v = -1", `violates check constraint "sfr_tc_v_check" (SQLSTATE 23514)`},
		{"DROP FUNCTION sfr_pos", "cannot drop function sfr_pos(integer) because other objects depend on it (SQLSTATE 2BP01)"},
		{"DROP FUNCTION sfr_seven", "cannot drop function sfr_seven() because other objects depend on it (SQLSTATE 2BP01)"},
	} {
		if _, err := conn.Exec(ctx, c.sql); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.sql, err, c.want)
		}
	}
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader("6\t-2\n"), "COPY sfr_tc (id, v) FROM STDIN"); err == nil || !strings.Contains(err.Error(), "23514") {
		t.Errorf("COPY of a row failing the CHECK: %v", err)
	}
}
