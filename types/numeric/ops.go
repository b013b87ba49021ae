package numeric

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// signOf is -1, 0 or 1 for a finite or infinite d (NaN is 0).
func signOf(d *apd.Decimal) int {
	switch {
	case IsNaN(d):
		return 0
	case d.Form == apd.Infinite:
		if d.Negative {
			return -1
		}
		return 1
	case d.Coeff.Sign() == 0:
		return 0
	case d.Negative:
		return -1
	}
	return 1
}

// Cmp orders numerics as PostgreSQL does: NaN equals NaN and is above
// everything, +Infinity above every number, -Infinity below; finite values
// by value whatever their scales.
func Cmp(a, b *apd.Decimal) int {
	an, bn := IsNaN(a), IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	if a.Form == apd.Infinite || b.Form == apd.Infinite {
		ka, kb := infRank(a), infRank(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	}
	sa, sb := signOf(a), signOf(b)
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	c := cmpAbs(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func infRank(d *apd.Decimal) int {
	if d.Form == apd.Infinite {
		if d.Negative {
			return -1
		}
		return 1
	}
	return 0
}

// cmpAbs compares |a| and |b| for finite values.
func cmpAbs(a, b *apd.Decimal) int {
	if a.Exponent == b.Exponent {
		return a.Coeff.CmpAbs(&b.Coeff)
	}
	// compare the leading digit's exponent first
	if a.Coeff.Sign() != 0 && b.Coeff.Sign() != 0 {
		ea, eb := dexp(a), dexp(b)
		if ea != eb {
			if ea < eb {
				return -1
			}
			return 1
		}
	}
	x, y := align(a, b)
	return x.CmpAbs(y)
}

// align returns a's and b's coefficients at the larger of their scales.
func align(a, b *apd.Decimal) (*apd.BigInt, *apd.BigInt) {
	x, y := &a.Coeff, &b.Coeff
	switch {
	case a.Exponent > b.Exponent:
		x = new(apd.BigInt).Mul(x, pow10(int(a.Exponent-b.Exponent)))
	case b.Exponent > a.Exponent:
		y = new(apd.BigInt).Mul(y, pow10(int(b.Exponent-a.Exponent)))
	}
	return x, y
}

// signed returns d's coefficient with d's sign.
func signed(c *apd.BigInt, neg bool) *apd.BigInt {
	if !neg {
		return c
	}
	return new(apd.BigInt).Neg(c)
}

// Add is a + b at the larger display scale.
func Add(a, b *apd.Decimal) (*apd.Decimal, error) { return addSub(a, b, false) }

// Sub is a - b at the larger display scale.
func Sub(a, b *apd.Decimal) (*apd.Decimal, error) { return addSub(a, b, true) }

func addSub(a, b *apd.Decimal, sub bool) (*apd.Decimal, error) {
	if IsSpecial(a) || IsSpecial(b) {
		if IsNaN(a) || IsNaN(b) {
			return NaN(), nil
		}
		bs := infRank(b)
		if sub {
			bs = -bs
		}
		switch as := infRank(a); {
		case as != 0 && bs != 0 && as != bs:
			return NaN(), nil
		case as != 0:
			return a, nil
		case bs > 0:
			return PosInf(), nil
		}
		return NegInf(), nil
	}
	x, y := align(a, b)
	var r apd.BigInt
	bneg := b.Negative != sub
	r.Add(signed(x, a.Negative), signed(y, bneg))
	return mk(false, &r, max(Dscale(a), Dscale(b)))
}

// MulVar and AddVar are Mul and Add of finite values without make_result's
// limits: the NumericVar arithmetic of aggregate states, whose sums of
// squares may pass 131072 digits while the result (a standard deviation)
// does not.
func MulVar(a, b *apd.Decimal) *apd.Decimal {
	r := &apd.Decimal{Negative: a.Negative != b.Negative, Exponent: a.Exponent + b.Exponent}
	r.Coeff.Mul(&a.Coeff, &b.Coeff)
	return norm(r)
}

// AddVar is a + b (finite) without limits; subtract negates b.
func AddVar(a, b *apd.Decimal, subtract bool) *apd.Decimal {
	x, y := align(a, b)
	r := &apd.Decimal{Exponent: min(a.Exponent, b.Exponent)}
	r.Coeff.Add(signed(x, a.Negative), signed(y, b.Negative != subtract))
	if r.Coeff.Sign() < 0 {
		r.Coeff.Neg(&r.Coeff)
		r.Negative = true
	}
	return norm(r)
}

// Mul is a × b at the sum of the display scales (exact).
func Mul(a, b *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(a) || IsSpecial(b) {
		if IsNaN(a) || IsNaN(b) {
			return NaN(), nil
		}
		s := signOf(a) * signOf(b)
		switch {
		case s == 0:
			return NaN(), nil // Inf × 0
		case s > 0:
			return PosInf(), nil
		}
		return NegInf(), nil
	}
	var r apd.BigInt
	r.Mul(&a.Coeff, &b.Coeff)
	return mk(a.Negative != b.Negative, &r, Dscale(a)+Dscale(b))
}

// DivScale is select_div_scale: enough digits for 16 significant ones,
// at least either operand's display scale, at most 1000.
func DivScale(a, b *apd.Decimal) int {
	w1, f1 := weightOf(a)
	w2, f2 := weightOf(b)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	r := MinSigDigits - qweight*4
	r = max(r, Dscale(a), Dscale(b), 0)
	return min(r, MaxDisplayScale)
}

// divSpecial is a / b and div(a, b) when either is NaN or infinite: NaN
// with a NaN or for Inf/Inf, ±Inf for Inf over a nonzero finite, division
// by zero for Inf/0, and 0 for a finite over an infinity.
func divSpecial(a, b *apd.Decimal) (*apd.Decimal, error) {
	if IsNaN(a) || IsNaN(b) {
		return NaN(), nil
	}
	if a.Form == apd.Infinite {
		if b.Form == apd.Infinite {
			return NaN(), nil
		}
		switch signOf(b) {
		case 0:
			return nil, errDivZero()
		case 1:
			return a, nil
		}
		return Neg(a), nil
	}
	return FromInt64(0), nil
}

// Div is a / b rounded half away from zero at DivScale(a, b).
func Div(a, b *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(a) || IsSpecial(b) {
		return divSpecial(a, b)
	}
	if b.Coeff.Sign() == 0 {
		return nil, errDivZero()
	}
	return DivRound(a, b, DivScale(a, b))
}

// DivRound is a / b (finite, b nonzero) rounded half away from zero at scale.
func DivRound(a, b *apd.Decimal, scale int) (*apd.Decimal, error) {
	return Check(divRoundVar(a, b, scale))
}

// divRoundVar is DivRound without make_result's limits.
func divRoundVar(a, b *apd.Decimal, scale int) *apd.Decimal {
	// a/b × 10^scale = ca × 10^(scale - sa + sb) / cb
	num := new(apd.BigInt).Set(&a.Coeff)
	den := new(apd.BigInt).Set(&b.Coeff)
	if e := scale - Dscale(a) + Dscale(b); e >= 0 {
		num.Mul(num, pow10(e))
	} else {
		den.Mul(den, pow10(-e))
	}
	var q, r apd.BigInt
	q.QuoRem(num, den, &r)
	if r.Sign() != 0 {
		r.Add(&r, &r)
		if r.CmpAbs(den) >= 0 {
			q.Add(&q, apd.NewBigInt(1))
		}
	}
	d := &apd.Decimal{Negative: a.Negative != b.Negative, Exponent: int32(-scale)}
	d.Coeff.Set(&q)
	return norm(d)
}

// Variance is the tail of numeric_stddev_internal: from n values, their
// sum sx and sum of squares sxx (finite), the sample (samp) or population
// variance, or its square root (stddev), at PostgreSQL's scales. Only the
// result meets make_result's limits.
func Variance(n int64, sx, sxx *apd.Decimal, samp, stddev bool) (*apd.Decimal, error) {
	num := AddVar(MulVar(FromInt64(n), sxx), MulVar(sx, sx), true)
	if num.Coeff.Sign() == 0 || num.Negative {
		return FromInt64(0), nil // roundoff cannot make it negative here, but PostgreSQL guards
	}
	den := FromInt64(n * n)
	if samp {
		den = FromInt64(n * (n - 1))
	}
	rscale := DivScale(num, den)
	v := divRoundVar(num, den, rscale)
	if !stddev {
		return Check(v)
	}
	return SqrtRound(v, rscale)
}

// Mod is numeric_mod: the remainder of the truncated quotient, at the
// larger display scale, with the dividend's sign.
func Mod(a, b *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(a) || IsSpecial(b) {
		if IsNaN(a) || IsNaN(b) {
			return NaN(), nil
		}
		if a.Form == apd.Infinite {
			if signOf(b) == 0 {
				return nil, errDivZero()
			}
			return NaN(), nil
		}
		return a, nil
	}
	if b.Coeff.Sign() == 0 {
		return nil, errDivZero()
	}
	x, y := align(a, b)
	var r apd.BigInt
	r.Rem(x, y)
	return mk(a.Negative, &r, max(Dscale(a), Dscale(b)))
}

// DivTrunc is div(a, b): the quotient truncated toward zero, scale 0.
func DivTrunc(a, b *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(a) || IsSpecial(b) {
		return divSpecial(a, b)
	}
	if b.Coeff.Sign() == 0 {
		return nil, errDivZero()
	}
	x, y := align(a, b)
	var q apd.BigInt
	q.Quo(x, y)
	return mk(a.Negative != b.Negative, &q, 0)
}

// Neg is -d.
func Neg(d *apd.Decimal) *apd.Decimal {
	if IsNaN(d) {
		return d
	}
	r := &apd.Decimal{Form: d.Form, Negative: !d.Negative, Exponent: d.Exponent}
	r.Coeff.Set(&d.Coeff)
	return norm(r)
}

// Abs is |d|.
func Abs(d *apd.Decimal) *apd.Decimal {
	if !d.Negative {
		return d
	}
	return Neg(d)
}

// Sign is sign(d): -1, 0 or 1 at scale 0; NaN for NaN.
func Sign(d *apd.Decimal) *apd.Decimal {
	if IsNaN(d) {
		return d
	}
	return FromInt64(int64(signOf(d)))
}

// roundTo rounds a finite d half away from zero (or truncates) at scale
// (which may be negative: round(1234, -2) is 1200); the result's display
// scale is max(scale, 0).
func roundTo(d *apd.Decimal, scale int, trunc bool) *apd.Decimal {
	ds := Dscale(d)
	out := max(scale, 0)
	r := &apd.Decimal{Negative: d.Negative, Exponent: int32(-out)}
	if scale >= ds {
		r.Coeff.Mul(&d.Coeff, pow10(out-ds))
		return norm(r)
	}
	div := pow10(ds - scale)
	var q, m apd.BigInt
	q.QuoRem(&d.Coeff, div, &m)
	if !trunc && m.Sign() != 0 {
		m.Add(&m, &m)
		if m.Cmp(div) >= 0 {
			q.Add(&q, apd.NewBigInt(1))
		}
	}
	if scale < 0 {
		q.Mul(&q, pow10(-scale))
	}
	r.Coeff.Set(&q)
	return norm(r)
}

// Round is round(d, scale), the scale clamped as PostgreSQL 15's
// numeric_round clamps it: at most NUMERIC_DSCALE_MAX digits after the
// point, and no further left than a numeric's largest weight allows (one
// more digit for round, which may carry).
func Round(d *apd.Decimal, scale int64) (*apd.Decimal, error) {
	return roundOrTrunc(d, scale, false)
}

// Trunc is trunc(d, scale).
func Trunc(d *apd.Decimal, scale int64) (*apd.Decimal, error) {
	return roundOrTrunc(d, scale, true)
}

func roundOrTrunc(d *apd.Decimal, scale int64, trunc bool) (*apd.Decimal, error) {
	if IsSpecial(d) {
		return d, nil
	}
	lowest := -int64(maxWeight+1) * 4 // DEC_DIGITS per base-10000 digit
	if !trunc {
		lowest--
	}
	s := int(min(max(scale, lowest), MaxDscale))
	return Check(roundTo(d, s, trunc))
}

// Ceil is ceil(d), scale 0.
func Ceil(d *apd.Decimal) (*apd.Decimal, error) { return ceilFloor(d, true) }

// Floor is floor(d), scale 0.
func Floor(d *apd.Decimal) (*apd.Decimal, error) { return ceilFloor(d, false) }

func ceilFloor(d *apd.Decimal, ceil bool) (*apd.Decimal, error) {
	if IsSpecial(d) {
		return d, nil
	}
	t := roundTo(d, 0, true)
	if !IsIntegral(d) && d.Negative != ceil {
		// away from zero: one more in magnitude, with d's sign (t may be
		// a zero that lost it)
		t.Coeff.Add(&t.Coeff, apd.NewBigInt(1))
		t.Negative = d.Negative
	}
	return Check(norm(t))
}

// Sqrt is sqrt(d) rounded at numeric_sqrt's scale.
func Sqrt(d *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(d) {
		if d.Form == apd.Infinite && d.Negative {
			return nil, errSqrtNeg()
		}
		return d, nil
	}
	if signOf(d) < 0 {
		return nil, errSqrtNeg()
	}
	arg := toVar(d)
	sweight := (arg.weight+1)*4/2 - 1 // (weight+1)*DEC_DIGITS is even: exact in C too
	rscale := MinSigDigits - sweight
	rscale = min(max(rscale, arg.dscale, 0), MaxDisplayScale)
	// sqrt_var reads only the input digits its result needs
	return finish(sqrtVar(arg, rscale))
}

func errSqrtNeg() error {
	return sqlerr.New(sqlerr.Code("2201F"), "cannot take square root of a negative number")
}

// SqrtRound is sqrt(d) (finite, ≥ 0) rounded half up at scale.
func SqrtRound(d *apd.Decimal, scale int) (*apd.Decimal, error) {
	// sqrt(c × 10^-s) × 10^r = sqrt(c × 10^(2r - s))
	n := new(apd.BigInt).Set(&d.Coeff)
	e := 2*scale - Dscale(d)
	extra := 0
	if e < 0 { // keep an integer: scale up by an even power and drop it later
		extra = (-e + 1) / 2
		e += 2 * extra
	}
	n.Mul(n, pow10(e))
	var s apd.BigInt
	s.Sqrt(n)
	if extra == 0 {
		// round half up: s+1/2 ≤ sqrt(n) ⟺ (2s+1)² ≤ 4n
		var t, four apd.BigInt
		t.Add(&s, &s)
		t.Add(&t, apd.NewBigInt(1))
		t.Mul(&t, &t)
		four.Mul(n, apd.NewBigInt(4))
		if t.Cmp(&four) <= 0 {
			s.Add(&s, apd.NewBigInt(1))
		}
		return mk(false, &s, scale)
	}
	// s is sqrt at scale+extra, truncated; round it at scale
	r := &apd.Decimal{Exponent: int32(-(scale + extra))}
	r.Coeff.Set(&s)
	return Check(roundTo(r, scale, false))
}
