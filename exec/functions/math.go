package functions

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func mathFuncs() []*Func {
	int2 := types.Int16Type
	float4 := types.Float32Type
	f1 := func(name string, fn func(float64) (float64, error)) *Func {
		return &Func{Name: name, Args: []types.T{tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatKernel(tFloat8, fn)}
	}
	fs := []*Func{
		{Name: "abs", Args: []types.T{int2}, Ret: int2, Strict: true, Kernel: intAbs(int2)},
		{Name: "abs", Args: []types.T{tInt4}, Ret: tInt4, Strict: true, Kernel: intAbs(tInt4)},
		{Name: "abs", Args: []types.T{tInt8}, Ret: tInt8, Strict: true, Kernel: intAbs(tInt8)},
		{Name: "abs", Args: []types.T{float4}, Ret: float4, Strict: true, Kernel: floatKernel(float4, wrapF(math.Abs))},
		{Name: "abs", Args: []types.T{tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatKernel(tFloat8, wrapF(math.Abs))},
		{Name: "abs", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericUnary(nil, decAbs)},
		{Name: "mod", Args: []types.T{int2, int2}, Ret: int2, Strict: true, Kernel: intMod(int2)},
		{Name: "mod", Args: []types.T{tInt4, tInt4}, Ret: tInt4, Strict: true, Kernel: intMod(tInt4)},
		{Name: "gcd", Args: []types.T{tInt4, tInt4}, Ret: tInt4, Strict: true, Kernel: intGCD(tInt4)},
		{Name: "gcd", Args: []types.T{tInt8, tInt8}, Ret: tInt8, Strict: true, Kernel: intGCD(tInt8)},
		{Name: "mod", Args: []types.T{tInt8, tInt8}, Ret: tInt8, Strict: true, Kernel: intMod(tInt8)},
		{Name: "mod", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numericBinary(maxScale, decMod)},
		{Name: "div", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numericBinary(zeroScale, decDiv)},
		f1("round", wrapF(math.RoundToEven)),
		{Name: "round", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericRound(false)},
		{Name: "round", Args: []types.T{tNumeric, tInt4}, Ret: tNumeric, Strict: true, specialize: numericRound(false)},
		f1("trunc", wrapF(math.Trunc)),
		{Name: "trunc", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericRound(true)},
		{Name: "trunc", Args: []types.T{tNumeric, tInt4}, Ret: tNumeric, Strict: true, specialize: numericRound(true)},
		f1("sign", wrapF(fsign)),
		{Name: "sign", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericUnary(zeroScale, decSign)},
		f1("sqrt", fsqrt),
		{Name: "sqrt", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(15), sqrtScale, unaryNum(decSqrt))},
		f1("cbrt", wrapF(glibcCbrt)), // glibc's digits, as PostgreSQL on Linux (misc.go)
		f1("exp", fexp),
		{Name: "exp", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), expScale, unaryNum(decExp))},
		f1("ln", fln),
		{Name: "ln", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), lnScale, unaryNum(decLn(false)))},
		f1("log", flog10),
		f1("log10", flog10),
		{Name: "log", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), log10Scale, unaryNum(decLn(true)))},
		{Name: "log10", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), log10Scale, unaryNum(decLn(true)))},
		{Name: "log", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), logScale, binaryNum(decLogBase))},
		f1("degrees", func(x float64) (float64, error) { return checkOverflow(x*(180/math.Pi), x) }),
		f1("radians", func(x float64) (float64, error) { return checkOverflow(x*(math.Pi/180), x) }),
		{Name: "pi", Ret: tFloat8, Kernel: constFloat(func() float64 { return math.Pi })},
		{Name: "random", Ret: tFloat8, Volatile: true, Kernel: constFloat(rand.Float64)},
	}
	for _, name := range []string{"floor", "ceil", "ceiling"} {
		fn, dec := math.Floor, decFloor
		if name != "floor" {
			fn, dec = math.Ceil, decCeil
		}
		fs = append(fs, f1(name, wrapF(fn)),
			&Func{Name: name, Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numericUnary(zeroScale, dec)})
	}
	for _, name := range []string{"power", "pow"} {
		fs = append(fs,
			&Func{Name: name, Args: []types.T{tFloat8, tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatBinary(fpow)},
			&Func{Name: name, Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numericMath(atLeastScale(16), powScale, binaryNum(decPow))})
	}
	return fs
}

func wrapF(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) { return f(x), nil }
}

func errOverflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: overflow")
}

func errUnderflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value out of range: underflow")
}

// checkOverflow is PostgreSQL's float_overflow check: an infinite result
// from finite input is 22003.
func checkOverflow(r, x float64) (float64, error) {
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		return 0, errOverflow()
	}
	return r, nil
}

func fsign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0 // NaN's sign is 0 in PostgreSQL too
}

func fsqrt(x float64) (float64, error) {
	if x < 0 {
		return 0, sqlerr.New(sqlerr.Code("2201F"), "cannot take square root of a negative number")
	}
	return math.Sqrt(x), nil
}

func fexp(x float64) (float64, error) {
	r := math.Exp(x)
	if math.IsInf(r, 1) && !math.IsInf(x, 0) {
		return 0, errOverflow()
	}
	if r == 0 && !math.IsInf(x, 0) {
		return 0, errUnderflow()
	}
	return r, nil
}

func logArg(x float64) error {
	if x == 0 {
		return sqlerr.New(sqlerr.Code("2201E"), "cannot take logarithm of zero")
	}
	if x < 0 {
		return sqlerr.New(sqlerr.Code("2201E"), "cannot take logarithm of a negative number")
	}
	return nil
}

func fln(x float64) (float64, error) {
	if err := logArg(x); err != nil {
		return 0, err
	}
	return math.Log(x), nil
}

func flog10(x float64) (float64, error) {
	if err := logArg(x); err != nil {
		return 0, err
	}
	return math.Log10(x), nil
}

// fpow is PostgreSQL's dpow, including its special cases and errors.
func fpow(x, y float64) (float64, error) {
	if math.IsNaN(x) {
		if y == 0 {
			return 1, nil
		}
		return math.NaN(), nil
	}
	if math.IsNaN(y) {
		if x == 1 {
			return 1, nil
		}
		return math.NaN(), nil
	}
	if x == 0 && y < 0 {
		return 0, sqlerr.New(sqlerr.Code("2201F"), "zero raised to a negative power is undefined")
	}
	if x < 0 && y != math.Floor(y) && !math.IsInf(y, 0) {
		return 0, sqlerr.New(sqlerr.Code("2201F"), "a negative number raised to a non-integer power yields a complex result")
	}
	r := math.Pow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return 0, errOverflow()
	}
	if r == 0 && x != 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return 0, errUnderflow()
	}
	return r, nil
}

func floatKernel(ret types.T, fn func(float64) (float64, error)) Kernel {
	return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
		get, err := floatGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			v, err := fn(get(i))
			return v, err
		}, nil
	})
}

func floatBinary(fn func(x, y float64) (float64, error)) Kernel {
	return rowKernel(tFloat8, true, func(args []arrow.Array) (func(int) (any, error), error) {
		gx, err := floatGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		gy, err := floatGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) { return fn(gx(i), gy(i)) }, nil
	})
}

func constFloat(f func() float64) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		b := array.NewFloat64Builder(mem)
		defer b.Release()
		b.Reserve(n)
		for i := 0; i < n; i++ {
			b.UnsafeAppend(f())
		}
		return b.NewArray(), nil
	}
}

func intOutOfRange(t types.T) error {
	word := "bigint"
	switch t.Kind {
	case types.Int8, types.Int16:
		word = "smallint"
	case types.Int32:
		word = "integer"
	}
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "%s out of range", word)
}

// intAbs is checked: abs of the most negative value is 22003.
func intAbs(t types.T) Kernel {
	lo, _ := types.IntRange(t.Kind)
	return rowKernel(t, true, func(args []arrow.Array) (func(int) (any, error), error) {
		get, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			v := get(i)
			if v == lo {
				return nil, intOutOfRange(t)
			}
			if v < 0 {
				v = -v
			}
			return v, nil
		}, nil
	})
}

func intMod(t types.T) Kernel {
	return rowKernel(t, true, func(args []arrow.Array) (func(int) (any, error), error) {
		gx, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		gy, err := intGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		return func(i int) (any, error) {
			x, y := gx(i), gy(i)
			switch y {
			case 0:
				return nil, sqlerr.New(sqlerr.DivisionByZero, "division by zero")
			case -1: // x % -1 is 0; MinInt64 % -1 would trap
				return int64(0), nil
			}
			return x % y, nil
		}, nil
	})
}

// intGCD is gcd(a, b): never negative, gcd(0, 0) = 0; a result that does
// not fit (gcd(min, 0), gcd(min, min)) is out of range, as in PostgreSQL.
func intGCD(t types.T) Kernel {
	return rowKernel(t, true, func(args []arrow.Array) (func(int) (any, error), error) {
		gx, err := intGetter(0, args[0])
		if err != nil {
			return nil, err
		}
		gy, err := intGetter(1, args[1])
		if err != nil {
			return nil, err
		}
		lo, hi := types.IntRange(t.Kind)
		return func(i int) (any, error) {
			x, y := new(big.Int).SetInt64(gx(i)), new(big.Int).SetInt64(gy(i))
			g := new(big.Int).GCD(nil, nil, x.Abs(x), y.Abs(y))
			if !g.IsInt64() || g.Int64() < lo || g.Int64() > hi {
				return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "%s out of range", map[types.Kind]string{types.Int32: "integer", types.Int64: "bigint"}[t.Kind])
			}
			return g.Int64(), nil
		}, nil
	})
}

// --- numeric (decimal128) functions -------------------------------------

// A scaleRule computes a numeric result's scale from the argument scales.
type scaleRule func(scales []int) int

func keepScale(s []int) int { return s[0] }
func zeroScale([]int) int   { return 0 }
func maxScale(s []int) int  { return max(s[0], s[1]) }
func atLeastScale(k int) scaleRule {
	return func(s []int) int { return min(max(k, s[0]), 38) }
}

// decLimit is 10^38: decimal128 values of sqlgate's numeric must stay below it.
var decLimit = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)

func errNumericOverflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value overflows numeric format")
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// rescaleBig changes the scale of v from `from` to `to`, rounding half away
// from zero (or truncating toward zero when trunc) when digits are lost.
func rescaleBig(v *big.Int, from, to int, trunc bool) *big.Int {
	if to >= from {
		return new(big.Int).Mul(v, pow10(to-from))
	}
	d := pow10(from - to)
	q, r := new(big.Int).QuoRem(v, d, new(big.Int))
	if !trunc && r.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		if v.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

func decResultType(scale int) types.T { return types.T{Kind: types.Decimal, Scale: scale} }

// numericKernel evaluates body over decimal arguments; outScale is computed
// from the arguments' scales (read from the arrays' types) by rule, or
// fixed when fixedScale >= 0. keepArrowType makes the result keep the first
// argument's Arrow type, precision included (abs).
func numericKernel(rule scaleRule, fixedScale int, keepArrowType bool, body func(vals []*big.Int, scales []int, outScale int, ints []int64) (*big.Int, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		var decs []func(int) decimal128.Num
		var ints []func(int) int64
		var scales []int
		for k, a := range args {
			if g, s, err := decGetter(k, a); err == nil {
				decs = append(decs, g)
				scales = append(scales, s)
				continue
			}
			g, err := intGetter(k, a)
			if err != nil {
				return nil, badArg(k, a, "decimal128")
			}
			ints = append(ints, g)
		}
		if len(scales) == 0 {
			return nil, badArg(0, args[0], "decimal128")
		}
		outScale := fixedScale
		if outScale < 0 {
			outScale = rule(scales)
		}
		dt := decResultType(outScale).ArrowType()
		if keepArrowType {
			dt = args[0].DataType()
		}
		b := array.NewDecimal128Builder(mem, dt.(*arrow.Decimal128Type))
		defer b.Release()
		b.Reserve(n)
		vals := make([]*big.Int, len(decs))
		iv := make([]int64, len(ints))
		limit := decLimit
		if keepArrowType {
			limit = pow10(int(dt.(*arrow.Decimal128Type).Precision))
		}
		for i := 0; i < n; i++ {
			if anyNull(args, i) {
				b.AppendNull()
				continue
			}
			for k, g := range decs {
				vals[k] = g(i).BigInt()
			}
			for k, g := range ints {
				iv[k] = g(i)
			}
			r, err := body(vals, scales, outScale, iv)
			if err != nil {
				return nil, err
			}
			if new(big.Int).Abs(r).Cmp(limit) >= 0 {
				return nil, errNumericOverflow()
			}
			b.Append(decimal128.FromBigInt(r))
		}
		return b.NewArray(), nil
	}
}

// numericUnary builds a one-argument numeric function; a nil rule means
// the result keeps the argument's whole type, precision included (abs).
func numericUnary(rule scaleRule, body func(v *big.Int, scale, outScale int) (*big.Int, error)) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		keep := rule == nil
		r := rule
		if keep {
			r = keepScale
		}
		ret := decResultType(r([]int{args[0].Scale}))
		if keep {
			ret = args[0].Nullable()
		}
		return ret, numericKernel(r, -1, keep, func(vals []*big.Int, scales []int, outScale int, _ []int64) (*big.Int, error) {
			return body(vals[0], scales[0], outScale)
		})
	}
}

func numericBinary(rule scaleRule, body func(x, y *big.Int, sx, sy, outScale int) (*big.Int, error)) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		ret := decResultType(rule([]int{args[0].Scale, args[1].Scale}))
		return ret, numericKernel(rule, -1, false, func(vals []*big.Int, scales []int, outScale int, _ []int64) (*big.Int, error) {
			return body(vals[0], vals[1], scales[0], scales[1], outScale)
		})
	}
}

// numericMath builds sqrt/exp/ln/log/power over numeric. PostgreSQL
// chooses these results' scale from the argument values (about 16
// significant digits); when the arguments are constants Bind does the
// same (pgScale), otherwise rule gives the column one fixed scale.
func numericMath(rule scaleRule, pgScale func(xs []*big.Rat, scales []int) int,
	body func(vals []*big.Int, scales []int, outScale int) (*big.Int, error)) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, consts []any) (types.T, Kernel) {
		scales := make([]int, len(args))
		xs := make([]*big.Rat, len(args))
		allConst := true
		for i, a := range args {
			scales[i] = a.Scale
			d, ok := consts[i].(decimal128.Num)
			if !ok {
				allConst = false
				continue
			}
			xs[i] = ratOf(d.BigInt(), a.Scale)
		}
		fixed := -1
		if allConst {
			fixed = min(max(pgScale(xs, scales), 0), 38)
		}
		ret := decResultType(rule(scales))
		if fixed >= 0 {
			ret = decResultType(fixed)
		}
		return ret, numericKernel(rule, fixed, false, func(vals []*big.Int, sc []int, out int, _ []int64) (*big.Int, error) {
			return body(vals, sc, out)
		})
	}
}

func unaryNum(f func(v *big.Int, s, out int) (*big.Int, error)) func([]*big.Int, []int, int) (*big.Int, error) {
	return func(vals []*big.Int, sc []int, out int) (*big.Int, error) { return f(vals[0], sc[0], out) }
}

func binaryNum(f func(x, y *big.Int, sx, sy, out int) (*big.Int, error)) func([]*big.Int, []int, int) (*big.Int, error) {
	return func(vals []*big.Int, sc []int, out int) (*big.Int, error) {
		return f(vals[0], vals[1], sc[0], sc[1], out)
	}
}

// The scale rules below are numeric.c's (PostgreSQL 15), with
// NUMERIC_MIN_SIG_DIGITS = 16 and DEC_DIGITS = 4.

// decExponent is the decimal exponent of x's leading digit (0 for 0).
func decExponent(x *big.Rat) int {
	if x.Sign() == 0 {
		return 0
	}
	a := new(big.Rat).Abs(x)
	e := 0
	ten := big.NewRat(10, 1)
	one := big.NewRat(1, 1)
	for a.Cmp(ten) >= 0 {
		a.Quo(a, ten)
		e++
	}
	for a.Cmp(one) < 0 {
		a.Mul(a, ten)
		e--
	}
	return e
}

// nbaseWeight is PostgreSQL's NumericVar weight: the base-10000 digit
// position of x's leading group.
func nbaseWeight(x *big.Rat) int {
	e := decExponent(x)
	if e >= 0 {
		return e / 4
	}
	return -((-e + 3) / 4)
}

func sqrtScale(xs []*big.Rat, sc []int) int {
	sweight := (nbaseWeight(xs[0])+1)*4/2 - 1
	return max(16-sweight, sc[0])
}

func expScale(xs []*big.Rat, sc []int) int {
	f, _ := xs[0].Float64()
	val := min(max(f*0.434294481903252, -1000), 1000)
	return max(16-int(val), sc[0])
}

// lnDweight is estimate_ln_dweight: the decimal weight of ln(x).
func lnDweight(x *big.Rat) int {
	if x.Sign() <= 0 {
		return 0
	}
	if x.Cmp(big.NewRat(9, 10)) >= 0 && x.Cmp(big.NewRat(11, 10)) <= 0 {
		d := new(big.Rat).Sub(x, big.NewRat(1, 1))
		if d.Sign() == 0 {
			return 0
		}
		return decExponent(d)
	}
	f, _ := x.Float64()
	return int(math.Log10(math.Abs(math.Log(f))))
}

func lnScale(xs []*big.Rat, sc []int) int { return max(16-lnDweight(xs[0]), sc[0]) }

func logScale(xs []*big.Rat, sc []int) int {
	return max(16-(lnDweight(xs[1])-lnDweight(xs[0])), sc[0], sc[1])
}

func log10Scale(xs []*big.Rat, sc []int) int {
	return logScale([]*big.Rat{big.NewRat(10, 1), xs[0]}, []int{0, sc[0]})
}

func powScale(xs []*big.Rat, sc []int) int {
	base, exp := xs[0], xs[1]
	if exp.IsInt() {
		return max(16, sc[0])
	}
	bf, _ := base.Float64()
	ef, _ := exp.Float64()
	if bf <= 0 {
		return max(16, sc[0], sc[1])
	}
	val := math.Log(bf) * ef * 0.434294481903252
	val = min(max(val, -1000), 1000)
	return max(16-int(val), sc[0], sc[1])
}

// numericRound is round/trunc over numeric: one argument rounds to an
// integer (scale 0); with a constant digit count k the result has scale
// max(k, 0) as in PostgreSQL (round(1.5, 3) is 1.500); with a non-constant
// k the result keeps the argument's scale (sqlgate's numeric has one scale
// per column), holding the same value PostgreSQL computes.
func numericRound(trunc bool) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, consts []any) (types.T, Kernel) {
		fixed := -1
		switch {
		case len(args) == 1:
			fixed = 0
		case consts[1] != nil:
			if k, ok := consts[1].(int64); ok {
				fixed = int(min(max(k, 0), 38))
			}
		}
		var ret types.T
		if fixed >= 0 {
			ret = decResultType(fixed)
		} else {
			ret = decResultType(args[0].Scale)
		}
		return ret, numericKernel(keepScale, fixed, false, func(vals []*big.Int, scales []int, outScale int, ints []int64) (*big.Int, error) {
			k := int64(0)
			if len(ints) > 0 {
				k = ints[0]
			}
			k = min(max(k, -100), 100)
			v, s := vals[0], scales[0]
			if int(k) >= s {
				return rescaleBig(v, s, outScale, trunc), nil
			}
			q := rescaleBig(v, s, int(k), trunc) // now at scale k (maybe negative)
			return new(big.Int).Mul(q, pow10(outScale-int(k))), nil
		})
	}
}

func decAbs(v *big.Int, _, _ int) (*big.Int, error) { return new(big.Int).Abs(v), nil }

func decSign(v *big.Int, _, _ int) (*big.Int, error) { return big.NewInt(int64(v.Sign())), nil }

func decFloor(v *big.Int, s, _ int) (*big.Int, error) {
	q, m := new(big.Int).DivMod(v, pow10(s), new(big.Int)) // Euclidean: floor for positive divisors
	_ = m
	return q, nil
}

func decCeil(v *big.Int, s, _ int) (*big.Int, error) {
	q, m := new(big.Int).DivMod(v, pow10(s), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q, nil
}

func errDivZero() error { return sqlerr.New(sqlerr.DivisionByZero, "division by zero") }

func decMod(x, y *big.Int, sx, sy, out int) (*big.Int, error) {
	if y.Sign() == 0 {
		return nil, errDivZero()
	}
	a, b := rescaleBig(x, sx, out, true), rescaleBig(y, sy, out, true)
	return new(big.Int).Rem(a, b), nil // sign of the dividend, as PostgreSQL
}

func decDiv(x, y *big.Int, sx, sy, _ int) (*big.Int, error) {
	if y.Sign() == 0 {
		return nil, errDivZero()
	}
	s := max(sx, sy)
	a, b := rescaleBig(x, sx, s, true), rescaleBig(y, sy, s, true)
	return new(big.Int).Quo(a, b), nil // truncates toward zero
}

func ratOf(v *big.Int, scale int) *big.Rat {
	return new(big.Rat).SetFrac(v, pow10(scale))
}

// roundRat rounds r half away from zero to scale digits, as an unscaled integer.
func roundRat(r *big.Rat, scale int) *big.Int {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(scale)))
	q, m := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if m.Sign() != 0 && new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2)).Cmp(scaled.Denom()) >= 0 {
		if scaled.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// decSqrt computes the square root exactly enough (256 bits) to round it
// correctly to the result scale.
func decSqrt(v *big.Int, s, out int) (*big.Int, error) {
	if v.Sign() < 0 {
		return nil, sqlerr.New(sqlerr.Code("2201F"), "cannot take square root of a negative number")
	}
	f := new(big.Float).SetPrec(256).SetRat(ratOf(v, s))
	f.Sqrt(f)
	r, _ := f.Rat(nil)
	return roundRat(r, out), nil
}

// decExp is exp(numeric); a result beyond numeric's 38 digits is 22003.
func decExp(v *big.Int, s, out int) (*big.Int, error) {
	x := ratOf(v, s)
	if xf, _ := x.Float64(); xf > 90 {
		return nil, errNumericOverflow()
	} else if xf < -200 {
		return big.NewInt(0), nil
	}
	return roundRat(bigToRat(bigExp(ratToBig(x))), out), nil
}

// decLn is ln(numeric) or, with base10, log(numeric).
func decLn(base10 bool) func(v *big.Int, s, out int) (*big.Int, error) {
	return func(v *big.Int, s, out int) (*big.Int, error) {
		if err := logArgSign(v.Sign()); err != nil {
			return nil, err
		}
		r := bigLn(ratToBig(ratOf(v, s)))
		if base10 {
			r.Quo(r, bigLn(newBig().SetInt64(10)))
		}
		return roundRat(bigToRat(r), out), nil
	}
}

func logArgSign(sign int) error {
	switch {
	case sign == 0:
		return logArg(0)
	case sign < 0:
		return logArg(-1)
	}
	return nil
}

// decLogBase is log(base, x) over numeric.
func decLogBase(b, x *big.Int, sb, sx, out int) (*big.Int, error) {
	if err := logArgSign(b.Sign()); err != nil {
		return nil, err
	}
	if err := logArgSign(x.Sign()); err != nil {
		return nil, err
	}
	lb := bigLn(ratToBig(ratOf(b, sb)))
	if lb.Sign() == 0 {
		return nil, errDivZero()
	}
	r := bigLn(ratToBig(ratOf(x, sx)))
	return roundRat(bigToRat(r.Quo(r, lb)), out), nil
}

// decPow is exact for integral exponents (up to 1000 in magnitude), and
// exp(y ln x) in 256-bit precision otherwise.
func decPow(x, y *big.Int, sx, sy, out int) (*big.Int, error) {
	base, exp := ratOf(x, sx), ratOf(y, sy)
	if base.Sign() == 0 && exp.Sign() < 0 {
		return nil, sqlerr.New(sqlerr.Code("2201F"), "zero raised to a negative power is undefined")
	}
	if exp.IsInt() && exp.Num().IsInt64() && abs64(exp.Num().Int64()) <= 1000 {
		e := exp.Num().Int64()
		num := new(big.Int).Exp(base.Num(), big.NewInt(abs64(e)), nil)
		den := new(big.Int).Exp(base.Denom(), big.NewInt(abs64(e)), nil)
		if new(big.Int).Div(num, den).Cmp(decLimit) >= 0 && e > 0 {
			return nil, errNumericOverflow()
		}
		r := new(big.Rat).SetFrac(num, den)
		if e < 0 {
			r.Inv(r)
		}
		return roundRat(r, out), nil
	}
	if base.Sign() < 0 {
		return nil, sqlerr.New(sqlerr.Code("2201F"), "a negative number raised to a non-integer power yields a complex result")
	}
	if base.Sign() == 0 {
		return big.NewInt(0), nil
	}
	l := bigLn(ratToBig(base))
	l.Mul(l, ratToBig(exp))
	if lf, _ := l.Float64(); lf > 90 {
		return nil, errNumericOverflow()
	} else if lf < -200 {
		return big.NewInt(0), nil
	}
	return roundRat(bigToRat(bigExp(l)), out), nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
