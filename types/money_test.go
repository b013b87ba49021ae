package types

import (
	"math"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestParseMoney: cash_in's forms and errors (results from PostgreSQL 15).
func TestParseMoney(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		code sqlerr.Code
	}{
		{"$1,234.50", 123450, ""},
		{"-1.005", -101, ""},
		{"(1.5)", -150, ""},
		{"  $ -12,3,4.567 ", -123457, ""},
		{"", 0, ""},
		{"$", 0, ""},
		{"1.5-", -150, ""},
		{"92233720368547758.07", math.MaxInt64, ""},
		{"-92233720368547758.08", math.MinInt64, ""},
		{"92233720368547758.08", 0, sqlerr.NumericValueOutOfRange},
		{"92233720368547758.075", 0, sqlerr.NumericValueOutOfRange},
		{"99999999999999999999", 0, sqlerr.NumericValueOutOfRange},
		{"abc", 0, sqlerr.InvalidTextRepresentation},
		{"1.2.3", 0, sqlerr.InvalidTextRepresentation},
	} {
		got, err := ParseMoney(c.in)
		if c.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != c.code {
				t.Errorf("ParseMoney(%q) = %d, %v; want %s", c.in, got, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseMoney(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// TestFormatMoney: cash_out's text and cash_words' words.
func TestFormatMoney(t *testing.T) {
	for _, c := range []struct {
		v           int64
		text, words string
	}{
		{123450, "$1,234.50", "One thousand two hundred thirty four dollars and fifty cents"},
		{-1, "-$0.01", "Minus zero dollars and one cent"},
		{0, "$0.00", "Zero dollars and zero cents"},
		{100001, "$1,000.01", "One thousand  dollars and one cent"},
		{11010, "$110.10", "One hundred and ten dollars and ten cents"},
		{math.MinInt64, "-$92,233,720,368,547,758.08", "Minus ninety two quadrillion two hundred thirty three trillion seven hundred twenty billion three hundred sixty eight million five hundred forty seven thousand seven hundred fifty eight dollars and eight cents"},
	} {
		if got := FormatMoney(c.v); got != c.text {
			t.Errorf("FormatMoney(%d) = %q, want %q", c.v, got, c.text)
		}
		if got := CashWords(c.v); got != c.words {
			t.Errorf("CashWords(%d) = %q, want %q", c.v, got, c.words)
		}
	}
}

// TestParseMacAddr: macaddr_in's and macaddr8_in's notations and errors.
func TestParseMacAddr(t *testing.T) {
	for _, c := range []struct {
		in, want, want8 string // "" for an error
	}{
		{"08:00:2b:01:02:03", "08:00:2b:01:02:03", "08:00:2b:ff:fe:01:02:03"},
		{"08-00-2B-01-02-03", "08:00:2b:01:02:03", "08:00:2b:ff:fe:01:02:03"},
		{"08002b:010203", "08:00:2b:01:02:03", "08:00:2b:ff:fe:01:02:03"},
		{"0800.2b01.0203", "08:00:2b:01:02:03", "08:00:2b:ff:fe:01:02:03"},
		{"08002b010203 ", "08:00:2b:01:02:03", "08:00:2b:ff:fe:01:02:03"},
		{"08:00:2b:01:02:100", "", "08:00:2b:ff:fe:01:02:10"}, // a last single character is ignored
		{"08:00:2b:01:02", "", ""},
		{"08:00:2b:01:02:03:04:05", "", "08:00:2b:01:02:03:04:05"},
		{"08:00-2b:01:02:03", "", ""},
		{"08:00:2b:01:02:03:04:05x", "", "08:00:2b:01:02:03:04:05"},
	} {
		got, err := ParseMacAddr(c.in)
		if c.want == "" && err == nil || c.want != "" && got != c.want {
			t.Errorf("ParseMacAddr(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		got8, err := ParseMacAddr8(c.in)
		if c.want8 == "" && err == nil || c.want8 != "" && got8 != c.want8 {
			t.Errorf("ParseMacAddr8(%q) = %q, %v; want %q", c.in, got8, err, c.want8)
		}
	}
}
