package difftest

import (
	"context"
	"fmt"
	"testing"
)

// lateralUsingRights are LATERAL items reading the left item x(k, v): the
// same key, another key, a key NULL for some rows, more rows per left row,
// no row for some, a function, and items with the merged columns in
// another order or a column of their own.
var lateralUsingRights = []string{
	"LATERAL (SELECT x.k AS k, x.v || '!' AS w) s",
	"LATERAL (SELECT x.k + 1 AS k, x.v AS v) s",
	"LATERAL (SELECT nullif(x.k, 2) AS k, 'n' AS v) s",
	"LATERAL (SELECT g AS k, x.v AS v FROM generate_series(x.k, 3) g) s",
	"LATERAL (SELECT x.k AS k, x.v AS v WHERE x.k > 1) s",
	"LATERAL generate_series(x.k, 2) AS s(k)",
	"LATERAL (SELECT x.v AS v, x.k AS k, x.k * 10 AS z) s",
}

// lateralUsingJoins are the joins that may take a LATERAL item reading the
// left one, with USING and NATURAL.
var lateralUsingJoins = []string{"JOIN %s USING (k)", "LEFT JOIN %s USING (k)", "JOIN %s USING (k, v)",
	"LEFT JOIN %s USING (v, k)", "NATURAL JOIN %s", "NATURAL LEFT JOIN %s", "INNER JOIN %s USING (k)"}

// TestLateralUsingDifferential joins LATERAL items that read the left item
// with USING and NATURAL on sqlgate and PostgreSQL 15, selecting every
// column, the merged ones and each side's: the same rows and columns, or
// the same refusal. sqlgate refused them all (0A000).
func TestLateralUsingDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	const left = "(VALUES (1, 'a'), (2, 'b'), (3, 'c'), (NULL, 'd')) x(k, v)"
	stats := map[string]int{}
	n := 0
	for _, join := range lateralUsingJoins {
		for _, right := range lateralUsingRights {
			for _, sel := range []string{"*", "k, x.k, s.k", "count(*)"} {
				q := fmt.Sprintf("SELECT %s FROM %s %s", sel, left, fmt.Sprintf(join, right))
				tally(t, ctx, r, q, stats)
				n++
			}
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] < n/2 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
