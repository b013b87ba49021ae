package functions

import (
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The trigonometric and hyperbolic functions, in radians and in degrees,
// as PostgreSQL 15's float.c computes them: the C library's sin, cos ...
// (libm_cgo.go) with PostgreSQL's argument checks, and for the degree
// variants its range reduction and scaling, which make sind(30) exactly
// 0.5 and tand(45) exactly 1.

// radiansPerDegree is float.c's RADIANS_PER_DEGREE.
const radiansPerDegree = 0.0174532925199432957692

// degreeConstants are float.c's init_degree_constants, computed at run
// time with the same library functions (a compile-time constant would be
// Go's, not the C library's).
type degreeConstants struct {
	sin30, oneMinusCos60, asin05, acos05, atan10, tan45, cot45 float64
}

func newDegreeConstants() degreeConstants {
	// variables, not constants: Go folds constant expressions exactly,
	// where C rounds 30.0 * RADIANS_PER_DEGREE to a double first
	rpd, thirty, sixty := float64(radiansPerDegree), 30.0, 60.0
	d := degreeConstants{
		sin30:         cSin(thirty * rpd),
		oneMinusCos60: 1.0 - cCos(sixty*rpd),
		asin05:        cAsin(0.5),
		acos05:        cAcos(0.5),
		atan10:        cAtan(1.0),
	}
	d.tan45 = d.sindQ1(45) / d.cosdQ1(45)
	d.cot45 = d.cosdQ1(45) / d.sindQ1(45)
	return d
}

func (d degreeConstants) sind0to30(x float64) float64 {
	return (cSin(x*radiansPerDegree) / d.sin30) / 2.0
}

func (d degreeConstants) cosd0to60(x float64) float64 {
	oneMinusCosX := 1.0 - cCos(x*radiansPerDegree)
	return 1.0 - (oneMinusCosX/d.oneMinusCos60)/2.0
}

func (d degreeConstants) sindQ1(x float64) float64 {
	if x <= 30.0 {
		return d.sind0to30(x)
	}
	return d.cosd0to60(90.0 - x)
}

func (d degreeConstants) cosdQ1(x float64) float64 {
	if x <= 60.0 {
		return d.cosd0to60(x)
	}
	return d.sind0to30(90.0 - x)
}

func (d degreeConstants) asindQ1(x float64) float64 {
	if x <= 0.5 {
		return (cAsin(x) / d.asin05) * 30.0
	}
	return 90.0 - (cAcos(x)/d.acos05)*60.0
}

func (d degreeConstants) acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90.0 - (cAsin(x)/d.asin05)*30.0
	}
	return (cAcos(x) / d.acos05) * 60.0
}

func errTrigRange() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "input is out of range")
}

// checkFloat is float.c's CHECKFLOATVAL: an infinite result where none is
// valid overflows, a zero one where none is valid underflows.
func checkFloat(r float64, infValid, zeroValid bool) (float64, error) {
	if math.IsInf(r, 0) && !infValid {
		return 0, errOverflow()
	}
	if r == 0 && !zeroValid {
		return 0, errUnderflow()
	}
	return r, nil
}

// periodic is sin, cos or tan: NaN in, NaN out; infinity is out of range.
func periodic(f func(float64) float64, infValid bool) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsNaN(x) {
			return math.NaN(), nil
		}
		if math.IsInf(x, 0) {
			return 0, errTrigRange()
		}
		return checkFloat(f(x), infValid, true)
	}
}

// inverseUnit is asin or acos: defined on [-1, 1].
func inverseUnit(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsNaN(x) {
			return math.NaN(), nil
		}
		if x < -1 || x > 1 {
			return 0, errTrigRange()
		}
		return checkFloat(f(x), false, true)
	}
}

// reduceDegrees is the range reduction of sind/cosd/tand/cotd: x mod 360
// folded into [0, 90], with the sign each fold gives the function
// (negFlip: f(-x) = -f(x); upperFlip: f(360-x) = -f(x); midFlip:
// f(180-x) = -f(x)).
func reduceDegrees(x float64, negFlip, upperFlip, midFlip bool) (float64, float64) {
	sign := 1.0
	x = math.Mod(x, 360.0)
	if x < 0 {
		x = -x
		if negFlip {
			sign = -sign
		}
	}
	if x > 180 {
		x = 360 - x
		if upperFlip {
			sign = -sign
		}
	}
	if x > 90 {
		x = 180 - x
		if midFlip {
			sign = -sign
		}
	}
	return x, sign
}

func degreeFunc(d degreeConstants, negFlip, upperFlip, midFlip, infValid bool, f func(x float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsNaN(x) {
			return math.NaN(), nil
		}
		if math.IsInf(x, 0) {
			return 0, errTrigRange()
		}
		x, sign := reduceDegrees(x, negFlip, upperFlip, midFlip)
		r := sign * f(x)
		if r == 0 {
			r = 0 // no minus zero, as PostgreSQL forces
		}
		return checkFloat(r, infValid, true)
	}
}

func trigFuncs() []*Func {
	f1 := func(name string, fn func(float64) (float64, error)) *Func {
		return &Func{Name: name, Args: []types.T{tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatKernel(tFloat8, fn)}
	}
	f2 := func(name string, fn func(y, x float64) (float64, error)) *Func {
		return &Func{Name: name, Args: []types.T{tFloat8, tFloat8}, Ret: tFloat8, Strict: true, Kernel: floatBinary(fn)}
	}
	d := newDegreeConstants()
	return []*Func{
		f1("sin", periodic(cSin, false)),
		f1("cos", periodic(cCos, false)),
		f1("tan", periodic(cTan, true)),
		f1("cot", periodic(func(x float64) float64 { return 1.0 / cTan(x) }, true)),
		f1("asin", inverseUnit(cAsin)),
		f1("acos", inverseUnit(cAcos)),
		f1("atan", func(x float64) (float64, error) {
			if math.IsNaN(x) {
				return math.NaN(), nil
			}
			return checkFloat(cAtan(x), false, true)
		}),
		f2("atan2", func(y, x float64) (float64, error) {
			if math.IsNaN(y) || math.IsNaN(x) {
				return math.NaN(), nil
			}
			return checkFloat(cAtan2(y, x), false, true)
		}),
		f1("sind", degreeFunc(d, true, true, false, false, d.sindQ1)),
		f1("cosd", degreeFunc(d, false, false, true, false, d.cosdQ1)),
		f1("tand", degreeFunc(d, true, true, true, true, func(x float64) float64 { return (d.sindQ1(x) / d.cosdQ1(x)) / d.tan45 })),
		f1("cotd", degreeFunc(d, true, true, true, true, func(x float64) float64 { return (d.cosdQ1(x) / d.sindQ1(x)) / d.cot45 })),
		f1("asind", func(x float64) (float64, error) {
			if math.IsNaN(x) {
				return math.NaN(), nil
			}
			if x < -1 || x > 1 {
				return 0, errTrigRange()
			}
			if x >= 0 {
				return checkFloat(d.asindQ1(x), false, true)
			}
			return checkFloat(-d.asindQ1(-x), false, true)
		}),
		f1("acosd", func(x float64) (float64, error) {
			if math.IsNaN(x) {
				return math.NaN(), nil
			}
			if x < -1 || x > 1 {
				return 0, errTrigRange()
			}
			if x >= 0 {
				return checkFloat(d.acosdQ1(x), false, true)
			}
			return checkFloat(90.0+d.asindQ1(-x), false, true)
		}),
		f1("atand", func(x float64) (float64, error) {
			if math.IsNaN(x) {
				return math.NaN(), nil
			}
			return checkFloat((cAtan(x)/d.atan10)*45.0, false, true)
		}),
		f2("atan2d", func(y, x float64) (float64, error) {
			if math.IsNaN(y) || math.IsNaN(x) {
				return math.NaN(), nil
			}
			return checkFloat((cAtan2(y, x)/d.atan10)*45.0, false, true)
		}),
		// sinh and cosh saturate to infinity instead of overflowing (float.c
		// turns ERANGE into ±Infinity)
		f1("sinh", func(x float64) (float64, error) { return cSinh(x), nil }),
		f1("cosh", func(x float64) (float64, error) { return checkFloat(cCosh(x), true, false) }),
		f1("tanh", func(x float64) (float64, error) { return checkFloat(cTanh(x), false, true) }),
		f1("asinh", func(x float64) (float64, error) { return cAsinh(x), nil }),
		f1("acosh", func(x float64) (float64, error) {
			if x < 1 {
				return 0, errTrigRange()
			}
			return cAcosh(x), nil
		}),
		f1("atanh", func(x float64) (float64, error) {
			switch {
			case x < -1 || x > 1:
				return 0, errTrigRange()
			case x == -1:
				return math.Inf(-1), nil
			case x == 1:
				return math.Inf(1), nil
			}
			return cAtanh(x), nil
		}),
	}
}
