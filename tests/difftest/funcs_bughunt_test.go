package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// The everyday function library, family by family: random calls with
// edge arguments (empty and multi-byte strings, combining marks, NULL,
// zero, negatives, int4's bounds, NaN and the infinities, numerics with
// many digits, BC dates and timestamps, zones east and west of UTC) on
// sqlgate and PostgreSQL 15, which must print the same text or refuse
// with the same SQLSTATE and message. Left out are what the package docs
// list as known differences: to_ascii, regular-expression anchors with a
// start after 1, NaN in numeric(p,s), cbrt of subnormals, timestamps past
// 294247 AD and interval times past int64 nanoseconds.

// pickFrom returns a chooser over l.
func pickFrom(rng *rand.Rand) func(l ...string) string {
	return func(l ...string) string { return l[rng.Intn(len(l))] }
}

var (
	bhStrings = []string{"''", "NULL", "'abc'", "'Hello World'", "'  padded  '", "'ÄöÜ straße'", "'e\u0301cole'", "'日本語テキスト'",
		"'a,b,,c'", "'xXyYzZ'", "'007'", "E' \\t\\n x '", "'ǅungla'", "'ﬁsh'", "'ΣΑΣ σας'", "'İi'", "'O''Reilly'", "'😀x😀'",
		"'abc'::char(5)", "'Ω ℂ ½ €'", "U&'\\00A0x\\2003y'", "'_ß٣'"}
	bhInts = []string{"NULL", "0", "1", "-1", "2", "3", "5", "-5", "10", "-2147483648", "2147483647"}
)

// bhStringCall is a random call of a string function.
func bhStringCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	s := func() string { return p(bhStrings...) }
	i := func() string { return p(bhInts...) }
	switch rng.Intn(22) {
	case 0:
		return fmt.Sprintf("substring(%s from %s for %s)", s(), i(), i())
	case 1:
		return fmt.Sprintf("overlay(%s placing %s from %s for %s)", s(), s(), i(), i())
	case 2:
		return fmt.Sprintf("split_part(%s, %s, %s)", s(), p("','", "' '", s()), i())
	case 3:
		return fmt.Sprintf("%s(%s, %s, %s)", p("lpad", "rpad"), s(), p("0", "3", "7", "-1", "NULL"), s())
	case 4:
		return fmt.Sprintf("%s(%s, %s)", p("btrim", "ltrim", "rtrim"), s(), s())
	case 5:
		return fmt.Sprintf("%s(%s)", p("initcap", "reverse", "upper", "lower", "length", "md5", "ascii", "quote_ident", "quote_literal", "quote_nullable"), s())
	case 6:
		return fmt.Sprintf("translate(%s, %s, %s)", s(), s(), s())
	case 7:
		return fmt.Sprintf("%s(%s, %s)", p("left", "right", "repeat"), s(), p(bhInts[:10]...))
	case 8, 9, 10:
		return "format(" + bhFormatArgs(rng) + ")"
	case 11, 12, 13:
		return bhRegexCall(rng)
	case 14:
		return fmt.Sprintf("concat_ws(%s, %s, %s, %s)", p("','", s()), s(), p(i(), "1.50", "true", "NULL"), s())
	case 15:
		return fmt.Sprintf("starts_with(%s, %s)", s(), s())
	case 16:
		return fmt.Sprintf("chr(%s)", p("0", "65", "256", "1114111", "1114112", "-1", "233", "128512", "NULL"))
	case 17:
		return fmt.Sprintf("encode(convert_to(%s, 'UTF8'), %s)", s(), p("'hex'", "'base64'", "'escape'"))
	case 18:
		return fmt.Sprintf("to_hex(%s)", p(append(bhInts, "-9223372036854775808::int8", "255::int8")...))
	case 19:
		return fmt.Sprintf("string_to_array(%s, %s, %s)", s(), p("','", "''", "NULL", s()), p("''", "'b'", s()))
	case 20:
		return fmt.Sprintf("array_to_string(%s, %s, %s)", p("ARRAY[1,NULL,3]", "ARRAY['a','',NULL]", "'{}'::text[]"), p("','", "''", s()), p("'*'", "NULL"))
	}
	if rng.Intn(3) == 0 {
		// position has text, bytea and bit string forms
		b := func() string {
			return p("'\\x'::bytea", "'\\x00ff'::bytea", "'abc'::bytea", "'\\xff'", "NULL::bytea", "B'101'", "B'1'", "'01'::varbit")
		}
		return fmt.Sprintf("position(%s in %s)", b(), b())
	}
	return fmt.Sprintf("position(%s in %s)", s(), s())
}

// bhFormatArgs is format()'s arguments: a format string of random
// specifiers (positions, flags, widths given or taken from arguments,
// unknown conversions) and zero to three arguments of mixed types.
func bhFormatArgs(rng *rand.Rand) string {
	p := pickFrom(rng)
	var f strings.Builder
	for n := 1 + rng.Intn(2); n > 0; n-- {
		f.WriteString(p("", "x", "[") + "%" + p("", "", "1$", "2$", "3$", "0$") + p("", "-", "--") +
			p("", "5", "*", "*2$", "*1$", "0", "12", "*0$", "99999999999") + p("s", "I", "L", "%", "s", "x", "ä"))
	}
	if rng.Intn(8) == 0 {
		f.WriteString(p("%", "%1", "%*", "%1$"))
	}
	args := []string{"'" + f.String() + "'"}
	for n := rng.Intn(4); n > 0; n-- {
		args = append(args, p("'abc'", "'ǅungla'", "NULL", "-5", "3", "1.5", "true", "'7'", "' 4 '", "ARRAY[1,2]", "NULL::int", "2147483648::int8"))
	}
	return strings.Join(args, ", ")
}

// bhRegexCall is a regexp_* call over letters, digits and spaces outside
// ASCII, with character classes and class escapes.
func bhRegexCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	s := p(bhStrings...)
	pat := p("'[[:alpha:]]+'", "'[[:upper:]]'", "'[[:lower:]]+'", "'[[:alnum:]]'", "'[[:digit:]]'", "'[[:punct:]]+'", "'[[:space:]]'",
		"'[[:graph:]]+'", "'[[:print:]]+'", "'[[:blank:]]'", "'[[:cntrl:]]'", "'[[:xdigit:]]+'", "'[^[:alpha:][:space:]]'",
		`'\w+'`, `'\W'`, `'\s'`, `'\S+'`, `'\d'`, `'[\w]+'`, `'[\s,]+'`, "'[[:foo:]]'", "'(a|b)+'", "'o'")
	flags := p("", ", 'g'", ", 'i'", ", 'gi'", ", 'c'")
	switch rng.Intn(5) {
	case 0:
		return fmt.Sprintf("regexp_replace(%s, %s, '<\\&>'%s)", s, pat, flags)
	case 1:
		return fmt.Sprintf("regexp_count(%s, %s, 1%s)", s, pat, strings.ReplaceAll(flags, "g", ""))
	case 2:
		return fmt.Sprintf("regexp_replace(%s, %s, 'x', %s, %s)", s, pat, p("1", "0", "-1", "2"), p("0", "1", "-1", "2"))
	case 3:
		return fmt.Sprintf("array_to_string(regexp_match(%s, %s%s), '|')", s, pat, strings.ReplaceAll(flags, "g", ""))
	}
	return fmt.Sprintf("%s %s %s", s, p("~", "~*", "!~"), pat)
}

var (
	bhNumerics = []string{"0", "1", "-1", "0.5", "-2.5", "1.005", "-123.456", "1e-20", "1e20", "99999999999999999999.99999", "'NaN'::numeric",
		"'Infinity'::numeric", "'-Infinity'::numeric", "12345678901234567890.123456789", "7", "-7", "3", "10", "100.000", "NULL"}
	bhFloats = []string{"0::float8", "'-0'::float8", "1.5::float8", "-2.5::float8", "0.1::float8", "'NaN'::float8", "'Infinity'::float8",
		"'-Infinity'::float8", "1e308::float8", "5e-324::float8", "-0.5::float8", "2.5::float4", "'-Infinity'::float4", "'NaN'::float4"}
)

// bhMathCall is a random call of a numeric or float function.
func bhMathCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	n := func() string { return p(bhNumerics...) }
	f := func() string { return p(bhFloats...) }
	x := func() string { return p(n(), f(), p(bhInts[1:]...)) }
	scale := func() string { return p("0", "1", "2", "-1", "-2", "10", "NULL") }
	switch rng.Intn(12) {
	case 0:
		return fmt.Sprintf("%s(%s, %s)", p("round", "trunc"), n(), scale())
	case 1:
		return fmt.Sprintf("%s(%s)", p("round", "trunc", "ceil", "floor", "sign", "abs", "sqrt", "exp", "ln", "log", "scale", "min_scale", "trim_scale"), p(n(), f()))
	case 2:
		return fmt.Sprintf("%s(%s, %s)", p("div", "mod", "power", "log", "gcd", "lcm"), n(), n())
	case 3, 4:
		return fmt.Sprintf("width_bucket(%s, %s, %s, %s)", x(), p(n(), f(), "0", "-1"), p(n(), f(), "1", "10"), p("1", "5", "0", "-1", "10", "2147483647"))
	case 5:
		return fmt.Sprintf("factorial(%s)", p("0", "1", "5", "20", "21", "-1", "NULL"))
	case 6:
		return fmt.Sprintf("%s(%s)", p("radians", "degrees", "sin", "cosd", "atan", "tanh"), f())
	case 7:
		return fmt.Sprintf("%s '%s'", p("float8", "float4", "numeric", "int4", "int8"),
			p("  12  ", "1_000", "0x10", "0X1.8", "-0x.8", "0x1p3", "0x", "0xg", "1e1000", ".5", "5.", "+.5e2", "inf", "-infinity", " NaN ", "1e", "00012.3400", "1e-400"))
	case 8:
		return fmt.Sprintf("%s %s %s", x(), p("+", "-", "*", "/", "%"), x())
	}
	return fmt.Sprintf("(%s)::%s", x(), p("int2", "int4", "int8", "numeric", "float4", "float8", "numeric"))
}

// bhToCharValues are numbers of every type to_char takes, special values
// among them; bhToCharTemplates are templates valid and not.
var (
	bhToCharValues = []string{"'NaN'::numeric", "'Infinity'::numeric", "'-Infinity'::numeric", "'NaN'::float8", "'Infinity'::float8",
		"'-Infinity'::float4", "'NaN'::float4", "1e300::float8", "'-0'::float8", "12345678901234567890.123456789", "-0.000000001", "9.5",
		"2147483647", "-2147483648", "9223372036854775807::int8", "123.456::float4", "0", "-1", "12.5::int2"}
	bhToCharTemplates = []string{"9", "999", "9999", "99999999999999999999", "9G999", "999D99", "999.99", "S999", "999S", "MI999", "999MI",
		"PL999", "SG999", "999PR", "L9G999D99", "FM999", "00000", "0009.90", "9.9EEEE", "FM9.9EEEE", "9.9EEEEFM", "S9.9EEEE", "9V9EEEE",
		"9.9EEEEEEEE", "EEEE", "RN", "FMRN", "999th", "9999999999th", "99V9", "9999V99", "FM9999.999", "FM0.0", "9.999999999999999999",
		"SS9", "S9S", "9.9.9", "PR9", "9PRS", "SG9S", "9SPR", "9.9V9", "MI9S", "99999999.00", "9,999,999,999", "FM99999999999999999999.99999999999"}
)

// bhToCharCall is to_char of a number, or to_number.
func bhToCharCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	if rng.Intn(4) == 0 {
		return fmt.Sprintf("to_number(%s, '%s')", p("'12,454.8-'", "'<123.45>'", "' 12 '", "'-0'", "'1.2e3'", "'MCMXCIV'", "''", "'abc'", "'9999999999999999999999.99'"),
			p(bhToCharTemplates...))
	}
	return fmt.Sprintf("'[' || to_char(%s, '%s') || ']'", p(bhToCharValues...), p(bhToCharTemplates...))
}

// bhDateTimeCall is a random date/time function call over dates from
// 4713 BC to 5874897 AD, timestamps to 294246 AD, and intervals.
func bhDateTimeCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	ts := func() string {
		return p("timestamp '2024-02-29 13:45:12.345678'", "timestamp '1999-12-31 23:59:59.999999'", "timestamp '0044-03-15 12:00:00 BC'",
			"timestamp '4713-11-24 00:00:00 BC'", "timestamp 'infinity'", "timestamp '-infinity'", "timestamp '0001-01-01'",
			"timestamp '0001-12-31 23:00:00 BC'", "timestamp '0010-06-01 BC'", "timestamp '0101-01-01 BC'", "timestamp '1000-12-31 BC'",
			"timestamp '2000-01-01'", "timestamp '2001-01-01'", "timestamp '0005-02-29 10:00 BC'")
	}
	tz := func() string {
		return p("timestamptz '2024-03-10 07:30:00+00'", "timestamptz '2024-11-03 05:30:00+00'", "timestamptz '0044-03-15 12:00:00+00 BC'",
			"timestamptz 'infinity'", "timestamptz '-infinity'", "timestamptz '2000-01-01 00:00:00-08'", "timestamptz '1800-06-01 12:00:00+00'")
	}
	d := func() string {
		return p("date '2024-02-29'", "date '0001-01-01'", "date '0001-12-31 BC'", "date '4713-11-24 BC'", "date 'infinity'",
			"date '-infinity'", "date '0011-01-01 BC'", "date '0005-02-29 BC'", "date '0100-06-06 BC'", "date '1001-01-01 BC'")
	}
	iv := func() string {
		return p("interval '1 year 2 months 3 days 04:05:06.789'", "interval '-1 year 2 months -3 days 04:05:06'", "interval '1 day -1 second'",
			"interval '0'", "interval '1.5 months'", "interval '36 hours'", "interval '-1 month 1 day'")
	}
	unit := func() string {
		return p("microseconds", "milliseconds", "second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "century", "millennium")
	}
	switch rng.Intn(10) {
	case 0, 1:
		return fmt.Sprintf("date_trunc('%s', %s)", unit(), p(ts(), tz(), iv()))
	case 2, 3:
		return fmt.Sprintf("extract(%s from %s)", p(unit(), "dow", "isodow", "doy", "isoyear", "epoch"), p(ts(), tz(), d(), iv()))
	case 4:
		return fmt.Sprintf("date_part('%s', %s)", unit(), p(ts(), d()))
	case 5:
		return fmt.Sprintf("make_date(%s, %s, %s)", p("2024", "-44", "0", "-1", "-5", "5874897", "5874898", "-4713", "-4714"), p("0", "1", "2", "11", "12", "13"), p("0", "1", "24", "29", "31"))
	case 6:
		return fmt.Sprintf("date_bin('%s'::interval, %s, %s)", p("15 minutes", "1 day", "1 hour", "7 days 1 second", "1 microsecond", "0", "1 month"),
			p(ts(), "timestamp '2000-01-01 05:00'", "timestamp '2000-01-01 05:30'"), p("timestamp '2001-01-01'", "timestamp '1999-12-31 23:45'", ts()))
	case 7:
		return fmt.Sprintf("(%s)::text", p(ts(), tz(), d()))
	case 8:
		return fmt.Sprintf("%s(%s)", p("justify_days", "justify_hours", "justify_interval", "isfinite"), iv())
	}
	return fmt.Sprintf("concat(%s, ' ', %s)", p(ts(), tz()), p(d(), iv()))
}

// bhJSONCall is a json or jsonb operator or function over documents of
// every shape, scalars among them.
func bhJSONCall(rng *rand.Rand) string {
	p := pickFrom(rng)
	t := p("json", "jsonb")
	j := func() string {
		return p(`'{}'`, `'[]'`, `'null'`, `'1'`, `'"x"'`, `'{"a":1,"b":[1,2,{"c":null}],"d":"é"}'`, `'[1,"2",null,true,1.50,1e3]'`,
			`'{"a":{"b":{"c":3}}}'`, `'{"a":1,"a":2}'`, `'-0'`, `'1e400'`, "NULL")
	}
	key := func() string { return p("'a'", "'b'", "'x'", "0", "1", "-1", "5") }
	path := func() string { return p("'{a}'", "'{b,1}'", "'{b,2,c}'", "'{}'", "'{0}'", "'{-1}'", "'{x}'") }
	switch rng.Intn(9) {
	case 0, 1:
		return fmt.Sprintf("%s::%s %s %s", j(), t, p("->", "->>"), key())
	case 2:
		return fmt.Sprintf("%s::%s %s %s", j(), t, p("#>", "#>>"), path())
	case 3:
		return fmt.Sprintf("%s_typeof(%s::%s)", t, j(), t)
	case 4:
		return fmt.Sprintf("(SELECT string_agg(k || '=' || coalesce(v::text, 'N'), ';') FROM %s_each(%s::%[1]s) e(k, v))", t, j())
	case 5:
		return fmt.Sprintf("jsonb_set(%s::jsonb, %s, '\"z\"'%s)", j(), path(), p("", ", false", ", true"))
	case 6:
		return fmt.Sprintf("%s::jsonb %s %s", j(), p("-", "#-", "||", "@>", "?"), p(j()+"::jsonb", key(), path()+"::text[]"))
	case 7:
		return fmt.Sprintf("to_%s(%s)", t, p("1.50::numeric", "'NaN'::float8", "ARRAY[1,NULL]", "date '0044-03-15 BC'", "timestamptz 'infinity'", "timestamp '0005-02-29 BC'"))
	}
	return fmt.Sprintf("(SELECT string_agg(k, ',') FROM %s_object_keys(%s::%[1]s) k)", t, j())
}

// TestFuncsBughuntDifferential runs each family's random calls on both
// servers; date/time calls run under several session time zones.
func TestFuncsBughuntDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	ordered := tallyRule{ordered: true}
	families := []struct {
		name string
		call func(*rand.Rand) string
		n    int
	}{
		{"strings", bhStringCall, 1500},
		{"math", bhMathCall, 1000},
		{"to_char/to_number", bhToCharCall, 800},
		{"date/time", bhDateTimeCall, 1000},
		{"json", bhJSONCall, 800},
	}
	zones := []string{"UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"}
	for k, fam := range families {
		rng := rand.New(rand.NewSource(int64(diffSeed(t, 31+k))))
		stats := map[string]int{}
		for i := 0; i < fam.n; i++ {
			if i%200 == 0 {
				zone := "SET TIME ZONE '" + zones[(i/200)%len(zones)] + "'"
				for _, c := range []Executor{r.SQLGate, r.Postgres} {
					if res := c.Run(ctx, zone); res.Err != nil {
						t.Fatalf("%s: %s", zone, res.Err.Message)
					}
				}
			}
			tallyBy(t, ctx, r, "SELECT "+fam.call(rng), stats, ordered)
		}
		t.Logf("%s: %v", fam.name, stats)
		if stats["same"] < fam.n/2 || stats["different"] > 0 {
			t.Errorf("%s: outcomes %v", fam.name, stats)
		}
	}
}
