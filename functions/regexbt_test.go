package functions

import (
	"context"
	"errors"
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
