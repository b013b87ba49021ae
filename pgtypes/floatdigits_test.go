package pgtypes

import (
	"math"
	"testing"
)

// TestAppendFloatDigits checks float4out / float8out under
// extra_float_digits, PostgreSQL 15's outputs.
func TestAppendFloatDigits(t *testing.T) {
	for _, tc := range []struct {
		v     float64
		bits  int
		extra int
		want  string
	}{
		{0.30000000000000004, 64, 1, "0.30000000000000004"}, // 0.1 + 0.2 at run time
		{0.30000000000000004, 64, 0, "0.3"},
		{3.14159265358979, 64, -3, "3.14159265359"},
		{3.14159265358979, 64, -15, "3"},
		{123456789012345678, 64, 0, "1.23456789012346e+17"},
		{1e100, 64, 0, "1e+100"},
		{1e-5, 64, 0, "1e-05"},
		{100, 64, 0, "100"},
		{math.Copysign(0, -1), 64, 0, "-0"},
		{math.NaN(), 64, 0, "NaN"},
		{math.Inf(-1), 64, -2, "-Infinity"},
		{float64(float32(1.1)), 32, 0, "1.1"},
		{float64(float32(3.14159265)), 32, 0, "3.14159"},
		{float64(float32(1.1)), 32, 1, "1.1"},
		{float64(float32(1.1)), 32, 3, "1.1"},
	} {
		if got := string(AppendFloatDigits(nil, tc.v, tc.bits, tc.extra)); got != tc.want {
			t.Errorf("AppendFloatDigits(%v, %d, %d) = %q, want %q", tc.v, tc.bits, tc.extra, got, tc.want)
		}
	}
}
