package numeric

import (
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// guardDigits are the digits computed past a result's last shown one:
// apd's exp and ln are accurate to their precision, so rounding the
// guarded value at the result scale gives the correctly rounded digits,
// which are the ones numeric.c's algorithms (accurate to their own guard
// digits) give.
const guardDigits = 12

// apdContext is a context of prec significant digits with apd's widest
// exponent range.
func apdContext(prec int) *apd.Context {
	c := apd.BaseContext.WithPrecision(uint32(max(prec, 1)))
	c.Rounding = apd.RoundHalfEven
	return c
}

func clampScale(r int) int { return min(max(r, 0), MaxDisplayScale) }

// finishRound rounds an apd result at scale half away from zero and
// applies make_result's limits.
func finishRound(x *apd.Decimal, scale int) (*apd.Decimal, error) {
	return Check(roundTo(x, scale, false))
}

// Exp is exp(d) at numeric_exp's scale.
func Exp(d *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(d) {
		if d.Form == apd.Infinite && d.Negative {
			return FromInt64(0), nil
		}
		return d, nil
	}
	x := ToFloat64Lossy(d)
	val := min(max(x*0.434294481903252, -MaxResultScale), MaxResultScale)
	rscale := clampScale(max(MinSigDigits-int(val), Dscale(d)))
	return expRound(d, x, val, rscale)
}

// expRound is exp_var: e^d rounded at rscale; x is d as a double, val
// the estimated decimal weight of the result.
func expRound(d *apd.Decimal, x, val float64, rscale int) (*apd.Decimal, error) {
	if math.Abs(x) >= MaxResultScale*3 {
		if x > 0 {
			return nil, errOverflow()
		}
		return zeroAt(rscale), nil
	}
	// the result's decimal weight, unclamped (val is clamped as
	// numeric_exp clamps it to choose the scale)
	w := x * 0.434294481903252
	if w+2 < float64(-rscale) {
		return zeroAt(rscale), nil // below half a unit of the last digit
	}
	var r apd.Decimal
	ctx := apdContext(sigDigits(rscale, int(w)+1))
	if adj := int(d.Exponent) + numDigits(&d.Coeff) - 1; adj < -20 {
		// apd's Exp returns 1 for an argument this small even when
		// the precision reaches its digits (exp(5.67e-318) at scale
		// 333 lost the 5.67e-318); 1 + x + x²/2 + ... converges in a
		// few terms here
		return finishRound(expSeries(ctx, d, rscale), rscale)
	}
	if _, err := ctx.Exp(&r, d); err != nil {
		return nil, errOverflow()
	}
	return finishRound(&r, rscale)
}

// expSeries is e^d by its Taylor series, for |d| < 1e-20, summed until a
// term falls below the last digit at rscale (with guard digits).
func expSeries(ctx *apd.Context, d *apd.Decimal, rscale int) *apd.Decimal {
	sum := apd.New(1, 0)
	term := apd.New(1, 0)
	for k := int64(1); ; k++ {
		ctx.Mul(term, term, d)
		ctx.Quo(term, term, apd.New(k, 0))
		if term.IsZero() || int(term.Exponent)+numDigits(&term.Coeff)-1 < -(rscale+guardDigits) {
			return sum
		}
		ctx.Add(sum, sum, term)
	}
}

// sigDigits is the precision that gives a result of decimal weight w its
// digits down to rscale, with guard digits.
func sigDigits(rscale, w int) int { return max(rscale+w+1, 1) + guardDigits }

func zeroAt(scale int) *apd.Decimal { return &apd.Decimal{Exponent: int32(-scale)} }

var (
	pointNine  = MustParse("0.9")
	onePointOn = MustParse("1.1")
	one        = FromInt64(1)
	ten        = FromInt64(10)
)

// lnDweight is estimate_ln_dweight: the decimal weight of ln(d).
func lnDweight(d *apd.Decimal) int {
	if signOf(d) <= 0 {
		return 0
	}
	if Cmp(d, pointNine) >= 0 && Cmp(d, onePointOn) <= 0 {
		x, _ := Sub(d, one)
		if x.Coeff.Sign() == 0 {
			return 0
		}
		return dexp(x)
	}
	w, d0 := weightOf(d)
	digits := float64(d0)
	dweight := w * 4
	if ndigits(d) > 1 {
		digits = digits*10000 + float64(groupAt(d, w-1))
		dweight -= 4
	}
	lnv := math.Log(digits) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnv)))
}

func errLog(zero bool) error {
	if zero {
		return sqlerr.New(sqlerr.Code("2201E"), "cannot take logarithm of zero")
	}
	return sqlerr.New(sqlerr.Code("2201E"), "cannot take logarithm of a negative number")
}

func checkLogArg(d *apd.Decimal) error {
	switch signOf(d) {
	case 0:
		return errLog(true)
	case -1:
		return errLog(false)
	}
	return nil
}

// Ln is ln(d) at numeric_ln's scale.
func Ln(d *apd.Decimal) (*apd.Decimal, error) {
	if IsNaN(d) {
		return d, nil
	}
	if err := checkLogArg(d); err != nil {
		return nil, err
	}
	if d.Form == apd.Infinite {
		return d, nil
	}
	ldw := lnDweight(d)
	rscale := clampScale(max(MinSigDigits-ldw, Dscale(d)))
	r, err := lnPrec(d, sigDigits(rscale, ldw))
	if err != nil {
		return nil, err
	}
	return finishRound(r, rscale)
}

// lnPrec is ln(d) (d > 0) to prec significant digits.
func lnPrec(d *apd.Decimal, prec int) (*apd.Decimal, error) {
	var r apd.Decimal
	if _, err := apdContext(prec).Ln(&r, d); err != nil {
		return nil, errOverflow()
	}
	return &r, nil
}

// Log is log(base, d) at log_var's scale.
func Log(base, d *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(base) || IsSpecial(d) {
		if IsNaN(base) || IsNaN(d) {
			return NaN(), nil
		}
		s1, s2 := signOf(base), signOf(d)
		if s1 < 0 || s2 < 0 {
			return nil, errLog(false)
		}
		if s1 == 0 || s2 == 0 {
			return nil, errLog(true)
		}
		if base.Form == apd.Infinite {
			if d.Form == apd.Infinite {
				return NaN(), nil
			}
			return FromInt64(0), nil
		}
		return PosInf(), nil
	}
	if err := checkLogArg(base); err != nil {
		return nil, err
	}
	if err := checkLogArg(d); err != nil {
		return nil, err
	}
	bw, nw := lnDweight(base), lnDweight(d)
	rw := nw - bw
	rscale := clampScale(max(MinSigDigits-rw, Dscale(base), Dscale(d)))
	prec := sigDigits(rscale, rw)
	lb, err := lnPrec(base, prec+4)
	if err != nil {
		return nil, err
	}
	if lb.IsZero() {
		return nil, errDivZero()
	}
	ln, err := lnPrec(d, prec+4)
	if err != nil {
		return nil, err
	}
	var q apd.Decimal
	if _, err := apdContext(prec).Quo(&q, ln, lb); err != nil {
		return nil, errOverflow()
	}
	return finishRound(&q, rscale)
}

// Log10 is log(d) and log10(d): log(10, d).
func Log10(d *apd.Decimal) (*apd.Decimal, error) { return Log(ten, d) }

func errPower(msg string) error { return sqlerr.New(sqlerr.Code("2201F"), "%s", msg) }

// isOddInt reports whether d is an odd integer.
func isOddInt(d *apd.Decimal) bool {
	if !IsIntegral(d) {
		return false
	}
	t := roundTo(d, 0, true)
	return t.Coeff.Bit(0) == 1
}

// Power is power(b, e) and b ^ e, with numeric_power's special cases
// and power_var's scales.
func Power(b, e *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(b) || IsSpecial(e) {
		return powerSpecial(b, e)
	}
	s1, s2 := signOf(b), signOf(e)
	if s1 == 0 && s2 < 0 {
		return nil, errPower("zero raised to a negative power is undefined")
	}
	if s1 < 0 && !IsIntegral(e) {
		return nil, errPower("a negative number raised to a non-integer power yields a complex result")
	}
	if IsIntegral(e) {
		if v, ok, _ := ToInt64(e, "integer"); ok && v >= math.MinInt32 && v <= math.MaxInt32 {
			rscale := clampScale(max(MinSigDigits, Dscale(b)))
			return powerInt(b, int(v), rscale)
		}
	}
	if s1 == 0 {
		return zeroAt(MinSigDigits), nil
	}
	negResult := false
	if s1 < 0 {
		// an integral exponent past int32: |b|^e, negative for odd e
		negResult = isOddInt(e)
		b = Abs(b)
	}
	r, err := powerReal(b, e)
	if err != nil || !negResult {
		return r, err
	}
	return Neg(r), nil
}

// powerReal is power_var's general case, b > 0: exp(e × ln b).
func powerReal(b, e *apd.Decimal) (*apd.Decimal, error) {
	ldw := lnDweight(b)
	local := min(max(8-ldw, 0), MaxDisplayScale)
	lnb, err := lnPrec(b, local+max(ldw, 0)+1+guardDigits)
	if err != nil {
		return nil, err
	}
	lnb = roundTo(lnb, local, false)
	m, err := Mul(lnb, e)
	if err != nil {
		return nil, err
	}
	val := ToFloat64Lossy(roundTo(m, local, false))
	if math.Abs(val) > MaxResultScale*3.01 {
		if val > 0 {
			return nil, errOverflow()
		}
		return zeroAt(MaxDisplayScale), nil // underflow: zero, as power_var gives it
	}
	val *= 0.434294481903252
	rscale := clampScale(max(MinSigDigits-int(val), Dscale(b), Dscale(e)))
	if val+2 < float64(-rscale) {
		return zeroAt(rscale), nil // rounds to zero at rscale
	}
	// e × ln(b) to enough digits that exp of it is right at rscale: its
	// absolute error becomes the result's relative error, and |e ln b| <
	// 6100 has up to four digits before the point
	prec := sigDigits(rscale, int(val)) + 5
	lnb, err = lnPrec(b, prec)
	if err != nil {
		return nil, err
	}
	var z apd.Decimal
	if _, err := apdContext(prec).Mul(&z, lnb, e); err != nil {
		return nil, errOverflow()
	}
	zf := ToFloat64Lossy(&z)
	return expRound(&z, zf, val, rscale)
}

// powerInt is power_var_int: b^exp rounded at rscale.
func powerInt(b *apd.Decimal, exp int, rscale int) (*apd.Decimal, error) {
	if exp == 0 {
		return &apd.Decimal{Coeff: *pow10(rscale), Exponent: int32(-rscale)}, nil
	}
	if b.Coeff.Sign() == 0 {
		if exp < 0 {
			return nil, errDivZero()
		}
		return zeroAt(rscale), nil
	}
	// estimate of log10(result), as power_var_int computes it
	w, _ := weightOf(b)
	nd := ndigits(b)
	f := float64(groupAt(b, w))
	p := w * 4
	for i := 1; i < nd && i*4 < 16; i++ {
		f = f*10000 + float64(groupAt(b, w-i))
		p -= 4
	}
	f = float64(exp) * (math.Log10(f) + float64(p))
	if f > 3*32767*4 || f > MaxIntDigits+8 {
		return nil, errOverflow()
	}
	if exp != 1 && exp != -1 && exp != 2 && (f+1 < float64(-rscale) || f+1 < -MaxDisplayScale) {
		return zeroAt(rscale), nil
	}
	ae := exp
	if ae < 0 {
		ae = -ae
	}
	neg := b.Negative && ae%2 == 1
	if numDigits(&b.Coeff)*ae <= 4000 {
		var c apd.BigInt
		c.Exp(&b.Coeff, apd.NewBigInt(int64(ae)), nil)
		pw := &apd.Decimal{Negative: neg, Exponent: int32(-Dscale(b) * ae)}
		pw.Coeff.Set(&c)
		if exp > 0 {
			return finishRound(norm(pw), rscale)
		}
		return DivRound(one, pw, rscale)
	}
	prec := rscale + max(int(math.Abs(f)), 0) + 1 + guardDigits
	var r apd.Decimal
	if _, err := apdContext(prec).Pow(&r, b, FromInt64(int64(exp))); err != nil {
		return nil, errOverflow()
	}
	return finishRound(&r, rscale)
}

func powerSpecial(b, e *apd.Decimal) (*apd.Decimal, error) {
	if IsNaN(b) {
		if !IsSpecial(e) && signOf(e) == 0 {
			return FromInt64(1), nil
		}
		return NaN(), nil
	}
	if IsNaN(e) {
		if !IsSpecial(b) && Cmp(b, one) == 0 {
			return FromInt64(1), nil
		}
		return NaN(), nil
	}
	s1, s2 := signOf(b), signOf(e)
	if s1 == 0 && s2 < 0 {
		return nil, errPower("zero raised to a negative power is undefined")
	}
	if s1 < 0 && !IsIntegral(e) && e.Form != apd.Infinite { // infinities count as integral
		return nil, errPower("a negative number raised to a non-integer power yields a complex result")
	}
	if !IsSpecial(b) && Cmp(b, one) == 0 {
		return FromInt64(1), nil
	}
	if s2 == 0 {
		return FromInt64(1), nil
	}
	if s1 == 0 && s2 > 0 {
		return FromInt64(0), nil
	}
	if e.Form == apd.Infinite {
		var gtOne bool
		if IsSpecial(b) {
			gtOne = true
		} else {
			if Cmp(b, FromInt64(-1)) == 0 {
				return FromInt64(1), nil
			}
			gtOne = cmpAbs(b, one) > 0
		}
		if gtOne == !e.Negative {
			return PosInf(), nil
		}
		return FromInt64(0), nil
	}
	if !b.Negative { // +Inf
		if s2 > 0 {
			return PosInf(), nil
		}
		return FromInt64(0), nil
	}
	if s2 < 0 {
		return FromInt64(0), nil
	}
	if isOddInt(e) {
		return NegInf(), nil
	}
	return PosInf(), nil
}
