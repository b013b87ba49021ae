package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestRowSubqueryDifferential compares ROW constructors with subqueries of
// as many columns — (a, b) op ANY | ALL (SELECT ...), [NOT] IN (SELECT
// ...) and op (SELECT ...) — with PostgreSQL 15 over random rows with NULL
// fields: correlated and not, in WHERE (where IN becomes a semi join) and
// in the SELECT list (where NULL shows), fields whose types differ (int
// against numeric, an unknown literal), and pairs of types that cannot be
// compared (the error and its position). sqlgate refused every one of
// them (0A000 "a ROW constructor compared with a subquery of several
// columns", 42601 "subquery must return only one column").
func TestRowSubqueryDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rnd := seededRand(t, 41)
	value := func(domain int) string {
		if rnd.IntN(5) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rnd.IntN(domain))
	}
	text := func() string {
		if rnd.IntN(5) == 0 {
			return "NULL"
		}
		return "'" + string(rune('a'+rnd.IntN(3))) + "'"
	}
	stmts := []string{
		"CREATE TABLE rs_l (id int PRIMARY KEY, a int, b text, c numeric)",
		"CREATE TABLE rs_r (id int PRIMARY KEY, x int, y text, z numeric)",
	}
	for i := 0; i < 12; i++ {
		stmts = append(stmts,
			fmt.Sprintf("INSERT INTO rs_l VALUES (%d, %s, %s, %s)", i, value(3), text(), value(3)),
			fmt.Sprintf("INSERT INTO rs_r VALUES (%d, %s, %s, %s)", i, value(3), text(), value(3)))
	}
	runOnBoth(t, ctx, r, stmts...)
	defer runOnBoth(t, ctx, r, "DROP TABLE rs_l", "DROP TABLE rs_r")

	// pairs are a left row and the subquery's columns for it
	pairs := [][2]string{
		{"(a, b)", "x, y"},
		{"(a, c)", "z, x"},
		{"(a, b, c)", "x, y, z"},
		{"(c, 1)", "x, 1"},
		{"(a, NULL)", "x, z"},
		{"ROW(b, a)", "y, x"},
		{"(a, b)", "x, z"},    // text against numeric: 42883 at the operator
		{"(a, b)", "x"},       // too many columns on the left
		{"(a, b)", "x, y, z"}, // too few
	}
	ops := []string{"=", "<>", "<", "<=", ">", ">="}
	where := []string{"", " WHERE rs_r.id % 3 = rs_l.id % 3", " WHERE rs_r.id < 6", " WHERE false"}
	rule := tallyRule{ordered: true, placed: everyCode}
	stats := map[string]int{}
	for i := 0; i < 400; i++ {
		p := pairs[rnd.IntN(len(pairs))]
		w := where[rnd.IntN(len(where))]
		sub := "SELECT " + p[1] + " FROM rs_r" + w
		var cond string
		switch rnd.IntN(4) {
		case 0:
			cond = fmt.Sprintf("%s %s %s (%s)", p[0], ops[rnd.IntN(len(ops))], []string{"ANY", "ALL", "SOME"}[rnd.IntN(3)], sub)
		case 1:
			cond = fmt.Sprintf("%s %sIN (%s)", p[0], []string{"", "NOT "}[rnd.IntN(2)], sub)
		case 2:
			// one row at most: by id, correlated or not
			one := "SELECT " + p[1] + " FROM rs_r WHERE rs_r.id = " + []string{"rs_l.id", "rs_l.a", "3", "20"}[rnd.IntN(4)]
			if rnd.IntN(6) == 0 {
				one = sub // several rows: 21000
			}
			cond = fmt.Sprintf("%s %s (%s)", p[0], ops[rnd.IntN(len(ops))], one)
		default:
			cond = fmt.Sprintf("NOT (%s IN (%s))", p[0], sub)
		}
		if rnd.IntN(2) == 0 {
			tallyBy(t, ctx, r, "SELECT id FROM rs_l WHERE "+cond+" ORDER BY id", stats, rule)
		} else {
			tallyBy(t, ctx, r, "SELECT id, "+cond+" FROM rs_l ORDER BY id", stats, rule)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 200 || stats["refused alike"] < 20 {
		t.Errorf("outcomes: %v", stats)
	}
}
