package types

import (
	"math"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestStringPrintsLikeSeed000(t *testing.T) {
	s := String
	nn := StringType
	nn.NotNull = true
	cases := []struct {
		t    T
		want string
	}{
		{T{Kind: Int32, NotNull: true}, "int NOT NULL"},
		{ArrayOf(nn), "array<string NOT NULL>"},
		{T{Kind: s}, "string"},
		{DecimalType(10, 2), "decimal(10, 2)"},
		{T{Kind: Map, Key: &nn, Elem: &T{Kind: Int32}}, "map<string NOT NULL, int>"},
		{T{Kind: Row, Fields: []Field{{Name: "age", Type: Int32Type}, {Name: "city", Type: StringType}}}, "row<age int, city string>"},
	}
	for _, c := range cases {
		if got := c.t.String(); got != c.want {
			t.Errorf("got %q want %q", got, c.want)
		}
	}
}

func TestParseText(t *testing.T) {
	cases := []struct {
		s    string
		t    T
		want any
		code sqlerr.Code
	}{
		{" 42 ", Int32Type, int64(42), ""},
		{"2147483648", Int32Type, nil, sqlerr.NumericValueOutOfRange},
		{"99999999999999999999", Int64Type, nil, sqlerr.NumericValueOutOfRange},
		{"4x", Int64Type, nil, sqlerr.InvalidTextRepresentation},
		{"yes", BoolType, true, ""},
		{"of", BoolType, false, ""},
		{"o", BoolType, nil, sqlerr.InvalidTextRepresentation},
		{"NaN", Float64Type, math.NaN(), ""},
		{"-Infinity", Float64Type, math.Inf(-1), ""},
		{"1e400", Float64Type, nil, sqlerr.NumericValueOutOfRange},
		{"2024-02-29", DateType, int32(19782), ""},
		{"2024-02-30", DateType, nil, sqlerr.DatetimeFieldOverflow},
		{"abc", DateType, nil, sqlerr.InvalidDatetimeFormat},
		{"9999-12-31", DateType, int32(2932896), ""},
		{"0001-01-01", DateType, int32(-719162), ""},
		{"2024-01-02 00:00:00Z", DateType, int32(19724), ""},
		{"1970-01-01 00:00:01.5", TimestampType(6), int64(1500000), ""},
		{"1970-01-01 00:00:01+01", TimestampTZType(6), int64(-3599000000), ""},
		{`\x0aff`, BytesType, []byte{0x0a, 0xff}, ""},
	}
	for _, c := range cases {
		got, err := ParseText(c.s, c.t)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%q as %s: err %v, want %s", c.s, c.t, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q as %s: %v", c.s, c.t, err)
			continue
		}
		if f, ok := c.want.(float64); ok && math.IsNaN(f) {
			if g, _ := got.(float64); !math.IsNaN(g) {
				t.Errorf("%q: got %v want NaN", c.s, got)
			}
			continue
		}
		if b, ok := c.want.([]byte); ok {
			if string(got.([]byte)) != string(b) {
				t.Errorf("%q: got %v want %v", c.s, got, b)
			}
			continue
		}
		if got != c.want {
			t.Errorf("%q as %s: got %v (%T) want %v", c.s, c.t, got, got, c.want)
		}
	}
}

func TestDecimalRoundsHalfAwayFromZero(t *testing.T) {
	cases := []struct {
		s    string
		t    T
		want string
		code sqlerr.Code
	}{
		{"1.005", DecimalType(10, 2), "1.01", ""},
		{"-1.005", DecimalType(10, 2), "-1.01", ""},
		{"123.4", DecimalType(4, 2), "", sqlerr.NumericValueOutOfRange},
		{"0.5", DecimalType(5, 0), "1", ""},
		{"abc", NumericType, "", sqlerr.InvalidTextRepresentation},
	}
	for _, c := range cases {
		v, err := ParseDecimal(c.s, c.t)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%q: err %v want %s", c.s, err, c.code)
			}
			continue
		}
		if err != nil || FormatDecimal(v, c.t.Scale) != c.want {
			t.Errorf("%q: got %s %v want %s", c.s, FormatDecimal(v, c.t.Scale), err, c.want)
		}
	}
}

// TestFormatFloat holds outputs of PostgreSQL 15 (SELECT x::float8 / ::float4).
func TestFormatFloat(t *testing.T) {
	cases := []struct {
		f    float64
		bits int
		want string
	}{
		{3, 64, "3"},
		{0.1, 64, "0.1"},
		{1e15, 64, "1e+15"},
		{123456789012345, 64, "123456789012345"},
		{0.0001, 64, "0.0001"},
		{0.00001, 64, "1e-05"},
		{-1.5e-300, 64, "-1.5e-300"},
		{math.NaN(), 64, "NaN"},
		{math.Inf(-1), 64, "-Infinity"},
		{123456, 32, "123456"},
		{1234567, 32, "1.234567e+06"},
		{float64(float32(0.1)), 32, "0.1"},
	}
	for _, c := range cases {
		if got := FormatFloat(c.f, c.bits); got != c.want {
			t.Errorf("%v (float%d): got %q want %q", c.f, c.bits/8*8, got, c.want)
		}
	}
}
