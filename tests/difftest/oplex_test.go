package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// opLexChars are PostgreSQL's operator characters (scan.l's op_chars).
const opLexChars = "~!@#^&|`?+-*/%<>="

// opLexRun is a random run of one to four operator characters, without a
// comment start (-- and /* are tested by hand in the slt files).
func opLexRun(rng *rand.Rand) string {
	for {
		n := 1 + rng.Intn(4)
		var b strings.Builder
		for range n {
			b.WriteByte(opLexChars[rng.Intn(len(opLexChars))])
		}
		s := b.String()
		if !strings.Contains(s, "--") && !strings.Contains(s, "/*") && !strings.Contains(s, "`") {
			return s
		}
	}
}

// TestOperatorLexingDifferential writes random runs of operator characters
// between and before integer operands, with and without spaces (2 !=- 1,
// 2^-1, 1 <-> 2, @- 1), and compares sqlgate with PostgreSQL 15. Where
// PostgreSQL's lexer reads a run as one operator (the longest run, its
// trailing + and - stripped unless it holds a character no SQL operator
// has), sqlgate read the operators it knew and left the rest: 2 !=- 1 was
// 2 != -1, true, where PostgreSQL finds no operator !=-, and 1 <-> 2 was a
// syntax error at ->. Answers must agree, and refusals in SQLSTATE, message
// and position.
func TestOperatorLexingDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261204))))
	operands := []string{"2", "7", "3.5", "x"}
	placed := func(string) bool { return true }
	stats := map[string]int{}
	for i := 0; i < 500; i++ {
		op := opLexRun(rng)
		a, b := operands[rng.Intn(len(operands))], operands[rng.Intn(len(operands))]
		var expr string
		switch rng.Intn(4) {
		case 0:
			expr = fmt.Sprintf("%s %s %s", a, op, b)
		case 1:
			expr = fmt.Sprintf("%s%s%s", a, op, b)
		case 2:
			expr = fmt.Sprintf("%s %s%s", a, op, b)
		default:
			expr = fmt.Sprintf("%s %s", op, b)
		}
		q := fmt.Sprintf("SELECT %s FROM (VALUES (5)) AS v(x)", expr)
		tallyBy(t, ctx, r, q, stats, tallyRule{placed: placed})
	}
	t.Logf("%v", stats)
	if stats["refused alike"] < 100 || stats["same"] < 50 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
