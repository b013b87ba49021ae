//go:build !cgo

package functions

import "math"

// Without cgo the C math library is out of reach: Go's math package
// stands in, whose last binary digit differs from glibc's for some
// arguments (see libm_cgo.go).

const libmAvailable = false

func cSin(x float64) float64      { return math.Sin(x) }
func cCos(x float64) float64      { return math.Cos(x) }
func cTan(x float64) float64      { return math.Tan(x) }
func cAsin(x float64) float64     { return math.Asin(x) }
func cAcos(x float64) float64     { return math.Acos(x) }
func cAtan(x float64) float64     { return math.Atan(x) }
func cSinh(x float64) float64     { return math.Sinh(x) }
func cCosh(x float64) float64     { return math.Cosh(x) }
func cTanh(x float64) float64     { return math.Tanh(x) }
func cAsinh(x float64) float64    { return math.Asinh(x) }
func cAcosh(x float64) float64    { return math.Acosh(x) }
func cAtanh(x float64) float64    { return math.Atanh(x) }
func cLog(x float64) float64      { return math.Log(x) }
func cLog10(x float64) float64    { return math.Log10(x) }
func cExp(x float64) float64      { return math.Exp(x) }
func cAtan2(y, x float64) float64 { return math.Atan2(y, x) }
func cPow(x, y float64) float64   { return math.Pow(x, y) }
