//go:build cgo

package functions

// #cgo LDFLAGS: -lm
// #include <math.h>
import "C"

// The platform's C math library, which PostgreSQL's float8 functions call:
// with it the last binary digit of sin, cos, log10, pow ... is the one
// PostgreSQL prints on the same machine (Go's math package rounds some
// results the other way, e.g. sin(2.5) and log10(0.1)). Builds without
// cgo use libm_purego.go, which is Go's math package.

// libmAvailable reports that these are the C library's functions.
const libmAvailable = true

func cSin(x float64) float64   { return float64(C.sin(C.double(x))) }
func cCos(x float64) float64   { return float64(C.cos(C.double(x))) }
func cTan(x float64) float64   { return float64(C.tan(C.double(x))) }
func cAsin(x float64) float64  { return float64(C.asin(C.double(x))) }
func cAcos(x float64) float64  { return float64(C.acos(C.double(x))) }
func cAtan(x float64) float64  { return float64(C.atan(C.double(x))) }
func cSinh(x float64) float64  { return float64(C.sinh(C.double(x))) }
func cCosh(x float64) float64  { return float64(C.cosh(C.double(x))) }
func cTanh(x float64) float64  { return float64(C.tanh(C.double(x))) }
func cAsinh(x float64) float64 { return float64(C.asinh(C.double(x))) }
func cAcosh(x float64) float64 { return float64(C.acosh(C.double(x))) }
func cAtanh(x float64) float64 { return float64(C.atanh(C.double(x))) }
func cLog(x float64) float64   { return float64(C.log(C.double(x))) }
func cLog10(x float64) float64 { return float64(C.log10(C.double(x))) }
func cExp(x float64) float64   { return float64(C.exp(C.double(x))) }
func cAtan2(y, x float64) float64 {
	return float64(C.atan2(C.double(y), C.double(x)))
}
func cPow(x, y float64) float64 { return float64(C.pow(C.double(x), C.double(y))) }
