package functions

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// gcd and lcm of numerics, lcm of integers, factorial, and the scale
// functions (scale, min_scale, trim_scale), as PostgreSQL 15's numeric.c
// and int.c compute them.

func numericMathFuncs() []*Func {
	return []*Func{
		{Name: "gcd", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numGCDLCM(false))},
		{Name: "lcm", Args: []types.T{tNumeric, tNumeric}, Ret: tNumeric, Strict: true, specialize: numBinary(numGCDLCM(true))},
		{Name: "lcm", Args: []types.T{tInt4, tInt4}, Ret: tInt4, Strict: true, Kernel: intLCM(tInt4)},
		{Name: "lcm", Args: []types.T{tInt8, tInt8}, Ret: tInt8, Strict: true, Kernel: intLCM(tInt8)},
		{Name: "factorial", Args: []types.T{tInt8}, Ret: tNumeric, Strict: true, specialize: numericFn(func(_ []*apd.Decimal, ints []int64) (*apd.Decimal, error) {
			return factorial(ints[0])
		})},
		{Name: "scale", Args: []types.T{tNumeric}, Ret: tInt4, Strict: true, Kernel: numericToInt(func(d *apd.Decimal) any { return int64(numeric.Dscale(d)) })},
		{Name: "min_scale", Args: []types.T{tNumeric}, Ret: tInt4, Strict: true, Kernel: numericToInt(func(d *apd.Decimal) any { return int64(minScale(d)) })},
		{Name: "trim_scale", Args: []types.T{tNumeric}, Ret: tNumeric, Strict: true, specialize: numUnary(func(d *apd.Decimal) (*apd.Decimal, error) {
			if numeric.IsSpecial(d) {
				return d, nil
			}
			return numeric.FromUnscaled(rescaleBig(numeric.Unscaled(d), numeric.Dscale(d), minScale(d), true), minScale(d)), nil
		})},
	}
}

// minScale is the fewest fractional digits that show d exactly.
func minScale(d *apd.Decimal) int {
	s := numeric.Dscale(d)
	v := numeric.Unscaled(d)
	if v.Sign() == 0 {
		return 0
	}
	ten, r := big.NewInt(10), new(big.Int)
	for s > 0 {
		q, m := new(big.Int).QuoRem(v, ten, r)
		if m.Sign() != 0 {
			break
		}
		v = q
		s--
	}
	return s
}

// numericToInt is scale/min_scale: an integer of a finite numeric, NULL
// for NaN and the infinities.
func numericToInt(f func(*apd.Decimal) any) Kernel {
	return rowKernel(tInt4, true, func(args []arrow.Array) (func(int) (any, error), error) {
		r, err := types.NewNumericReader(args[0])
		if err != nil {
			return nil, badArg(0, args[0], "numeric")
		}
		var scratch apd.Decimal
		return func(i int) (any, error) {
			d := r(i, &scratch)
			if numeric.IsSpecial(d) {
				return nil, nil
			}
			return f(d), nil
		}, nil
	})
}

// numGCDLCM is numeric gcd/lcm: NaN when either is NaN or infinite; the
// result's scale is the larger of the two.
func numGCDLCM(lcm bool) func(a, b *apd.Decimal) (*apd.Decimal, error) {
	return func(a, b *apd.Decimal) (*apd.Decimal, error) {
		if numeric.IsSpecial(a) || numeric.IsSpecial(b) {
			return numeric.NaN(), nil
		}
		s := max(numeric.Dscale(a), numeric.Dscale(b))
		x := rescaleBig(numeric.Unscaled(a), numeric.Dscale(a), s, true)
		y := rescaleBig(numeric.Unscaled(b), numeric.Dscale(b), s, true)
		x.Abs(x)
		y.Abs(y)
		g := new(big.Int).GCD(nil, nil, x, y)
		if !lcm {
			return numeric.Check(numeric.FromUnscaled(g, s))
		}
		if x.Sign() == 0 || y.Sign() == 0 {
			return numeric.FromUnscaled(new(big.Int), s), nil
		}
		l := new(big.Int).Mul(new(big.Int).Quo(x, g), y)
		return numeric.Check(numeric.FromUnscaled(l, s))
	}
}

// intLCM is lcm of integers: 22003 when the result does not fit.
func intLCM(t types.T) Kernel {
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
			x, y := big.NewInt(gx(i)), big.NewInt(gy(i))
			if x.Sign() == 0 || y.Sign() == 0 {
				return int64(0), nil
			}
			x.Abs(x)
			y.Abs(y)
			g := new(big.Int).GCD(nil, nil, x, y)
			l := new(big.Int).Mul(new(big.Int).Quo(x, g), y)
			if !l.IsInt64() || l.Int64() < lo || l.Int64() > hi {
				return nil, types.IntOutOfRange(t)
			}
			return l.Int64(), nil
		}, nil
	})
}

// maxFactorial is the largest n whose n! fits numeric's 131072 digits
// before the point.
const maxFactorial = 32177

func factorial(n int64) (*apd.Decimal, error) {
	if n < 0 {
		return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "factorial of a negative number is undefined")
	}
	if n > maxFactorial {
		return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "value overflows numeric format")
	}
	if n <= 1 {
		return numeric.FromInt64(1), nil
	}
	return numeric.Check(numeric.FromUnscaled(new(big.Int).MulRange(1, n), 0))
}
