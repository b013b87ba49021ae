package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// fullJoinAtoms are the terms of the generated FULL JOIN conditions over
// l(a, b) and r(a, b): equalities between the sides (of columns, of casts
// and functions of columns, through IN and NOT), other comparisons between
// them, IS NOT DISTINCT FROM, terms of one side or none, constants that
// fold, subqueries and a volatile call.
var fullJoinAtoms = []string{
	"l.a = r.a", "r.b = l.b", "l.a < r.a", "l.a IS NOT DISTINCT FROM r.a", "l.a + 1 = r.a",
	"l.a::text = r.a::text", "abs(l.a) = r.b", "l.a::numeric = r.b", "coalesce(l.a, 0) = coalesce(r.a, 0)",
	"l.a = 1", "r.b > 0", "l.a = l.b", "l.a = r.a + l.b", "l.a * r.a = 2",
	"true", "false", "NULL", "1 = 1", "1 = 0",
	"l.a IN (r.a)", "l.a IN (r.a, r.b)", "NOT (l.a <> r.a)", "NOT (l.a = r.a)",
	"l.a = (SELECT r.a)", "l.b = (SELECT 2)", "l.a = r.a + (random() * 0)::int", "(l.a = r.a) IS TRUE",
}

// fullJoinWheres are WHERE clauses over the join: PostgreSQL reduces a FULL
// JOIN whose WHERE rejects a side's NULLs to a LEFT, RIGHT or inner join
// before it asks for a mergeable or hashable condition.
var fullJoinWheres = []string{"", " WHERE l.a > 0", " WHERE r.a IS NOT NULL", " WHERE l.a > 0 AND r.b > 0", " WHERE l.a IS NULL"}

// TestFullJoinConditionsDifferential runs FULL JOINs on generated
// conditions (single terms, two terms under AND and OR, three under AND)
// and WHERE clauses on sqlgate and PostgreSQL 15: the same rows, or the
// same refusal. PostgreSQL refuses a FULL JOIN it can run neither as a
// merge join nor as a hash join (0A000); sqlgate answered every one with
// a nested loop.
func TestFullJoinConditionsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 25))))
	const from = "SELECT * FROM (VALUES (1, 2), (NULL, 3), (2, NULL), (3, 3)) l(a, b) " +
		"FULL JOIN (VALUES (1, 1), (2, 2), (NULL, 2), (4, NULL)) r(a, b) ON "
	var conds []string
	for _, a := range fullJoinAtoms {
		conds = append(conds, a)
		for _, b := range fullJoinAtoms {
			if rng.Intn(3) == 0 {
				conds = append(conds, a+" AND "+b)
			}
			if rng.Intn(12) == 0 {
				conds = append(conds, a+" OR "+b)
			}
		}
	}
	for i := 0; i < 60; i++ {
		pick := func() string { return fullJoinAtoms[rng.Intn(len(fullJoinAtoms))] }
		conds = append(conds, fmt.Sprintf("%s AND (%s AND %s)", pick(), pick(), pick()))
	}
	stats := map[string]int{}
	for i, c := range conds {
		where := ""
		if i%3 == 0 {
			where = fullJoinWheres[rng.Intn(len(fullJoinWheres))]
		}
		tally(t, ctx, r, from+c+where, stats)
	}
	t.Logf("%d queries: %v", len(conds), stats)
	if stats["same"] < len(conds)/4 || stats["refused alike"] < len(conds)/10 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
