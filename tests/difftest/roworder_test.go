package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// rowErrorTemplates are expressions of x that fail at one row (x = %d),
// each with its own error, and are NULL elsewhere.
var rowErrorTemplates = []string{
	"CASE WHEN x = %d THEN 1 / (x - x) END",
	"CASE WHEN x = %d THEN ('a' || x)::int END",
	"CASE WHEN x = %d THEN (x * 100000)::int2 END",
	"CASE WHEN x = %d THEN sqrt(-x::float8) END",
	"CASE WHEN x = %d THEN ln(0::float8 * x) END",
	"CASE WHEN x = %d THEN ('{' || x)::int[] END",
	"CASE WHEN x = %d THEN to_date('x' || x, 'YYYY') END",
	"CASE WHEN x = %d THEN x % (x - x) END",
}

// TestRowOrderErrorsDifferential: a statement whose expressions fail at
// several rows fails with the first row's error (of that row's
// expressions, the first to fail), and a cursor returns the rows before
// it, as PostgreSQL evaluates row by row; sqlgate's batches evaluate each
// expression over all rows first. Random failing rows and expression
// orders in SELECT lists, WHERE clauses and both, over generate_series
// and VALUES, compared with PostgreSQL 15 (SQLSTATE and message).
func TestRowOrderErrorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4242))))
	stats := map[string]int{}
	exprs := func(n, rows int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, fmt.Sprintf(rowErrorTemplates[rng.Intn(len(rowErrorTemplates))], 1+rng.Intn(rows)))
		}
		return out
	}
	for i := 0; i < 60; i++ {
		rows := 2 + rng.Intn(40)
		from := fmt.Sprintf("generate_series(1, %d) x", rows)
		if rng.Intn(2) == 0 {
			var vals []string
			for v := 1; v <= rows; v++ {
				vals = append(vals, fmt.Sprintf("(%d)", v))
			}
			from = "(VALUES " + strings.Join(vals, ", ") + ") t(x)"
		}
		sel := exprs(1+rng.Intn(3), rows)
		where := exprs(1+rng.Intn(2), rows)
		for j := range where {
			where[j] += " IS NOT NULL"
		}
		sqls := []string{
			fmt.Sprintf("SELECT x, %s FROM %s", strings.Join(sel, ", "), from),
			fmt.Sprintf("SELECT x FROM %s WHERE %s", from, strings.Join(where, " OR ")),
			fmt.Sprintf("SELECT x, %s FROM %s WHERE %s", strings.Join(sel, ", "), from, strings.Join(where, " OR ")),
		}
		for _, sql := range sqls {
			tallyBy(t, ctx, r, sql, stats, tallyRule{ordered: true})
		}
		// a cursor fetches the rows before the first failing one
		fetch := 1 + rng.Intn(rows)
		declare := "DECLARE c NO SCROLL CURSOR FOR " + sqls[rng.Intn(len(sqls))]
		r.SQLGate.Run(ctx, "BEGIN")
		r.Postgres.Run(ctx, "BEGIN")
		tallyBy(t, ctx, r, declare, stats, tallyRule{})
		before := stats["different"]
		tallyBy(t, ctx, r, fmt.Sprintf("FETCH %d FROM c", fetch), stats, tallyRule{ordered: true})
		if stats["different"] > before {
			t.Logf("(the cursor: %s)", declare)
		}
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			s.Run(ctx, "ROLLBACK")
		}
	}
	t.Logf("%v", stats)
	if stats["same"]+stats["refused alike"] < 200 || stats["refused alike"] < 60 || stats["same"] < 20 {
		t.Errorf("outcomes: %v", stats)
	}
}
