package types

import (
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestParseDateStyle(t *testing.T) {
	dmySQL := DateStyle{Output: OutputSQL, Order: OrderDMY}
	for _, c := range []struct {
		in   string
		cur  DateStyle
		want string
		code sqlerr.Code
	}{
		{in: "ISO, MDY", want: "ISO, MDY"},
		{in: "iso,dmy", want: "ISO, DMY"},
		{in: "German", want: "German, DMY"},
		{in: "ymd, German", want: "German, YMD"},
		{in: "German, ymd", want: "German, YMD"},
		{in: "SQL", cur: DateStyle{Order: OrderYMD}, want: "SQL, YMD"},
		{in: "ymd", cur: dmySQL, want: "SQL, YMD"},
		{in: "Euro", want: "ISO, DMY"},
		{in: "European", want: "ISO, DMY"},
		{in: "US", cur: dmySQL, want: "SQL, MDY"},
		{in: "NonEuropean", want: "ISO, MDY"},
		{in: "PostgreSQL", want: "Postgres, MDY"},
		{in: ` "ISO" , "DMY" `, want: "ISO, DMY"},
		{in: "default", cur: dmySQL, want: "ISO, MDY"},
		{in: "DEFAULT, ymd", cur: dmySQL, want: "ISO, YMD"},
		{in: "iso, iso", want: "ISO, MDY"},
		{in: "", cur: dmySQL, want: "SQL, DMY"},
		{in: "foo", code: sqlerr.InvalidParameterValue},
		{in: "iso, sql", code: sqlerr.InvalidParameterValue},
		{in: "dmy, euro, ymd", code: sqlerr.InvalidParameterValue},
		{in: "iso,,dmy", code: sqlerr.InvalidParameterValue},
		{in: "iso,", code: sqlerr.InvalidParameterValue},
		{in: `"iso`, code: sqlerr.InvalidParameterValue},
		{in: "iso dmy", code: sqlerr.InvalidParameterValue},
	} {
		got, err := ParseDateStyle(c.in, c.cur)
		if c.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != c.code {
				t.Errorf("ParseDateStyle(%q) = %v, %v; want %s", c.in, got, err, c.code)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("ParseDateStyle(%q, %v) = %q, %v; want %q", c.in, c.cur, got.String(), err, c.want)
		}
	}
}

// TestDateOrderInput: a date in numbers only is read in the order given,
// by PostgreSQL's DecodeNumber rules; ISO's year first and a month by
// name are read alike in every order.
func TestDateOrderInput(t *testing.T) {
	for _, c := range []struct {
		in            string
		mdy, dmy, ymd string // "" = refused
	}{
		{"01/02/2020", "2020-01-02", "2020-02-01", ""},
		{"1-2-2020", "2020-01-02", "2020-02-01", ""},
		{"1.2.2020", "2020-01-02", "2020-02-01", ""},
		{"1 2 2020", "2020-01-02", "2020-02-01", ""},
		{"1/2/3", "2003-01-02", "2003-02-01", "2001-02-03"},
		{"20/1/2", "", "2002-01-20", "2020-01-02"},
		{"2020-01-02", "2020-01-02", "2020-01-02", "2020-01-02"},
		{"2020/1/2", "2020-01-02", "2020-01-02", "2020-01-02"},
		{"Jan 2 2020", "2020-01-02", "2020-01-02", "2020-01-02"},
		{"2 Jan 2020", "2020-01-02", "2020-01-02", "2020-01-02"},
		{"2-Jan-2020", "2020-01-02", "2020-01-02", "2020-01-02"},
		{"1 Jan 2", "2002-01-01", "2002-01-01", "2001-01-02"},
		{"Jan 2 3", "2003-01-02", "2003-01-02", "2002-01-03"},
		{"07.March.67", "2067-03-07", "2067-03-07", ""},
		{"13/01/2020", "", "2020-01-13", ""},
	} {
		for i, want := range []string{c.mdy, c.dmy, c.ymd} {
			order := DateOrder(i)
			v, err := ParseTextOrder(c.in, DateType, nil, time.Now(), order)
			got := ""
			if err == nil {
				got = FormatText(v, DateType)
			}
			if got != want {
				t.Errorf("%q in order %d: %q (%v), want %q", c.in, order, got, err, want)
			}
		}
	}
}

// TestDateOrderInputErrors: which error a date field refused in some
// order gives, as PostgreSQL 15 answers: three digits after a year alone
// are the day of the year (DecodeNumber's first rule), which stands for
// the month and day, so a number after it is bad syntax (22007) rather
// than a month out of range (22008).
func TestDateOrderInputErrors(t *testing.T) {
	for _, c := range []struct {
		in            string
		mdy, dmy, ymd string // a date, or the SQLSTATE
	}{
		{"03.100.19", "22008", "22008", "22007"},
		{"03.366.1", "22008", "22008", "22007"},
		{"2003.100.19", "22007", "22007", "22007"},
		{"2003/100/19", "22007", "22007", "22007"},
		{"2003-100", "2003-04-10", "2003-04-10", "2003-04-10"},
		{"03.99.19", "22008", "22008", "22008"},
		{"2003-13-45", "22008", "22008", "22008"},
		// six digits or more before any time: a whole date again
		// (DecodeNumberField), bad syntax after a part of one
		{"DEC 294277 12", "22007", "22007", "22007"},
		{"12 5874898 13", "22007", "22007", "22007"},
		{"2024 040506", "22007", "22007", "22007"},
		{"1999.008 040506", "1999-01-08", "1999-01-08", "1999-01-08"},
		{"20240102 040506", "2024-01-02", "2024-01-02", "2024-01-02"},
	} {
		for i, want := range []string{c.mdy, c.dmy, c.ymd} {
			order := DateOrder(i)
			v, err := ParseTextOrder(c.in, DateType, nil, time.Now(), order)
			got := ""
			if err == nil {
				got = FormatText(v, DateType)
			} else if e, ok := err.(*sqlerr.Error); ok {
				got = string(e.Code)
			}
			if got != want {
				t.Errorf("%q in order %d: %q (%v), want %q", c.in, order, got, err, want)
			}
		}
	}
}
