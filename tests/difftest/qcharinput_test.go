package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestQCharInputDifferential reads SQLGATE_DIFF_QCHAR_INPUTS (default 300)
// generated texts as "char" on sqlgate and PostgreSQL 15, as a literal
// (charin) and from text (text_char), and compares the value's text and
// its byte (int4): the texts are zero to five characters over backslash,
// octal and non-octal digits, letters, a space and a two-byte character,
// so that four-byte \ooo escapes (beyond \377 too), near misses and
// multibyte first characters all occur.
func TestQCharInputDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_QCHAR_INPUTS", 300)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewPCG(uint64(seed), 37))
	alphabet := []string{`\`, `\`, `\`, "0", "1", "3", "4", "7", "8", "a", "A", " ", "é"}
	same := 0
	var diffs []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		if rng.IntN(3) > 0 {
			b.WriteString(`\`) // most texts start as an escape would
		}
		for k := rng.IntN(5); k > 0; k-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		lit := quoteLiteral(b.String())
		q := fmt.Sprintf(`SELECT %s::"char", %s::text::"char", %s::"char"::int4`, lit, lit, lit)
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		switch {
		case sg.Err != nil && sg.Err.Code == connErrorCode:
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		case sg.Err == nil && pg.Err == nil && sg.Format(1) == pg.Format(1):
			same++
		default:
			diffs = append(diffs, q+"\n  sqlgate:    "+describe(sg)+"\n  PostgreSQL: "+describe(pg))
		}
	}
	t.Logf("%d \"char\" inputs (seed %d): %d the same", n, seed, same)
	for _, d := range diffs {
		t.Error(d)
	}
}
