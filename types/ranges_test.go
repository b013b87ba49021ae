package types

import (
	"bytes"
	"math/rand"
	"testing"
	"time"
)

// TestRangeInput: range_in's canonical output of each type, as
// PostgreSQL 15 prints it (TimeZone UTC, DateStyle ISO), and its errors.
func TestRangeInput(t *testing.T) {
	for _, c := range []struct {
		in   string
		v    Variant
		want string
		err  string
	}{
		{in: "(1,3]", v: Int4Range, want: "[2,4)"},
		{in: "(,5]", v: Int8Range, want: "(,6)"},
		{in: "[ 1.50 , 2 ]", v: NumRange, want: "[1.50,2]"},
		{in: "(2020-01-01, 2020-01-03]", v: DateRange, want: "[2020-01-02,2020-01-04)"},
		{in: `["2020-01-01 10:00",)`, v: TsRange, want: `["2020-01-01 10:00:00",)`},
		{in: "(,2020-01-01 10:00+02]", v: TstzRange, want: `(,"2020-01-01 08:00:00+00"]`},
		{in: "[1,1]", v: Int4Range, want: "[1,2)"},
		{in: "[1,1)", v: NumRange, want: "empty"},
		{in: " EMPTY ", v: NumRange, want: "empty"},
		{in: "[,]", v: NumRange, want: "(,)"},
		{in: "[2,1)", v: Int4Range, err: "range lower bound must be less than or equal to range upper bound"},
		{in: "emptyx", v: Int4Range, err: `malformed range literal: "emptyx"`},
		{in: "[1,2", v: Int4Range, err: `malformed range literal: "[1,2"`},
		{in: "[1,2,3)", v: Int4Range, err: `malformed range literal: "[1,2,3)"`},
		{in: "[1,2147483647]", v: Int4Range, err: "integer out of range"},
	} {
		r, err := ParseRange(c.in, c.v, time.UTC, time.Now(), Style{})
		switch {
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("%s::%s: error %v, want %q", c.in, c.v.Name(), err, c.err)
			}
		case err != nil:
			t.Errorf("%s::%s: %v", c.in, c.v.Name(), err)
		case r.String() != c.want:
			t.Errorf("%s::%s = %s, want %s", c.in, c.v.Name(), r.String(), c.want)
		}
	}
}

// TestRangeKeyOrder: RangeKey's byte order is range_cmp's (empty first,
// then lower bounds, then upper ones, by CompareRangeBounds) over random
// int4 ranges, and equal keys are equal ranges.
func TestRangeKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := func() Range {
		b := func() RangeBound {
			return RangeBound{Val: int64(rng.Intn(5)), Inf: rng.Intn(5) == 0, Inc: rng.Intn(2) == 0}
		}
		for {
			r, err := MakeRange(NumRange, b(), b()) // continuous: inclusivity kept
			if err == nil {
				return r
			}
		}
	}
	cmp := CompareRanges // range_cmp (multirange.go)
	for i := 0; i < 2000; i++ {
		a, b := random(), random()
		if got, want := bytes.Compare(a.AppendKey(nil), b.AppendKey(nil)), cmp(a, b); got != want {
			t.Fatalf("%s vs %s: key order %d, range_cmp %d", a, b, got, want)
		}
	}
}
