package numeric

import (
	"math"
	"testing"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestAgainstPostgreSQL: results PostgreSQL 15 gives (psql, numeric
// literals), digit for digit and scale for scale. The differential test
// (tests/difftest TestNumericDifferential) covers the same rules at random.
func TestAgainstPostgreSQL(t *testing.T) {
	p := MustParse
	un := func(f func(*apd.Decimal) (*apd.Decimal, error)) func(a ...*apd.Decimal) (*apd.Decimal, error) {
		return func(a ...*apd.Decimal) (*apd.Decimal, error) { return f(a[0]) }
	}
	bin := func(f func(a, b *apd.Decimal) (*apd.Decimal, error)) func(a ...*apd.Decimal) (*apd.Decimal, error) {
		return func(a ...*apd.Decimal) (*apd.Decimal, error) { return f(a[0], a[1]) }
	}
	round := func(k int64) func(a ...*apd.Decimal) (*apd.Decimal, error) {
		return func(a ...*apd.Decimal) (*apd.Decimal, error) { return Round(a[0], k) }
	}
	cases := []struct {
		name string
		f    func(a ...*apd.Decimal) (*apd.Decimal, error)
		args []string
		want string // or an SQLSTATE
	}{
		{"div weight", bin(Div), []string{"123456789.125", "3"}, "41152263.041666666667"},
		{"div small", bin(Div), []string{"-0.001", "3"}, "-0.00033333333333333333"},
		{"div by zero", bin(Div), []string{"1", "0"}, "22012"},
		{"div inf", bin(Div), []string{"1", "Infinity"}, "0"},
		{"mod", bin(Mod), []string{"-7.5", "2"}, "-1.5"},
		{"div trunc", bin(DivTrunc), []string{"-7.5", "2"}, "-3"},
		{"mul exact", bin(Mul), []string{"1e100", "1e-100"}, "1." + zeros(100)},
		{"add scales", bin(Add), []string{"1.5", "2"}, "3.5"},
		{"inf minus inf", bin(Sub), []string{"Infinity", "Infinity"}, "NaN"},
		{"sqrt 2", un(Sqrt), []string{"2"}, "1.414213562373095"},
		{"sqrt 0", un(Sqrt), []string{"0"}, "0.000000000000000"},
		{"sqrt tiny", un(Sqrt), []string{"1e-100"}, "0." + zeros(49) + "1" + zeros(50)},
		{"sqrt negative", un(Sqrt), []string{"-1"}, "2201F"},
		{"exp 1", un(Exp), []string{"1"}, "2.7182818284590452"},
		{"exp 100", un(Exp), []string{"100"}, "26881171418161354484126255515800135873611119"},
		{"exp 100.5", un(Exp), []string{"100.5"}, "44319559098458954160107061979564816895899481.9"},
		{"ln 10", un(Ln), []string{"10"}, "2.3025850929940457"},
		{"ln tiny", un(Ln), []string{"1e-100"}, "-230.2585092994045684017991454684364207601101488628772976033327900967572609677352480235997205089598298342"},
		{"ln 0", un(Ln), []string{"0"}, "2201E"},
		{"log10", un(Log10), []string{"1e100"}, "100.00000000000000"},
		{"log 2 8", bin(Log), []string{"2", "8"}, "3.0000000000000000"},
		{"log 2.0 8.5", bin(Log), []string{"2.0", "8.5"}, "3.0874628412503394"},
		{"power int", bin(Power), []string{"10", "20"}, "100000000000000000000.0000000000000000"},
		{"power neg int", bin(Power), []string{"0.5", "-2"}, "4.0000000000000000"},
		{"power half", bin(Power), []string{"2", "0.5"}, "1.4142135623730950"},
		{"power real", bin(Power), []string{"1.5", "3.7"}, "4.4826791848087528"},
		{"power tiny", bin(Power), []string{"1e-100", "0.5"}, "0." + zeros(49) + "1" + zeros(50)},
		{"power underflow", bin(Power), []string{"5.6e-50", "799219.408736"}, "0." + zeros(1000)},
		{"power zero neg", bin(Power), []string{"0", "-1"}, "2201F"},
		{"power neg frac", bin(Power), []string{"-2", "0.5"}, "2201F"},
		{"round neg", round(-2), []string{"1234.5678"}, "1200"},
		{"round pad", round(3), []string{"1.5"}, "1.500"},
		{"ceil", un(Ceil), []string{"-1.5"}, "-1"},
		{"floor", un(Floor), []string{"-0.01"}, "-1"},
		{"text exponent", un(func(d *apd.Decimal) (*apd.Decimal, error) { return d, nil }), []string{"1.5e-3"}, "0.0015"},
		{"negative zero", un(func(d *apd.Decimal) (*apd.Decimal, error) { return d, nil }), []string{" -0.000 "}, "0.000"},
	}
	for _, c := range cases {
		args := make([]*apd.Decimal, len(c.args))
		for i, a := range c.args {
			args[i] = p(a)
		}
		got, err := c.f(args...)
		if err != nil {
			if string(sqlerr.CodeOf(err)) != c.want {
				t.Errorf("%s: error %v, want %s", c.name, err, c.want)
			}
			continue
		}
		if s := String(got); s != c.want {
			t.Errorf("%s: got %s, want %s", c.name, s, c.want)
		}
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

// TestExpPastTheScaleClamp: exp of 4641.85779 has 2016 digits before the
// point (past numeric_exp's ±2000 clamp of the scale estimate), every one
// correct: PostgreSQL's last ones are 125.17858.
func TestExpPastTheScaleClamp(t *testing.T) {
	got, err := Exp(MustParse("4641.85779"))
	if s := String(got); err != nil || len(s) != 2022 || s[len(s)-9:] != "125.17858" {
		t.Errorf("exp(4641.85779) = ...%s (%d chars, %v)", s[max(len(s)-9, 0):], len(s), err)
	}
}

// TestLimits: PostgreSQL's bounds of 131072 digits before the point and
// 16383 after, and its text input errors.
func TestLimits(t *testing.T) {
	for _, c := range []struct{ in, code string }{
		{"1e131071", ""}, {"1e131072", "22003"}, {"1e-16383", ""}, {"1e-16384", "22003"},
		{"abc", "22P02"}, {"1e", "22P02"}, {".", "22P02"}, {"NaN", ""}, {"-inf", ""}, {"1.5.5", "22P02"},
	} {
		_, err := Parse(c.in)
		if got := string(sqlerr.CodeOf(err)); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%q: %v, want %q", c.in, err, c.code)
		}
	}
}

// TestEncodeAndSortKeys: the compact form reads back exactly, and sort keys
// order as Cmp does, equal values (1.0, 1.00) sharing one key.
func TestEncodeAndSortKeys(t *testing.T) {
	vals := []string{"-Infinity", "-1e100", "-12.5", "-12.50", "-1.25", "-0.001", "0", "0.000", "1e-100", "0.5", "1", "1.0", "1.00", "12.5", "123456789012345678901234567890.5", "1e100", "Infinity", "NaN"}
	for i, a := range vals {
		da := MustParse(a)
		var back apd.Decimal
		if err := Decode(Encode(nil, da), &back); err != nil || String(&back) != String(da) {
			t.Errorf("%s: encoded and decoded as %s (%v)", a, String(&back), err)
		}
		for _, b := range vals[i:] {
			db := MustParse(b)
			ka, kb := string(AppendSortKey(nil, da)), string(AppendSortKey(nil, db))
			c := Cmp(da, db)
			if (ka < kb) != (c < 0) || (ka == kb) != (c == 0) {
				t.Errorf("%s vs %s: keys disagree with Cmp %d", a, b, c)
			}
		}
	}
}

// TestToInt64Bounds checks the conversion at and past both ends of int64:
// the coefficient is a magnitude, so -2^63 needs its own case.
func TestToInt64Bounds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"-9223372036854775808.4", math.MinInt64, true},
		{"9223372036854775807.4", math.MaxInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"-9223372036854775808.5", 0, false},
		{"0", 0, true},
	} {
		d, err := Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := ToInt64(d, "bigint")
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("ToInt64(%s) = %d, %v, %v; want %d, %v", c.in, got, ok, err, c.want, c.ok)
		}
	}
}
