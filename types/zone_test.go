package types

import (
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Expected values come from PostgreSQL 15 (SET TIME ZONE x; SHOW TimeZone;
// SELECT '2024-01-02 03:04:05+00'::timestamptz).
func TestLoadZone(t *testing.T) {
	for _, c := range []struct {
		in, show string
		at       string // instant to render
		want     string
	}{
		{"-5", "<-05>+05", "2024-01-02T03:04:05Z", "2024-01-01 22:04:05-05"},
		{"5.5", "<+05:30>-05:30", "2024-07-02T03:04:05Z", "2024-07-02 08:34:05+05:30"},
		{"0", "<+00>-00", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
		{"+00", "<+00>-00", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
		{"+02:30", "+02:30", "2024-01-02T03:04:05Z", "2024-01-02 00:34:05-02:30"},
		{"UTC+3", "UTC+3", "2024-07-02T03:04:05Z", "2024-07-02 00:04:05-03"},
		{"europe/paris", "Europe/Paris", "2024-07-02T03:04:05Z", "2024-07-02 05:04:05+02"},
		{"Europe/Paris", "Europe/Paris", "1850-01-02T03:04:05Z", "1850-01-02 03:13:26+00:09:21"},
		{"Asia/Kolkata", "Asia/Kolkata", "1850-01-02T03:04:05Z", "1850-01-02 08:57:33+05:53:28"},
		{"Asia/Kolkata", "Asia/Kolkata", "2024-07-02T03:04:05Z", "2024-07-02 08:34:05+05:30"},
		{"America/St_Johns", "America/St_Johns", "2024-01-02T03:04:05Z", "2024-01-01 23:34:05-03:30"},
		{"america/new_york", "America/New_York", "2024-01-02T03:04:05Z", "2024-01-01 22:04:05-05"},
		{"EST5EDT", "EST5EDT", "2024-07-02T03:04:05Z", "2024-07-01 23:04:05-04"},
		{"Etc/GMT+5", "Etc/GMT+5", "2024-07-02T03:04:05Z", "2024-07-01 22:04:05-05"},
		{"utc", "UTC", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
		{"GMT", "GMT", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
		{"<-05>+05", "<-05>+05", "2024-01-02T03:04:05Z", "2024-01-01 22:04:05-05"},
		{"<+05:30>-05:30", "<+05:30>-05:30", "2024-07-02T03:04:05Z", "2024-07-02 08:34:05+05:30"},
		// SET TIME ZONE INTERVAL's text: the time in whole seconds east,
		// named as pg_tzset_offset names it
		{"INTERVAL '-05:30'", "<-05:30>+05:30", "2024-01-02T03:04:05Z", "2024-01-01 21:34:05-05:30"},
		{"interval '+00:00'", "<+00>-00", "2024-01-02T03:04:05Z", "2024-01-02 03:04:05+00"},
		{"INTERVAL  '03:00:00'", "<+03>-03", "2024-01-02T03:04:05Z", "2024-01-02 06:04:05+03"},
		{"INTERVAL '1.5 seconds'", "<+00:00:01>-00:00:01", "2024-01-02T03:04:05Z", "2024-01-02 03:04:06+00:00:01"},
		{"INTERVAL '-25:00:00'", "<-25>+25", "2024-01-02T03:04:05Z", "2024-01-01 02:04:05-25"},
		// hours to 167 as strtod reads them; POSIX zones with DST,
		// empty and one-letter names, upper-cased (PostgreSQL 15)
		{"99", "<+99>-99", "2024-07-02T03:04:05Z", "2024-07-06 06:04:05+99"},
		{"0x10", "<+16>-16", "2024-07-02T03:04:05Z", "2024-07-02 19:04:05+16"},
		{"A5B", "A5B", "2024-07-02T03:04:05Z", "2024-07-01 23:04:05-04"},
		{"abc+3", "ABC+3", "2024-07-02T03:04:05Z", "2024-07-02 00:04:05-03"},
		{"5 ", "5 ", "2024-07-02T03:04:05Z", "2024-07-01 23:04:05-04"},
		{":UTC", "UTC", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
		{"1e-400", "<+00>-00", "2024-07-02T03:04:05Z", "2024-07-02 03:04:05+00"},
	} {
		loc, show, err := LoadZone(c.in)
		if err != nil {
			t.Errorf("LoadZone(%q): %v", c.in, err)
			continue
		}
		if show != c.show {
			t.Errorf("LoadZone(%q) shows %q, want %q", c.in, show, c.show)
		}
		at, _ := time.Parse(time.RFC3339, c.at)
		if got := FormatTextIn(at.UnixMicro(), TimestampTZType(6), loc); got != c.want {
			t.Errorf("%s in %q = %q, want %q", c.at, c.in, got, c.want)
		}
	}
	for _, bad := range []string{"xyz", "Z", "", "PST", "Local", "../etc/passwd", "168", "-168", "inf", "1e400", " UTC", "<+0530>-0530",
		"INTERVAL '1 day'", "INTERVAL '1 mon'", "INTERVAL '01:00", "INTERVAL '01:00' x", "INTERVAL 01:00"} {
		_, _, err := LoadZone(bad)
		if sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
			t.Errorf("LoadZone(%q) = %v, want 22023", bad, err)
		}
	}
}

func TestParseTimestampTZIn(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	tz := TimestampTZType(6)
	for _, c := range []struct{ in, want string }{
		{"2024-03-31 02:30:00", "2024-03-31 03:30:00+02"}, // in the spring-forward gap
		{"2024-10-27 02:30:00", "2024-10-27 02:30:00+01"}, // ambiguous: the later one
		{"2024-01-01 00:00 America/New_York", "2024-01-01 06:00:00+01"},
		{"2024-01-01 00:00 +02", "2023-12-31 23:00:00+01"},
		{"2024-01-01 00:00 UTC", "2024-01-01 01:00:00+01"},
		{"2024-01-01 00:00 EST", "2024-01-01 06:00:00+01"},
		{"2024-01-01 00:00:00-03:30", "2024-01-01 04:30:00+01"},
		{"2024-01-01T00:00:00Z", "2024-01-01 01:00:00+01"},
		{"2024-01-01 00:00 europe/london", "2024-01-01 01:00:00+01"},
		{"2024-07-01 00:00 PST", "2024-07-01 10:00:00+02"},
		{"2024-01-01 00:00+0530", "2023-12-31 19:30:00+01"},
		{"2024-01-01 00:00:00.1234567+00", "2024-01-01 01:00:00.123457+01"},
		{"2024-07-01", "2024-07-01 00:00:00+02"},
		{"1850-01-02 03:13:26", "1850-01-02 03:13:26+00:09:21"},
	} {
		v, err := ParseTextIn(c.in, tz, paris)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := FormatTextIn(v, tz, paris); got != c.want {
			t.Errorf("%q = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		code sqlerr.Code
	}{
		{"2024-13-01", sqlerr.DatetimeFieldOverflow},
		{"2024-01-01 25:00", sqlerr.DatetimeFieldOverflow},
		{"2024-02-30", sqlerr.DatetimeFieldOverflow},
		{"2024-01-01 00:00 XYZ", sqlerr.InvalidDatetimeFormat},
		{"2024-01-01 00:00 Foo/Bar", sqlerr.InvalidParameterValue},
		{"garbage", sqlerr.InvalidDatetimeFormat},
	} {
		_, err := ParseTextIn(c.in, tz, paris)
		if sqlerr.CodeOf(err) != c.code {
			t.Errorf("%q: %v, want %s", c.in, err, c.code)
		}
	}
	// a zone given to a timestamp without time zone is ignored
	v, err := ParseTextIn("2024-01-01 00:00 Europe/Paris", TimestampType(6), paris)
	if err != nil || FormatText(v, TimestampType(6)) != "2024-01-01 00:00:00" {
		t.Errorf("timestamp with a zone: %v %v", v, err)
	}
}

// FuzzTimestampTZText: timestamptz input never panics, and whatever it
// accepts prints as text that reads back as the same instant, in zones
// with DST, half-hour offsets and local mean time.
func FuzzTimestampTZText(f *testing.F) {
	for _, s := range []string{
		"2024-03-31 02:30:00", "2024-10-27 02:30", "1850-01-02 03:13:26", "0044-03-15 12:00 BC",
		"2024-01-01 00:00 America/New_York", "2024-01-01T00:00:00Z", "2024-01-01 00:00:00.1234567-03:30",
		"2024-01-01 24:00", "2024-02-29 23:59:60", "2024-01-01 00:00 +15", "99999-01-01", "2024-01-01 00:00 <+05>-05",
	} {
		f.Add(s, "Europe/Paris")
		f.Add(s, "America/St_Johns")
		f.Add(s, "-5")
	}
	tz := TimestampTZType(6)
	f.Fuzz(func(t *testing.T, s, zone string) {
		loc, _, err := LoadZone(zone)
		if err != nil {
			return
		}
		v, err := ParseTextIn(s, tz, loc)
		if err != nil {
			return
		}
		out := FormatTextIn(v, tz, loc)
		back, err := ParseTextIn(out, tz, loc)
		if err != nil || back != v {
			t.Errorf("%q in %s -> %d -> %q -> %v, %v", s, zone, v, out, back, err)
		}
	})
}
