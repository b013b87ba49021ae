package difftest

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
)

// Constructs whose brackets hold one expression, or a fixed shape, in
// PostgreSQL's grammar (op ANY (..), CAST, EXTRACT, POSITION, NULLIF,
// SUBSTRING and OVERLAY's keyword forms, TRIM, NORMALIZE, a subscript, a
// keyword type's modifier, FILTER (WHERE ..), a window frame's bounds,
// OFFSET, an aggregate's arguments): each generated with an extra ", x"
// (or none) at a random place among its parts, and parsed by both
// servers, which must refuse it alike (42601 with the same message and
// position) or both take it (sql/singleexpr.go).

// singleExprForms are the constructs, each a list of parts: the
// generator writes them in order, a part "?" an operand, and may put ", x"
// after any part but the first (after the last: outside the construct).
var singleExprForms = [][]string{
	{"SELECT 1 = ANY (", "?", ")"},
	{"SELECT 1 <> ALL (", "?", ")"},
	{"SELECT 'a' LIKE SOME (", "?", ")"},
	{"SELECT 1 = ANY (", "(SELECT ARRAY[1])", ")"},
	{"SELECT 1 = ANY (SELECT 1", ")"},
	{"SELECT CAST(", "?", " AS text", ")"},
	{"SELECT CAST(", "?", " AS varchar(3", ")", ")"},
	{"SELECT ", "'abc'", "::char(2", ")"},
	{"SELECT ", "'1'", "::interval(2", ")"},
	{"SELECT extract(year FROM ", "now()", ")"},
	{"SELECT extract(", "'epoch'", " FROM ", "?", ")"},
	{"SELECT position(", "'a'", " IN ", "'abc'", ")"},
	{"SELECT nullif(", "?", ", ", "?", ")"},
	{"SELECT coalesce(", "?", ")"},
	{"SELECT greatest(", "?", ")"},
	{"SELECT normalize(", "'a'", ", NFC", ")"},
	{"SELECT substring(", "'abc'", " FROM ", "1", " FOR ", "2", ")"},
	{"SELECT substring(", "'abc'", " FOR ", "2", ")"},
	{"SELECT substring(", "'abc'", " SIMILAR ", "'a'", " ESCAPE ", "'#'", ")"},
	{"SELECT overlay(", "'abc'", " PLACING ", "'x'", " FROM ", "2", " FOR ", "1", ")"},
	{"SELECT trim(both ", "'x'", " FROM ", "'xax'", ")"},
	{"SELECT (ARRAY[1, 2])[", "1", "]"},
	{"SELECT (ARRAY[1, 2])[", "1", ":", "2", "]"},
	{"SELECT count(*) FILTER (WHERE ", "true", ")"},
	{"SELECT sum(1) OVER (ORDER BY 1 ROWS BETWEEN ", "1", " PRECEDING AND ", "1", " FOLLOWING)"},
	{"SELECT 1 OFFSET ", "1"},
	{"SELECT sum(", "1", ")"},
	{"SELECT count(DISTINCT ", "1", ")"},
	{"SELECT stddev(DISTINCT ", "1", ")"},
	{"SELECT max(", "1", ")"},
}

// singleExprOperands are the operands a "?" part becomes, and the extra
// item after a comma (the last two, broken, neither).
var singleExprOperands = []string{
	"1", "ARRAY[1, 2]", "'{1}'::int[]", "(1 + 2)", "x", "(SELECT 1)", "NULL", "'a'", "f(1, 2)", "(1, 2)", "1 +", ")",
}

func TestSingleExprCommaDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 0x51e)
	n := envInt(t, "SQLGATE_DIFF_SINGLEEXPR_STATEMENTS", 600)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		q := genSingleExpr(rng)
		sg, pg := parseOnly(ctx, r.SQLGate.(*Session), q), parseOnly(ctx, r.Postgres.(*Session), q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		syntax := func(o Outcome) bool { return o.Err != nil && o.Err.Code == "42601" }
		switch {
		case syntax(pg) && syntax(sg) && sg.Err.Position == pg.Err.Position && sg.Err.Message == pg.Err.Message:
			stats["refused alike"]++
		case syntax(pg) || syntax(sg):
			stats["different"]++
			t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describeErr(sg), describeErr(pg))
		default:
			stats["parsed alike"]++
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["refused alike"] < n/5 || stats["parsed alike"] < n/10 {
		t.Errorf("the generator's mix drifted: %v", stats)
	}
}

// genSingleExpr writes one of singleExprForms, an operand for each "?",
// with ", x" after one of its parts half of the time.
func genSingleExpr(rng *rand.Rand) string {
	form := singleExprForms[rng.IntN(len(singleExprForms))]
	comma := -1
	if rng.IntN(2) == 0 {
		comma = 1 + rng.IntN(len(form)-1)
	}
	var b strings.Builder
	for i, p := range form {
		if p == "?" {
			p = singleExprOperands[rng.IntN(len(singleExprOperands)-2)]
		}
		b.WriteString(p)
		if i == comma {
			// a valid item (a broken one is the error of another class),
			// and a blank after it: "1" + "ARRAY" would be one token
			b.WriteString(", " + singleExprOperands[rng.IntN(len(singleExprOperands)-2)] + " ")
		}
	}
	return b.String()
}
