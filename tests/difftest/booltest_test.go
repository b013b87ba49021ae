package difftest

import (
	"context"
	"math/rand"
	"strings"
	"testing"
)

// PostgreSQL's boolean tests, x IS [NOT] TRUE | FALSE | UNKNOWN
// (parse_expr.c's transformBooleanTest), take a boolean argument:
// coerce_to_boolean casts an unknown literal and refuses any other type
// with 42804 "argument of IS NOT UNKNOWN must be type boolean, not type
// text" at the argument, naming the test as written. IS UNKNOWN is no IS
// NULL, which takes any type: an untyped NULL or literal that a derived
// table, VALUES list, CTE or UNION outputs is text there
// (resolveTargetListUnknowns), so its IS UNKNOWN is that error. The
// generator writes the tests over operands of every source (boolean and
// other columns, literals typed and not, derived tables' untyped
// outputs, comparisons at the levels around IS, rows, arrays, scalar
// subqueries, a set-returning call) in the select list (labelled with and
// without AS), WHERE and CASE, and compares the column names, types and
// rows, or the SQLSTATE, message and position.

// boolTestOperand is an operand of a boolean test over bt and the
// derived table s(u, v) (two untyped outputs), with its own precedence
// level: a comparison or BETWEEN binds tighter than IS, so a = b IS
// UNKNOWN tests the comparison.
func boolTestOperand(rng *rand.Rand) string {
	p := pickFrom(rng)
	switch rng.Intn(9) {
	case 0, 1:
		return p("bt.b", "bt.i > 1", "bt.t = 'a'", "bt.b = true", "NULL::bool", "true", "false", "bt.i BETWEEN 1 AND 2", "bt.b AND bt.i > 0")
	case 2:
		return p("NULL", "'t'", "'f'", "'yes'", "'maybe'", "'off'")
	case 3:
		return p("bt.i", "bt.t", "'a'::text", "1", "1.5", "bt.i + 1", "bt.t || 'x'")
	case 4:
		return p("s.u", "s.v", "s.u = 'x'", "s.u::bool")
	case 5:
		return p("ROW(1, 2)", "ARRAY[true]", "(SELECT bt2.b FROM bt bt2 WHERE bt2.id = bt.id)", "(SELECT NULL)", "(SELECT 't')")
	case 6:
		return p("generate_series(1, 2) > 1", "CASE WHEN bt.i > 1 THEN true END", "CASE WHEN bt.i > 1 THEN 'x' END", "COALESCE(bt.b, NULL)")
	case 7:
		return p("NOT bt.b", "bt.t IS NULL", "bt.b IS TRUE")
	}
	return p("bt.b", "s.u", "NULL")
}

// boolTest is an operand under one or two tests.
func boolTest(rng *rand.Rand) string {
	p := pickFrom(rng)
	tests := []string{"IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN"}
	e := boolTestOperand(rng) + " " + p(tests...)
	switch rng.Intn(6) {
	case 0:
		e += " " + p(tests...)
	case 1:
		e = "NOT " + e
	case 2:
		e += " " + p("AND", "OR", "=") + " " + boolTestOperand(rng) + " " + p(tests...)
	}
	return e
}

// boolTestQuery is a query with boolean tests in the select list, WHERE
// or a CASE, over bt and the derived table s. A query whose select list
// and WHERE both fail answers with the select list's error in
// PostgreSQL, which transforms the target list first (analyze.c's
// transformSelectStmt), and with WHERE's in sqlgate, whose binder binds
// WHERE first (a difference in which error comes first, not this test's
// subject): the tests then stand in WHERE with the select list safe.
func boolTestQuery(rng *rand.Rand) string {
	p := pickFrom(rng)
	var sb strings.Builder
	sb.WriteString("SELECT bt.id, ")
	where := false
	switch rng.Intn(5) {
	case 4:
		sb.WriteString("bt.b") // the test only in WHERE
		where = true
	case 0:
		sb.WriteString(boolTest(rng) + " AS x")
	case 1:
		sb.WriteString(boolTest(rng) + " x") // a bare label after the test
	case 2:
		sb.WriteString("CASE WHEN " + boolTest(rng) + " THEN 1 ELSE 0 END")
	default:
		sb.WriteString(boolTest(rng))
	}
	sb.WriteString(" FROM bt")
	sb.WriteString(p(", (SELECT NULL, 't') s(u, v)", ", (VALUES (NULL, 't')) s(u, v)",
		", (SELECT NULL, 't' UNION ALL SELECT NULL, 'f') s(u, v)", ", (SELECT NULL::text, 't'::text) s(u, v)"))
	if where {
		sb.WriteString(" WHERE " + boolTest(rng))
	}
	sb.WriteString(" ORDER BY 1")
	return sb.String()
}

// TestBoolTestDifferential runs generated boolean tests on both servers.
func TestBoolTestDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r,
		"CREATE TABLE bt (id int PRIMARY KEY, b bool, i int, t text)",
		"INSERT INTO bt VALUES (1, true, 1, 'a'), (2, false, 2, 'b'), (3, NULL, NULL, NULL), (4, true, 3, 'a')")
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4099))))
	stats := map[string]int{}
	n := envInt(t, "SQLGATE_DIFF_BOOLTEST_QUERIES", 600)
	for i := 0; i < n; i++ {
		q := boolTestQuery(rng)
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		kind, why := namedVerdict(sg, pg) // collate_test.go
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s", q, why)
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] < n/4 || stats["refused alike"] < n/10 {
		t.Errorf("outcomes: %v", stats)
	}
}
