package functions

import (
	"math"
	"math/big"
)

// Numeric exp/ln/log/power are computed in 256-bit binary floating point,
// well beyond the 38 decimal digits a decimal128 holds, and then rounded
// half away from zero to the result scale, so the digits shown are the
// correctly rounded ones PostgreSQL's exact algorithms produce.
const bigPrec = 256

func newBig() *big.Float { return new(big.Float).SetPrec(bigPrec) }

// bigExp returns e^x by halving x below 1/2, a Taylor series, and
// squaring back.
func bigExp(x *big.Float) *big.Float {
	r := newBig().Set(x)
	half := big.NewFloat(0.5)
	k := 0
	for newBig().Abs(r).Cmp(half) > 0 {
		r.Quo(r, big.NewFloat(2))
		k++
	}
	sum := newBig().SetInt64(1)
	term := newBig().SetInt64(1)
	eps := newBig().SetMantExp(big.NewFloat(1), -bigPrec-8)
	for i := int64(1); i < 400; i++ {
		term.Mul(term, r)
		term.Quo(term, newBig().SetInt64(i))
		sum.Add(sum, term)
		if newBig().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigLn returns ln(x) for x > 0 by Halley's iteration on exp, started
// from float64's logarithm (each step triples the correct bits).
func bigLn(x *big.Float) *big.Float {
	mant := newBig()
	exp := x.MantExp(mant) // x = mant * 2^exp, mant in [0.5, 1)
	mf, _ := mant.Float64()
	y := newBig().SetFloat64(math.Log(mf))
	two := newBig().SetInt64(2)
	for i := 0; i < 4; i++ {
		ey := bigExp(y)
		tNumeric := newBig().Sub(mant, ey)
		den := newBig().Add(mant, ey)
		tNumeric.Quo(tNumeric, den)
		tNumeric.Mul(tNumeric, two)
		y.Add(y, tNumeric)
	}
	ln2 := bigLn2()
	return y.Add(y, newBig().Mul(ln2, newBig().SetInt64(int64(exp))))
}

// bigLn2 is ln 2 by the series ln2 = sum 1/(k 2^k).
func bigLn2() *big.Float {
	sum := newBig()
	pow := newBig().SetInt64(1)
	eps := newBig().SetMantExp(big.NewFloat(1), -bigPrec-8)
	for k := int64(1); k < 1000; k++ {
		pow.Quo(pow, big.NewFloat(2))
		term := newBig().Quo(pow, newBig().SetInt64(k))
		sum.Add(sum, term)
		if term.Cmp(eps) < 0 {
			break
		}
	}
	return sum
}

func ratToBig(r *big.Rat) *big.Float { return newBig().SetRat(r) }

func bigToRat(f *big.Float) *big.Rat {
	r, _ := f.Rat(nil)
	return r
}
