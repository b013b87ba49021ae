package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// toCharValues are numbers of each type numeric to_char takes: zero,
// negatives, halves that round, values too wide for short templates,
// floats with more digits than they print.
var toCharValues = map[string][]string{
	"int4":    {"0", "1", "-1", "5", "12", "-12", "123", "1234", "-98765", "2147483647", "11", "13", "22", "3999", "4000"},
	"int8":    {"0", "7", "-7", "101", "112", "-9223372036854775808", "9223372036854775807", "1000000"},
	"numeric": {"0", "0.5", "-0.5", "0.05", "-0.004", "12.45", "-1234.567", "9.995", "99.95", "1234567.891", "0.000123", "-0.0", "3.0", "1e20", "-999.999", "2.5", "1.5"},
	"float8":  {"0", "1.5", "-2.5", "0.125", "-1234.567", "123456789012.345", "1e20", "0.1", "-0.001", "3999.4", "12.45"},
	"float4":  {"0", "1.5", "-2.5", "1.2345678", "-1234.567", "0.001"},
}

// toCharTemplate is a random numeric to_char template as users write
// them: fill mode, a sign pattern before or after the digits, L, digits
// with group separators, a fraction or V digits, literal text, an ordinal
// suffix; or a scientific or roman numeral one.
func toCharTemplate(rng *rand.Rand) string {
	pick := func(l ...string) string { return l[rng.Intn(len(l))] }
	switch rng.Intn(10) {
	case 0:
		return pick("9", "9.9", "9.99", "99.999", "0.0", "9.9999") + pick("EEEE", "eeee")
	case 1:
		return pick("", "FM") + pick("RN", "rn") + pick("", "9")
	}
	var b strings.Builder
	if rng.Intn(3) == 0 {
		b.WriteString(pick("FM", "fm"))
	}
	sign := pick("", "", "", "S", "MI", "PL", "SG", "PR")
	before := sign != "PR" && rng.Intn(2) == 0
	if before {
		b.WriteString(sign)
	}
	if rng.Intn(8) == 0 {
		b.WriteString("L")
	}
	n := 1 + rng.Intn(6)
	digit := rng.Intn(n) // a template without digits is refused by PostgreSQL
	for i := 0; i < n; i++ {
		if i == digit {
			b.WriteString(pick("9", "0"))
			continue
		}
		b.WriteString(pick("9", "9", "9", "0", ",", "G", "9"))
		if rng.Intn(12) == 0 {
			b.WriteString(pick(`"x"`, " ", "-", `"a b"`))
		}
	}
	frac := false
	switch rng.Intn(4) {
	case 0:
		b.WriteString(pick(".", "D"))
		m := rng.Intn(5)
		for i := 0; i < m; i++ {
			b.WriteString(pick("9", "0", "9"))
		}
		frac = true
	case 1:
		b.WriteString("V")
		m := 1 + rng.Intn(2)
		for i := 0; i < m; i++ {
			b.WriteString(pick("9", "0"))
		}
	}
	if !before {
		b.WriteString(sign)
	}
	if !frac && rng.Intn(5) == 0 {
		b.WriteString(pick("TH", "th"))
	}
	return b.String()
}

// TestToCharNumberDifferential: random numeric to_char templates over
// values of every numeric type, on sqlgate and PostgreSQL 15: the same
// text for every value.
func TestToCharNumberDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(23))
	typeNames := []string{"int4", "int8", "numeric", "float8", "float4"}
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	for i := 0; i < 500; i++ {
		tmpl := toCharTemplate(rng)
		typ := typeNames[rng.Intn(len(typeNames))]
		vals := toCharValues[typ]
		var rows []string
		for j := 0; j < 5; j++ {
			rows = append(rows, fmt.Sprintf("(%d, %s::%s)", j, vals[rng.Intn(len(vals))], typ))
		}
		q := fmt.Sprintf("SELECT o, '[' || to_char(v, '%s') || ']' FROM (VALUES %s) s(o, v) ORDER BY o",
			tmpl, strings.Join(rows, ", "))
		tallyBy(t, ctx, r, q, stats, ordered)
	}
	// the documentation's examples of each pattern
	for _, q := range []string{"-1234.567, '9999D99S'", "-12, '999MI'", "-12, 'MI999'", "-12, '999PR'", "12, 'SG999'",
		"12, 'PL999'", "123, 'RN'", "1234.5, 'L9999.9'", "1e10, '9.99EEEE'", "-5, 'FM999S'", "12, 'V99'",
		"12.45, '99V9'", "5, '9th'", "-0.1, '99.99'", "-12, 'S9999'", "485, 'FMRN'", "0.1, 'FM0.99'", "148.5, '999D999'"} {
		tallyBy(t, ctx, r, "SELECT '[' || to_char("+q+") || ']'", stats, ordered)
	}
	t.Logf("to_char: %v", stats)
	if stats["same"] < 400 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
