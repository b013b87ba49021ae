package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestBpcharPatternMatchDifferential matches char(n) values (as literals
// cast to char(n) and as a VALUES column) with random LIKE, ILIKE, regular
// expression and SIMILAR TO patterns that end in blanks, wildcards and
// anchors, against PostgreSQL 15. PostgreSQL's bpchar operators see the
// value with its blank padding ('ab'::char(4) LIKE 'ab' is false, LIKE
// 'ab  ' true); sqlgate matched the value stripped of it, as a cast to text
// gives.
func TestBpcharPatternMatchDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 20261204))))
	word := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(3) {
			b.WriteByte("abAB "[rng.Intn(5)])
		}
		return b.String()
	}
	likePattern := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(5) {
			b.WriteByte("ab %_A"[rng.Intn(6)])
		}
		return b.String()
	}
	regexPattern := func() string {
		var b strings.Builder
		if rng.Intn(2) == 0 {
			b.WriteByte('^')
		}
		for range 1 + rng.Intn(3) {
			b.WriteString([]string{"a", "b", " ", ".", " *", "b "}[rng.Intn(6)])
		}
		if rng.Intn(2) == 0 {
			b.WriteByte('$')
		}
		return b.String()
	}
	stats := map[string]int{}
	for i := 0; i < 300; i++ {
		n := 1 + rng.Intn(5)
		v := word()
		var match string
		switch rng.Intn(5) {
		case 0:
			match = "LIKE '" + likePattern() + "'"
		case 1:
			match = "NOT ILIKE '" + likePattern() + "'"
		case 2:
			match = "~ '" + regexPattern() + "'"
		case 3:
			match = "!~* '" + regexPattern() + "'"
		default:
			match = "SIMILAR TO '" + likePattern() + "'"
		}
		tally(t, ctx, r, fmt.Sprintf("SELECT '%s'::char(%d) %s", v, n, match), stats)
		tally(t, ctx, r, fmt.Sprintf("SELECT x %s FROM (VALUES ('%s'::char(%d))) AS v(x)", match, v, n), stats)
	}
	t.Logf("%v", stats)
	if stats["same"] < 500 {
		t.Errorf("outcomes: %v", stats)
	}
}
