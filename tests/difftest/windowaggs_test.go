package difftest

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
)

// Aggregates used as window functions: every aggregate of sqlgate's
// registry (binder.AggregateNames), with each argument list of
// windowAggArgs, under each window of windowAggFrames, with and without
// FILTER. TiDB's grammar takes OVER after a few aggregates only and no
// FILTER at all (sql/windowagg.go); the window runs HashAggregate's
// accumulators over each frame (exec/relop/window.go).
var (
	windowAggArgs   = []string{"i", "n", "f", "t", "b", "i, f", "t, ','", "t, i", "NULL", "'1'", "*"}
	windowAggFrames = []string{
		"()",
		"(ORDER BY i)",
		"(PARTITION BY g ORDER BY i)",
		"(ORDER BY i ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
		"(PARTITION BY g ORDER BY i DESC ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)",
		"(ORDER BY i GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW)",
		"(ORDER BY i RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING)",
		"w",
	}
	windowAggFilters = []string{"", " FILTER (WHERE b)", " FILTER (WHERE i > 2)"}
)

// TestWindowAggregatesDifferential runs each aggregate of the registry as
// a window function on sqlgate and PostgreSQL 15: the same rows, or the
// same SQLSTATE and message. By default each aggregate and argument list
// meets one window and one FILTER (in turn, so that every window and
// FILTER is met); SQLGATE_DIFF_WINAGG_FULL=1 runs the whole product.
func TestWindowAggregatesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{"CREATE TABLE dwa (g text, i int, n numeric(6, 2), f float8, t text, b bool)",
		"INSERT INTO dwa VALUES ('a', 1, 1.5, 0.5, 'x', true), ('a', 2, 2.5, 1.5, 'y', false), ('a', 3, NULL, 2.0, NULL, NULL), " +
			"('b', 4, 4.0, NULL, 'z', true), ('b', 5, 5.5, 8.0, 'w', true), ('c', 6, 6.0, 3.0, '', false)"}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	full := os.Getenv("SQLGATE_DIFF_WINAGG_FULL") == "1"
	rule := tallyRule{ordered: true, placed: everyCode}
	stats := map[string]int{}
	turn := 0
	for _, agg := range binder.AggregateNames() {
		for _, args := range windowAggArgs {
			if args == "*" && agg != "count" {
				continue
			}
			for ci, filter := range windowAggFilters {
				// The call as a plain aggregate first: where sqlgate and
				// PostgreSQL already differ there (an argument type
				// sqlgate lacks), the window is not what this test is
				// about.
				plain := fmt.Sprintf("SELECT g, %s(%s)%s FROM dwa GROUP BY g ORDER BY g", agg, args, filter)
				if kind, _ := verdict(r.SQLGate.Run(ctx, plain), r.Postgres.Run(ctx, plain), rule); kind == "different" {
					stats["plain differs"]++
					continue
				}
				for fi, frame := range windowAggFrames {
					if !full && (fi != turn%len(windowAggFrames) || ci != turn%len(windowAggFilters)) {
						continue
					}
					q := fmt.Sprintf("SELECT g, i, %s(%s)%s OVER %s FROM dwa WINDOW w AS (PARTITION BY g) ORDER BY i", agg, args, filter, frame)
					tallyBy(t, ctx, r, q, stats, rule)
				}
			}
			turn++
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < len(binder.AggregateNames()) || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
