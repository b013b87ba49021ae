package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestOrderUsingDifferential runs ORDER BY key USING op with every
// comparison operator and one that is none, with and without NULLS FIRST |
// LAST, in a query's, a window's and an aggregate's ORDER BY, over an
// integer and a text key with NULLs, on sqlgate and PostgreSQL 15: the
// same rows in the same order, or the same SQLSTATE, message and position.
func TestOrderUsingDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{"CREATE TABLE dou (id int, n int, s text)",
		"INSERT INTO dou VALUES (1, 3, 'b'), (2, NULL, 'a'), (3, 1, NULL), (4, 2, 'c')"}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	contexts := []string{
		"SELECT id FROM dou ORDER BY %s",
		"SELECT id, row_number() OVER (ORDER BY %s) FROM dou ORDER BY id",
		"SELECT string_agg(id::text, ',' ORDER BY %s) FROM dou",
	}
	stats := map[string]int{}
	n := 0
	for _, c := range contexts {
		for _, key := range []string{"n", "s"} {
			for _, op := range []string{"<", ">", "<=", ">=", "=", "<>", "~~"} {
				for _, nulls := range []string{"", " NULLS FIRST", " NULLS LAST"} {
					q := fmt.Sprintf(c, key+" USING "+op+nulls)
					tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true, placed: everyCode})
					n++
				}
			}
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
