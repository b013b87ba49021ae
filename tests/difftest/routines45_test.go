package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFunctionBodyErrorsDifferential (SQLGATE_DIFF_BODY_ERRORS, default
// 60) draws CREATE FUNCTION statements whose LANGUAGE sql body fails to
// parse or bind, in every way of writing a body ('...' with doubled
// quotes, $$...$$, $tag$...$tag$, RETURN expr, BEGIN ATOMIC ... END),
// with options before and after it and the failing part anywhere in the
// body: the error's SQLSTATE, message and position in the statement must
// be PostgreSQL's (function_parse_error_transpose).
func TestFunctionBodyErrorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE bt (id int PRIMARY KEY, s text)")
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	rng := seededRand(t, 45)
	n := envInt(t, "SQLGATE_DIFF_BODY_ERRORS", 60)
	differed := 0
	for range n {
		stmt := bodyErrorStatement(rng)
		var outs [2]string
		for i, c := range []*noticeSession{sg, pg} {
			outs[i] = ddlOutcome(t, ctx, c, stmt, false)
			c.run(ctx, "DROP FUNCTION IF EXISTS bf(int)")
		}
		differed += outcomeDiffers(t, stmt, outs, differed)
	}
	if differed > 0 {
		t.Errorf("%d of %d statements differed", differed, n)
	}
}

// outcomeDiffers is 1 when sqlgate's and PostgreSQL's outcomes of stmt
// differ (reported while fewer than 12 did before), else 0.
func outcomeDiffers(t *testing.T, stmt string, outs [2]string, before int) int {
	t.Helper()
	if outs[0] == outs[1] {
		return 0
	}
	if before < 12 {
		t.Errorf("%s\nsqlgate:    %s\npostgresql: %s", stmt, outs[0], outs[1])
	}
	return 1
}

// bodyErrorStatement draws a CREATE FUNCTION bf(a int) whose body fails.
func bodyErrorStatement(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	bad := pick("nosuch", "a +* 1", "a || nosuch.x", "lower(a, a, a)", "(SELECT s FROM nosucht)", "a + 'x'", "bt.nosuch")
	lead := strings.Repeat(pick("a, ", "'it''s', ", "1 + a, ", "é, "), rng.IntN(3))
	lead = strings.ReplaceAll(lead, "é", "'é'")
	query := "SELECT " + lead + bad
	if rng.IntN(3) == 0 {
		query = pick("SELECT 1; ", "SELECT a; ") + query
	}
	if rng.IntN(4) == 0 {
		query += " FROM bt"
	}
	opts := []string{"LANGUAGE sql", pick("", "IMMUTABLE", "STRICT")}
	rng.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	var body string
	switch rng.IntN(5) {
	case 0:
		body = "AS '" + strings.ReplaceAll(query, "'", "''") + "'"
	case 1:
		body = "AS $$" + query + "$$"
	case 2:
		body = "AS $fn$ " + query + " $fn$"
	case 3:
		return "CREATE FUNCTION bf(a int) RETURNS int " + strings.Join(opts, " ") + " RETURN " + strings.Repeat("a + ", rng.IntN(3)) + bad
	default:
		return "CREATE FUNCTION bf(a int) RETURNS int " + strings.Join(opts, " ") + " BEGIN ATOMIC " + query + "; END"
	}
	parts := append([]string{body}, opts...)
	rng.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
	return "CREATE " + pick("", "OR REPLACE ") + "FUNCTION bf(a int) RETURNS int " + strings.Join(parts, " ")
}

// TestDropRoutineListDifferential (SQLGATE_DIFF_DROP_LISTS, default 60)
// draws DROP FUNCTION / ROUTINE / PROCEDURE [IF EXISTS] of one to four
// routines, existing, missing, in a missing schema, named with and
// without their argument types: the outcome (tag, error, each NOTICE)
// and then which functions remain must be PostgreSQL's (RemoveObjects:
// every routine looked up first, all dropped or none).
func TestDropRoutineListDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	rng := seededRand(t, 46)
	n := envInt(t, "SQLGATE_DIFF_DROP_LISTS", 60)
	create := []string{
		"CREATE OR REPLACE FUNCTION rf1(a int) RETURNS int LANGUAGE sql AS 'SELECT a'",
		"CREATE OR REPLACE FUNCTION rf2() RETURNS int LANGUAGE sql AS 'SELECT 2'",
		"CREATE OR REPLACE FUNCTION rf3(s text) RETURNS text LANGUAGE sql AS 'SELECT s'",
	}
	remaining := "SELECT string_agg(proname, ',' ORDER BY proname) FROM pg_proc WHERE proname LIKE 'rf%'"
	differed := 0
	for range n {
		stmt := dropListStatement(rng)
		var outs [2]string
		for i, c := range []*noticeSession{sg, pg} {
			for _, s := range create {
				c.run(ctx, s)
			}
			outs[i] = ddlOutcome(t, ctx, c, stmt, false) + "; remaining " + c.run(ctx, remaining)
		}
		differed += outcomeDiffers(t, stmt, outs, differed)
	}
	if differed > 0 {
		t.Errorf("%d of %d statements differed", differed, n)
	}
}

// dropListStatement draws a DROP of several routines.
func dropListStatement(rng *rand.Rand) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	kind := pick("FUNCTION", "FUNCTION", "ROUTINE", "PROCEDURE")
	names := make([]string, 1+rng.IntN(4))
	for i := range names {
		names[i] = pick("rf1", "rf1(int)", "rf1(integer)", "rf2()", "rf3(text)", "rf3", "rfx", "rfx(int)", "nos.rf1()", "public.rf2()", "rf1(text)")
	}
	return fmt.Sprintf("DROP %s %s%s", kind, pick("", "IF EXISTS "), strings.Join(names, ", "))
}

// TestRelationSizeRules: the size functions follow PostgreSQL's rules on
// both servers (sizes in bytes differ: each counts its own storage): a
// table's sizes grow with its rows, a view's are 0, an OID that names no
// relation is NULL, pg_total_relation_size is the table's and its
// indexes', a relation named by a literal is read as regclass (42P01 for
// a missing one), and a fork name other than main, fsm, vm, init is
// 22023.
func TestRelationSizeRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE TABLE zk (id int PRIMARY KEY, v text)",
		"CREATE TABLE zl (id int, v text)",
		"CREATE VIEW zv AS SELECT * FROM zk",
	}
	fill := []string{
		"INSERT INTO zk SELECT g, repeat('x', 200) FROM generate_series(1, 3000) g",
		"INSERT INTO zl SELECT g, repeat('x', 200) FROM generate_series(1, 3000) g",
	}
	before := "SELECT pg_relation_size('zk'), pg_total_relation_size('zk'), pg_relation_size('zl')"
	checks := []string{
		"SELECT pg_relation_size('zk') > %s, pg_total_relation_size('zk') > %s, pg_relation_size('zl') > %s",
	}
	rules := "SELECT pg_total_relation_size('zk') = pg_table_size('zk') + pg_indexes_size('zk'), " +
		"pg_table_size('zk') >= pg_relation_size('zk'), pg_relation_size('zk', 'main') = pg_relation_size('zk'), " +
		"pg_relation_size('zv'), pg_total_relation_size('zv'), pg_indexes_size('zl'), " +
		"pg_relation_size(0) IS NULL, pg_table_size(1) IS NULL, pg_relation_size(0, 'bogus') IS NULL, " +
		"pg_database_size(current_database()) >= pg_total_relation_size('zk'), " +
		"pg_size_pretty(pg_total_relation_size('zk')) ~ '^[0-9]+ (bytes|kB|MB)$'"
	var got [2]string
	for i, c := range []*noticeSession{noticeConn(t, ctx, r.SQLGate.(*Session).connString), noticeConn(t, ctx, r.Postgres.(*Session).connString)} {
		for _, s := range setup {
			c.run(ctx, s)
		}
		b := strings.TrimSuffix(strings.TrimPrefix(c.run(ctx, before), "SELECT 1 ["), "]; status I")
		for _, s := range fill {
			c.run(ctx, s)
		}
		v := strings.Split(b, ",")
		if len(v) != 3 {
			t.Fatalf("sizes before: %s", b)
		}
		got[i] = c.run(ctx, fmt.Sprintf(checks[0], v[0], v[1], v[2])) + " | " + c.run(ctx, rules) + " | " +
			c.run(ctx, "SELECT pg_relation_size('zk', 'heap')") + " | " + c.run(ctx, "SELECT pg_indexes_size('nosuch')")
	}
	want := "SELECT 1 [t,t,t]; status I | SELECT 1 [t,t,t,0,0,0,t,t,t,t,t]; status I | ERROR 22023 invalid fork name; status I | ERROR 42P01 relation \"nosuch\" does not exist; status I"
	if got[1] != want {
		t.Fatalf("PostgreSQL's answers are not the rules':\n got %s\nwant %s", got[1], want)
	}
	if got[0] != want {
		t.Errorf("sqlgate:\n got %s\nwant %s", got[0], want)
	}
}
