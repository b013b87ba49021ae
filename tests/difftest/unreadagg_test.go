package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The unread-aggregation generator: a derived table (in FROM, under
// count(*), LATERAL, a scalar or EXISTS subquery) that aggregates, groups
// by nothing or has a HAVING, over a table whose WHERE fails on one row
// (10 / b with b = 0), and whose outputs the query above reads or not.
// PostgreSQL removes the unread outputs first (remove_unused_subquery_outputs);
// an aggregation left without aggregates over one relation is then a
// Result that never reads it (planagg.c), one that never had any and
// groups by nothing is a degenerate grouping (planner.c), also a Result;
// over a join, a function, VALUES or a derived table it cannot pull up,
// its input is read and the WHERE fails. A LEFT JOIN to such a derived
// table that reads none of it is removed (join_is_removable). The inner
// query is also drawn under set operations (setOp) and with windows over
// its aggregation.

// unreadFroms are the inner query's FROM items, each with columns a and b:
// one table (also through a derived table PostgreSQL pulls up), and what is
// not one relation to preprocess_minmax_aggregates.
var unreadFroms = []string{
	"t",
	"(SELECT a, b FROM t) d",
	"(SELECT t1.a, t2.b FROM t t1 JOIN t t2 ON t1.a = t2.a) d",
	"(SELECT a, b FROM t LIMIT 5) d",
	"(SELECT a, b FROM t ORDER BY a) d",
	"(SELECT a, b, random() AS r FROM t) d",
	"(VALUES (1, 0), (2, 1)) d(a, b)",
	"(SELECT g AS a, g - 1 AS b FROM generate_series(1, 3) g) d",
}

// unreadItem is a select-list item and its type.
type unreadItem struct{ sql, typ string }

// unreadAggItems are select-list items with an aggregate (windows over
// the aggregation among them: PostgreSQL drops an unread window function
// but computes its PARTITION BY and ORDER BY keys); unreadPlainItems are
// constants.
var (
	unreadAggItems = []unreadItem{
		{"count(*)", "bigint"}, {"max(a)", "int"}, {"sum(10 / b)", "bigint"}, {"min(b)", "int"},
		{"count(DISTINCT a)", "bigint"}, {"sum(a) FILTER (WHERE 10 / b > 1)", "bigint"},
		{"row_number() OVER (ORDER BY sum(10 / b))", "bigint"}, {"rank() OVER (PARTITION BY max(a))", "bigint"},
		{"sum(count(*)) OVER ()", "numeric"}, {"count(*) OVER (ORDER BY min(10 / b))", "bigint"},
		{"sum(sum(10 / b)) OVER ()", "numeric"},
	}
	unreadPlainItems = []unreadItem{{"1", "int"}, {"'x'", "text"}}
)

// unreadTails group, filter groups or bound the inner query.
var unreadTails = []string{"", "", "GROUP BY ()", "HAVING true", "HAVING count(*) >= 0", "GROUP BY b", "LIMIT 1", "OFFSET 0",
	"GROUP BY GROUPING SETS ((), ())", "GROUP BY GROUPING SETS ((b), ())"}

// unreadOuters use the inner query (%[1]s) as derived table s with columns
// c1..; lateral ones correlate its WHERE with t0 (their guard reads it).
// Windows over the aggregation and grouping sets with a key are drawn
// under the outers marked windows: every one now (a sublink's or a
// LATERAL item's plan is narrowed through its windows by
// trimSubqueryPlan's pruneJoinInputs).
var unreadOuters = []struct {
	sql              string
	lateral, windows bool
}{
	{"SELECT 1 FROM (%[1]s) s", false, true},
	{"SELECT count(*) FROM (%[1]s) s", false, true},
	{"SELECT s.c1 FROM (%[1]s) s", false, true},
	{"SELECT t0.a FROM t t0 CROSS JOIN (%[1]s) s", false, true},
	{"SELECT (SELECT 1 FROM (%[1]s) s LIMIT 1)", false, true},
	{"SELECT (SELECT count(*) FROM (%[1]s) s)", false, true},
	{"SELECT EXISTS (%[1]s)", false, true},
	{"SELECT t0.a FROM t t0 WHERE EXISTS (SELECT 1 FROM (%[1]s) s)", false, true},
	{"SELECT t0.a FROM t t0, LATERAL (%[1]s) s", true, true},
	{"SELECT t0.a, s.c1 FROM t t0, LATERAL (%[1]s) s", true, true},
	{"SELECT t0.a FROM t t0 LEFT JOIN LATERAL (%[1]s) s ON true", true, true},
	{"SELECT t0.a FROM (SELECT a, 10 / b AS q FROM t) t0 CROSS JOIN LATERAL (%[1]s) s", true, true},
}

// UnreadAggGen generates those queries, deterministically by seed.
type UnreadAggGen struct{ rng *rand.Rand }

// NewUnreadAggGen returns a generator.
func NewUnreadAggGen(seed uint64) *UnreadAggGen {
	return &UnreadAggGen{rng: rand.New(rand.NewPCG(seed, 0x756e7264))}
}

// Query returns one query.
func (g *UnreadAggGen) Query() string {
	r := g.rng
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	outer := unreadOuters[r.IntN(len(unreadOuters))]
	var items []string
	var typs []string
	aggItems := unreadAggItems
	if !outer.windows {
		aggItems = slices.DeleteFunc(slices.Clone(aggItems), func(it unreadItem) bool { return strings.Contains(it.sql, " OVER ") })
	}
	for n := 1 + r.IntN(3); n > 0; n-- {
		it := aggItems[r.IntN(len(aggItems))]
		if r.IntN(3) == 0 {
			it = unreadPlainItems[r.IntN(len(unreadPlainItems))]
		}
		items, typs = append(items, it.sql), append(typs, it.typ)
	}
	tail := pick(unreadTails)
	if !outer.windows && strings.HasPrefix(tail, "GROUP BY GROUPING SETS") {
		tail = "GROUP BY ()"
	}
	if tail == "GROUP BY b" {
		items[0], typs[0] = "b", "int"
	}

	for i := range items {
		items[i] += fmt.Sprintf(" AS c%d", i+1)
	}
	where := pick([]string{"", "WHERE 10 / b > 0", "WHERE b <> 0"})
	if outer.lateral {
		// the guard reads the outer row: t0.b is 0 on one row, and the
		// derived t0's q is its 10 / b
		where = pick([]string{"WHERE a = 10 / t0.b", "WHERE 10 / b > t0.a", "WHERE a <> t0.a", "WHERE a = t0.a"})
		if strings.Contains(outer.sql, "q FROM") && r.IntN(2) == 0 {
			where = "WHERE a = t0.q"
		}
	}
	inner := strings.TrimSpace(fmt.Sprintf("SELECT %s FROM %s %s %s", strings.Join(items, ", "), pick(unreadFroms), where, tail))
	if r.IntN(3) == 0 {
		inner = g.setOp(inner, typs)
	}
	return fmt.Sprintf(outer.sql, inner)
}

// setOp is inner under a set operation with a second branch of constants:
// of inner's column types or not, UNION ALL or not, with a LIMIT or not.
// PostgreSQL flattens a UNION ALL whose branches' columns have the
// result's types into an append relation, whose branches' unread outputs
// it drops; any other it plans as a subquery that computes them all
// (is_simple_union_all).
func (g *UnreadAggGen) setOp(inner string, typs []string) string {
	r := g.rng
	other := make([]string, len(typs))
	for i, t := range typs {
		switch r.IntN(3) {
		case 0:
			other[i] = "NULL::" + t
		case 1:
			other[i] = "1" // an int beside a bigint branch: coerced, not flattened
			if t == "text" {
				other[i] = "'y'"
			}
		default:
			other[i] = "NULL"
		}
		other[i] += fmt.Sprintf(" AS c%d", i+1) // the first branch names the columns
	}
	op := []string{"UNION ALL", "UNION ALL", "UNION ALL", "UNION", "EXCEPT ALL"}[r.IntN(5)]
	q := fmt.Sprintf("(%s) %s SELECT %s", inner, op, strings.Join(other, ", "))
	switch r.IntN(5) {
	case 0:
		q += " LIMIT 5"
	case 1:
		q = fmt.Sprintf("SELECT %s UNION ALL (%s)", strings.Join(other, ", "), q)
	}
	return q
}

// TestUnreadAggregateDifferential runs SQLGATE_DIFF_UNREADAGG_QUERIES
// (default 400) generated queries (seed SQLGATE_DIFF_SEED) on both
// systems: rows as a multiset and SQLSTATEs, no allowance (lower's
// degenerate_grouping, aggregate_output_pruning's one row over one
// relation, dropUnreadWindows).
func TestUnreadAggregateDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_UNREADAGG_QUERIES", 400)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{
		// no index: PostgreSQL's min and max of a column read it in the
		// index's order (planagg.c), stopping at the first row, which
		// sqlgate has no index to do
		"CREATE TABLE t (a int, b int)",
		"INSERT INTO t VALUES (1, 0), (2, 1), (3, 2)",
	} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	g := NewUnreadAggGen(uint64(seed))
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		q := g.Query()
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("query %d lost its connection: %s\n%s", i, sg.Err.Message, q)
		}
		if same, why := Compare(sg, pg, false, false); !same {
			stats["different"]++
			if stats["different"] <= 20 {
				t.Errorf("%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, sg.Format(3), pg.Format(3))
			}
			continue
		}
		switch {
		case pg.Err != nil:
			stats["refused alike"]++
		default:
			stats["same"]++
		}
	}
	t.Logf("%d queries (seed %d): %v", n, seed, stats)
	if stats["same"] < n/3 {
		t.Errorf("only %d of %d queries answered on both systems: the generator fails too often", stats["same"], n)
	}
}
