package sql

import (
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestPathologicalInputsStayFast guards against quadratic or exponential
// rewrites: a client can send any text.
func TestPathologicalInputsStayFast(t *testing.T) {
	nested := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	inputs := []string{
		"SELECT " + strings.Repeat("a::int::text", 1) + strings.Repeat("::int", 5000),
		"SELECT " + nested("CAST(", " AS int)", 500),
		"SELECT " + nested("(", ")::int", 2000),
		"SELECT " + strings.Repeat("2 ^ ", 2000) + "2",
		"SELECT 1 FROM t WHERE " + strings.Repeat("a IS DISTINCT FROM b AND ", 2000) + "true",
		"SELECT " + nested("ARRAY[", "]", 1000),
		"SELECT " + strings.Repeat("x::ARRAY<INT>, ", 2000) + "1",
		"SELECT " + strings.Repeat("$1, ", 5000) + "$2",
		"SELECT " + strings.Repeat("'a''b' || E'\\n' || ", 3000) + "'x'",
		// PostgreSQL's "other" operator level: each operator reads its
		// left operand back to a lower level (oplevel.go)
		"SELECT " + strings.Repeat("x | ", 3000) + "1",
		"SELECT " + strings.Repeat("1 # ", 3000) + "1",
		"SELECT " + strings.Repeat("x ~ y || ", 3000) + "'x'",
		"SELECT " + strings.Repeat("a ->> ", 3000) + "'k'",
	}
	p := NewParser()
	for _, in := range inputs {
		start := time.Now()
		_, err := p.Parse(in)
		// A guard against super-linear blow-ups (a quadratic rewrite of
		// these inputs takes minutes), not a speed target: generous enough
		// for the race detector on a loaded 2-core machine.
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("Parse(%.40q...) took %v", in, d)
		}
		if err != nil && sqlerr.As(err) == nil {
			t.Errorf("Parse(%.40q...): non-SQLSTATE error %v", in, err)
		}
	}
	// nested NULLS FIRST rewrites each level once (no copy of the key):
	// the text grows linearly and parses.
	q := "a"
	for range 40 {
		q = "(SELECT x FROM t ORDER BY " + q + " NULLS FIRST)"
	}
	if _, err := p.Parse("SELECT " + q); err != nil {
		t.Errorf("nested NULLS FIRST: %v", err)
	}
}
