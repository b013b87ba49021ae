package difftest

import (
	"context"
	"math/rand"
	"strings"
	"testing"
)

// Operator precedence (PostgreSQL 15's sql-syntax-lexical "Operator
// Precedence" table): expressions written without parentheses over
// literals, mixing the operator classes sqlgate reads (|| with the other
// operators, + - * / %, ^, unary minus, ::, [] subscripts, COLLATE,
// comparisons, IS, LIKE / ILIKE, BETWEEN, IN, NOT, AND / OR), each
// answered by both servers: the same value, or the same SQLSTATE. A
// grammar that binds one operator tighter than PostgreSQL does answers
// differently (TiDB's || binds tighter than * and +: 2 * 3 || 'x').

// precOperand is a literal operand, typed so that most combinations
// resolve an operator.
func precOperand(rng *rand.Rand) string {
	p := pickFrom(rng)
	var x string
	switch rng.Intn(10) {
	case 0:
		x = p("-2", "- 3", "-(1)", "-2.5")
	case 1:
		x = p("'ab'::text", "'3'::text")
	case 2:
		x = p("(ARRAY[1, 2, 3])[2]", "(ARRAY[4, 5])[1]")
	case 3:
		x = p("NULL", "'7'")
	case 4:
		x = p("1.5", "0.5", "2.0")
	case 5:
		x = p("'a'", "'b%'", "'ab'")
	default:
		x = p("1", "2", "3", "4", "7", "10")
	}
	if rng.Intn(8) == 0 {
		x += p("::text", "::int", "::numeric")
	}
	return x
}

// precArith are the operators that bind tighter than the comparisons:
// || with PostgreSQL's other operators, below + - and above comparisons.
var precArith = []string{"+", "-", "*", "/", "%", "^", "||", "||", "||"}

// precTerm is a chain of operands joined by precArith.
func precTerm(rng *rand.Rand) string {
	p := pickFrom(rng)
	var sb strings.Builder
	for i := rng.Intn(4); i >= 0; i-- {
		sb.WriteString(precOperand(rng))
		if i > 0 {
			sb.WriteString(" " + p(precArith...) + " ")
		}
	}
	return sb.String()
}

// precPred is a term, or two joined by one comparison-level operator
// (PostgreSQL's comparisons do not associate: a < b < c is its syntax
// error, which the generator does not aim at).
func precPred(rng *rand.Rand) string {
	p := pickFrom(rng)
	l := precTerm(rng)
	switch rng.Intn(8) {
	case 1:
		return l + " BETWEEN " + precTerm(rng) + " AND " + precTerm(rng)
	case 2:
		return l + " IN (" + precTerm(rng) + ", " + precTerm(rng) + ")"
	case 3:
		return l + p(" IS NULL", " IS NOT NULL")
	case 4, 5:
		return l + " " + p("LIKE", "ILIKE", "NOT LIKE") + " " + precTerm(rng)
	}
	return l + " " + p("=", "<", "<>", ">=") + " " + precTerm(rng)
}

// precExpr is predicates joined by AND / OR, some under NOT.
func precExpr(rng *rand.Rand) string {
	p := pickFrom(rng)
	var sb strings.Builder
	if rng.Intn(3) == 0 {
		return precTerm(rng)
	}
	// (a predicate, never a bare term, under NOT, AND and OR: PostgreSQL
	// checks a boolean operand's type before it binds the next one)
	for i := rng.Intn(2); i >= 0; i-- {
		if rng.Intn(6) == 0 {
			sb.WriteString("NOT ")
		}
		sb.WriteString(precPred(rng))
		if i > 0 {
			sb.WriteString(" " + p("AND", "OR") + " ")
		}
	}
	return sb.String()
}

// TestPrecedenceDifferential runs generated expressions on both servers.
func TestPrecedenceDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 73))))
	stats := map[string]int{}
	const n = 800
	for i := 0; i < n; i++ {
		e := precExpr(rng)
		tallyBy(t, ctx, r, "SELECT "+e, stats, tallyRule{ordered: true, codeOnly: true})
	}
	t.Logf("%d expressions: %v", n, stats)
	if stats["same"] < n/5 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
