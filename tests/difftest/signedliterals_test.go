package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Integer literals under signs, and integer arithmetic at the bounds of
// smallint, integer and bigint. PostgreSQL's grammar writes a prefix
// minus into a number literal (doNegate, through parentheses and once per
// minus) and types the signed text by its value: -2147483648 is an
// integer, -(-2147483648) the bigint 2147483648, -(-9223372036854775808)
// a numeric; a unary plus, a cast or a column between them leaves an
// operator that keeps its operand's type (-(2147483648::int8) is a
// bigint) and overflows with 22003. The generator draws such trees over
// literals around each bound, under +, -, *, /, %, abs, @ and casts,
// with pg_typeof.

var signedLiteralBases = []string{"0", "1", "5", "32767", "32768", "2147483647", "2147483648", "2147483649", "9223372036854775807",
	"9223372036854775808", "9223372036854775809", "1.5", "1e3", "0.0"}

// signedLiteral is a literal of signedLiteralBases under random signs,
// parentheses and casts.
func signedLiteral(rng *rand.Rand, depth int) string {
	p := pickFrom(rng)
	if depth == 0 || rng.Intn(3) == 0 {
		return p(signedLiteralBases...)
	}
	x := signedLiteral(rng, depth-1)
	switch rng.Intn(7) {
	case 0, 1, 2:
		return "-" + x
	case 3:
		return "-(" + x + ")"
	case 4:
		return "(" + x + ")"
	case 5:
		return "+" + x
	}
	return "(" + x + ")::" + p("int2", "int4", "int8", "numeric")
}

// signedExpr is a random expression over signed literals.
func signedExpr(rng *rand.Rand) string {
	p := pickFrom(rng)
	x := func() string { return signedLiteral(rng, 4) }
	switch rng.Intn(6) {
	case 0, 1:
		return x()
	case 2:
		return fmt.Sprintf("%s %s %s", x(), p("+", "-", "*", "/", "%"), x())
	case 3:
		return fmt.Sprintf("%s(%s)", p("abs", "@", "-", "sign"), x())
	case 4:
		return fmt.Sprintf("%s %s %s", x(), p("+", "-", "*", "/", "%"), p("(-1)", "-1", "2", "(-1)::int2", "(-1)::int8", "0"))
	}
	return fmt.Sprintf("- %s", x())
}

// TestSignedLiteralsDifferential runs generated signed-literal
// expressions (value and pg_typeof) on both servers.
func TestSignedLiteralsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 51))))
	stats := map[string]int{}
	const n = 1500
	for i := 0; i < n; i++ {
		e := signedExpr(rng)
		if strings.Contains(e, "--") {
			e = strings.ReplaceAll(e, "--", "- -") // not a comment
		}
		tallyBy(t, ctx, r, "SELECT "+e+", pg_typeof("+e+")", stats, tallyRule{ordered: true})
	}
	t.Logf("%d expressions: %v", n, stats)
	if stats["same"] < n/3 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
