package types

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestDateTimeInputForms reads the forms of PostgreSQL 15's "Date/Time
// Input" tables and Appendix B that sqlgate's decoder once refused or
// misread; the answers are PostgreSQL 15's (DateStyle ISO, MDY, TimeZone
// UTC): the value as text, or the SQLSTATE of the error.
func TestDateTimeInputForms(t *testing.T) {
	timeT := T{Kind: Time, Precision: 6}
	intervalT := T{Kind: Interval}
	for _, tc := range []struct {
		in   string
		t    T
		want string
	}{
		{"2024-01-02 03:04:05", timeT, "03:04:05"},    // a whole timestamp as a time
		{"2024-01-02 03:04:05+02", timeT, "03:04:05"}, // and its zone dropped
		{"03:04:05+02", timeT, "03:04:05"},            // a time's zone dropped
		{"04:05 PM", timeT, "16:05:00"},               // AM/PM
		{"allballs", timeT, "00:00:00"},               // a special word
		{"040506-08", timeT, "04:05:06"},              // run together, with a zone
		{"2024-01-02T10:20:30", timeT, "22007"},       // no T after a time's date
		{"99999999999", DateType, "22008"},            // too many digits: out of range
		{"240102", DateType, "2024-01-02"},            // YYMMDD
		{"January 8, 1999", DateType, "1999-01-08"},   // words
		{"1/8/1999", DateType, "1999-01-08"},          // MDY
		{"1999-Jan-08", DateType, "1999-01-08"},       // a month's name in a field
		{"08-Jan-1999", DateType, "1999-01-08"},       // the same, day first
		{"J2451187", DateType, "1999-01-08"},          // a Julian day
		{"1999.008", DateType, "1999-01-08"},          // year.day of year
		{"epoch", DateType, "1970-01-01"},             // a special word
		{"13/01/2024", DateType, "22008"},             // month 13 in MDY
		{"19-jun 1937", DateType, "22007"},            // a month's name needs three parts
		{"19990108 040506", TimestampType(6), "1999-01-08 04:05:06"},
		{"Jan 8 04:05 PST 1999", TimestampType(6), "1999-01-08 04:05:00"},
		{"2024-01-02T03:04:05.123Z", TimestampType(6), "2024-01-02 03:04:05.123"},
		{"1999-01-08 04:05:06 America/New_York", TimestampType(6), "1999-01-08 04:05:06"},
		{"y2024m01d02h10mm20s30", TimestampType(6), "2024-01-02 10:20:30"},
		{"2024-01-02 9947", TimestampType(6), "2024-01-06 03:47:00"}, // a run-together time adds up
		{"2024-01-02 23:59:60.5", TimestampType(6), "22008"},
		{"Jan 8 04:05 PST 1999", TimestampTZType(6), "1999-01-08 12:05:00+00"},
		{"2024-01-02 10:00 MET DST", TimestampTZType(6), "2024-01-02 08:00:00+00"},
		{"2024-01-02 10:00 pm-05:30", TimestampTZType(6), "2024-01-02 04:30:00+00"}, // a POSIX zone
		{"2024-01-02 10:00 +16", TimestampTZType(6), "22009"},
		{"2024-01-02 10:00 Mars/Base", TimestampTZType(6), "22023"},
		{"99999999", intervalT, "27777:46:39"}, // a bare number is seconds
		{"3000000000 seconds", intervalT, "833333:20:00"},
		{"1 day ago", intervalT, "-1 days"},
		{"P1Y2M3DT4H5M6S", intervalT, "1 year 2 mons 3 days 04:05:06"},
		{"P0001-02-03T04:05:06", intervalT, "1 year 2 mons 3 days 04:05:06"},
		{"1-2 3 4:05:06", intervalT, "1 year 2 mons 3 days 04:05:06"},
		{"2-12", intervalT, "22015"},
	} {
		v, err := ParseText(tc.in, tc.t)
		got := ""
		if err != nil {
			got = string(sqlerr.CodeOf(err))
		} else {
			got = FormatText(v, tc.t)
		}
		if got != tc.want {
			t.Errorf("%q as %s: %s (%v), PostgreSQL %s", tc.in, tc.t, got, err, tc.want)
		}
	}
}
