package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestWindowPlacementDifferential puts window calls where PostgreSQL
// refuses them (WHERE, JOIN conditions, GROUP BY, HAVING, VALUES, functions
// in FROM), and set-returning calls where it takes them, in the windows'
// PARTITION BY and ORDER BY (run in the windows' input, below them, while
// the SELECT list's run above), against PostgreSQL 15: sqlgate said
// "not allowed here" without the clause, and refused the set-returning
// calls.
func TestWindowPlacementDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	calls := []string{"rank() OVER ()", "sum(x) OVER (ORDER BY x)", "row_number() OVER (PARTITION BY x)"}
	refused := []string{
		"SELECT x FROM (VALUES (1), (2)) v(x) WHERE %s = 1",
		"SELECT 1 FROM (VALUES (1)) v(x) JOIN (VALUES (1)) w(y) ON %s = 1",
		"SELECT 1 FROM (VALUES (1)) v(x) GROUP BY %s",
		"SELECT 1 FROM (VALUES (1)) v(x) HAVING %s = 1",
		"SELECT rank() OVER () FROM (VALUES (1)) v(x) GROUP BY x HAVING %s = 1",
		"SELECT * FROM (VALUES (1)) v(x), LATERAL (VALUES (%s)) w(y)",
		"SELECT * FROM (VALUES (1)) v(x), generate_series(1, %s)",
	}
	stats := map[string]int{}
	for _, q := range refused {
		for _, c := range calls {
			tallyBy(t, ctx, r, fmt.Sprintf(q, c), stats, tallyRule{placed: everyCode})
		}
	}
	srfs := []string{"generate_series(1, 3)", "unnest(ARRAY[3, 1, 2])", "generate_series(x, 2)"}
	taken := []string{
		"SELECT x, rank() OVER (ORDER BY %s) FROM (VALUES (1), (2)) v(x)",
		"SELECT x, count(*) OVER (PARTITION BY %s) FROM (VALUES (1), (2)) v(x)",
		"SELECT x, rank() OVER (ORDER BY %s DESC NULLS LAST) FROM (VALUES (1)) v(x)",
		"SELECT x, rank() OVER w FROM (VALUES (1), (2)) v(x) WINDOW w AS (ORDER BY %s)",
		"SELECT sum(x) OVER (ORDER BY %s), x FROM (VALUES (1), (2)) v(x)",
	}
	for _, q := range taken {
		for _, f := range srfs {
			tally(t, ctx, r, fmt.Sprintf(q, f), stats)
		}
	}
	t.Logf("%v", stats)
	if stats["refused alike"] < 20 || stats["same"] < 14 {
		t.Errorf("outcomes: %v", stats)
	}
}
