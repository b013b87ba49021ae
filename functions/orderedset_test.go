package functions

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestOrderedSetFinishers(t *testing.T) {
	f := func(xs ...float64) []any {
		out := make([]any, len(xs))
		for i, x := range xs {
			out[i] = x
		}
		return out
	}
	vals := f(1, 2, 4, 10) // sorted, as array_agg(x ORDER BY x) hands them over
	for _, c := range []struct {
		fn   func([]any, float64) (any, error)
		vals []any
		frac float64
		want any
	}{
		{percentileCont, vals, 0, 1.0},
		{percentileCont, vals, 1, 10.0},
		{percentileCont, vals, 0.5, 3.0},               // between 2 and 4
		{percentileCont, vals, 1.0 / 3, 2.0},           // on a row
		{percentileCont, vals, 0.9, 8.200000000000001}, // PostgreSQL 15 says so: the proportion is 0.9*3-2 in floating point
		{percentileCont, nil, 0.5, nil},
		{percentileDisc, vals, 0, 1.0},
		{percentileDisc, vals, 0.25, 1.0},
		{percentileDisc, vals, 0.26, 2.0},
		{percentileDisc, vals, 1, 10.0},
		{percentileDisc, nil, 0.5, nil},
	} {
		got, err := c.fn(c.vals, c.frac)
		if err != nil || got != c.want {
			t.Errorf("fraction %v of %v: got %v, %v; want %v", c.frac, c.vals, got, err, c.want)
		}
	}
	for _, bad := range []float64{-0.01, 1.01} {
		if _, err := percentileCont(vals, bad); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
			t.Errorf("fraction %v: %v, want 22003", bad, err)
		}
		if _, err := eachFraction(nil, []any{0.5, bad}, percentileDisc); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
			t.Errorf("fractions [0.5, %v] over no rows: %v, want 22003", bad, err)
		}
	}
	got, err := eachFraction(vals, []any{0.5, nil, 1.0}, percentileDisc)
	if arr, _ := got.([]any); err != nil || len(arr) != 3 || arr[0] != 2.0 || arr[1] != nil || arr[2] != 10.0 {
		t.Errorf("eachFraction = %v, %v", got, err)
	}
	for _, c := range []struct {
		in   []any
		want any
	}{
		{[]any{"a", "b", "b", "c", "c"}, "b"}, // a tie: the first in the sort order
		{[]any{"c", "c", "b", "b", "a"}, "c"},
		{[]any{int64(1), int64(2), int64(2)}, int64(2)},
		{nil, nil},
	} {
		if got, err := mode(c.in); err != nil || got != c.want {
			t.Errorf("mode(%v) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	if got := nonNull([]any{nil, 1.0, nil, 2.0}); len(got) != 2 {
		t.Errorf("nonNull dropped %v", got)
	}
}
