package numeric

import (
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The transcendental functions: numeric_exp, numeric_ln, numeric_log and
// numeric_power's special values and scales, their digits computed by
// pgvar.go's ports of exp_var, ln_var, log_var and power_var.

func clampScale(r int) int { return min(max(r, 0), MaxDisplayScale) }

// Exp is exp(d) at numeric_exp's scale.
func Exp(d *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(d) {
		if d.Form == apd.Infinite && d.Negative {
			return FromInt64(0), nil
		}
		return d, nil
	}
	arg := toVar(d)
	val := arg.toFloat() * 0.434294481903252
	val = min(max(val, -MaxResultScale), MaxResultScale)
	rscale := clampScale(max(MinSigDigits-int(val), arg.dscale))
	return finish(expVar(arg, rscale))
}

// finish is make_result of a routine's result.
func finish(v *nvar, err error) (*apd.Decimal, error) {
	if err != nil {
		return nil, err
	}
	return v.toDecimal()
}

func zeroAt(scale int) *apd.Decimal { return &apd.Decimal{Exponent: int32(-scale)} }

var (
	one = FromInt64(1)
	ten = FromInt64(10)
)

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
	arg := toVar(d)
	rscale := clampScale(max(MinSigDigits-lnDweightVar(arg), arg.dscale))
	return finish(lnVar(arg, rscale))
}

// Log is log(base, d): numeric_log's special values, then log_var.
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
	return finish(logVar(toVar(base), toVar(d)))
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

// Power is power(b, e) and b ^ e: numeric_power's special values and
// checks, then power_var.
func Power(b, e *apd.Decimal) (*apd.Decimal, error) {
	if IsSpecial(b) || IsSpecial(e) {
		return powerSpecial(b, e)
	}
	if signOf(b) == 0 && signOf(e) < 0 {
		return nil, errPower("zero raised to a negative power is undefined")
	}
	return finish(powerVar(toVar(b), toVar(e)))
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
