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
	f := g.pick("t::int", "(t)::boolean::int", "10 / n", "t::int + n")
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
