package types

import (
	"math"
	"testing"
)

// TestAppendFloatText checks float4out / float8out under
// extra_float_digits, PostgreSQL 15's outputs.
func TestAppendFloatText(t *testing.T) {
	for _, tc := range []struct {
		v     float64
		bits  int
		extra int
		want  string
	}{
		{0.30000000000000004, 64, 1, "0.30000000000000004"}, // 0.1 + 0.2 at run time
		{0.30000000000000004, 64, 3, "0.30000000000000004"},
		{0.30000000000000004, 64, 0, "0.3"},
		{3.14159265358979, 64, -3, "3.14159265359"},
		{3.14159265358979, 64, -15, "3"},
		{123456789012345678, 64, 0, "1.23456789012346e+17"},
		{123456789012345678, 64, 1, "1.2345678901234568e+17"},
		{1e15, 64, 1, "1e+15"},
		{1e14, 64, 1, "100000000000000"},
		{1e100, 64, 0, "1e+100"},
		{1e-5, 64, 0, "1e-05"},
		{1e-5, 64, 1, "1e-05"},
		{0.0001, 64, 1, "0.0001"},
		{100, 64, 0, "100"},
		{1e-320, 64, 0, "9.99988867182683e-321"},
		{1e-320, 64, 1, "1e-320"},
		{math.Copysign(0, -1), 64, 0, "-0"},
		{math.Copysign(0, -1), 64, 1, "-0"},
		{0, 64, -15, "0"},
		{math.NaN(), 64, 0, "NaN"},
		{math.Inf(-1), 64, -2, "-Infinity"},
		{math.Inf(1), 32, 1, "Infinity"},
		{float64(float32(1.1)), 32, 0, "1.1"},
		{float64(float32(3.14159265)), 32, 0, "3.14159"},
		{float64(float32(3.14159265)), 32, -5, "3"},
		{float64(float32(3.14159265)), 32, -15, "3"},
		{float64(float32(1.1)), 32, 1, "1.1"},
		{float64(float32(1.1)), 32, 3, "1.1"},
		{float64(float32(1e6)), 32, 1, "1e+06"},
		{float64(float32(123456)), 32, 1, "123456"},
	} {
		if got := FormatFloatText(tc.v, tc.bits, ExtraFloatDigits(tc.extra)); got != tc.want {
			t.Errorf("FormatFloatText(%v, %d, %d) = %q, want %q", tc.v, tc.bits, tc.extra, got, tc.want)
		}
	}
}

// TestParseExtraFloatDigits checks SET extra_float_digits' reading of its
// value as PostgreSQL 15's parse_int and range check give it.
func TestParseExtraFloatDigits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		err  string
	}{
		{"1", 1, ""}, {"-15", -15, ""}, {"3", 3, ""}, {" 2 ", 2, ""}, {"+0", 0, ""},
		{"2.5", 2, ""}, {"1.5", 2, ""}, {"-0.5", 0, ""}, {"3e0", 3, ""}, {"0x2", 2, ""}, {"-0x3", -3, ""},
		{"02", 2, ""}, {"0.3", 0, ""},
		{"4", 0, `4 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"-16", 0, `-16 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"3.5", 0, `4 is outside the valid range for parameter "extra_float_digits" (-15 .. 3)`},
		{"abc", 0, `invalid value for parameter "extra_float_digits": "abc"`},
		{"", 0, `invalid value for parameter "extra_float_digits": ""`},
		{"1 digit", 0, `invalid value for parameter "extra_float_digits": "1 digit"`},
		{"08", 0, `invalid value for parameter "extra_float_digits": "08"`},
		{"NaN", 0, `invalid value for parameter "extra_float_digits": "NaN"`},
		{"99999999999", 0, `invalid value for parameter "extra_float_digits": "99999999999"`},
	} {
		got, err := ParseExtraFloatDigits(tc.in)
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseExtraFloatDigits(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("ParseExtraFloatDigits(%q) = %d, %v; want error %q", tc.in, got, err, tc.err)
		}
	}
}

// TestAppendFloatG checks PostgreSQL's snprintf %.*g, which messages use.
func TestAppendFloatG(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		prec int
		want string
	}{
		{1.23456789, 6, "1.23457"}, {-0.000123456789, 6, "-0.000123457"}, {1e8, 6, "1e+08"}, {1.5, 6, "1.5"},
		{0.1, 0, "0.1"}, {123456, 6, "123456"}, {1234567, 6, "1.23457e+06"}, {math.Copysign(0, -1), 6, "-0"},
		{math.NaN(), 6, "NaN"}, {math.Inf(1), 6, "Infinity"}, {math.Inf(-1), 3, "-Infinity"},
	} {
		if got := string(AppendFloatG(nil, tc.v, tc.prec)); got != tc.want {
			t.Errorf("AppendFloatG(%v, %d) = %q, want %q", tc.v, tc.prec, got, tc.want)
		}
	}
}
