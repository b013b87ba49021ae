package difftest

import (
	"context"
	"fmt"
	"testing"
)

// namedWindowDefs are WINDOW clauses, each defining w (some through an
// earlier window); namedWindowRefs refer to w in every way OVER can,
// including the refinements PostgreSQL refuses.
var (
	namedWindowDefs = []string{
		"w AS (PARTITION BY g)",
		"w AS (ORDER BY x)",
		"w AS (PARTITION BY g ORDER BY v DESC)",
		"w AS (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
		"w0 AS (PARTITION BY g), w AS (w0 ORDER BY x)",
		"w0 AS (PARTITION BY g), w AS (w0)",
		"w0 AS (ORDER BY x), w AS (w0 ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
		"w0 AS (ORDER BY x ROWS UNBOUNDED PRECEDING), w AS (w0)",
		"w AS (ORDER BY x), w AS (ORDER BY v)",
		"w AS (w0 ORDER BY x), w0 AS (PARTITION BY g)",
	}
	namedWindowRefs = []string{
		"OVER w",
		"OVER (w)",
		"OVER (w ORDER BY x)",
		"OVER (w ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
		"OVER (w ORDER BY v RANGE UNBOUNDED PRECEDING)",
		"OVER (w PARTITION BY v)",
		"OVER nosuch",
		"OVER (nosuch ORDER BY x)",
	}
	namedWindowCalls = []string{"sum(v)", "count(*)", "max(v)", "rank()"}
)

// TestNamedWindowsDifferential runs every WINDOW clause of namedWindowDefs
// with every reference of namedWindowRefs and window call, over a table's
// rows and over grouped rows, on sqlgate and PostgreSQL 15: the same rows,
// or the same SQLSTATE, message and position.
func TestNamedWindowsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{"CREATE TABLE dwn (g text, x int, v int)",
		"INSERT INTO dwn VALUES ('a', 1, 10), ('a', 2, 30), ('a', 3, 20), ('b', 4, NULL), ('b', 5, 5), ('c', 6, 7)"}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	var queries []string
	for _, d := range namedWindowDefs {
		for _, ref := range namedWindowRefs {
			for _, c := range namedWindowCalls {
				queries = append(queries, fmt.Sprintf("SELECT g, x, %s %s FROM dwn WINDOW %s ORDER BY x", c, ref, d))
			}
		}
		// grouped rows: x and v are grouped, so the definitions apply
		queries = append(queries, fmt.Sprintf("SELECT g, x, sum(sum(v)) OVER w, count(*) OVER w FROM dwn GROUP BY g, x, v HAVING count(*) > 0 WINDOW %s ORDER BY x", d),
			fmt.Sprintf("SELECT DISTINCT g, count(*) OVER w FROM dwn WINDOW %s ORDER BY 1, 2", d),
			fmt.Sprintf("SELECT count(*) FROM (SELECT x, sum(v) OVER w FROM dwn WINDOW %s) s", d))
	}
	stats := map[string]int{}
	for _, q := range queries {
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true, placed: everyCode})
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
