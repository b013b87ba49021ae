package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// PostgreSQL pulls x IN (SELECT c ...) whose select list is a constant, an
// EXISTS correlated only through conditions on the outer row, and their
// negations up into semi (anti) joins (convert_ANY_sublink_to_join,
// convert_EXISTS_sublink_to_join) whose every condition reads one side
// (x = c goes below the join to the outer scan): a join without a join
// clause, which only a nested loop runs (compute_semijoin_info finds no
// operator to unique-ify the inner side by). nodeNestloop.c reads the
// inner side for an outer row only up to its first row (single_match), so
// the inner rows after it are never filtered or computed, and an error of
// one of them is not the statement's; with no outer row the inner side is
// never read. An operand that reads the outer row until plan-time
// folding makes it a constant still makes a semi join: pull_up_sublinks
// runs before eval_const_expressions. A correlated EXISTS without an
// equality is a nested loop too: S's own conditions at its scan, the
// join filter after them (an anti join's condition on the outer row alone
// among it, so S is read to its end for a row it rejects). A row of
// constants is its fields' x = c at the outer scan, and x = NULL a
// one-time filter that reads nothing. A SubPlan (a correlated subquery
// PostgreSQL does not pull up) reads no further than it must
// (ExecScanSubPlan: ANY to its first true, ALL to its first false, a
// scalar subquery to its second row) and computes its left operand only
// over a row. An uncorrelated x op ANY | ALL that PostgreSQL does not
// hash (any but = ANY, IN and NOT IN) is a SubPlan over a Material node
// of S, read across the outer rows only up to the furthest row one's
// comparisons need; a hashed one reads all of S. The generator draws such subqueries over an inner table
// whose rows fail a condition at chosen positions (before, at or after
// the first row that passes), under outer conditions that keep rows or
// none, and compares rows and SQLSTATEs with no allowance.
// SQLGATE_DIFF_SEMISTOP_QUERIES sets the count (default 150).

// semiStopInner is a condition on the inner row si that fails (22012) on
// the rows whose i is k and passes or not on the others.
func semiStopInner(rng *rand.Rand) string {
	p := pickFrom(rng)
	k := p("0", "1", "2", "3", "9")
	switch rng.Intn(4) {
	case 0:
		return fmt.Sprintf("1 / (si.i - %s) >= 0", k)
	case 1:
		return fmt.Sprintf("1 %% (si.i - %s) = 0", k)
	case 2:
		return fmt.Sprintf("si.t = 'b' AND 1 / (si.i - %s) <> 7", k)
	}
	return fmt.Sprintf("(si.i - %s)::text::int / (si.i - %s) > %s", k, k, p("0", "-1"))
}

// semiStopQuery is a query over so with one such subquery in WHERE.
func semiStopQuery(rng *rand.Rand) string {
	p := pickFrom(rng)
	outer := p("so.x = 1", "so.x = 5", "so.x > 0", "so.x < 0", "true", "so.y IS NULL")
	inner := semiStopInner(rng)
	var sub string
	switch rng.Intn(13) {
	case 5, 6:
		// an operand that reads so until folding makes it a constant:
		// pull_up_sublinks saw the column, so this is a semi join too,
		// its x = y below it at si's scan
		x := fmt.Sprintf("CASE WHEN %s THEN so.x ELSE %s END", p("NULL", "false"), p("1", "2", "7", "9"))
		y := p("1", "2", "si.i", "si.i", "si.id")
		if rng.Intn(3) == 0 {
			// an operand with a subquery (a SubPlan at so's scan) against
			// a constant output: x = c is so's filter; a column output
			// is a semi join with a clause, whose plan (hash or nested
			// loop) PostgreSQL chooses by cost: not drawn
			x, y = fmt.Sprintf("CASE WHEN so.x NOT IN (SELECT si.id FROM si) THEN so.x ELSE %s END", p("1", "2")), p("1", "2")
		}
		sub = fmt.Sprintf("%s IN (SELECT %s FROM si WHERE %s)", x, y, inner)
	case 0:
		sub = fmt.Sprintf("so.x IN (SELECT %s FROM si WHERE %s)", p("1", "5", "-1"), inner)
	case 1:
		sub = fmt.Sprintf("so.x = ANY (SELECT %s FROM si WHERE %s)", p("1", "5"), inner)
	case 2:
		sub = fmt.Sprintf("EXISTS (SELECT 1 FROM si WHERE so.x > %s AND %s)", p("0", "2", "9"), inner)
	case 3:
		// with a condition on so (alone or beside si's row):
		// PostgreSQL's anti join keeps it as its join filter, above
		// si's own conditions, and reads the whole inner side for an
		// outer row it rejects
		sub = fmt.Sprintf("NOT EXISTS (SELECT 1 FROM si WHERE %s)", inner)
		if rng.Intn(3) > 0 {
			sub = fmt.Sprintf("NOT EXISTS (SELECT 1 FROM si WHERE %s AND %s)", semiStopJoinCond(rng), inner)
		}
	case 7:
		// a correlated EXISTS whose join filter reads both rows: a
		// nested loop semi join, si's own conditions first (not on
		// si.id, whose index PostgreSQL may scan by so's value, nor an
		// equality, which it may hash: plans it chooses by cost)
		sub = fmt.Sprintf("EXISTS (SELECT 1 FROM si WHERE %s AND %s)", p("si.i < so.x", "si.t <> so.y"), inner)
	case 8:
		// a row of constants: every field's x = c goes to so's scan; a
		// NULL one folds to a one-time filter that is never true
		sub = fmt.Sprintf("(so.x, so.y) IN (SELECT %s, %s FROM si WHERE %s)", p("1", "5", "2", "NULL::int"), p("'a'", "'c'", "NULL"), inner)
	case 9:
		sub = fmt.Sprintf("so.x IN (SELECT %s FROM si WHERE %s)", p("NULL::int", "-NULL::int"), inner)
	case 10:
		return semiStopSubPlan(rng, outer, inner)
	case 11, 12:
		return semiStopUncorrelated(rng, outer, inner)
	default:
		sub = fmt.Sprintf("EXISTS (SELECT 1 FROM si WHERE %s)", inner)
	}
	return fmt.Sprintf("SELECT so.x, so.y FROM so WHERE %s AND %s ORDER BY so.x", outer, sub)
}

// semiStopJoinCond is an anti join's filter: on so's row alone or on
// both rows.
func semiStopJoinCond(rng *rand.Rand) string {
	return pickFrom(rng)("so.x > 1", "so.x > 3", "so.x = 1", "so.y IS NULL", "si.i < so.x", "si.t <> so.y")
}

// semiStopSubPlan is a query with a correlated subquery PostgreSQL keeps
// a SubPlan (its output reads so, or it sits in the select list), which
// ExecScanSubPlan reads per outer row no further than it must: x op ANY
// stops at its first true comparison, ALL at its first false, a scalar
// or row comparison subquery at its second row (21000), and the left
// operand is computed only when the subquery has a row.
func semiStopSubPlan(rng *rand.Rand, outer, inner string) string {
	p := pickFrom(rng)
	corr := p("so.x > 0", "so.x > 1", "so.y IS NOT NULL", "si.i < so.x")
	var e string
	inSelect := rng.Intn(2) == 0
	switch rng.Intn(5) {
	case 0:
		e = fmt.Sprintf("%s IN (SELECT so.x FROM si WHERE %s)", p("so.x", "1 / (so.x - 2)", "so.x + 0"), inner)
	case 1:
		// correlated through its output
		e = fmt.Sprintf("so.x %s ALL (SELECT %s FROM si WHERE %s)", p("<", ">=", "<>", "="), p("so.x", "si.i + so.x - so.x"), inner)
	case 2:
		e = fmt.Sprintf("%s = ANY (SELECT so.x + si.i - si.i FROM si WHERE %s AND %s)", p("so.x", "2"), corr, inner)
	case 3:
		e = fmt.Sprintf("(SELECT si.id FROM si WHERE %s AND %s)", corr, inner)
	default:
		e = fmt.Sprintf("(so.x, 1) = (SELECT si.id, 1 FROM si WHERE %s AND %s)", corr, inner)
	}
	if strings.HasPrefix(e, "(SELECT") && !inSelect {
		e = "so.x = " + e
	}
	return semiStopPlace(e, outer, inSelect)
}

// semiStopPlace is a query over so with e in its select list or, beside
// outer, in its WHERE.
func semiStopPlace(e, outer string, inSelect bool) string {
	if inSelect {
		return fmt.Sprintf("SELECT so.x, %s FROM so WHERE %s ORDER BY so.x", e, outer)
	}
	return fmt.Sprintf("SELECT so.x, so.y FROM so WHERE %s AND %s ORDER BY so.x", outer, e)
}

// semiStopUncorrelated is a query with an uncorrelated x op ANY | ALL:
// = ANY, IN and NOT IN PostgreSQL hashes (all of S read when a row first
// needs it); any other operator, ALL among them, is a SubPlan over a
// Material node, which reads S across the outer rows only up to the
// furthest row one's comparisons need. Any ANY in WHERE is a semi join
// (convert_ANY_sublink_to_join takes every operator) whose plan
// PostgreSQL chooses by cost (an index scan of si.id bounded by x): not
// drawn there.
func semiStopUncorrelated(rng *rand.Rand, outer, inner string) string {
	p := pickFrom(rng)
	inSelect := rng.Intn(2) == 0
	ops := []string{"< ALL", ">= ALL", "<> ALL", "= ALL", "NOT IN"}
	if inSelect {
		ops = append(ops, "> ANY", "<= ANY", "<> ANY", "= ANY", "IN")
	}
	e := fmt.Sprintf("%s %s (SELECT %s FROM si WHERE %s)", p("so.x", "so.x + 0", "1 / (so.x - 2)", "NULL::int"), p(ops...), p("si.i", "si.id", "si.i + 1"), inner)
	return semiStopPlace(e, outer, inSelect)
}

// TestSemiJoinStopDifferential: see above.
func TestSemiJoinStopDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{
		"CREATE TABLE so (x int PRIMARY KEY, y text)",
		"INSERT INTO so VALUES (1, 'a'), (2, NULL), (5, 'c')",
		"CREATE TABLE si (id int PRIMARY KEY, i int, t text)",
		// one row at a time, in key order: both read them in that order
		"INSERT INTO si VALUES (1, 1, 'a')", "INSERT INTO si VALUES (2, 0, 'b')", "INSERT INTO si VALUES (3, 2, 'b')",
		"INSERT INTO si VALUES (4, 9, 'c')", "INSERT INTO si VALUES (5, 3, 'b')",
	} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 7919))))
	n := envInt(t, "SQLGATE_DIFF_SEMISTOP_QUERIES", 150)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		tallyBy(t, ctx, r, semiStopQuery(rng), stats, tallyRule{codeOnly: true, ordered: true})
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/4 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
