package types

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// AppendShortestFloat appends f (finite, non-zero) in Go's 'e' layout
// ("d.ddde+XX") with the digits PostgreSQL 15's float8out/float4out choose
// with extra_float_digits >= 1: Ryu's shortest decimal that reads back to
// f, built without STRICTLY_SHORTEST (src/common/d2s.c, f2s.c), so the
// interval of accepted decimals excludes its bounds for every mantissa.
// Go's shortest output includes the bounds when the mantissa is even, so
// the two differ exactly when Go's answer is the midpoint between f and a
// neighbour: 1e23 is such a midpoint and PostgreSQL prints
// 9.999999999999999e+22, 265121435752769984 prints 2.6512143575276998e+17
// there and 2.6512143575277e+17 in Go. Then the shortest length with a
// decimal strictly inside the interval is searched, and its decimal
// nearest f taken (Ryu's choice).
func AppendShortestFloat(dst []byte, f float64, bitSize int) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, bitSize)
	if !maybeMidpoint(dst[start:], f, bitSize) {
		return dst
	}
	lo, hi, exact := roundingInterval(f, bitSize)
	if !onBound(dst[start:], lo, hi) {
		return dst
	}
	nd := 0
	for _, c := range dst[start:] {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			nd++
		}
	}
	for n := nd; n <= 17; n++ {
		if best := nearestInside(f, n, bitSize, lo, hi, exact); best != "" {
			return append(dst[:start], best...)
		}
	}
	return dst // unreachable: 17 digits always identify a double
}

// maybeMidpoint is a cheap filter for onBound: the decimal s (Go's 'e'
// layout, sign allowed) can equal a midpoint between two adjacent floats of
// bitSize only if it is a dyadic rational whose odd part has exactly one
// bit more than the mantissa (or f is subnormal, where midpoints are
// shorter).
func maybeMidpoint(s []byte, f float64, bitSize int) bool {
	mantBits := 54
	minNormal := 0x1p-1022
	if bitSize == 32 {
		mantBits, minNormal = 25, 0x1p-126
	}
	if math.Abs(f) < minNormal {
		return true
	}
	var d uint64
	nd, exp := 0, 0
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	for ; i < len(s) && s[i] != 'e'; i++ {
		if s[i] != '.' {
			d = d*10 + uint64(s[i]-'0')
			nd++
		}
	}
	if i < len(s) {
		exp, _ = strconv.Atoi(string(s[i+1:]))
	}
	k := exp - (nd - 1) // value = d * 10^k
	var hi, lo uint64   // the odd part of the value's numerator, 128 bits
	switch {
	case k >= 0:
		if k >= 24 { // 5^k alone has more than 54 odd bits
			return false
		}
		hi, lo = bits.Mul64(d, pow5(k))
	default:
		p := pow5(-k)
		if -k >= 28 || d%p != 0 { // not dyadic
			return false
		}
		lo = d / p
	}
	for lo&1 == 0 && (lo|hi) != 0 {
		lo = lo>>1 | hi<<63
		hi >>= 1
	}
	n := bits.Len64(lo)
	if hi != 0 {
		n = 64 + bits.Len64(hi)
	}
	return n == mantBits
}

func pow5(k int) uint64 {
	p := uint64(1)
	for ; k > 0; k-- {
		p *= 5
	}
	return p
}

// roundingInterval returns the bounds of the decimals that read back to |f|
// (halfway to each neighbour) and |f| itself, exactly.
func roundingInterval(f float64, bitSize int) (lo, hi, exact *big.Rat) {
	f = math.Abs(f)
	var prev, next float64
	if bitSize == 32 {
		prev = float64(math.Nextafter32(float32(f), 0))
		next = float64(math.Nextafter32(float32(f), float32(math.Inf(1))))
	} else {
		prev, next = math.Nextafter(f, 0), math.Nextafter(f, math.Inf(1))
	}
	exact = new(big.Rat).SetFloat64(f)
	p := new(big.Rat).SetFloat64(prev)
	lo = new(big.Rat).Add(exact, p)
	lo.Quo(lo, big.NewRat(2, 1))
	if math.IsInf(next, 1) || (bitSize == 32 && next > math.MaxFloat32) {
		// above the largest finite value the gap repeats the one below
		hi = new(big.Rat).Sub(exact, lo)
		hi.Add(hi, exact)
	} else {
		hi = new(big.Rat).SetFloat64(next)
		hi.Add(hi, exact)
		hi.Quo(hi, big.NewRat(2, 1))
	}
	return lo, hi, exact
}

// onBound reports whether the decimal s equals lo or hi.
func onBound(s []byte, lo, hi *big.Rat) bool {
	v, ok := decimalRat(string(s))
	return ok && (v.Cmp(lo) == 0 || v.Cmp(hi) == 0)
}

func decimalRat(s string) (*big.Rat, bool) {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	return new(big.Rat).SetString(s)
}

// nearestInside returns, among the n-digit decimals next to f (its
// correctly rounded n-digit form and the decimals one unit in the last
// place either side), the one nearest f strictly inside (lo, hi), in 'e'
// layout with f's sign; "" when there is none.
func nearestInside(f float64, n, bitSize int, lo, hi, exact *big.Rat) string {
	s := strconv.FormatFloat(math.Abs(f), 'e', n-1, bitSize)
	mant, expStr, _ := cutE(s)
	exp, _ := strconv.Atoi(expStr)
	digits := new(big.Int)
	digits.SetString(removeDot(mant), 10)
	var best string
	var bestDist *big.Rat
	for _, delta := range []int64{0, -1, 1} {
		d := new(big.Int).Add(digits, big.NewInt(delta))
		ds := d.String()
		e := exp
		switch { // 1.00 - 1 ulp is 9.99 and 9.99 + 1 ulp is 1.00 of the next decade
		case d.Sign() == 0:
			continue
		case len(ds) < n:
			ds, e = strings.Repeat("9", n), exp-1
		case len(ds) > n:
			ds, e = ds[:n], exp+1
		}
		cand := ds[:1]
		if n > 1 {
			cand += "." + ds[1:]
		}
		cand += "e" + strconv.Itoa(e)
		v, ok := decimalRat(cand)
		if !ok || v.Cmp(lo) <= 0 || v.Cmp(hi) >= 0 {
			continue
		}
		dist := new(big.Rat).Sub(v, exact)
		dist.Abs(dist)
		if bestDist == nil || dist.Cmp(bestDist) < 0 {
			best, bestDist = cand, dist
		}
	}
	if best == "" {
		return ""
	}
	// Go's layout: a sign, and at least two exponent digits
	mant, expStr, _ = cutE(best)
	exp, _ = strconv.Atoi(expStr)
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	es := strconv.Itoa(exp)
	if len(es) < 2 {
		es = "0" + es
	}
	out := mant + "e" + sign + es
	if math.Signbit(f) {
		out = "-" + out
	}
	return out
}

func cutE(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "0", false
}

func removeDot(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '.' {
			out = append(out, s[i])
		}
	}
	return string(out)
}
