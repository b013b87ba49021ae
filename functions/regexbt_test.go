package functions

import (
	"context"
	"errors"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestRegexBacktrackLimits: a match whose search outgrows the step budget
// fails with PostgreSQL's "too complex" (2201B), and one whose context is
// done stops with the cancel's error, rather than running on.
func TestRegexBacktrackLimits(t *testing.T) {
	// the widened pattern (a+)(a+)(a+)(a+)c matches, and the end sets of
	// the groups over a run of 3,000 a's take cubic work (PostgreSQL
	// 15 takes 14 s over 1,000 a's)
	pathological := `(a+)(a+)\1\2c`
	subject := strings.Repeat("a", 3001) + "c"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		code sqlerr.Code
	}{
		{"budget", context.Background(), sqlerr.InvalidRegularExpression},
		{"cancel", cancelled, sqlerr.QueryCanceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			re, err := compileARE(pathological, areFlags{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = re.match(tc.ctx, subject)
			var se *sqlerr.Error
			if !errors.As(err, &se) || se.Code != tc.code {
				t.Fatalf("error %v, want SQLSTATE %s", err, tc.code)
			}
		})
	}
}

// TestRegexEnginesAgree: where RE2 finds the match (patterns without the
// backtracker's features), the backtracker alone finds the same matches
// and groups, over every pattern and subject pair of a small grid.
func TestRegexEnginesAgree(t *testing.T) {
	patterns := []string{`a*`, `(a|ab)(c|bcd)(d*)`, `^\w+`, `(a+)(b*)$`, `[[:alpha:]]+\d?`, `(x|xy)*z`, `\s*(\S+)\s*`, `(?:ab)+|b`, `a{2,3}`}
	subjects := []string{"", "a", "abcd", "aab bx", "xyxz z", " ab ab ", "aaaa", "é1b"}
	ctx := context.Background()
	for _, p := range patterns {
		re, err := compileARE(p, areFlags{})
		if err != nil {
			t.Fatal(err)
		}
		if re.re == nil {
			t.Fatalf("%s: RE2 not used", p)
		}
		bt := &areRE{bt: re.bt}
		for _, s := range subjects {
			for start := 0; start <= len(s); start++ {
				if start < len(s) && (s[start]&0xc0) == 0x80 {
					continue
				}
				want, err1 := bt.allMatches(ctx, s, start, true)
				got, err2 := re.allMatches(ctx, s, start, true)
				if err1 != nil || err2 != nil || !equalMatches(got, want) {
					t.Errorf("%q on %q from %d: %v %v, backtracker %v %v", p, s, start, got, err2, want, err1)
				}
			}
		}
	}
}

// TestRegexExistsAgrees: whether a pattern matches at all, answered by
// RE2 for every pattern it can express (greedy, non-greedy, with groups),
// is the backtracker's answer, over a grid of patterns and subjects.
func TestRegexExistsAgrees(t *testing.T) {
	patterns := []string{`a*?b`, `(a|ab)(c|bcd)(d*)`, `^k(\d+)z+$`, `(x|xy)+?z`, `a{2,3}?$`, `(?:ab)+|b`, `^(\w+)@(\w+)\.`, `[[:alpha:]]+?\d`}
	subjects := []string{"", "a", "ab", "abcd", "k12zz", "k1z2", "xyxz", "aaa", "u1@h2.x", "é1b"}
	ctx := context.Background()
	for _, p := range patterns {
		re, err := compileARE(p, areFlags{})
		if err != nil {
			t.Fatal(err)
		}
		if re.exists == nil {
			t.Fatalf("%s: no RE2 program for whether it matches", p)
		}
		bt := &areRE{bt: re.bt}
		for _, s := range subjects {
			want, err1 := bt.match(ctx, s)
			got, err2 := re.match(ctx, s)
			if err1 != nil || err2 != nil || got != want {
				t.Errorf("%q on %q: %v %v, backtracker %v %v", p, s, got, err2, want, err1)
			}
		}
	}
}

func equalMatches(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for k := range a[i] {
			if a[i][k] != b[i][k] {
				return false
			}
		}
	}
	return true
}

// TestRegexSubmatchSafe: where submatchSafe lets RE2 report the groups,
// the backtracker (PostgreSQL's dissection rules) finds the same groups,
// over patterns drawn from concatenations of single characters,
// repetitions of them and alternations in groups, and subjects over the
// same few characters; the e-mail shapes the rule is for are safe, and
// patterns whose split is ambiguous are not.
func TestRegexSubmatchSafe(t *testing.T) {
	for _, tc := range []struct {
		pat  string
		safe bool
	}{
		{`^([a-z0-9._]+)@([a-z0-9]+)\.(com|org|net)$`, true},
		{`(\w+)@(\w+)\.(\w+)`, true},
		{`(.*)@(.*)`, false},
		{`([^@]*)@(.*)`, true},
		{`(a|ab)(c|bcd)(d*)`, false},
		{`(a*)(a*)`, false},
		{`(x)+y`, true},
		{`(?i)(a+)(A)`, false},
		{`(a+)(b)`, true},
	} {
		re, err := compileARE(tc.pat, areFlags{})
		if err != nil {
			t.Fatal(err)
		}
		if re.sub != tc.safe {
			t.Errorf("%s: RE2 submatches %v, want %v", tc.pat, re.sub, tc.safe)
		}
	}
	rng := rand.New(rand.NewSource(1))
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	atom := func() string { return pick("a", "b", "c", ".", "[ab]", "[^a]", `\d`, "1", "(a)", "(b)") }
	ctx := context.Background()
	safe := 0
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.Intn(5) {
			switch rng.Intn(6) {
			case 0:
				b.WriteString("(" + pick("a|b", "ab|ba|c", "a|ab", "1|b1", "ab|b") + ")")
			case 1, 2:
				b.WriteString("(" + atom() + pick("*", "+", "?", "{1,2}", "") + ")")
			default:
				b.WriteString(atom() + pick("*", "+", "?", "{2}", ""))
			}
		}
		pat := pick("", "^") + b.String() + pick("", "$")
		re, err := compileARE(pat, areFlags{icase: rng.Intn(4) == 0})
		if err != nil || !re.sub {
			continue
		}
		safe++
		bt := &areRE{bt: re.bt}
		for range 20 {
			var s strings.Builder
			for range rng.Intn(12) {
				s.WriteString(pick("a", "b", "c", "1", "A", "x"))
			}
			want, err1 := bt.allMatches(ctx, s.String(), 0, true)
			got, err2 := re.allMatches(ctx, s.String(), 0, true)
			if err1 != nil || err2 != nil || !equalMatches(got, want) {
				t.Fatalf("%q on %q: RE2 %v %v, backtracker %v %v", pat, s.String(), got, err2, want, err1)
			}
		}
	}
	if safe < 300 {
		t.Errorf("only %d of 3000 patterns were safe", safe)
	}
}

// TestRegexWindowedShortest: a windowed run (a pattern that prefers
// shorter matches, searched first up to btWindow characters past each
// start) finds the matches and groups a run over the whole subject
// finds, over generated non-greedy patterns with groups and
// back-references and subjects several windows long whose matches end
// before, at and past the first window.
func TestRegexWindowedShortest(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	pick := func(xs ...string) string { return xs[rng.Intn(len(xs))] }
	ctx := context.Background()
	windowed := 0
	for range 400 {
		pat := pick("(a)", "(b)", "([ab])", "(ab|b)", "(a+)") + pick(".*?", "[ab]*?", "(?:ab|b)+?", "b{2,}?", ".+?") +
			pick(`\1`, "c", `\1c`, "(c|b)", `a\1`, "") + pick("", "$", "c?")
		re, err := compileARE(pat, areFlags{})
		if err != nil {
			t.Fatal(err)
		}
		var s strings.Builder
		for s.Len() < 40+rng.Intn(300) {
			s.WriteString(pick("a", "b", "ab", strings.Repeat("b", 20+rng.Intn(80)), "c"))
		}
		if !re.bt.lazy || re.bt.look {
			continue
		}
		windowed++
		subject := []rune(s.String())
		whole := re.bt.newRun(ctx, subject)
		whole.window, whole.limit = false, len(subject)
		run := re.bt.newRun(ctx, subject)
		if !run.window {
			t.Fatalf("%s: not windowed", pat)
		}
		for start := 0; start <= len(subject); start += 1 + rng.Intn(40) {
			want, got := whole.find(start), run.find(start)
			if whole.err != nil || run.err != nil || !slices.Equal(got, want) {
				t.Fatalf("%s on %q from %d: windowed %v %v, whole %v %v", pat, s.String(), start, got, run.err, want, whole.err)
			}
		}
	}
	if windowed < 200 {
		t.Errorf("only %d of 400 patterns were windowed", windowed)
	}
}

// TestRegexBackrefLengths: a concatenation whose right part reads the
// left group's text is split only where its length is the group's
// times a count (lengths), and the right part is dissected before the
// left: ((a|b)+)a\1{1,2}\1 over 552 characters that hold no match
// (PostgreSQL 15 answers f after minutes) is answered within the step
// budget, and a match's groups are PostgreSQL's.
func TestRegexBackrefLengths(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		pat, subject string
		want         []int
	}{
		{`((a|b)+)a\1{1,2}\1`, strings.Repeat("ab", 276), nil},
		{`((a|b)+)a\1{1,2}\1`, "baababaababab", []int{0, 7, 0, 2, 1, 2}},
		{`((a|b)+)a\1{1,2}\1`, "ababababab" + "aabababab", []int{6, 19, 6, 10, 9, 10}},
		{`(a(b*))c\2\1`, "abbcbbabbx", []int{0, 9, 0, 3, 1, 3}},
	} {
		re, err := compileARE(tc.pat, areFlags{})
		if err != nil {
			t.Fatal(err)
		}
		r := re.bt.newRun(ctx, []rune(tc.subject))
		got := r.find(0)
		if r.err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s on %d characters: %v %v, want %v", tc.pat, len(tc.subject), got, r.err, tc.want)
		}
	}
}
