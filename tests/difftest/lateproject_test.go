package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// lateProjGen builds queries over a derived table (a subquery in FROM, a
// view, or a WITH query read once, which PostgreSQL inlines) one of whose
// columns fails on some rows (a cast of text that is not a number, a
// division by a zero), joined and filtered so that the failing rows are
// or are not eliminated, and the failing column read by the select list,
// the WHERE, an aggregate, or nothing: PostgreSQL pulls such a derived
// table up into the join and computes the column only for the rows that
// survive (lower/lateproject.go).
type lateProjGen struct{ r *rand.Rand }

func (g lateProjGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// derived is the FROM item named d with columns k, f (the failing one), s.
func (g lateProjGen) derived() (with, from string) {
	// strict calls (abs, length, lpad, sign) are lifted from a
	// NULL-extended side like operators (non-strict ones, coalesce and
	// CASE, stay below it as PostgreSQL's PlaceHolderVars, which it
	// decides before reducing outer joins: not generated yet)
	// (a constant that fails, 1/0, fails at planning when it is
	// computed at all: PostgreSQL pulls the derived table up, or removes
	// its unread outputs, before it folds; lower's deferOutputs)
	f := g.pick("t::int", "(t)::boolean::int", "10 / n", "t::int + n", "abs(t::int)", "length(lpad(t, 10 / n))", "sign(t::int)",
		"1/0", "(2147483647 + 1) - n", "sqrt(-1::float8)::int")
	s := g.pick("n", "k + 1", "coalesce(n, 0)", "upper(t)")
	where := g.pick("", "", " WHERE n >= 0", " WHERE k <> 7")
	body := fmt.Sprintf("SELECT k, %s AS f, %s AS s FROM lpa%s", f, s, where)
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("WITH d AS (%s) ", body), "d"
	case 1:
		return "", g.pick("lpv1", "lpv2") + " d"
	}
	return "", "(" + body + ") d"
}

func (g lateProjGen) query() string {
	switch g.r.IntN(4) {
	case 0:
		return g.unreadQuery()
	case 1:
		return g.constantInQuery()
	}
	with, from := g.derived()
	join := g.pick("JOIN", "JOIN", "LEFT JOIN", "CROSS JOIN", "RIGHT JOIN")
	on := " ON " + g.pick("d.k = b.k", "d.k = b.k", "d.k = b.k AND b.v > 20", "d.s = b.v")
	if join == "CROSS JOIN" {
		on = ""
	}
	where := g.pick("", "", " WHERE b.v > 15", " WHERE b.v < 0", " WHERE d.f > 0", " WHERE d.f + b.v > 0", " WHERE b.k = 1", " WHERE d.k > 2")
	sel := g.pick("d.f", "d.s", "d.k, b.v", "count(*)", "sum(d.f)", "d.f, b.v", "1")
	first, second := from, "lpb b"
	if g.r.IntN(3) == 0 {
		first, second = second, first
	}
	return fmt.Sprintf("%sSELECT %s FROM %s %s %s%s%s", with, sel, first, join, second, on, where)
}

// unreadQuery reads the derived table d where PostgreSQL never computes
// an output nothing reads: the left side of a LATERAL join, a window
// function's input, a semi join from IN or EXISTS.
func (g lateProjGen) unreadQuery() string {
	with, from := g.derived()
	read := g.pick("d.k", "d.s", "d.f")
	switch g.r.IntN(9) {
	case 8:
		// a grouped derived table joined on its group key to a column
		// fixed by a constant: PostgreSQL's equivalence class fixes the
		// group key too, filtering below the aggregation, so the groups
		// the constant excludes are never aggregated
		f := g.pick("10 / n", "t::int", "sqrt(-1::float8)::int + k", "n * 2147483647")
		body := fmt.Sprintf("SELECT k, sum(%s) AS f, max(n) AS s FROM lpa GROUP BY k", f)
		// (a constant lpb holds: with none, which input PostgreSQL reads
		// first is its costs' choice, the empty-join-input difference)
		c := g.pick("1", "3", "5", "4", "3::bigint", "1::smallint")
		sel := g.pick("d.k", "d.f", "count(*)", "b.v", "d.s, b.v")
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("SELECT %s FROM (%s) d JOIN lpb b ON b.k = d.k WHERE b.k = %s", sel, body, c)
		}
		return fmt.Sprintf("SELECT %s FROM lpb b, (%s) d WHERE d.k = b.k AND %s = b.k", sel, body, c)
	case 6:
		// a LATERAL item's output that fails: PostgreSQL pulls the item
		// up and computes it only when read (l.z), for the rows that
		// reach it
		z := g.pick("10 / (d.k - 3)", "1/0", "(d.k::text || 'x')::int", "d.k * 2147483647")
		item := fmt.Sprintf("(SELECT %s AS z, d.k AS x)", z)
		if g.r.IntN(2) == 0 {
			z = g.pick(z, "10 / (b.v - 30)", "b.v * 2147483647")
			item = fmt.Sprintf("(SELECT %s AS z, b.v AS x FROM lpb b WHERE b.k %s d.k)", z, g.pick("=", ">="))
		}
		sel := g.pick("l.x", "count(*)", "d.k", "l.z", "1", "d.k, l.x")
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("%sSELECT %s FROM %s, LATERAL %s l", with, sel, from, item)
		case 1:
			return fmt.Sprintf("%sSELECT %s FROM %s JOIN LATERAL %s l ON l.x > 1", with, sel, from, item)
		}
		return fmt.Sprintf("%sSELECT %s FROM %s LEFT JOIN LATERAL %s l ON true", with, sel, from, item)
	case 7:
		// a VALUES list with a failing cell: one row is pulled up
		// (pull_up_simple_values) and its unread cells never computed;
		// several rows are a Values Scan that computes every cell
		z := g.pick("1/0", "10 / (SELECT min(n) FROM lpa)", "(SELECT max(t) FROM lpa)::int", "2147483647 + 1")
		vals := fmt.Sprintf("(VALUES (3, %s))", z)
		if g.r.IntN(3) == 0 {
			vals = fmt.Sprintf("(VALUES (3, %s), (5, 6))", z)
		}
		if g.r.IntN(3) == 0 {
			return fmt.Sprintf("SELECT %s FROM %s v(a, z)", g.pick("v.a", "count(*)", "v.z"), vals)
		}
		return fmt.Sprintf("%sSELECT %s FROM %s JOIN %s v(a, z) ON v.a = d.k", with, g.pick("d.k", "count(*)", "v.a", "v.z", "d.s"), from, vals)
	case 5:
		// an aggregate nothing reads is not computed either (lower's
		// aggregate_output_pruning), under a UNION ALL branch too
		f := g.pick("10 / n", "t::int", "1/0", "sqrt(-1::float8)::int")
		body := fmt.Sprintf("SELECT k, sum(%s) AS f, max(n) AS s FROM lpa GROUP BY k", f)
		return fmt.Sprintf("SELECT %s FROM (%s) d%s", g.pick("count(*)", "d.k", "d.s", "d.f", "1"), body, g.pick("", " UNION ALL SELECT 0"))
	case 4:
		// a UNION ALL branch's outputs are all computed (folded), the
		// derived tables below them not
		return fmt.Sprintf("%sSELECT %s FROM %s UNION ALL SELECT 0", with, g.pick("d.k", read), from)
	case 0:
		// d.f not read: PostgreSQL pulls this LATERAL item up into a join
		// too and computes d.f over its output, which sqlgate's apply
		// does not yet (d.f is read by nothing here)
		return fmt.Sprintf("%sSELECT %s FROM %s, LATERAL (SELECT d.k + b.v AS x FROM lpb b WHERE b.k = d.k) l", with, g.pick("l.x", "count(*)", "d.k", "d.s"), from)
	case 1:
		return fmt.Sprintf("%sSELECT %s FROM %s %s JOIN LATERAL (SELECT d.k AS x) l ON true", with, g.pick("l.x", "1", read), from, g.pick("", "LEFT"))
	case 2:
		return fmt.Sprintf("%sSELECT d.k, %s OVER (%s) FROM %s", with, g.pick("row_number()", "count(*)", "sum(d.k)"), g.pick("", "PARTITION BY d.k", "ORDER BY d.k"), from)
	}
	return fmt.Sprintf("%sSELECT %s FROM %s WHERE %s", with, g.pick("d.k", "count(*)", read), from,
		g.pick("d.k IN (SELECT k FROM lpb)", "EXISTS (SELECT 1 FROM lpb b WHERE b.k = d.k)", "NOT EXISTS (SELECT 1 FROM lpb b WHERE b.k = d.k)"))
}

// constantInQuery is x op ANY (S) where S outputs a constant: PostgreSQL
// computes x op c for every outer row, whatever S holds.
func (g lateProjGen) constantInQuery() string {
	x := g.pick("10 / a.n", "a.t::int", "a.k", "a.n * 2147483647")
	sq := g.pick("SELECT 0 FROM lpb", "SELECT 1 FROM lpb WHERE v > 1000", "SELECT 5 FROM lpb b WHERE b.k = 1", "SELECT 1 FROM lpb LIMIT 1")
	return fmt.Sprintf("SELECT %s FROM lpa a WHERE %s %s (%s)", g.pick("a.k", "count(*)"), x, g.pick("IN", "= ANY", "< ANY"), sq)
}

// TestLateProjectionDifferential runs SQLGATE_DIFF_LATEPROJ (default 200;
// about 8 s with -race)
// lateProjGen queries on sqlgate and PostgreSQL 15: the same rows, or the
// same SQLSTATE (which row fails first is the plans' order: the message
// is not compared).
func TestLateProjectionDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_LATEPROJ", 200)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	g := lateProjGen{r: seededRand(t, 0x1a7e)}
	runOnBoth(t, ctx, rp,
		"CREATE TABLE lpa (k int, t text, n int)",
		"CREATE TABLE lpb (k int, v int)",
		// rows 2, 4 and 6 fail a cast or a division; 2 and 6 join nothing
		"INSERT INTO lpa VALUES (1, '1', 1), (2, 'x', 0), (3, '3', 3), (4, 'y', 0), (5, '5', 5), (6, 'z', 0), (NULL, '8', 8)",
		"INSERT INTO lpb VALUES (1, 10), (3, 30), (3, 31), (4, -4), (5, 50), (9, 90)",
		"CREATE VIEW lpv1 AS SELECT k, t::int AS f, n AS s FROM lpa",
		"CREATE VIEW lpv2 AS SELECT k, 10 / n AS f, k + 1 AS s FROM lpa WHERE k <> 4",
	)
	stats := map[string]int{}
	for range n {
		tallyBy(t, ctx, rp, g.query(), stats, tallyRule{codeOnly: true})
	}
	t.Logf("late projection: %d queries: %v", n, stats)
	if stats["same"] < n/4 || stats["refused alike"] < n/10 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
}
