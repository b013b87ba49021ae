package types

import (
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestParseMultirange: multirange_in's normal form and its errors, as
// PostgreSQL 15 gives them (tests/difftest's TestMultirangeDifferential
// compares random literals with PostgreSQL itself).
func TestParseMultirange(t *testing.T) {
	for _, c := range []struct {
		in, want string
		v        Variant
		code     sqlerr.Code
		detail   string
	}{
		{in: "{[1,3), [5,7) , empty, [2,4]}", want: "{[1,7)}", v: Int4Range},
		{in: " {  } ", want: "{}", v: Int4Range},
		{in: "{ EMPTY }", want: "{}", v: Int8Range},
		{in: "{(,5],[7,)}", want: "{(,6),[7,)}", v: Int4Range},
		{in: "{(1.0,2.0],[2.00,3.000]}", want: "{(1.0,3.000]}", v: NumRange},
		{in: "{[1, 2)}", want: "{[1,2)}", v: Int4Range},
		{in: "{[2020-01-01,2020-01-03],(2020-01-05,2020-01-07)}", want: "{[2020-01-01,2020-01-04),[2020-01-06,2020-01-07)}", v: DateRange},
		{in: "{[1,2),}", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Expected range start."},
		{in: "[1,2)", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Missing left brace."},
		{in: "{[1,2)} x", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Junk after closing right brace."},
		{in: "{[1,2", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Unexpected end of input."},
		{in: `{[1,2\)}`, v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Unexpected end of input."},
		{in: "{[1,2) x}", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Expected comma or end of multirange."},
		{in: "{ emptyx}", v: Int4Range, code: sqlerr.InvalidTextRepresentation, detail: "Expected comma or end of multirange."},
		{in: "{[3,1)}", v: Int4Range, code: sqlerr.DataException},
	} {
		m, err := ParseMultirange(c.in, c.v, time.UTC, time.Now(), Style{})
		if c.code != "" {
			se := sqlerr.As(err)
			if se == nil || se.Code != c.code || c.detail != "" && se.Detail != c.detail {
				t.Errorf("%q: error %v, want %s %q", c.in, err, c.code, c.detail)
			}
			continue
		}
		if err != nil || m.String() != c.want {
			t.Errorf("%q: %q, %v; want %q", c.in, m.String(), err, c.want)
		}
	}
}

// TestMultirangeOps: union, intersection, difference and the order key
// on PostgreSQL 15's answers.
func TestMultirangeOps(t *testing.T) {
	mr := func(s string) Multirange {
		m, err := ParseMultirangeValue(s, Int4Multirange)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, c := range []struct {
		op         func(a, b Multirange) (Multirange, error)
		a, b, want string
	}{
		{MultirangeUnion, "{[1,5),[7,9)}", "{[5,7)}", "{[1,9)}"},
		{MultirangeIntersect, "{[1,5),[7,9)}", "{[3,8)}", "{[3,5),[7,8)}"},
		{MultirangeIntersect, "{[1,5),[7,9)}", "{[2,8)}", "{[2,5),[7,8)}"},
		{MultirangeMinus, "{[1,9)}", "{[2,3),[5,6)}", "{[1,2),[3,5),[6,9)}"},
		{MultirangeMinus, "{[1,3)}", "{[1,3)}", "{}"},
		{MultirangeMinus, "{[1,4),[6,9)}", "{[3,7)}", "{[1,3),[7,9)}"},
	} {
		got, err := c.op(mr(c.a), mr(c.b))
		if err != nil || got.String() != c.want {
			t.Errorf("%s op %s: %s, %v; want %s", c.a, c.b, got, err, c.want)
		}
	}
	ordered := []string{"{}", "{(,0)}", "{[1,3)}", "{[1,3),[4,5)}", "{[1,4)}"}
	for i := 1; i < len(ordered); i++ {
		a, _ := MultirangeKey(ordered[i-1], Int4Multirange)
		b, _ := MultirangeKey(ordered[i], Int4Multirange)
		if a >= b {
			t.Errorf("key of %s not below key of %s", ordered[i-1], ordered[i])
		}
	}
}
