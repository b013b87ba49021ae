package functions

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLikeFastPathsAgreeWithBacktracking compares the segment matcher and
// the substring fast paths with the simple backtracking matcher over
// random patterns and strings (with multibyte characters).
func TestLikeFastPathsAgreeWithBacktracking(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "é", "日"}
	patAlphabet := append([]string{"%", "_", `\%`, `\_`}, alphabet...)
	gen := func(parts []string, max int) string {
		var b strings.Builder
		for i := rng.IntN(max + 1); i > 0; i-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		pat := gen(patAlphabet, 6)
		s := gen(alphabet, 8)
		lp := compileLike(pat, '\\')
		got, err := lp.match(s)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := matchTokens(s, lp.toks, false)
		if got != want {
			t.Fatalf("%q LIKE %q: got %v, backtracking says %v", s, pat, got, want)
		}
	}
}

func TestLikeDanglingEscapeIsLazy(t *testing.T) {
	lp := compileLike(`ab\`, '\\')
	if m, err := lp.match("ab"); err != nil || m {
		t.Errorf("'ab' LIKE 'ab\\': got %v, %v; PostgreSQL says false", m, err)
	}
	if _, err := lp.match("abc"); err == nil {
		t.Errorf("'abc' LIKE 'ab\\' must fail with 22025")
	}
}

// TestLikeDanglingEscapeAfterPercent: like_match.c looks at the pattern
// character after a % (past the %s and a character per _) before it
// scans the text, so a dangling escape there fails though the text ends
// first; a _ the text cannot feed gives up first (PostgreSQL 15's answers).
func TestLikeDanglingEscapeAfterPercent(t *testing.T) {
	tests := []struct {
		text, pattern string
		bytewise      bool
		fails         bool
	}{
		{"a", `%_\`, false, true},
		{"", `%\`, false, false},
		{"ab", `%__\`, false, true},
		{"a", `%__\`, false, false},
		{"a", `%\`, false, true},
		{"ab", `x%\`, false, false},
		{"a", `a\`, false, false},
		{"ab", `a\`, false, true},
		{`\`, `%_\`, true, true},
	}
	for _, tc := range tests {
		lp := compilePattern(tc.pattern, '\\', tc.bytewise)
		m, err := lp.match(tc.text)
		if (err != nil) != tc.fails || m {
			t.Errorf("%q LIKE %q: got %v, %v; want an error %v and no match", tc.text, tc.pattern, m, err, tc.fails)
		}
	}
}

func TestASCIICaseMapMatchesPerByte(t *testing.T) {
	src := make([]byte, 0, 300)
	for i := 0; i < 300; i++ {
		src = append(src, byte(i%128))
	}
	for _, upper := range []bool{false, true} {
		for start := 0; start < 9; start++ { // every alignment and tail length
			in := src[start:]
			got := make([]byte, len(in))
			asciiCaseMap(got, in, upper)
			want := strings.ToLower(string(in))
			if upper {
				want = strings.ToUpper(string(in))
			}
			if string(got) != want {
				t.Fatalf("upper=%v start=%d: got %q, want %q", upper, start, got, want)
			}
		}
	}
}
