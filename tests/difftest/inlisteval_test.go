package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// inListItems are IN-list items: constants, NULL, constants that fail
// while planning (1/0, 'x'::int), an item that reads no column but is
// computed per execution (stable: current_schema()) and fails or not,
// and items that read columns.
var inListItems = []string{
	"0", "1", "2", "6", "NULL",
	"1/0", "'x'::int",
	"('x' || current_schema())::int", "length(current_schema())",
	"a", "b", "a + 1", "b::text::int",
}

// inListLeft are the tested values: columns, constants and a stable
// expression.
var inListLeft = []string{"a", "b", "1", "NULL::int", "length(current_schema())"}

// TestInListEvalDifferential: x IN (...) and x NOT IN (...) over random
// lists of constants, failing constants, stable items that fail, columns
// and NULLs, in the select list and in WHERE (also WHERE false, and behind
// a conjunct that keeps one row), compared with PostgreSQL 15, whose
// parser makes the items that read no column one x = ANY (ARRAY[...])
// (every item computed before any comparison, so an item that fails fails
// the row though an earlier one matches) and the others an OR (AND)
// chain after it. SQLGATE_DIFF_QUERIES sets the count (default 300).
func TestInListEvalDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{
		"CREATE TABLE il (id int PRIMARY KEY, a int, b int)",
		"INSERT INTO il VALUES (1, 1, NULL), (2, 2, 2), (3, 6, 0), (4, NULL, 4)",
	} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	rng := seededRand(t, 35)
	n := envInt(t, "SQLGATE_DIFF_QUERIES", 300)
	stats := map[string]int{}
	for range n {
		items := make([]string, 1+rng.IntN(5))
		for i := range items {
			items[i] = inListItems[rng.IntN(len(inListItems))]
		}
		in := "IN"
		if rng.IntN(2) == 0 {
			in = "NOT IN"
		}
		test := fmt.Sprintf("%s %s (%s)", inListLeft[rng.IntN(len(inListLeft))], in, strings.Join(items, ", "))
		var q string
		switch rng.IntN(4) {
		case 0:
			q = fmt.Sprintf("SELECT id, %s FROM il ORDER BY id", test)
		case 1:
			q = fmt.Sprintf("SELECT id FROM il WHERE %s ORDER BY id", test)
		case 2:
			q = fmt.Sprintf("SELECT id, %s FROM il WHERE false", test)
		default:
			q = fmt.Sprintf("SELECT id, %s FROM il WHERE id = %d", test, 1+rng.IntN(4))
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{})
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/10 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
