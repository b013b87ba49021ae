package types

import (
	"math"
	"strconv"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// FloatDigits is a session's extra_float_digits as float output reads it
// (PostgreSQL 15's float4out and float8out, which every path printing a
// real or double precision goes through: result columns, casts to text,
// arrays, records, json, COPY TO, concatenation, format): above 0 the
// shortest text that reads back exactly, else C's %g with FLT_DIG + n (6
// + n) or DBL_DIG + n (15 + n) significant digits. Like the TimeZone it is
// always an argument, never package state. The zero value is the
// setting's default, 1.
type FloatDigits struct {
	// cut is 1 - extra_float_digits when that is 0 or less (1 .. 16), 0
	// for the shortest output, so that the zero value is the default
	cut int8
}

// ExtraFloatDigits is the FloatDigits of extra_float_digits n (already
// checked to be in -15 .. 3 by ParseExtraFloatDigits).
func ExtraFloatDigits(n int) FloatDigits {
	if n > 0 {
		return FloatDigits{}
	}
	return FloatDigits{cut: int8(1 - n)}
}

// ExtraFloatDigitsMin and ExtraFloatDigitsMax bound the setting, as
// PostgreSQL 15's guc.c does.
const (
	ExtraFloatDigitsMin = -15
	ExtraFloatDigitsMax = 3
)

// ParseExtraFloatDigits reads a value given to SET extra_float_digits as
// PostgreSQL's parse_int does for an integer setting without a unit: a
// decimal, hexadecimal (0x) or octal (leading 0) integer, or a number
// with a fraction or exponent rounded half to even, surrounded by white
// space; then checks it is in -15 .. 3. Both errors are 22023, worded as
// PostgreSQL words them.
func ParseExtraFloatDigits(v string) (int, error) {
	const name = "extra_float_digits"
	f, ok := parseIntSetting(v)
	if !ok {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, v)
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter %q: %q", name, v).
			WithHint("Value exceeds integer range.")
	}
	n := int(f)
	if n < ExtraFloatDigitsMin || n > ExtraFloatDigitsMax {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "%d is outside the valid range for parameter %q (%d .. %d)", n, name, ExtraFloatDigitsMin, ExtraFloatDigitsMax)
	}
	return n, nil
}

// parseIntSetting is parse_int without units, before its range check:
// strtol with base 0 (decimal, 0x hexadecimal, 0 octal), and when a '.',
// 'e' or 'E' follows its digits or it overflows, strtod of the whole
// text; white space around; the value rounded with rint (half to even).
func parseIntSetting(v string) (float64, bool) {
	s := trimCSpace(v)
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	base := 10
	switch {
	case len(s) > i+1 && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X'):
		base, i = 16, i+2
	case len(s) > i+1 && s[i] == '0':
		base = 8
	}
	start := i
	for i < len(s) && digitIn(s[i], base) {
		i++
	}
	if i == start {
		return 0, false
	}
	n, err := strconv.ParseUint(s[start:i], base, 64)
	if base != 16 && i < len(s) && (s[i] == '.' || s[i] == 'e' || s[i] == 'E') || err != nil {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) {
			return 0, false
		}
		return math.RoundToEven(f), true
	}
	if i != len(s) {
		return 0, false
	}
	f := float64(n)
	if neg {
		f = -f
	}
	return f, true
}

func digitIn(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c == '8' || c == '9':
		return base >= 10
	case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}

// trimCSpace trims C's isspace characters.
func trimCSpace(s string) string {
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// AppendFloatText appends f (a double, or a real widened when bitSize is
// 32) as float8out (float4out) prints it under extra_float_digits d: the
// one rule every float output path uses. NaN, Infinity, -Infinity and -0
// print so whatever d.
func AppendFloatText(dst []byte, f float64, bitSize int, d FloatDigits) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	if d.cut != 0 {
		digits := 15 // DBL_DIG
		if bitSize == 32 {
			digits = 6 // FLT_DIG
		}
		return AppendFloatG(dst, f, digits+1-int(d.cut))
	}
	return appendShortestText(dst, f, bitSize)
}

// AppendFloatG appends f as PostgreSQL's snprintf writes it for %.*g
// with precision prec (a precision below 1 taken as 1): NaN, Infinity
// and -Infinity by name (its own rule, not C's nan and inf), else C's
// %g, which Go's 'g' matches (the exponent form below 1e-4 and at the
// precision, two exponent digits at least, no trailing zeros). Messages
// that print a double with %g use it too.
func AppendFloatG(dst []byte, f float64, prec int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	return strconv.AppendFloat(dst, f, 'g', max(prec, 1), 64)
}

// FormatFloatText is AppendFloatText's string.
func FormatFloatText(f float64, bitSize int, d FloatDigits) string {
	var scratch [32]byte
	return string(AppendFloatText(scratch[:0], f, bitSize, d))
}

// appendShortestText is float8out's (float4out's) output with
// extra_float_digits above 0: the digits of PostgreSQL's Ryu
// (AppendShortestFloat) in plain notation when the decimal exponent is in
// [-4, 15) ([-4, 6) for a real), else in C's %e style. f is finite and
// non-zero.
func appendShortestText(dst []byte, f float64, bitSize int) []byte {
	maxPlainExp := 15
	if bitSize == 32 {
		maxPlainExp = 6
	}
	var scratch [40]byte
	e := AppendShortestFloat(scratch[:0], f, bitSize)
	neg := e[0] == '-'
	if neg {
		e = e[1:]
		dst = append(dst, '-')
	}
	ePos := 0
	for ePos < len(e) && e[ePos] != 'e' {
		ePos++
	}
	exp, _ := strconv.Atoi(string(e[ePos+1:]))
	if exp < -4 || exp >= maxPlainExp {
		return append(dst, e...)
	}
	var digits [24]byte
	nd := 0
	for _, c := range e[:ePos] {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := 0; i < -exp-1; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits[:nd]...)
	}
	intDigits := exp + 1
	if nd <= intDigits {
		dst = append(dst, digits[:nd]...)
		for i := nd; i < intDigits; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[:intDigits]...)
	dst = append(dst, '.')
	return append(dst, digits[intDigits:nd]...)
}

// FloatDigitsSetting is the FloatDigits of a session's stored
// extra_float_digits (SET keeps the number ParseExtraFloatDigits read:
// "1", "-3"); a value that does not read is the default.
func FloatDigitsSetting(v string) FloatDigits {
	if v == "1" || v == "" {
		return FloatDigits{}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < ExtraFloatDigitsMin || n > ExtraFloatDigitsMax {
		return FloatDigits{}
	}
	return ExtraFloatDigits(n)
}

// HasFloat reports whether t's text can hold a real or double precision
// (t is one, or an array, record or map with one inside), so that a
// caller reads the session's extra_float_digits only when it matters.
func HasFloat(t T) bool {
	switch t.Kind {
	case Float32, Float64:
		return true
	case String:
		return t.Variant.IsGeometric()
	case Array:
		return t.Elem != nil && HasFloat(*t.Elem)
	case Map:
		return t.Key != nil && HasFloat(*t.Key) || t.Elem != nil && HasFloat(*t.Elem)
	case Row:
		for _, f := range t.Fields {
			if HasFloat(f.Type) {
				return true
			}
		}
	}
	return false
}
