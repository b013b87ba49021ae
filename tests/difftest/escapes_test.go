package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// escapeLiteral generates an E'...' or U&'...' [UESCAPE 'c'] literal or a
// U&"..." identifier (used as a column alias) of random escapes, valid and
// damaged: short hex runs, code points 0 and past U+10FFFF, surrogate
// halves alone, in pairs and in the wrong order, doubled quotes and
// escape characters, multi-byte text.
func escapeLiteral(r *rand.Rand) (lit string, ident bool) {
	hexDigits := "0123456789abcdefABCDEF"
	hexRun := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(hexDigits[r.IntN(len(hexDigits))])
		}
		return b.String()
	}
	surrogate := func(lo bool) string {
		base := 0xD800
		if lo {
			base = 0xDC00
		}
		return fmt.Sprintf("%04X", base+r.IntN(0x400))
	}
	plain := []string{"a", "é", "😀", "''", " ", "x", "\\", "+", "!"}
	var b strings.Builder
	switch r.IntN(3) {
	case 0: // E'...'
		b.WriteString("E'")
		for range 1 + r.IntN(4) {
			switch r.IntN(9) {
			case 0:
				// no lone backslash: it would escape what follows (a
				// closing quote: then the statement's later tokens fail
				// in another order, sqlgate lexing them all first)
				p := plain[r.IntN(len(plain))]
				if p == "\\" {
					p = "\\\\"
				}
				b.WriteString(p)
			case 1:
				b.WriteString(`\u` + hexRun(4))
			case 2:
				b.WriteString(`\U` + fmt.Sprintf("%08X", r.IntN(0x120000)))
			case 3:
				b.WriteString(`\u` + surrogate(false))
			case 4:
				b.WriteString(`\u` + surrogate(true))
			case 5:
				b.WriteString(`\u` + hexRun(r.IntN(4)))
			case 6:
				b.WriteString([]string{`\n`, `\t`, `\\`, `\'`, `\x41`, `\101`, `\x0`, `\z`}[r.IntN(8)])
			case 7:
				b.WriteString(`\u0000`)
			case 8:
				b.WriteString(`\U` + hexRun(r.IntN(8)))
			}
		}
		b.WriteString("'")
		return b.String(), false
	default: // U&'...' or U&"..."
		q := "'"
		ident = r.IntN(3) == 0
		if ident {
			q = `"`
		}
		esc := `\`
		if r.IntN(3) == 0 {
			esc = []string{"!", "#", "a", "+", "'", "ab", " ", `\`}[r.IntN(8)]
		}
		e := esc
		if len(e) != 1 || e == "'" {
			e = `\`
		}
		b.WriteString("U&" + q)
		for range 1 + r.IntN(4) {
			switch r.IntN(8) {
			case 0:
				p := plain[r.IntN(len(plain))]
				if q == `"` && p == "''" {
					p = `""`
				}
				b.WriteString(p)
			case 1:
				b.WriteString(e + hexRun(4))
			case 2:
				b.WriteString(e + "+" + fmt.Sprintf("%06X", r.IntN(0x120000)))
			case 3:
				b.WriteString(e + surrogate(false))
			case 4:
				b.WriteString(e + surrogate(true))
			case 5:
				b.WriteString(e + hexRun(r.IntN(4)))
			case 6:
				b.WriteString(e + e)
			case 7:
				b.WriteString(e + "0000")
			}
		}
		b.WriteString(q)
		if esc != `\` || r.IntN(4) == 0 {
			b.WriteString(" UESCAPE '" + strings.ReplaceAll(esc, "'", "''") + "'")
		}
		return b.String(), ident
	}
}

// TestEscapedLiteralDifferential runs SQLGATE_DIFF_ESCAPES (default 600)
// generated escaped literals and identifiers (escapeLiteral) on sqlgate and
// PostgreSQL 15: the same text, or the same SQLSTATE, message and cursor
// position.
func TestEscapedLiteralDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_ESCAPES", 600)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	stats := map[string]int{}
	for range n {
		lit, ident := escapeLiteral(r)
		q := "SELECT " + lit + " AS v"
		if ident {
			q = "SELECT 1 AS " + lit
		}
		sg := rp.SQLGate.Run(ctx, q)
		pg := rp.Postgres.Run(ctx, q)
		switch {
		case sg.Err != nil && sg.Err.Code == connErrorCode:
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		case sg.Err != nil && pg.Err != nil:
			if *sg.Err != *pg.Err {
				t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describeAt(sg), describeAt(pg))
				continue
			}
			stats["refused alike"]++
		case sg.Err == nil && pg.Err == nil:
			if same, why := Compare(sg, pg, true, false); !same {
				t.Errorf("%s\n  %s", q, why)
				continue
			}
			stats["same answer"]++
		default:
			t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describeAt(sg), describeAt(pg))
		}
	}
	t.Logf("%d literals (seed %d): %v", n, seed, stats)
	if stats["refused alike"] == 0 || stats["same answer"] == 0 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
}
