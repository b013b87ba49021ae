package difftest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The numeric generator: random NUMERIC expressions whose text output (or
// SQLSTATE) must be PostgreSQL 15's exactly. It covers every numeric
// operator and function with mixed scales and typmods, values from 1e-100
// to 1e100 (and the special values NaN and ±Infinity), division chains,
// casts to and from integers, floats and text, and aggregates over a
// generated table of DECIMAL columns (GROUP BY, and over expressions such
// as products of DECIMAL(30,4) whose sums pass 38 digits). It is separate
// from the general generator because its answer is judged without any of
// that generator's documented differences: there are none for numeric.

// NumericSchema is the table the numeric generator's aggregates read: tn,
// whose DECIMAL columns have the scales of money (12,2), of wide amounts
// (30,4) and of the widest Fluss DECIMAL (38,10), beside integers; a few
// NULLs and zeros (so division and the variances meet them).
func NumericSchema(seed uint64) *Schema {
	rng := rand.New(rand.NewPCG(seed, 0x6e756d))
	t := Table{
		Name: "tn",
		Columns: []Column{
			{"id", Int8, "BIGINT"},
			{"g", Int4, "INT"},
			{"a", Numeric, "DECIMAL(12,2)"},
			{"b", Numeric, "DECIMAL(30,4)"},
			{"c", Numeric, "DECIMAL(38,10)"},
			{"i", Int4, "INT"},
			{"l", Int8, "BIGINT"},
		},
	}
	digits := func(n int) string {
		var b strings.Builder
		b.WriteByte(byte('1' + rng.IntN(9)))
		for k := 1; k < n; k++ {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	dec := func(intDigits, scale int) string {
		if rng.IntN(12) == 0 {
			return "NULL"
		}
		if rng.IntN(15) == 0 {
			return "0"
		}
		s := digits(1 + rng.IntN(intDigits))
		if scale > 0 {
			f := digits(scale)
			s += "." + f[:1+rng.IntN(scale)]
		}
		if rng.IntN(3) == 0 {
			s = "-" + s
		}
		return s
	}
	for id := 1; id <= 40; id++ {
		i := fmt.Sprint(rng.IntN(2001) - 1000)
		if rng.IntN(10) == 0 {
			i = "0"
		}
		t.Rows = append(t.Rows, []string{
			fmt.Sprint(id), fmt.Sprint(rng.IntN(4)), dec(10, 2), dec(26, 4), dec(28, 10), i, dec(18, 0),
		})
	}
	return &Schema{Tables: []Table{t}}
}

// NumGen generates numeric queries, deterministically by seed.
type NumGen struct {
	rng *rand.Rand
}

// NewNumGen returns a generator.
func NewNumGen(seed uint64) *NumGen {
	return &NumGen{rng: rand.New(rand.NewPCG(seed, 0x6e67))}
}

// NumQuery is one generated query; Ordered says its rows come in a
// complete order.
type NumQuery struct {
	SQL     string
	Ordered bool
}

// Query returns the next query.
func (g *NumGen) Query() NumQuery {
	switch g.rng.IntN(10) {
	case 0, 1, 2, 3:
		n := 1 + g.rng.IntN(3)
		items := make([]string, n)
		for k := range items {
			items[k] = g.outCast(g.expr(3, nil))
		}
		return NumQuery{SQL: "SELECT " + strings.Join(items, ", "), Ordered: true}
	case 4:
		return NumQuery{SQL: "SELECT " + g.divChain(nil), Ordered: true}
	case 5, 6:
		cols := []string{"a", "b", "c", "i", "l"}
		e := g.expr(2, cols)
		if g.rng.IntN(3) == 0 {
			e = g.divChain(cols)
		}
		return NumQuery{SQL: fmt.Sprintf("SELECT id, %s FROM tn ORDER BY id", g.outCast(e)), Ordered: true}
	default:
		return g.aggQuery()
	}
}

var numAggs = []string{"sum", "avg", "min", "max", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp"}

func (g *NumGen) aggQuery() NumQuery {
	cols := []string{"a", "b", "c", "i", "l"}
	n := 1 + g.rng.IntN(4)
	items := make([]string, 0, n+1)
	for k := 0; k < n; k++ {
		var arg string
		switch g.rng.IntN(4) {
		case 0:
			arg = g.pick(cols)
		case 1:
			arg = fmt.Sprintf("(%s * %s)", g.pick(cols[:3]), g.pick(cols[:3]))
		default:
			arg = g.expr(2, cols)
		}
		agg := fmt.Sprintf("%s(%s)", g.pick(numAggs), arg)
		switch g.rng.IntN(5) {
		case 0:
			agg = fmt.Sprintf("round((%s)::numeric, %d)", agg, g.rng.IntN(6))
		case 1:
			agg = fmt.Sprintf("(%s / %s)", agg, g.literal())
		}
		items = append(items, agg)
	}
	if g.rng.IntN(2) == 0 {
		return NumQuery{SQL: "SELECT " + strings.Join(items, ", ") + " FROM tn", Ordered: true}
	}
	where := ""
	if g.rng.IntN(3) == 0 {
		where = fmt.Sprintf(" WHERE %s > %s", g.pick(cols), g.literal())
	}
	return NumQuery{SQL: "SELECT g, " + strings.Join(items, ", ") + " FROM tn" + where + " GROUP BY g ORDER BY g", Ordered: true}
}

// outCast sometimes casts an output item to another type: numeric to
// integers (rounding, range errors), floats (correct rounding) and text.
func (g *NumGen) outCast(e string) string {
	if g.rng.IntN(6) != 0 {
		return e
	}
	return fmt.Sprintf("(%s)::%s", e, g.pick([]string{"int", "bigint", "smallint", "float8", "text"}))
}

func (g *NumGen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *NumGen) divChain(cols []string) string {
	e := g.leaf(cols)
	for k := 1 + g.rng.IntN(4); k > 0; k-- {
		op := "/"
		if g.rng.IntN(4) == 0 {
			op = "%"
		}
		e = fmt.Sprintf("(%s %s %s)", e, op, g.leaf(cols))
	}
	return e
}

// digitsOf returns n random digits, the first nonzero.
func (g *NumGen) digitsOf(n int) string {
	var b strings.Builder
	b.WriteByte(byte('1' + g.rng.IntN(9)))
	for k := 1; k < n; k++ {
		b.WriteByte(byte('0' + g.rng.IntN(10)))
	}
	return b.String()
}

// literal is a numeric constant: plain digits with a random scale, one
// written with an exponent (1e-100 .. 1e100), an integer, or a special.
func (g *NumGen) literal() string {
	neg := g.rng.IntN(3) == 0
	var s string
	switch g.rng.IntN(12) {
	case 0, 1, 2, 3:
		s = g.digitsOf(1 + g.rng.IntN(8))
		if sc := g.rng.IntN(7); sc > 0 {
			s += "." + g.digitsOf(sc)
		}
	case 4:
		s = "0." + strings.Repeat("0", g.rng.IntN(12)) + g.digitsOf(1+g.rng.IntN(6))
	case 5, 6:
		// an exponent literal: numeric in PostgreSQL; at most 15 digits
		m := g.digitsOf(1 + g.rng.IntN(15))
		if len(m) > 1 {
			m = m[:1] + "." + m[1:]
		}
		s = fmt.Sprintf("%se%d", m, g.rng.IntN(201)-100)
	case 7:
		// text input with an exponent and any number of digits
		m := g.digitsOf(1 + g.rng.IntN(30))
		k := g.rng.IntN(len(m))
		m = m[:len(m)-k] + "." + m[len(m)-k:]
		s = fmt.Sprintf("'%se%d'::numeric", strings.TrimSuffix(m, "."), g.rng.IntN(201)-100)
		if neg {
			return "(-" + s + ")"
		}
		return s
	case 8:
		s = fmt.Sprint(g.rng.IntN(100))
	case 9:
		return g.pick([]string{"'NaN'::numeric", "'Infinity'::numeric", "'-Infinity'::numeric", "0", "0.0", "1", "(-1)", "2147483647", "9223372036854775807"})
	case 10:
		p := 1 + g.rng.IntN(38)
		sc := g.rng.IntN(p + 1)
		inner := g.digitsOf(1+g.rng.IntN(max(p-sc, 1))) + "." + g.digitsOf(1+g.rng.IntN(8))
		s = fmt.Sprintf("%s::numeric(%d,%d)", inner, p, sc)
	default:
		s = g.digitsOf(1+g.rng.IntN(3)) + "." + g.digitsOf(1+g.rng.IntN(3))
	}
	if neg {
		return "(-" + s + ")"
	}
	return s
}

func (g *NumGen) leaf(cols []string) string {
	if len(cols) > 0 && g.rng.IntN(2) == 0 {
		return g.pick(cols)
	}
	return g.literal()
}

// smallInt is an exponent or digit count for round/trunc/power.
func (g *NumGen) smallInt() string {
	v := g.rng.IntN(21) - 5
	if v < 0 {
		return fmt.Sprintf("(%d)", v)
	}
	return fmt.Sprint(v)
}

// expr is a numeric expression of at most depth levels.
func (g *NumGen) expr(depth int, cols []string) string {
	if depth <= 0 || g.rng.IntN(4) == 0 {
		return g.leaf(cols)
	}
	x := func() string { return g.expr(depth-1, cols) }
	// nx is an argument of a numeric function: numeric, so that a
	// subexpression of integers or floats does not pick the double
	// precision version (PostgreSQL prefers it for integers)
	nx := func() string { return "(" + x() + ")::numeric" }
	switch g.rng.IntN(30) {
	case 0, 1, 2, 3, 4, 5:
		return fmt.Sprintf("(%s %s %s)", x(), g.pick([]string{"+", "-", "*", "/", "%"}), x())
	case 6:
		return fmt.Sprintf("(-%s)", x())
	case 7:
		return fmt.Sprintf("%s(%s)", g.pick([]string{"abs", "sign", "ceil", "ceiling", "floor", "round", "trunc"}), nx())
	case 8, 9:
		return fmt.Sprintf("%s(%s, %s)", g.pick([]string{"round", "trunc"}), nx(), g.smallInt())
	case 10:
		return fmt.Sprintf("%s(%s, %s)", g.pick([]string{"mod", "div"}), nx(), nx())
	case 11:
		return fmt.Sprintf("sqrt(%s)", g.maybeAbs(nx()))
	case 12:
		// exp of a bounded argument, sometimes of anything (22003)
		if g.rng.IntN(4) == 0 {
			return fmt.Sprintf("exp(%s)", nx())
		}
		return fmt.Sprintf("exp((%s %% 300))", nx())
	case 13, 14:
		return fmt.Sprintf("%s(%s)", g.pick([]string{"ln", "log", "log10"}), g.maybeAbs(nx()))
	case 15:
		return fmt.Sprintf("log(%s, %s)", g.maybeAbs(nx()), g.maybeAbs(nx()))
	case 16, 17:
		// power with an integer exponent, a fractional one, or anything
		// (the base numeric: power of two integers is double precision)
		switch g.rng.IntN(3) {
		case 0:
			return fmt.Sprintf("power((%s)::numeric, %s)", nx(), g.smallInt())
		case 1:
			return fmt.Sprintf("((%s)::numeric ^ %s.%s)", g.maybeAbs(nx()), fmt.Sprint(g.rng.IntN(4)), g.digitsOf(1+g.rng.IntN(3)))
		}
		// an exponent of any expression, kept under 100 in magnitude so the
		// result stays within maxPowerDigits for the generator's bases
		// (PostgreSQL computes a result under numeric's limit in full:
		// power(0.00249, -97952) costs it seconds, see maxPowerDigits)
		return fmt.Sprintf("power((%s)::numeric, ((%s) %% 100))", nx(), nx())
	case 18:
		// through another type and back (the cast out alone is an output
		// item: float % int has no operator)
		return fmt.Sprintf("((%s)::%s)::numeric", x(), g.pick([]string{"int", "bigint", "smallint", "float8", "real", "text"}))
	case 19:
		p := 1 + g.rng.IntN(38)
		return fmt.Sprintf("(%s)::numeric(%d,%d)", x(), p, g.rng.IntN(p+1))
	case 20:
		return fmt.Sprintf("((%s)::float8)::numeric", x())
	case 21:
		return fmt.Sprintf("((%s)::text)::numeric", x())
	case 22:
		return fmt.Sprintf("(%s %s %s)", x(), g.pick([]string{"<", "<=", "=", "<>", ">", ">="}), x())
	case 23:
		return fmt.Sprintf("CASE WHEN %s > %s THEN %s ELSE %s END", x(), x(), x(), x())
	case 24:
		return fmt.Sprintf("%s(%s, %s)", g.pick([]string{"greatest", "least"}), x(), x())
	case 25:
		return fmt.Sprintf("COALESCE(NULL::numeric, %s)", x())
	case 26:
		return fmt.Sprintf("((%s)::bigint)::numeric", x())
	case 27:
		return g.transEdge()
	}
	return fmt.Sprintf("(%s %s %s)", x(), g.pick([]string{"+", "-", "*", "/"}), x())
}

// maybeAbs usually makes an argument non-negative (so that most sqrt and
// ln calls compute), sometimes not (so that their errors are compared too).
func (g *NumGen) maybeAbs(e string) string {
	if g.rng.IntN(5) == 0 {
		return e
	}
	return "abs(" + e + ")"
}

// tiny is a numeric literal of decimal weight -1 to -40, maybe negative.
func (g *NumGen) tiny() string {
	s := "0." + strings.Repeat("0", g.rng.IntN(40)) + g.digitsOf(1+g.rng.IntN(12))
	if g.rng.IntN(2) == 0 {
		return "(-" + s + ")"
	}
	return s
}

// maxPowerDigits bounds the digits of a generated power's result: a
// larger one costs PostgreSQL itself seconds (power(0.00249, -97952) has
// 255,000 digits and takes 2 s of its CPU), past the per-query timeout of
// CI's 20,000-query run on a loaded machine. numeric.c's working scales
// are as exercised at 20,000 digits; the slt file keeps a few larger ones.
const maxPowerDigits = 20000

// powerDigits estimates the decimal digits of base^exponent's integer part
// or leading zeros, |exponent * log10(base)|, from the literals' text
// ("(1 + 0.0012)", "(1 + (-0.5))", "-97952.25"); an unreadable literal
// counts as unbounded so the caller draws another.
func powerDigits(base, exponent string) float64 {
	b, errB := strconv.ParseFloat(strings.Trim(strings.TrimPrefix(strings.Trim(base, "()"), "1 + "), "()"), 64)
	e, errE := strconv.ParseFloat(exponent, 64)
	if errB != nil || errE != nil {
		return math.Inf(1)
	}
	return math.Abs(e * math.Log10(1+b))
}

// huge is a numeric literal of up to 60 integer digits and a fraction.
func (g *NumGen) huge() string {
	return g.digitsOf(1+g.rng.IntN(60)) + "." + g.digitsOf(1+g.rng.IntN(20))
}

// transEdge is exp, ln, log, power or sqrt where numeric.c's working
// scales decide the last digit: arguments near 1 (ln's series without
// square roots), tiny ones (exp's series of a few terms), weights far
// from 0 (many square roots, a result of many digits), exp near its
// limits (many halvings of the argument, ndiv2) and powers of numbers
// near 1 (an exponent of many digits); typmods give the inputs scales.
func (g *NumGen) transEdge() string {
	scaled := func(v string) string {
		if g.rng.IntN(3) > 0 {
			return v
		}
		p := 1 + g.rng.IntN(38)
		return fmt.Sprintf("(%s)::numeric(%d,%d)::numeric", v, p, g.rng.IntN(p+1))
	}
	near1 := func() string { return "(1 + " + g.tiny() + ")" }
	switch g.rng.IntN(9) {
	case 0:
		return fmt.Sprintf("exp(%s::numeric)", scaled(g.tiny()))
	case 1:
		return fmt.Sprintf("exp(%s%d.%s::numeric)", g.pick([]string{"", "-"}), g.rng.IntN(6000), g.digitsOf(1+g.rng.IntN(6)))
	case 2:
		return fmt.Sprintf("ln(%s::numeric)", scaled(near1()))
	case 3:
		return fmt.Sprintf("%s(%s::numeric)", g.pick([]string{"ln", "log10", "sqrt"}), g.pick([]string{g.huge(), "abs(" + g.tiny() + ")", fmt.Sprintf("'%se%d'", g.digitsOf(1+g.rng.IntN(20)), g.rng.IntN(1001)-500)}))
	case 4:
		return fmt.Sprintf("log(%s::numeric, %s::numeric)", scaled(near1()), g.pick([]string{g.huge(), near1(), "abs(" + g.tiny() + ")"}))
	case 5:
		base := near1()
		exponent := func() string {
			return g.pick([]string{g.digitsOf(1 + g.rng.IntN(8)), g.huge(), "-" + g.digitsOf(1+g.rng.IntN(6)) + "." + g.digitsOf(2)})
		}
		e := exponent()
		for try := 0; try < 16 && powerDigits(base, e) > maxPowerDigits; try++ {
			e = exponent()
		}
		return fmt.Sprintf("power(%s::numeric, %s::numeric)", scaled(base), e)
	case 6:
		return fmt.Sprintf("power(%s::numeric, %s::numeric)", g.pick([]string{g.huge(), "abs(" + g.tiny() + ")"}), g.pick([]string{fmt.Sprint(g.rng.IntN(40) - 20), g.digitsOf(1) + "." + g.digitsOf(1+g.rng.IntN(10)), "(-" + g.digitsOf(1) + "." + g.digitsOf(3) + ")"}))
	case 7:
		return fmt.Sprintf("sqrt(%s::numeric)", scaled(g.pick([]string{g.huge(), "abs(" + g.tiny() + ")", near1()})))
	}
	return fmt.Sprintf("exp(%s::numeric * %s::numeric)", near1(), fmt.Sprint(g.rng.IntN(5000)))
}
