package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// minmaxArgs are arguments of min and max: those PostgreSQL's planagg.c
// rewrites as a LIMIT 1 scan (a constant, a constant array, an
// uncorrelated scalar or ARRAY subquery, which are initplans by then)
// and those it does not (a column, a correlated subquery, a volatile or
// stable call or cast). %d is a number the generator draws.
var minmaxArgs = []string{
	"7", "'x'::text", "NULL::int", "ARRAY[1, %d]", "ARRAY[%d, NULL]", "'{3,4}'::int[]",
	"(SELECT max(k) FROM mmu WHERE k > %d)", "(SELECT NULL::int)",
	"ARRAY(SELECT k FROM mmu WHERE k > %d ORDER BY k)", "ARRAY(SELECT k FROM mmu WHERE k > 100)",
	"ARRAY(SELECT 'a'::text)", "(ARRAY[5, %d])[2]",
	"m.k", "ARRAY[m.k]", "(SELECT m.k)", "ARRAY(SELECT m.k)", "ARRAY(SELECT u.k FROM mmu u WHERE u.k = m.k)",
	"CASE WHEN random() < 2 THEN 1 END",
	// a stable cast or call is a mutable function, which planagg.c
	// refuses (the plain aggregation computes it on every row); an I/O
	// cast between immutable output and input functions is not
	"(' '::text)::date", "('2020-01-0%d'::text)::date", "now() IS NOT NULL", "to_char(%d, '9')", "('1%d'::name)::int",
	// initplans that fail for some draws (k = 3; 1, 3 or 5 in mmu): each
	// aggregate's one-time filter computes its argument, after the scan
	// of the one before it, even over no row
	"(SELECT 10 / (k - 3) FROM mmu WHERE k = %d)", "ARRAY(SELECT 10 / (k - %d) FROM mmu)",
}

// minmaxQuals are WHERE clauses of which some rows of mm fail.
var minmaxQuals = []string{
	"10 / m.d > 0", "m.t::int > 0", "10 / m.d > 0 AND m.k < %d", "m.k > %d AND 10 / m.d > 0",
	"(ARRAY[1, 0])[2] < 10 / m.d", "10 / m.d > 0 OR m.k = %d",
	// one-time conjuncts: a constant false computes no argument (the
	// plain aggregation over an empty relation), an initplan's after
	// each argument's IS NOT NULL
	"false", "(SELECT %d > 2) AND 10 / m.d > 0",
}

// TestMinMaxConstantsDifferential draws SQLGATE_DIFF_MINMAX_QUERIES
// (default 300) aggregations of min and max over a table whose rows in
// heap order (a log table's) pass and fail a guard, so that PostgreSQL's
// minmax rewrite (read up to the first row the quals pass) decides
// between a value and an error: one to three min/max calls, sometimes
// beside another aggregate (which reads every row), with GROUP BY or a
// window (which PostgreSQL's rewrite refuses). Rows, SQLSTATEs and
// messages must be PostgreSQL's; no allowance.
func TestMinMaxConstantsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := envInt(t, "SQLGATE_DIFF_MINMAX_QUERIES", 300)
	rng := seededRand(t, 61)
	r := startPair(t, ctx, &Schema{})
	// rows in a drawn order: some pass every guard, some fail one
	rows := []string{"(1, 1, '1')", "(2, 0, '2')", "(3, 2, 'x')", "(4, 5, '4')", "(5, 0, 'y')"}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	runOnBoth(t, ctx, r, // enums_test.go
		"CREATE TABLE mm (k int, d int, t text)",
		"INSERT INTO mm VALUES "+strings.Join(rows, ", "),
		"CREATE TABLE mmu (k int PRIMARY KEY)",
		"INSERT INTO mmu VALUES (1), (3), (5), (9)")
	num := func(s string) string {
		if strings.Contains(s, "%d") {
			return fmt.Sprintf(s, rng.IntN(6))
		}
		return s
	}
	stats := map[string]int{}
	for range n {
		q := minmaxQuery(rng, num)
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true})
	}
	t.Logf("%d queries over mm's rows %v: %v", n, rows, stats)
	if stats["same"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// minmaxQuery draws one query of TestMinMaxConstantsDifferential.
func minmaxQuery(rng *rand.Rand, num func(string) string) string {
	var items []string
	for range 1 + rng.IntN(3) {
		f := "max"
		if rng.IntN(2) == 0 {
			f = "min"
		}
		items = append(items, fmt.Sprintf("%s(%s)", f, num(minmaxArgs[rng.IntN(len(minmaxArgs))])))
	}
	switch rng.IntN(8) {
	case 0:
		items = append(items, "count(*)")
	case 1:
		items = append(items, "sum(m.k)")
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM mm m WHERE " + num(minmaxQuals[rng.IntN(len(minmaxQuals))])
	switch rng.IntN(10) {
	case 0:
		q += " GROUP BY m.k % 2 ORDER BY 1"
	case 1:
		q = strings.Replace(q, " FROM", ", count(*) OVER () FROM", 1)
	case 2:
		q += " HAVING true"
	}
	return q
}
