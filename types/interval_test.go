package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The expected texts are what PostgreSQL 15 prints for the same input
// (psql, IntervalStyle postgres); tests/sqllogic/interval.slt checks many
// more against a live PostgreSQL.
func TestParseInterval(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1 day", "1 day"},
		{"1.5 months 3.7 days", "1 mon 18 days 16:48:00"},
		{"2 years 3 mons -4 days +05:06:07.5", "2 years 3 mons -4 days +05:06:07.5"},
		{"P1Y2M3DT4H5M6.5S", "1 year 2 mons 3 days 04:05:06.5"},
		{"PT1.5H", "01:30:00"},
		{"1-2", "1 year 2 mons"},
		{"3 4:05:06", "3 days 04:05:06"},
		{"@ 1 hour ago", "-01:00:00"},
		{"10", "00:00:10"},
		{"1 day 10", "1 day 00:00:10"},
		{"0.1 years", "1 mon"},
		{"1 week 1.5 days", "8 days 12:00:00"},
		{"  -00:00:01 ", "-00:00:01"},
		{"1 microseconds", "00:00:00.000001"},
	} {
		v, err := ParseInterval(tc.in)
		if err != nil {
			t.Errorf("ParseInterval(%q): %v", tc.in, err)
			continue
		}
		if got := FormatInterval(v); got != tc.want {
			t.Errorf("ParseInterval(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseIntervalErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code sqlerr.Code
	}{
		{"abc", sqlerr.InvalidDatetimeFormat},
		{"1 day 2 days", sqlerr.InvalidDatetimeFormat},
		{"1 fortnight", sqlerr.InvalidDatetimeFormat},
		{"", sqlerr.InvalidDatetimeFormat},
		{"P", sqlerr.InvalidDatetimeFormat},
		{"2147483648 days", sqlerr.IntervalFieldOverflow},
		{"99999999 hours", sqlerr.DatetimeFieldOverflow},        // PostgreSQL's range, beyond Arrow's nanoseconds
		{"2562047:47:16.854776", sqlerr.DatetimeFieldOverflow},  // one microsecond past the nanoseconds
		{"-2562047:47:16.854776", sqlerr.DatetimeFieldOverflow}, // and before
		{"2147483648 hours", sqlerr.DatetimeFieldOverflow},      // PostgreSQL 15 reads an int64 count (2147483648:00:00), beyond the nanoseconds
		{"3000000000 days", sqlerr.IntervalFieldOverflow},       // days stay an int32 field
		{"2-12", sqlerr.IntervalFieldOverflow},                  // the SQL standard's months are 0-11
		{"+1jan0-12", sqlerr.IntervalFieldOverflow},             // a datetktbl word ends before a digit: its 0-12 overflows first
		{"1 jan0-11", sqlerr.InvalidDatetimeFormat},             // then the word, no unit, is refused
		{"1 x0-12", sqlerr.InvalidDatetimeFormat},               // another word runs into a date field
		{" P1Y", sqlerr.InvalidDatetimeFormat},                  // ISO 8601 from the first character
		{"P1Y2", sqlerr.InvalidDatetimeFormat},                  // no alternative format after designators
	} {
		_, err := ParseInterval(tc.in)
		if got := sqlerr.CodeOf(err); got != tc.code {
			t.Errorf("ParseInterval(%q): code %q (%v), want %q", tc.in, got, err, tc.code)
		}
	}
}

func TestCompareIntervals(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1 day", "24 hours", 0},
		{"1 mon", "30 days", 0},
		{"1 mon", "29 days 23:59:59.999999", 1},
		{"-1 day", "-23 hours", -1},
		{"2147483647 mons", "-2147483648 mons", 1},
	} {
		a, _ := ParseInterval(tc.a)
		b, _ := ParseInterval(tc.b)
		if got := CompareIntervals(a, b); got != tc.want {
			t.Errorf("CompareIntervals(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestScaleInterval(t *testing.T) {
	for _, tc := range []struct {
		in     string
		factor float64
		div    bool
		want   string
	}{
		{"1 day", 1.7, false, "1 day 16:48:00"},
		{"1 mon 1 day", 0.33, false, "10 days 05:31:12"},
		{"1 mon", 3, true, "10 days"},
		{"1 year", 1000, true, "08:38:24"},
	} {
		v, _ := ParseInterval(tc.in)
		var err error
		if tc.div {
			v, err = DivInterval(v, tc.factor)
		} else {
			v, err = MulInterval(v, tc.factor)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatInterval(v); got != tc.want {
			t.Errorf("%q scaled by %v (div %v) = %q, want %q", tc.in, tc.factor, tc.div, got, tc.want)
		}
	}
	if _, err := DivInterval(arrow.MonthDayNanoInterval{Days: 1}, 0); sqlerr.CodeOf(err) != sqlerr.DivisionByZero {
		t.Errorf("interval / 0: %v", err)
	}
}

// TestIntervalNanosecondEdge checks the restriction's edge: the largest
// time part the nanoseconds hold is accepted, and rounding to a typmod's
// precision that would pass it is 22008, not a wrapped value.
func TestIntervalNanosecondEdge(t *testing.T) {
	v, err := ParseInterval("2562047:47:16.854775")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatInterval(v); got != "2562047:47:16.854775" {
		t.Fatalf("edge = %q", got)
	}
	it, err := IntervalTypeOf("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AdjustInterval(v, it); sqlerr.CodeOf(err) != sqlerr.DatetimeFieldOverflow {
		t.Fatalf("rounding past the edge: %v, want 22008", err)
	}
	if _, err := AdjustInterval(arrow.MonthDayNanoInterval{Nanoseconds: -v.Nanoseconds}, it); sqlerr.CodeOf(err) != sqlerr.DatetimeFieldOverflow {
		t.Fatalf("rounding past the negative edge: %v, want 22008", err)
	}
	if _, err := AddIntervals(v, arrow.MonthDayNanoInterval{Nanoseconds: 1000}); sqlerr.CodeOf(err) != sqlerr.DatetimeFieldOverflow {
		t.Fatalf("adding past the edge: %v, want 22008", err)
	}
	if _, err := MulInterval(v, 2); sqlerr.CodeOf(err) != sqlerr.DatetimeFieldOverflow {
		t.Fatalf("multiplying past the edge: %v, want 22008", err)
	}
}
