package sqllogictest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// boolOID is PostgreSQL's bool type; its text form is t/f, which I and R
// render as 1/0 like SQLite's integer booleans.
const boolOID = 16

// renderValue renders one value in PostgreSQL text format (nil = SQL NULL)
// for a column whose type letter is letter. Letters other than I and R (T,
// and sqllogictest-rs extras such as B, D, P, ?) render as text.
func renderValue(letter byte, raw []byte, isBool bool) string {
	if raw == nil {
		return "NULL"
	}
	switch letter {
	case 'I':
		return renderInteger(string(raw), isBool)
	case 'R':
		return renderReal(string(raw), isBool)
	default:
		return renderText(raw)
	}
}

// renderText maps the empty string to (empty) and every byte outside
// printable ASCII to '@', byte by byte (a 2-byte UTF-8 character gives @@).
// A value of spaces only renders as "(N spaces)": written as is, it would
// be a blank line, which ends a record (sqlgate's extension of the rules).
func renderText(raw []byte) string {
	if len(raw) == 0 {
		return "(empty)"
	}
	if strings.Trim(string(raw), " ") == "" {
		return fmt.Sprintf("(%d spaces)", len(raw))
	}
	out := make([]byte, len(raw))
	for i, c := range raw {
		if c < 0x20 || c > 0x7E {
			c = '@'
		}
		out[i] = c
	}
	return string(out)
}

func boolNumber(s string) (float64, bool) {
	switch s {
	case "t", "true":
		return 1, true
	case "f", "false":
		return 0, true
	}
	return 0, false
}

// renderInteger follows SQLite's integer conversion: integers as is, floats
// truncated toward zero (clamped to the int64 range), other text by its
// leading integer, 0 when there is none.
func renderInteger(s string, isBool bool) string {
	if isBool {
		if v, ok := boolNumber(s); ok {
			return strconv.Itoa(int(v))
		}
	}
	t := strings.TrimSpace(s)
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	if f, ok := parseFloatText(t); ok {
		return strconv.FormatInt(truncateToInt64(f), 10)
	}
	if m := leadingInteger.FindString(t); m != "" {
		if n, err := strconv.ParseInt(m, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		// Too many digits for int64: clamp like a float conversion would.
		if strings.HasPrefix(m, "-") {
			return strconv.FormatInt(math.MinInt64, 10)
		}
		return strconv.FormatInt(math.MaxInt64, 10)
	}
	return "0"
}

var (
	leadingInteger = regexp.MustCompile(`^[+-]?[0-9]+`)
	leadingReal    = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`)
)

// parseFloatText parses PostgreSQL's float and numeric text forms, including
// NaN and ±Infinity, but not Go-only forms such as hex floats or "1_000".
func parseFloatText(t string) (float64, bool) {
	switch t {
	case "NaN":
		return math.NaN(), true
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if leadingReal.FindString(t) != t || t == "" {
		return 0, false
	}
	// The pattern rules out syntax errors; on a range error ParseFloat
	// returns ±Inf or 0, which is the value SQLite would use too.
	f, _ := strconv.ParseFloat(t, 64)
	return f, true
}

func truncateToInt64(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt64: // 2^63 exactly; no float64 lies strictly between
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// renderReal renders %.3f of the value with SQLite's digit behaviour.
func renderReal(s string, isBool bool) string {
	if isBool {
		if v, ok := boolNumber(s); ok {
			return formatReal(v)
		}
	}
	t := strings.TrimSpace(s)
	if f, ok := parseFloatText(t); ok {
		return formatReal(f)
	}
	if m := leadingReal.FindString(t); m != "" {
		if f, err := strconv.ParseFloat(m, 64); err == nil {
			return formatReal(f)
		}
	}
	return formatReal(0)
}

// formatReal is SQLite's printf("%.3f"): at most 16 significant digits,
// padded with zeros, so -2^63 prints as -9223372036854776000.000. Below 1e16
// every significant digit fits and plain %.3f agrees.
func formatReal(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	if math.Abs(f) < 1e16 {
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
	// d.ddddddddddddddde+XX with 16 significant digits; |f| >= 1e16 means
	// XX >= 16, so the integer part is all the digits plus XX-15 zeros.
	e := strconv.FormatFloat(f, 'e', 15, 64)
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expText, _ := strings.Cut(e, "e")
	exp, err := strconv.Atoi(expText)
	if err != nil {
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
	digits := strings.Replace(mant, ".", "", 1)
	return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".000"
}
