package functions

import (
	"bytes"
	"context"
	"encoding/binary"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/types/numeric"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
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
		{Name: "abs", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numAbs)},
		{Name: "mod", Args: []types.T{int2, int2}, Ret: int2, Strict: true, Kernel: intMod(int2)},
		{Name: "mod", Args: []types.T{tInt4, tInt4}, Ret: tInt4, Strict: true, Kernel: intMod(tInt4)},
		{Name: "gcd", Args: []types.T{tInt4, tInt4}, Ret: tInt4, Strict: true, Kernel: intGCD(tInt4)},
		{Name: "gcd", Args: []types.T{tInt8, tInt8}, Ret: tInt8, Strict: true, Kernel: intGCD(tInt8)},
		{Name: "mod", Args: []types.T{tInt8, tInt8}, Ret: tInt8, Strict: true, Kernel: intMod(tInt8)},
		{Name: "mod", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numeric.Mod)},
		{Name: "div", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numeric.DivTrunc)},
		f1("round", wrapF(math.RoundToEven)),
		{Name: "round", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numRound(false)},
		{Name: "round", Args: []types.T{tNumeric, tInt4}, Ret: tNumeric, Strict: true, specialize: numRound(false)},
		f1("trunc", wrapF(math.Trunc)),
		{Name: "trunc", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numRound(true)},
		{Name: "trunc", Args: []types.T{tNumeric, tInt4}, Ret: tNumeric, Strict: true, specialize: numRound(true)},
		f1("sign", wrapF(fsign)),
		{Name: "sign", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numSign)},
		f1("sqrt", fsqrt),
		{Name: "sqrt", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numeric.Sqrt)},
		f1("cbrt", wrapF(glibcCbrt)), // glibc's digits, as PostgreSQL on Linux (misc.go)
		f1("exp", fexp),
		{Name: "exp", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numeric.Exp)},
		f1("ln", fln),
		{Name: "ln", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numeric.Ln)},
		f1("log", flog10),
		f1("log10", flog10),
		{Name: "log", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numeric.Log10)},
		{Name: "log10", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(numeric.Log10)},
		{Name: "log", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numeric.Log)},
		// PostgreSQL divides and multiplies by RADIANS_PER_DEGREE (float.c)
		f1("degrees", func(x float64) (float64, error) { return checkOverflow(x/radiansPerDegree, x) }),
		f1("radians", func(x float64) (float64, error) {
			if r := x * radiansPerDegree; r == 0 && x != 0 {
				return 0, errUnderflow() // float8_mul's check: a subnormal times RADIANS_PER_DEGREE
			}
			return checkOverflow(x*radiansPerDegree, x)
		}),
		{Name: "pi", Ret: tFloat8, Kernel: constFloat(func() float64 { return math.Pi })},
	}
	for _, name := range []string{"floor", "ceil", "ceiling"} {
		fn, dec := math.Floor, numeric.Floor
		if name != "floor" {
			fn, dec = math.Ceil, numeric.Ceil
		}
		fs = append(fs, f1(name, wrapF(fn)),
			&Func{Name: name, Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(dec)})
	}
	for _, name := range []string{"power", "pow"} {
		fs = append(fs,
			&Func{Name: name, Args: []types.T{tFloat8, tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatBinary(fpow)},
			&Func{Name: name, Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numeric.Power)})
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
	r := cExp(x)
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
	return cLog(x), nil
}

func flog10(x float64) (float64, error) {
	if err := logArg(x); err != nil {
		return 0, err
	}
	return cLog10(x), nil
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
	r := cPow(x, y)
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
				return nil, types.IntOutOfRange(t)
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
				return nil, sqlerr.DivideByZero()
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
				return nil, types.IntOutOfRange(t)
			}
			return g.Int64(), nil
		}, nil
	})
}

// --- numeric functions ----------------------------------------------------

// numericIntArgs reads a call's numeric arguments and, after them, its
// integer ones (round(numeric, int4), width_bucket's count).
func numericIntArgs(args []arrow.Array) ([]types.NumericReader, []func(int) int64, error) {
	var nums []types.NumericReader
	var ints []func(int) int64
	for k, a := range args {
		if r, err := types.NewNumericReader(a); err == nil {
			nums = append(nums, r)
			continue
		}
		g, err := intGetter(k, a)
		if err != nil {
			return nil, nil, badArg(k, a, "numeric")
		}
		ints = append(ints, g)
	}
	return nums, ints, nil
}

// numericFn builds a function over numeric arguments (numeric or
// DECIMAL(p,s) columns, read as numerics) and integer ones (round's and
// trunc's digit count); the result is an unconstrained numeric whose
// display scale package numeric chooses per value, as PostgreSQL does.
func numericFn(body func(nums []*apd.Decimal, ints []int64) (*apd.Decimal, error)) func([]types.T, []any) (types.T, Kernel) {
	return func([]types.T, []any) (types.T, Kernel) {
		return types.NumericType, func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
			if err := checkArity(args, n); err != nil {
				return nil, err
			}
			nums, ints, err := numericIntArgs(args)
			if err != nil {
				return nil, err
			}
			bld := array.NewBuilder(mem, types.NewNumericArrowType()).(*array.ExtensionBuilder)
			defer bld.Release()
			out := types.NewNumericAppender(bld)
			bld.Reserve(n)
			nv := make([]*apd.Decimal, len(nums))
			scratch := make([]apd.Decimal, len(nums))
			iv := make([]int64, len(ints))
			// A row whose arguments are the previous row's (a constant
			// argument list, evaluated per row where PostgreSQL folds it
			// once) reuses its result: exp, ln and power of wide values
			// cost milliseconds each.
			var key, lastKey []byte
			var last *apd.Decimal
			for i := 0; i < n; i++ {
				if anyNull(args, i) {
					out.AppendNull()
					continue
				}
				key = key[:0]
				for k, r := range nums {
					nv[k] = r(i, &scratch[k])
					key = numeric.Encode(key, nv[k])
					key = append(key, 0xff)
				}
				for k, g := range ints {
					iv[k] = g(i)
					key = binary.AppendVarint(key, iv[k])
				}
				if last != nil && bytes.Equal(key, lastKey) {
					out.Append(last)
					continue
				}
				r, err := body(nv, iv)
				if err != nil {
					return nil, err
				}
				out.Append(r)
				// (a copy: r may be the scratch space of an argument)
				last, lastKey = new(apd.Decimal).Set(r), append(lastKey[:0], key...)
			}
			return bld.NewArray(), nil
		}
	}
}

func numUnary(f func(*apd.Decimal) (*apd.Decimal, error)) func([]types.T, []any) (types.T, Kernel) {
	return numericFn(func(v []*apd.Decimal, _ []int64) (*apd.Decimal, error) { return f(v[0]) })
}

func numBinary(f func(a, b *apd.Decimal) (*apd.Decimal, error)) func([]types.T, []any) (types.T, Kernel) {
	return numericFn(func(v []*apd.Decimal, _ []int64) (*apd.Decimal, error) { return f(v[0], v[1]) })
}

func numAbs(d *apd.Decimal) (*apd.Decimal, error)  { return numeric.Abs(d), nil }
func numSign(d *apd.Decimal) (*apd.Decimal, error) { return numeric.Sign(d), nil }

// numRound is round/trunc(numeric [, int]).
func numRound(trunc bool) func([]types.T, []any) (types.T, Kernel) {
	return numericFn(func(v []*apd.Decimal, ints []int64) (*apd.Decimal, error) {
		k := int64(0)
		if len(ints) > 0 {
			k = ints[0]
		}
		if trunc {
			return numeric.Trunc(v[0], k)
		}
		return numeric.Round(v[0], k)
	})
}

func errDivZero() error { return sqlerr.DivideByZero() }
