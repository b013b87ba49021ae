package types

import (
	"strings"
	"testing"
	"time"
)

// TestDateTimeStyles writes dates and timestamps in every DateStyle and
// field order; the answers are PostgreSQL 15's (TimeZone Asia/Kolkata,
// whose 1800 is local mean time, LMT +05:53:28).
func TestDateTimeStyles(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	inputs := []struct {
		in string
		t  T
	}{
		{"2020-01-02", DateType},
		{"0044-03-15 BC", DateType},
		{"2020-01-02 03:04:05.5", TimestampType(6)},
		{"2020-01-02 03:04:05+00", TimestampTZType(6)},
		{"1800-01-01 00:00:00+00", TimestampTZType(6)},
		{"0100-01-01 00:00:00+00 BC", TimestampTZType(6)},
	}
	for _, c := range []struct {
		style string
		want  string
	}{
		{"ISO, MDY", "2020-01-02 | 0044-03-15 BC | 2020-01-02 03:04:05.5 | 2020-01-02 08:34:05+05:30 | 1800-01-01 05:53:28+05:53:28 | 0100-01-01 05:53:28+05:53:28 BC"},
		{"SQL, MDY", "01/02/2020 | 03/15/0044 BC | 01/02/2020 03:04:05.5 | 01/02/2020 08:34:05 IST | 01/01/1800 05:53:28 LMT | 01/01/0100 05:53:28 LMT BC"},
		{"SQL, DMY", "02/01/2020 | 15/03/0044 BC | 02/01/2020 03:04:05.5 | 02/01/2020 08:34:05 IST | 01/01/1800 05:53:28 LMT | 01/01/0100 05:53:28 LMT BC"},
		{"SQL, YMD", "01/02/2020 | 03/15/0044 BC | 01/02/2020 03:04:05.5 | 01/02/2020 08:34:05 IST | 01/01/1800 05:53:28 LMT | 01/01/0100 05:53:28 LMT BC"},
		{"Postgres, MDY", "01-02-2020 | 03-15-0044 BC | Thu Jan 02 03:04:05.5 2020 | Thu Jan 02 08:34:05 2020 IST | Wed Jan 01 05:53:28 1800 LMT | Tue Jan 01 05:53:28 0100 LMT BC"},
		{"Postgres, DMY", "02-01-2020 | 15-03-0044 BC | Thu 02 Jan 03:04:05.5 2020 | Thu 02 Jan 08:34:05 2020 IST | Wed 01 Jan 05:53:28 1800 LMT | Tue 01 Jan 05:53:28 0100 LMT BC"},
		{"German, MDY", "02.01.2020 | 15.03.0044 BC | 02.01.2020 03:04:05.5 | 02.01.2020 08:34:05 IST | 01.01.1800 05:53:28 LMT | 01.01.0100 05:53:28 LMT BC"},
	} {
		ds, err := ParseDateStyle(c.style, DateStyle{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range inputs {
			v, err := ParseTextIn(in.in, in.t, time.UTC)
			if err != nil {
				t.Fatalf("%s: %v", in.in, err)
			}
			got = append(got, FormatTextStyle(v, in.t, loc, Style{Date: ds}))
		}
		if g := strings.Join(got, " | "); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.style, g, c.want)
		}
	}
}

// TestIntervalStyles writes intervals in every IntervalStyle; the answers
// are PostgreSQL 15's.
func TestIntervalStyles(t *testing.T) {
	inputs := []string{"1 year 2 mons 3 days 04:05:06.789", "-1 year -2 mons", "-1 days -02:00:00",
		"1 day -02:00:00", "0", "-00:00:01.5", "1 sec", "-1 year 2 days", "3 days", "-0.000001 sec", "100 hours 3 min"}
	for _, c := range []struct {
		style IntervalStyle
		want  string
	}{
		{IntervalSQLStandard, "+1-2 +3 +4:05:06.789 | -1-2 | -1 2:00:00 | +0-0 +1 -2:00:00 | 0 | -0:00:01.5 | 0:00:01 | -1-0 +2 +0:00:00 | 3 0:00:00 | -0:00:00.000001 | 100:03:00"},
		{IntervalISO8601, "P1Y2M3DT4H5M6.789S | P-1Y-2M | P-1DT-2H | P1DT-2H | PT0S | PT-1.5S | PT1S | P-1Y2D | P3D | PT-0.000001S | PT100H3M"},
		{IntervalPostgresVerbose, "@ 1 year 2 mons 3 days 4 hours 5 mins 6.789 secs | @ 1 year 2 mons ago | @ 1 day 2 hours ago | @ 1 day -2 hours | @ 0 | @ 1.5 secs ago | @ 1 sec | @ 1 year -2 days ago | @ 3 days | @ 0.000001 secs ago | @ 100 hours 3 mins"},
		{IntervalPostgres, "1 year 2 mons 3 days 04:05:06.789 | -1 years -2 mons | -1 days -02:00:00 | 1 day -02:00:00 | 00:00:00 | -00:00:01.5 | 00:00:01 | -1 years +2 days | 3 days | -00:00:00.000001 | 100:03:00"},
	} {
		var got []string
		for _, in := range inputs {
			v, err := ParseInterval(in)
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			got = append(got, FormatTextStyle(v, T{Kind: Interval}, nil, Style{Interval: c.style}))
		}
		if g := strings.Join(got, " | "); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.style, g, c.want)
		}
	}
}

// TestIntervalSQLStandardInput: in IntervalStyle sql_standard a leading
// minus with no other sign negates every field (DecodeInterval); the
// answers are PostgreSQL 15's, written in the postgres style.
func TestIntervalSQLStandardInput(t *testing.T) {
	for _, c := range []struct{ in, std, pg string }{
		{"-1 2:00:00", "-1 days -02:00:00", "-1 days +02:00:00"},
		{"-1 2:00:00 ago", "1 day 02:00:00", "1 day -02:00:00"},
		{"-1 +2:00:00", "-1 days +02:00:00", "-1 days +02:00:00"},
		{"-1-2 3", "-1 years -2 mons -00:00:03", "-1 years -2 mons +00:00:03"},
		{"-1 day 2 hours", "-1 days -02:00:00", "-1 days +02:00:00"},
		{"1 -2:00:00", "1 day -02:00:00", "1 day -02:00:00"},
		{"-2:00:00 1 day", "-1 days -02:00:00", "1 day -02:00:00"},
		{"-1.5", "-00:00:01.5", "-00:00:01.5"},
		{"@ -1 day 2 hours", "-1 days -02:00:00", "-1 days +02:00:00"},
	} {
		for _, st := range []IntervalStyle{IntervalSQLStandard, IntervalPostgres} {
			want := c.pg
			if st == IntervalSQLStandard {
				want = c.std
			}
			v, err := ParseTextStyle(c.in, T{Kind: Interval}, nil, time.Now(), Style{Interval: st})
			if err != nil {
				t.Errorf("%q in %s: %v", c.in, st, err)
				continue
			}
			if got := FormatText(v, T{Kind: Interval}); got != want {
				t.Errorf("%q in %s: %s, want %s", c.in, st, got, want)
			}
		}
	}
}
