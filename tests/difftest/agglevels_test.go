package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// aggLevelsSetup are the tables the aggregate-level queries read: t at
// the outer level, u and w below it (NULLs and repeats included).
var aggLevelsSetup = []string{
	"CREATE TABLE al_t (a int, b int)",
	"INSERT INTO al_t VALUES (1, 10), (2, 10), (3, 20), (NULL, 20), (5, 30)",
	"CREATE TABLE al_u (x int, y int)",
	"INSERT INTO al_u VALUES (1, 1), (2, 1), (NULL, 2)",
	"CREATE TABLE al_w (z int)",
	"CREATE TABLE al_k (k int PRIMARY KEY, v int)",
	"INSERT INTO al_w VALUES (7)",
}

// aggLevelGen makes nested queries whose aggregates belong to different
// levels (PostgreSQL's agglevelsup: the level of the lowest column its
// arguments name): an aggregate of the outer query's columns inside a
// subquery (correlated or not, with or without GROUP BY at each level),
// placed in the outer select list, WHERE, HAVING, ORDER BY, GROUP BY and
// JOIN ON, and inside the subquery's own select list, WHERE, HAVING
// and ORDER BY.
type aggLevelGen struct{ r *rand.Rand }

func (g *aggLevelGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// agg is an aggregate call over columns of the levels named by cols.
func (g *aggLevelGen) agg(cols ...string) string {
	fn := g.pick("sum", "max", "min", "count", "avg", "bool_or")
	arg := g.pick(cols...)
	if g.r.IntN(3) == 0 && len(cols) > 1 {
		arg = g.pick(cols...) + " + " + g.pick(cols...)
	}
	switch fn {
	case "bool_or":
		return fmt.Sprintf("bool_or(%s > 1)::int", arg)
	case "avg":
		return fmt.Sprintf("round(avg(%s), 2)", arg)
	case "count":
		if g.r.IntN(3) == 0 {
			return "count(*)"
		}
	}
	if g.r.IntN(5) == 0 {
		return fmt.Sprintf("%s(%s) FILTER (WHERE %s > 1)", fn, arg, g.pick(cols...))
	}
	return fmt.Sprintf("%s(%s)", fn, arg)
}

// sub is a scalar subquery over al_u whose aggregate is the outer
// query's, its own, or mixed.
func (g *aggLevelGen) sub() string {
	var sel string
	switch g.r.IntN(6) {
	case 0, 1:
		sel = g.agg("al_t.a", "al_t.b") // the outer query's
	case 2:
		sel = g.agg("al_u.x", "al_u.y") // its own
	case 3:
		sel = g.agg("al_t.a", "al_u.x") // its own (the lowest level)
	case 4:
		sel = g.agg("al_t.a") + " + " + g.agg("al_u.x") // one of each
	default:
		// two levels down: an aggregate of the outer query two subqueries up
		return fmt.Sprintf("(SELECT (SELECT %s FROM al_w LIMIT 1) FROM al_u LIMIT 1)", g.agg("al_t.a", "al_t.b"))
	}
	where := g.pick("", "", " WHERE al_u.y = 1", " WHERE al_u.x < al_t.b", " WHERE al_u.x > "+g.agg("al_t.a"))
	tail := g.pick("", " LIMIT 1", " GROUP BY al_u.y ORDER BY al_u.y LIMIT 1", " HAVING "+g.agg("al_t.a")+" > 0 LIMIT 1",
		" ORDER BY "+g.agg("al_t.b")+" LIMIT 1")
	return fmt.Sprintf("(SELECT %s FROM al_u%s%s)", sel, where, tail)
}

func (g *aggLevelGen) query() string {
	group := g.r.IntN(2) == 0
	var sel []string
	if group {
		sel = append(sel, "al_t.b")
	}
	sel = append(sel, g.sub())
	if g.r.IntN(3) == 0 {
		sel = append(sel, g.agg("al_t.a"))
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM al_t"
	switch g.r.IntN(8) {
	case 0:
		q += " WHERE al_t.a < " + g.sub()
	case 1:
		q += " JOIN al_w ON al_w.z > " + g.sub()
	}
	if group {
		q += " GROUP BY al_t.b"
		if g.r.IntN(6) == 0 {
			// a subquery of its own aggregates: PostgreSQL reads GROUP
			// BY after the select list, sqlgate before, so of two
			// errors in both it would report another first
			q += ", (SELECT " + g.agg("al_u.x") + " FROM al_u WHERE al_u.x < al_t.b)"
		}
	}
	if g.r.IntN(3) == 0 {
		q += " HAVING " + g.sub() + " IS NOT NULL"
	}
	if g.r.IntN(3) == 0 {
		q += " ORDER BY " + g.sub()
	}
	return q
}

// aggLevelPlaces are queries with one aggregate of an enclosing level
// each, in every clause that refuses it, and in those that take it.
var aggLevelPlaces = []string{
	"SELECT a FROM al_t WHERE a = (SELECT sum(al_t.a) FROM al_u LIMIT 1)",
	"SELECT 1 FROM al_t JOIN al_u ON al_u.x = (SELECT max(al_t.a))",
	"SELECT b FROM al_t GROUP BY b, (SELECT sum(al_t.a))",
	"SELECT b FROM al_t GROUP BY (SELECT count(al_t.a) FROM al_u LIMIT 1)",
	"SELECT * FROM al_t, LATERAL (SELECT sum(al_t.a)) s",
	"SELECT (SELECT x FROM al_u WHERE x = (SELECT min(al_t.a) FROM al_w) LIMIT 1) FROM al_t",
	"SELECT b FROM al_t GROUP BY b HAVING (SELECT sum(al_t.a)) > 2 ORDER BY (SELECT max(al_t.a))",
	"SELECT (SELECT sum(al_t.a) FROM al_u WHERE al_u.x = 1) FROM al_t",
	"UPDATE al_k SET v = v WHERE k = (SELECT sum(al_k.v) FROM al_u LIMIT 1)",
	"DELETE FROM al_k WHERE k = (SELECT max(al_k.v) FROM al_u LIMIT 1)",
	"SELECT b, (SELECT al_t.a FROM al_u LIMIT 1) FROM al_t GROUP BY b",
	"SELECT (SELECT al_u.x FROM al_u WHERE al_u.x < al_t.a LIMIT 1), count(*) FROM al_t",
	"SELECT b, (SELECT sum(al_t.a) + al_t.b FROM al_u LIMIT 1) FROM al_t GROUP BY b",
	"SELECT (SELECT sum(al_t.a + max(al_u.x)) FROM al_u) FROM al_t",
	"SELECT sum((SELECT max(al_t.a) FROM al_u)) FROM al_t",
	"SELECT (SELECT max(sum(al_t.a) + al_u.x) FROM al_u) FROM al_t",
	"SELECT (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY al_t.a) FROM al_u LIMIT 1) FROM al_t",
	"SELECT b, (SELECT mode() WITHIN GROUP (ORDER BY al_t.a) + count(*) FROM al_u) FROM al_t GROUP BY b",
	"SELECT a FROM al_t WHERE a > (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY al_t.a))",
}

// TestAggregateLevelsDifferential runs generated queries with aggregates
// at different query levels on sqlgate and PostgreSQL 15: the same rows
// (in any order), or the same error (SQLSTATE and message: 42803's names
// the clause).
func TestAggregateLevelsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, st := range aggLevelsSetup {
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if o := e.Run(ctx, st); o.Err != nil {
				t.Fatalf("%s: %s", st, o.Err.Message)
			}
		}
	}
	g := &aggLevelGen{r: rand.New(rand.NewPCG(uint64(diffSeed(t, 1)), 7))}
	n := envInt(t, "SQLGATE_DIFF_QUERIES", 400)
	stats := map[string]int{}
	for i := range n + len(aggLevelPlaces) {
		var q string
		if i < len(aggLevelPlaces) {
			q = aggLevelPlaces[i]
		} else {
			q = g.query()
		}
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		same, why := Compare(sg, pg, false, true)
		if same && sg.Err != nil && sg.Err.Code == "42803" && sg.Err.Message != pg.Err.Message {
			same, why = false, "messages differ"
		}
		if !same {
			stats["different"]++
			t.Errorf("%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, describe(sg), describe(pg))
			continue
		}
		if pg.Err != nil {
			stats["same error "+pg.Err.Code]++
		} else {
			stats["same rows"]++
		}
	}
	t.Logf("%d queries: %v", n+len(aggLevelPlaces), stats)
	if stats["different"] > 0 {
		t.Errorf("not every query gave PostgreSQL's answer: %v", stats)
	}
	if stats["same rows"] == 0 || stats["same error 42803"] == 0 {
		t.Errorf("the generator made no answered query or no 42803: %v", stats)
	}
}
