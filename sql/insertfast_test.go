package sql

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genInsert writes a random INSERT ... VALUES statement: random names
// (keywords among them, quoted or not, in any case), an optional column
// list, and rows of literals of every kind — edge and invalid ones, and,
// when plain is false, forms outside the fast path's subset (casts, $n,
// E” strings, comments, expressions, ON CONFLICT, RETURNING) so that the
// tests also cover its declining.
func genInsert(rng *rand.Rand, mode int) string {
	plain, common := mode < 2, mode == 0
	pick := func(list ...string) string { return list[rng.IntN(len(list))] }
	cased := func(w string) string {
		switch rng.IntN(3) {
		case 0:
			return strings.ToUpper(w)
		case 1:
			b := []byte(w)
			for i := range b {
				if rng.IntN(2) == 0 && b[i] >= 'a' && b[i] <= 'z' {
					b[i] -= 'a' - 'A'
				}
			}
			return string(b)
		}
		return w
	}
	name := func() string {
		if common {
			return cased(pick("t", "ins", "id", "a", "b_1", "name", "ts", "amount", "qty", "x", "user_id"))
		}
		n := pick("t", "ins", "id", "a", "b_1", "name", "ts", "user", "value", "key", "order", "select", "date", "amount", "qty",
			"status", "type", "comment", "level", "position", "x")
		if rng.IntN(6) == 0 {
			return `"` + pick(n, "Mixed Case", "sp ace", `q""uote`, "ünï") + `"`
		}
		return cased(n)
	}
	literal := func() string {
		if common {
			switch rng.IntN(9) {
			case 0:
				return fmt.Sprint(rng.Int64N(1000))
			case 1:
				return pick("0", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807", "-9223372036854775808", "00012", "1"+strings.Repeat("0", 40))
			case 2:
				return fmt.Sprintf("%d.%d", rng.IntN(100), rng.IntN(1000))
			case 3:
				return pick("1.5", "2.5", "-1.5", "-2.5", "0.5", "1e3", "1.5e-3", "-1E+2", "32767.5", "32768")
			case 4:
				return "'" + pick("", "x", "it''s", "1", " 2 ", "1.5", "abc", "t", "2024-01-02 03:04:05.123456", "NaN", "ünï", `back\slash`) + "'"
			case 5:
				return cased(pick("null", "true", "false"))
			case 6:
				return cased("default")
			case 7:
				return "-" + fmt.Sprint(rng.IntN(100))
			}
			return "+" + pick("1", "2.5")
		}
		switch rng.IntN(22) {
		case 0:
			return fmt.Sprint(rng.Int64N(1000))
		case 1:
			return pick("0", "2147483647", "2147483648", "-2147483648", "-2147483649", "9223372036854775807",
				"9223372036854775808", "-9223372036854775808", "18446744073709551616", "00012", "1"+strings.Repeat("0", 40))
		case 2:
			return fmt.Sprintf("%d.%d", rng.IntN(100), rng.IntN(1000))
		case 3:
			return pick("1.5", "2.5", "-1.5", "-2.5", "0.5", ".5", "5.", "1e3", "1.5e-3", "-1E+2", "1e400", "32767.5", "32768")
		case 4:
			return "'" + pick("", "x", "it''s", "1", " 2 ", "1.5", "abc", "t", "f", "yes", "off", "2024-01-02", "2024-01-02 03:04:05.123456",
				"NaN", "-0", "9223372036854775808", "１", "ünï", `back\slash`, "nul?") + "'"
		case 5:
			return cased(pick("null", "true", "false"))
		case 6:
			return cased("default")
		case 7:
			return "-" + fmt.Sprint(rng.IntN(100))
		case 8:
			return "+" + pick("1", "2.5")
		}
		if plain {
			return fmt.Sprint(rng.IntN(10))
		}
		switch rng.IntN(14) {
		case 0:
			return fmt.Sprintf("$%d", 1+rng.IntN(3))
		case 1:
			return "'5'::int"
		case 2:
			return "E'a\\nb'"
		case 3:
			return "1 + 2"
		case 4:
			return "/* c */ 1"
		case 5:
			return "(1)"
		case 6:
			return "- -1"
		case 7:
			return "'a' 'b'"
		case 8:
			return "'x'\n'y'"
		case 9:
			return "CAST(1 AS bigint)"
		case 10:
			return "default(x)"
		case 11:
			return "now()"
		case 12:
			return "x'1f'"
		}
		return "-- c\n 1"
	}
	var b strings.Builder
	b.WriteString(cased("insert") + " " + cased("into") + " " + name())
	cols := 1 + rng.IntN(4)
	if rng.IntN(3) > 0 {
		b.WriteString(pick(" (", "(", " ( "))
		for i := range cols {
			if i > 0 {
				b.WriteString(pick(", ", ",", " , "))
			}
			b.WriteString(name())
		}
		b.WriteString(pick(")", " )"))
	}
	b.WriteString(pick(" ", "\n", "  ") + cased("values") + pick(" ", "", "\n\t"))
	rows := 1 + rng.IntN(4)
	for r := range rows {
		if r > 0 {
			b.WriteString(pick(", ", ",", ",\n"))
		}
		b.WriteString("(")
		n := cols
		if rng.IntN(10) == 0 {
			n = rng.IntN(cols+2) + btoi(common)
		}
		for i := range n {
			if i > 0 {
				b.WriteString(pick(", ", ","))
			}
			b.WriteString(literal())
		}
		b.WriteString(")")
	}
	if !plain {
		b.WriteString(pick("", "", "", " RETURNING *", " ON CONFLICT DO NOTHING", " ON CONFLICT (id) DO UPDATE SET a = 1", ";", "; SELECT 1", " -- end"))
	}
	return b.String()
}

// TestInsertFastPathMatches: random INSERT statements parse to the same
// Statement (rewritten text, offset map, AST, errors) with the INSERT fast
// path as without it, and the fast path takes every statement of its
// subset.
func TestInsertFastPathMatches(t *testing.T) {
	with, without := newPlainPair()
	p := NewParser()
	rng := rand.New(rand.NewPCG(33, 1000))
	failed, plainTaken, fastTaken, subset := 0, 0, 0, 0
	for i := range 2400 {
		mode := i % 3
		inSubset := mode == 0
		in := genInsert(rng, mode)
		diff, n := plainDiff(with, without, in)
		plainTaken += n
		if diff != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%q: %s", in, diff)
			}
			continue
		}
		stmts, err := with.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range stmts {
			if st.AST == nil {
				continue
			}
			ok, diff := fastDiff(p, st.Rewritten)
			if ok {
				fastTaken++
			}
			if diff != "" {
				failed++
				if failed <= 20 {
					t.Errorf("%q:\n  %s", st.Rewritten, diff)
				}
			}
			if inSubset {
				subset++
				if n != 1 || !ok {
					failed++
					if failed <= 20 {
						t.Errorf("%q: in the subset, but plain took %d and the fast parser %v", in, n, ok)
					}
				}
			}
		}
	}
	// Near misses: statements of the subset with a byte deleted or
	// doubled, or a snippet the general path acts on inserted.
	snippets := []string{"::int", "$1", " AS x ", "(", ")", ",", "'", "\"", " -- c\n", "/* c */", " E'x' ", ".", " select ",
		" returning *", " on conflict do nothing", "-", "+", " default ", " values ", "Ä", ";", "1e", "..", " 'a' "}
	for range 1200 {
		in := genInsert(rng, 0)
		pos := rng.IntN(len(in) + 1)
		var m string
		switch rng.IntN(3) {
		case 0:
			if pos == len(in) {
				continue
			}
			m = in[:pos] + in[pos+1:]
		case 1:
			if pos == len(in) {
				continue
			}
			m = in[:pos+1] + in[pos:]
		default:
			m = in[:pos] + snippets[rng.IntN(len(snippets))] + in[pos:]
		}
		if diff, _ := plainDiff(with, without, m); diff != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%q: %s", m, diff)
			}
			continue
		}
		if stmts, err := with.Parse(m); err == nil {
			for _, st := range stmts {
				if st.AST == nil {
					continue
				}
				if _, diff := fastDiff(p, st.Rewritten); diff != "" {
					failed++
					if failed <= 20 {
						t.Errorf("%q:\n  %s", st.Rewritten, diff)
					}
				}
			}
		}
	}
	if plainTaken < 1200 {
		t.Errorf("the plain INSERT rewrite took only %d statements", plainTaken)
	}
	t.Logf("plain INSERT rewrite took %d, fast parser %d; %d parsed statements of the subset", plainTaken, fastTaken, subset)
	if subset < 400 {
		t.Errorf("only %d statements of the subset parsed", subset)
	}
}

// TestInsertFastPathCases pins forms the fast path takes and declines.
func TestInsertFastPathCases(t *testing.T) {
	with, without := newPlainPair()
	p := NewParser()
	for _, c := range []struct {
		in          string
		plain, fast bool
	}{
		{"INSERT INTO ins (id, user_id, amount, qty, name, ts) VALUES (1, 2, NULL, 3, 'nab', '2024-01-02 03:04:05.000006'), (2, 3, 4.25, 5, 'x''y', '2024-01-02')", true, true},
		{"insert into t values (1, -2, +3, 1e5, true, FALSE, Default, 'a')", true, true},
		{"insert into t (a) values ($1)", false, true},
		{"insert into t values (1) returning *", false, false}, // rewriteDML's tail: "; select *"
		{"insert into t values (1) on conflict do nothing", false, true},
		{"insert into t values (1::int)", false, true}, // pg__cast(1, 'int'): a call
		{"insert into s.t values (1)", false, false},
		{"insert into t select 1", false, false},
		{"insert into t values (E'x')", false, true},
		// values read without the expression descent (rowValue) beside
		// ones that need it: signs, operators after a literal, parentheses
		{"insert into t values (-1, - 2.5, +1e3, 1 + 2, 3 * -4, -5 - 6, -(7), 'a' || 'b', NULL, true, 8 = 8, 18446744073709551616)", false, true},
	} {
		diff, n := plainDiff(with, without, c.in)
		if diff != "" {
			t.Errorf("%q: %s", c.in, diff)
		}
		if (n == 1) != c.plain {
			t.Errorf("%q: plain took %d statements, want %v", c.in, n, c.plain)
		}
		stmts, err := with.Parse(c.in)
		if err != nil {
			if c.fast {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		ok, diff := fastDiff(p, stmts[0].Rewritten)
		if diff != "" {
			t.Errorf("%q: %s", stmts[0].Rewritten, diff)
		}
		if ok != c.fast {
			t.Errorf("%q: fast parser took it: %v, want %v", stmts[0].Rewritten, ok, c.fast)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
