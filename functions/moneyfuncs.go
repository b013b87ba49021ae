package functions

import (
	"context"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// money's functions and operators (cash.c) and macaddr's and macaddr8's
// (mac.c, mac8.c). money is an int64 of cents (types/money.go): + and -
// of two amounts, * and / by an integer or a float, money / money as a
// double; every result past int64 is 22003 "money out of range", as
// PostgreSQL 15.18's cash.c checks it. The binder calls the operators'
// functions (binder/smalltypes.go): + - * / as pg__money_add,
// pg__money_sub, pg__money_mul and pg__money_div, whose overloads are
// cash.c's; & | and prefix ~ of the mac types as macaddr_and ... and
// pg__op_not. macaddr and macaddr8 are their text (types/macaddr.go),
// taken apart into bytes here.

var (
	tMoney    = types.MoneyType
	tMacAddr  = types.MacAddrType
	tMacAddr8 = types.MacAddr8Type
	tInt2     = types.Int16Type
)

// errMoneyRange is cash.c's 22003 for a result past int64's cents.
func errMoneyRange() error { return types.MoneyOutOfRange() }

// moneyMulFloat is cash_mul_float8: the product rounded to cents
// (rint), float8_mul's overflow first, then the range of int64.
func moneyMulFloat(c int64, f float64) (any, error) {
	p := float64(c) * f
	if math.IsInf(p, 0) && !math.IsInf(f, 0) {
		return nil, errOverflow()
	}
	return moneyOfFloat(math.RoundToEven(p))
}

// moneyDivFloat is cash_div_float8: float8_div (division by zero,
// overflow) rounded to cents.
func moneyDivFloat(c int64, f float64) (any, error) {
	if f == 0 {
		return nil, sqlerr.DivideByZero()
	}
	q := float64(c) / f
	if math.IsInf(q, 0) && !math.IsInf(f, 0) {
		return nil, errOverflow()
	}
	return moneyOfFloat(math.RoundToEven(q))
}

// moneyOfFloat is the cents of a rounded float, when it fits int64
// (FLOAT8_FITS_IN_INT64), "money out of range" otherwise.
func moneyOfFloat(r float64) (any, error) {
	if math.IsNaN(r) || r < -9223372036854775808.0 || r >= 9223372036854775808.0 {
		return nil, errMoneyRange()
	}
	return int64(r), nil
}

// moneyMulInt is cash_mul_int8 (and int4, int2): the product checked.
func moneyMulInt(c, i int64) (any, error) {
	p := c * i
	if c != 0 && (p/c != i || c == -1 && i == math.MinInt64 || i == -1 && c == math.MinInt64) {
		return nil, errMoneyRange()
	}
	return p, nil
}

// moneyDivInt is cash_div_int8: the quotient truncated toward zero; the
// one quotient past int64 (the least amount by -1) traps in PostgreSQL's
// C division, which it reports as a floating-point exception (22P01).
func moneyDivInt(c, i int64) (any, error) {
	if i == 0 {
		return nil, sqlerr.DivideByZero()
	}
	if i == -1 && c == math.MinInt64 {
		return nil, sqlerr.New(sqlerr.Code("22P01"), "floating-point exception").
			WithDetail("An invalid floating-point operation was signaled. This probably means an out-of-range result or an invalid operation, such as division by zero.")
	}
	return c / i, nil
}

// numericToMoney is money(numeric): numeric_cash of a numeric or of a
// numeric(p,s) column's decimal128, read at its scale.
func numericToMoney(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	t := types.NumericType
	if dt, ok := args[0].DataType().(*arrow.Decimal128Type); ok {
		t = types.T{Kind: types.Decimal, Precision: int(dt.Precision), Scale: int(dt.Scale)}
	}
	return rowFunc(tMoney, true, func(_ context.Context, v []any) (any, error) {
		return types.MoneyFromNumeric(types.DecimalToNumeric(v[0], t))
	})(ctx, mem, args, n)
}

func moneyFuncs() []*Func {
	fn := func(name string, args []types.T, ret types.T, body func(v []any) (any, error)) *Func {
		return &Func{Name: name, Args: args, Ret: ret, Strict: true, Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
			return body(v)
		})}
	}
	m := func(v any) int64 { return v.(int64) }
	f := func(v any) float64 { return v.(float64) }
	two := []types.T{tMoney, tMoney}
	add := func(v []any) (any, error) {
		s := m(v[0]) + m(v[1])
		if (s > m(v[0])) != (m(v[1]) > 0) {
			return nil, errMoneyRange()
		}
		return s, nil
	}
	sub := func(v []any) (any, error) {
		d := m(v[0]) - m(v[1])
		if (d < m(v[0])) != (m(v[1]) > 0) {
			return nil, errMoneyRange()
		}
		return d, nil
	}
	mulF := func(v []any) (any, error) { return moneyMulFloat(m(v[0]), f(v[1])) }
	fMul := func(v []any) (any, error) { return moneyMulFloat(m(v[1]), f(v[0])) }
	divF := func(v []any) (any, error) { return moneyDivFloat(m(v[0]), f(v[1])) }
	mulI := func(v []any) (any, error) { return moneyMulInt(m(v[0]), m(v[1])) }
	iMul := func(v []any) (any, error) { return moneyMulInt(m(v[1]), m(v[0])) }
	divI := func(v []any) (any, error) { return moneyDivInt(m(v[0]), m(v[1])) }
	divM := func(v []any) (any, error) {
		if m(v[1]) == 0 {
			return nil, sqlerr.DivideByZero()
		}
		return float64(m(v[0])) / float64(m(v[1])), nil
	}
	cmp := func(v []any) (any, error) {
		a, b := m(v[0]), m(v[1])
		switch {
		case a < b:
			return int64(-1), nil
		case a > b:
			return int64(1), nil
		}
		return int64(0), nil
	}
	pick := func(larger bool) func(v []any) (any, error) {
		return func(v []any) (any, error) {
			if (m(v[0]) > m(v[1])) == larger {
				return v[0], nil
			}
			return v[1], nil
		}
	}
	var fs []*Func
	for _, op := range []struct{ name, fn string }{{"pg__money_mul", "cash_mul"}, {"pg__money_div", "cash_div"}} {
		for _, it := range []struct {
			t    types.T
			name string
		}{{tInt2, "int2"}, {tInt4, "int4"}, {tInt8, "int8"}, {tFloat4, "flt4"}, {tFloat8, "flt8"}} {
			body := mulI
			rev := iMul
			switch {
			case op.fn == "cash_div" && it.t.IsFloat():
				body = divF
			case op.fn == "cash_div":
				body = divI
			case it.t.IsFloat():
				body, rev = mulF, fMul
			}
			args := []types.T{tMoney, it.t}
			fs = append(fs, fn(op.name, args, tMoney, body), fn(op.fn+"_"+it.name, args, tMoney, body))
			if op.fn == "cash_mul" {
				rargs := []types.T{it.t, tMoney}
				fs = append(fs, fn(op.name, rargs, tMoney, rev), fn(it.name+"_mul_cash", rargs, tMoney, rev))
			}
		}
	}
	fs = append(fs,
		fn("pg__money_add", two, tMoney, add), fn("cash_pl", two, tMoney, add),
		fn("pg__money_sub", two, tMoney, sub), fn("cash_mi", two, tMoney, sub),
		fn("pg__money_div", two, tFloat8, divM), fn("cash_div_cash", two, tFloat8, divM),
		fn("cash_cmp", two, tInt4, cmp),
		fn("cashlarger", two, tMoney, pick(true)), fn("cashsmaller", two, tMoney, pick(false)),
		fn("cash_words", []types.T{tMoney}, tText, func(v []any) (any, error) { return types.CashWords(m(v[0])), nil }),
		// the cast functions, callable by name as in PostgreSQL
		fn("money", []types.T{tInt4}, tMoney, func(v []any) (any, error) { return types.MoneyFromInt(m(v[0])) }),
		fn("money", []types.T{tInt8}, tMoney, func(v []any) (any, error) { return types.MoneyFromInt(m(v[0])) }),
		&Func{Name: "money", Args: []types.T{tNumeric}, Ret: tMoney, Strict: true, Kernel: numericToMoney},
		fn("numeric", []types.T{tMoney}, tNumeric, func(v []any) (any, error) { return types.MoneyToNumeric(m(v[0])), nil }),
	)
	for _, eq := range []struct {
		name string
		cmp  func(a, b int64) bool
	}{
		{"eq", func(a, b int64) bool { return a == b }}, {"ne", func(a, b int64) bool { return a != b }},
		{"lt", func(a, b int64) bool { return a < b }}, {"le", func(a, b int64) bool { return a <= b }},
		{"gt", func(a, b int64) bool { return a > b }}, {"ge", func(a, b int64) bool { return a >= b }},
	} {
		fs = append(fs, fn("cash_"+eq.name, two, tBool, func(v []any) (any, error) { return eq.cmp(m(v[0]), m(v[1])), nil }))
	}
	return append(fs, macFuncs()...)
}

// macFuncs are macaddr's and macaddr8's functions: trunc,
// macaddr8_set7bit, the bitwise operators, the comparisons by name and
// the casts between them by name.
func macFuncs() []*Func {
	fn := func(name string, args []types.T, ret types.T, body func(b [][]byte) (any, error)) *Func {
		return &Func{Name: name, Args: args, Ret: ret, Strict: true, Kernel: rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
			bs := make([][]byte, len(v))
			for i, x := range v {
				b, err := types.MacBytes(x.(string))
				want := types.MacAddr8Len
				if args[i].Variant == types.MacAddr {
					want = types.MacAddrLen
				}
				if err != nil || len(b) != want {
					return nil, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", args[i].PGName(), x)
				}
				bs[i] = b
			}
			return body(bs)
		})}
	}
	text := func(b []byte) string {
		var sb strings.Builder
		for i, c := range b {
			if i > 0 {
				sb.WriteByte(':')
			}
			sb.WriteByte("0123456789abcdef"[c>>4])
			sb.WriteByte("0123456789abcdef"[c&15])
		}
		return sb.String()
	}
	bitwise := func(op byte) func(b [][]byte) (any, error) {
		return func(b [][]byte) (any, error) {
			out := make([]byte, len(b[0]))
			for i := range out {
				switch op {
				case '&':
					out[i] = b[0][i] & b[1][i]
				case '|':
					out[i] = b[0][i] | b[1][i]
				default:
					out[i] = ^b[0][i]
				}
			}
			return text(out), nil
		}
	}
	trunc := func(b [][]byte) (any, error) {
		out := append([]byte(nil), b[0]...)
		clear(out[3:])
		return text(out), nil
	}
	var fs []*Func
	for _, t := range []struct {
		t    types.T
		name string
	}{{tMacAddr, "macaddr"}, {tMacAddr8, "macaddr8"}} {
		one, two := []types.T{t.t}, []types.T{t.t, t.t}
		fs = append(fs,
			fn(t.name+"_and", two, t.t, bitwise('&')), fn(t.name+"_or", two, t.t, bitwise('|')),
			fn(t.name+"_not", one, t.t, bitwise('~')), fn("pg__op_not", one, t.t, bitwise('~')),
			fn("trunc", one, t.t, trunc),
			fn(t.name+"_cmp", two, tInt4, func(b [][]byte) (any, error) { return int64(strings.Compare(string(b[0]), string(b[1]))), nil }),
		)
		for _, eq := range []struct {
			name string
			ok   func(c int) bool
		}{
			{"eq", func(c int) bool { return c == 0 }}, {"ne", func(c int) bool { return c != 0 }},
			{"lt", func(c int) bool { return c < 0 }}, {"le", func(c int) bool { return c <= 0 }},
			{"gt", func(c int) bool { return c > 0 }}, {"ge", func(c int) bool { return c >= 0 }},
		} {
			fs = append(fs, fn(t.name+"_"+eq.name, two, tBool, func(b [][]byte) (any, error) {
				return eq.ok(strings.Compare(string(b[0]), string(b[1]))), nil
			}))
		}
	}
	return append(fs,
		fn("macaddr8_set7bit", []types.T{tMacAddr8}, tMacAddr8, func(b [][]byte) (any, error) {
			out := append([]byte(nil), b[0]...)
			out[0] |= 0x02
			return text(out), nil
		}),
		&Func{Name: "macaddr", Args: []types.T{tMacAddr8}, Ret: tMacAddr, Strict: true, Kernel: rowFunc(tMacAddr, true, func(_ context.Context, v []any) (any, error) {
			return types.MacAddr8ToMacAddr(v[0].(string))
		})},
		fn("macaddr8", []types.T{tMacAddr}, tMacAddr8, func(b [][]byte) (any, error) {
			return text([]byte{b[0][0], b[0][1], b[0][2], 0xff, 0xfe, b[0][3], b[0][4], b[0][5]}), nil
		}),
	)
}
