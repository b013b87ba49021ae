package difftest

import (
	"context"
	"testing"
)

// stringCompareValues are values of every string type, with and without
// trailing spaces (which character(n) ignores), and an untyped literal.
var stringCompareValues = []string{"'a'::char(3)", "'a  '::char(2)", "'a '::varchar", "'a'::varchar(5)", "'a '::text", "'a'::text", "'a '::name", "'a '", "'b'::char(1)"}

// TestStringComparisonDifferential compares every ordered pair of
// stringCompareValues under each comparison with PostgreSQL 15: a
// character varying compared with a character(n) compares as bpchar in
// either order (no trailing spaces), where sqlgate compared 'a '::varchar
// = 'a'::char(3) as text (false) and the reverse order as bpchar (true).
func TestStringComparisonDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, a := range stringCompareValues {
		for _, b := range stringCompareValues {
			q := "SELECT " + a + " = " + b + ", " + a + " <> " + b + ", " + a + " < " + b + ", " + a + " >= " + b
			tally(t, ctx, r, q, stats)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 70 {
		t.Errorf("outcomes: %v", stats)
	}
}
