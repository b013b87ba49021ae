package numeric

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL 15's transcendental functions (exp, ln, log, power, sqrt) are
// not correctly rounded: numeric.c computes them in base-10000 digits at
// working scales of its own choosing (a Taylor series summed at a local
// rscale, mul_var dropping the products past its guard digits, div_var_fast
// estimating quotient digits in double precision, the argument halved
// ndiv2 times and the sum squared back), and its last digit is whatever
// those steps leave (exp(-0.00000001) is 0.9999999900000001 in PostgreSQL,
// whose exact value rounds to ...0000). The digits are matched by doing the
// same steps: nvar is numeric.c's NumericVar and the functions below are
// its routines, ported step by step (numeric.c of PostgreSQL 15.18).
//
// Where numeric.c's loops are quadratic, large operands (power and exp
// reach a quarter of a million digits) take a subquadratic way to the same
// digits: div_var's quotient, exact in numeric.c, and sqrt_var's integer
// root by big.Int; mul_var's truncated accumulator by one Kronecker
// product (mulDigitsKron); div_var_fast's approximate quotient from the
// exact one when its error bound cannot cross the rounding at rscale
// (divVarFastBounded), by its own long division otherwise.

const (
	nbase     = 10000
	halfNbase = 5000
	decDigits = 4
	// mulGuardDigits and divGuardDigits are MUL_GUARD_DIGITS and
	// DIV_GUARD_DIGITS
	mulGuardDigits = 2
	divGuardDigits = 4
	intMax         = math.MaxInt32
)

var roundPowers = [4]int32{0, 1000, 100, 10}

// nvar is a NumericVar: digits in base 10000, the first of weight weight;
// dscale is the display scale. Like numeric.c's, its digits may carry
// leading or trailing zeros until strip.
type nvar struct {
	digits []int32
	weight int
	neg    bool
	dscale int
}

func (v *nvar) ndigits() int { return len(v.digits) }

func (v *nvar) clone() *nvar {
	c := *v
	c.digits = append([]int32(nil), v.digits...)
	return &c
}

func zeroVar(dscale int) *nvar { return &nvar{dscale: dscale} }

var (
	varOne          = &nvar{digits: []int32{1}}
	varTwo          = &nvar{digits: []int32{2}}
	varZeroPointNin = &nvar{digits: []int32{9000}, weight: -1, dscale: 1}
	varOnePointOne  = &nvar{digits: []int32{1, 1000}, dscale: 1}
)

// toVar is init_var_from_num: a finite d's digits, weight and dscale.
func toVar(d *apd.Decimal) *nvar {
	v := &nvar{neg: d.Negative, dscale: max(Dscale(d), 0)}
	if d.Coeff.Sign() == 0 {
		v.neg = false
		return v
	}
	e := int(d.Exponent)
	shift := ((e % decDigits) + decDigits) % decDigits
	c := new(big.Int).Set(d.Coeff.MathBigInt())
	if shift > 0 {
		c.Mul(c, big.NewInt(int64(math.Pow10(shift))))
	}
	low := (e - shift) / decDigits // the weight of the last digit
	v.digits = bigDigits(c)
	v.weight = low + len(v.digits) - 1
	v.strip()
	return v
}

// bigDigits is c (> 0) in base-10000 digits, most significant first.
func bigDigits(c *big.Int) []int32 {
	s := c.String()
	pad := (decDigits - len(s)%decDigits) % decDigits
	s = strings.Repeat("0", pad) + s
	out := make([]int32, len(s)/decDigits)
	for i := range out {
		n, _ := strconv.Atoi(s[i*decDigits : (i+1)*decDigits])
		out[i] = int32(n)
	}
	return out
}

// digitsBig is the integer whose base-10000 digits are ds, most
// significant first: halves joined by one multiplication by a power of
// 10000 (subquadratic where Go's multiplication is, as a digit-by-digit
// Horner loop is not: exp and power reach a quarter of a million digits).
func digitsBig(ds []int32) *big.Int {
	return digitsBigRec(ds, map[int]*big.Int{})
}

func digitsBigRec(ds []int32, pows map[int]*big.Int) *big.Int {
	if len(ds) <= 64 {
		n := new(big.Int)
		var t big.Int
		for i := 0; i < len(ds); i += 4 { // 10000^4 < 2^63
			acc, mul := uint64(0), uint64(1)
			for _, d := range ds[i:min(i+4, len(ds))] {
				acc = acc*nbase + uint64(d)
				mul *= nbase
			}
			n.Mul(n, t.SetUint64(mul))
			n.Add(n, t.SetUint64(acc))
		}
		return n
	}
	h := len(ds) / 2
	lo := len(ds) - h
	p, ok := pows[lo]
	if !ok {
		p = pow10Big(decDigits * lo)
		pows[lo] = p
	}
	n := digitsBigRec(ds[:h], pows)
	n.Mul(n, p)
	return n.Add(n, digitsBigRec(ds[h:], pows))
}

// scaled is v as N × 10^exp10 (N ≥ 0, the sign apart).
func (v *nvar) scaled() (*big.Int, int) {
	return digitsBig(v.digits), decDigits * (v.weight - len(v.digits) + 1)
}

// fromScaled is N × 10^exp10 with dscale dscale, stripped.
func fromScaled(n *big.Int, exp10 int, neg bool, dscale int) *nvar {
	v := &nvar{dscale: dscale}
	if n.Sign() == 0 {
		return v
	}
	shift := ((exp10 % decDigits) + decDigits) % decDigits
	c := new(big.Int).Set(n)
	if shift > 0 {
		c.Mul(c, big.NewInt(int64(math.Pow10(shift))))
	}
	v.digits = bigDigits(c)
	v.weight = (exp10-shift)/decDigits + len(v.digits) - 1
	v.neg = neg
	v.strip()
	return v
}

// atScale is v's digits down to its dscale as an integer: digits past
// dscale (the routines' final rounding leaves none) are cut, as
// get_str_from_var cuts them.
func (v *nvar) atScale() *big.Int {
	n, e := v.scaled()
	if k := e + v.dscale; k >= 0 {
		n.Mul(n, pow10Big(k))
	} else {
		n.Quo(n, pow10Big(-k))
	}
	return n
}

// toDecimal is make_result: v at its dscale, with make_result's limits.
func (v *nvar) toDecimal() (*apd.Decimal, error) {
	if v.strip(); len(v.digits) > 0 && v.weight > maxWeight || v.dscale > MaxDscale {
		// make_result's check, before a value of a quarter of a million
		// digits is converted only to be refused
		return nil, errOverflow()
	}
	n := v.atScale()
	var c apd.BigInt
	c.SetMathBigInt(n)
	return mk(v.neg && n.Sign() != 0, &c, v.dscale)
}

// toFloat is numericvar_to_double_no_overflow: the text at dscale, read by
// strtod (an overflow is an infinity, not an error).
func (v *nvar) toFloat() float64 {
	n := v.atScale()
	d := &apd.Decimal{Negative: v.neg && n.Sign() != 0, Exponent: int32(-v.dscale)}
	d.Coeff.SetMathBigInt(n)
	f, _ := strconv.ParseFloat(String(d), 64)
	return f
}

// strip is strip_var.
func (v *nvar) strip() {
	i := 0
	for i < len(v.digits) && v.digits[i] == 0 {
		i++
		v.weight--
	}
	v.digits = v.digits[i:]
	j := len(v.digits)
	for j > 0 && v.digits[j-1] == 0 {
		j--
	}
	v.digits = v.digits[:j]
	if j == 0 {
		v.neg = false
		v.weight = 0
	}
}

// round is round_var.
func (v *nvar) round(rscale int) {
	v.dscale = rscale
	di := (v.weight+1)*decDigits + rscale
	if di < 0 {
		v.digits, v.weight, v.neg = nil, 0, false
		return
	}
	nd := (di + decDigits - 1) / decDigits
	di %= decDigits
	if !(nd < len(v.digits) || (nd == len(v.digits) && di > 0)) {
		return
	}
	digits := append([]int32(nil), v.digits...)
	var carry int32
	i := nd // the carry goes to the digit before digits[i]
	if di == 0 {
		if digits[nd] >= halfNbase {
			carry = 1
		}
	} else {
		pow := roundPowers[di]
		nd--
		extra := digits[nd] % pow
		digits[nd] -= extra
		if extra >= pow/2 {
			pow += digits[nd]
			if pow >= nbase {
				pow -= nbase
				carry = 1
			}
			digits[nd] = pow
		}
		i = nd
		nd++
	}
	digits = digits[:nd]
	for carry != 0 {
		i--
		if i < 0 {
			digits = append([]int32{1}, digits...)
			v.weight++
			break
		}
		carry += digits[i]
		if carry >= nbase {
			digits[i] = carry - nbase
			carry = 1
		} else {
			digits[i] = carry
			carry = 0
		}
	}
	v.digits = digits
}

// trunc is trunc_var.
func (v *nvar) trunc(rscale int) {
	v.dscale = rscale
	di := (v.weight+1)*decDigits + rscale
	if di <= 0 {
		v.digits, v.weight, v.neg = nil, 0, false
		return
	}
	nd := (di + decDigits - 1) / decDigits
	if nd > len(v.digits) {
		return
	}
	digits := append([]int32(nil), v.digits[:nd]...)
	if di %= decDigits; di > 0 {
		pow := roundPowers[di]
		digits[nd-1] -= digits[nd-1] % pow
	}
	v.digits = digits
}

// cmpVar is cmp_var.
func cmpVar(a, b *nvar) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	c := cmpAbs2(a, b)
	if sa < 0 {
		return -c
	}
	return c
}

func (v *nvar) sign() int {
	switch {
	case len(v.digits) == 0 || allZero(v.digits):
		return 0
	case v.neg:
		return -1
	}
	return 1
}

func allZero(ds []int32) bool {
	for _, d := range ds {
		if d != 0 {
			return false
		}
	}
	return true
}

// cmpAbs2 is cmp_abs: |a| against |b|, digit by digit (either may carry
// leading or trailing zero digits).
func cmpAbs2(a, b *nvar) int {
	w1, w2 := a.weight, b.weight
	d1, d2 := a.digits, b.digits
	for w1 > w2 && len(d1) > 0 {
		if d1[0] != 0 {
			return 1
		}
		d1, w1 = d1[1:], w1-1
	}
	for w2 > w1 && len(d2) > 0 {
		if d2[0] != 0 {
			return -1
		}
		d2, w2 = d2[1:], w2-1
	}
	if w1 == w2 {
		for len(d1) > 0 && len(d2) > 0 {
			if d1[0] != d2[0] {
				if d1[0] > d2[0] {
					return 1
				}
				return -1
			}
			d1, d2 = d1[1:], d2[1:]
		}
	}
	if !allZero(d1) {
		return 1
	}
	if !allZero(d2) {
		return -1
	}
	return 0
}

// addAbs is add_abs: |a| + |b|, dscale the larger, stripped.
func addAbs(a, b *nvar) *nvar {
	resWeight := max(a.weight, b.weight) + 1
	resRscale := max(len(a.digits)-a.weight-1, len(b.digits)-b.weight-1)
	nd := max(resRscale+resWeight+1, 1)
	res := make([]int32, nd)
	i1 := resRscale + a.weight + 1
	i2 := resRscale + b.weight + 1
	var carry int32
	for i := nd - 1; i >= 0; i-- {
		i1--
		i2--
		if i1 >= 0 && i1 < len(a.digits) {
			carry += a.digits[i1]
		}
		if i2 >= 0 && i2 < len(b.digits) {
			carry += b.digits[i2]
		}
		if carry >= nbase {
			res[i] = carry - nbase
			carry = 1
		} else {
			res[i] = carry
			carry = 0
		}
	}
	r := &nvar{digits: res, weight: resWeight, dscale: max(a.dscale, b.dscale)}
	r.strip()
	return r
}

// subAbs is sub_abs: |a| - |b| (|a| ≥ |b|).
func subAbs(a, b *nvar) *nvar {
	resWeight := a.weight
	resRscale := max(len(a.digits)-a.weight-1, len(b.digits)-b.weight-1)
	nd := max(resRscale+resWeight+1, 1)
	res := make([]int32, nd)
	i1 := resRscale + a.weight + 1
	i2 := resRscale + b.weight + 1
	var borrow int32
	for i := nd - 1; i >= 0; i-- {
		i1--
		i2--
		if i1 >= 0 && i1 < len(a.digits) {
			borrow += a.digits[i1]
		}
		if i2 >= 0 && i2 < len(b.digits) {
			borrow -= b.digits[i2]
		}
		if borrow < 0 {
			res[i] = borrow + nbase
			borrow = -1
		} else {
			res[i] = borrow
			borrow = 0
		}
	}
	r := &nvar{digits: res, weight: resWeight, dscale: max(a.dscale, b.dscale)}
	r.strip()
	return r
}

// addVar is add_var.
func addVar(a, b *nvar) *nvar {
	if a.neg == b.neg {
		r := addAbs(a, b)
		r.neg = a.neg && len(r.digits) > 0
		return r
	}
	switch c := cmpAbs2(a, b); {
	case c == 0:
		return zeroVar(max(a.dscale, b.dscale))
	case c > 0:
		r := subAbs(a, b)
		r.neg = a.neg && len(r.digits) > 0
		return r
	default:
		r := subAbs(b, a)
		r.neg = b.neg && len(r.digits) > 0
		return r
	}
}

// subVar is sub_var.
func subVar(a, b *nvar) *nvar {
	nb := *b
	nb.neg = !b.neg
	return addVar(a, &nb)
}

// mulVar is mul_var: the product of the digits PostgreSQL keeps (it drops
// the partial products past maxdigits), rounded at rscale.
func mulVar(v1, v2 *nvar, rscale int) *nvar {
	if len(v1.digits) > len(v2.digits) {
		v1, v2 = v2, v1
	}
	n1, n2 := len(v1.digits), len(v2.digits)
	if n1 == 0 || n2 == 0 {
		return zeroVar(rscale)
	}
	neg := v1.neg != v2.neg
	resWeight := v1.weight + v2.weight + 2
	resN := n1 + n2 + 1
	maxdigits := resWeight + 1 + (rscale+decDigits-1)/decDigits + mulGuardDigits
	resN = min(resN, maxdigits)
	if resN < 3 {
		return zeroVar(rscale)
	}
	// digit i1 of v1 and i2 of v2 go to dig[i1+i2+2], kept while that is
	// below resN: only the first resN-2 digits of either can contribute
	a, b := v1.digits[:min(n1, resN-2)], v2.digits[:min(n2, resN-2)]
	var dig []int64
	if len(a) >= kronMinDigits && bits.UintSize == 64 {
		dig = mulDigitsKron(a, b, resN)
	} else {
		dig = mulDigitsSchool(a, b, resN)
	}
	res := make([]int32, resN)
	var carry int64
	for i := resN - 1; i >= 0; i-- {
		nd := dig[i] + carry
		carry = nd / nbase
		res[i] = int32(nd - carry*nbase)
	}
	r := &nvar{digits: res, weight: resWeight, neg: neg}
	r.round(rscale)
	r.strip()
	return r
}

// mulDigitsSchool is mul_var's accumulation: dig[i1+i2+2] sums
// a[i1]×b[i2] for every pair with i1+i2+2 < resN, carries left for later.
func mulDigitsSchool(a, b []int32, resN int) []int64 {
	dig := make([]int64, resN)
	for i1 := len(a) - 1; i1 >= 0; i1-- {
		d1 := int64(a[i1])
		if d1 == 0 {
			continue
		}
		src := b[:min(len(b), resN-i1-2)]
		dst := dig[i1+2 : i1+2+len(src)]
		for i2, d2 := range src {
			dst[i2] += d1 * int64(d2)
		}
	}
	return dig
}

// kronMinDigits is the shorter operand's length from which mulDigitsKron
// beats mulDigitsSchool.
const kronMinDigits = 256

// mulDigitsKron is mulDigitsSchool's dig by one big.Int product (Kronecker
// substitution): with digit i of a as the i-th 64-bit word of X (and so
// for b and Y), word k of X×Y is the sum of a[i1]×b[i2] over i1+i2 = k,
// which is dig[k+2]; no sum reaches 2^64 (it is below len(a)×10^8), so no
// word carries into the next. The words past resN-3 are the products
// mul_var drops. Go's multiplication is Karatsuba's from some 40 words,
// where the schoolbook loop is quadratic.
func mulDigitsKron(a, b []int32, resN int) []int64 {
	words := func(ds []int32) *big.Int {
		w := make([]big.Word, len(ds))
		for i, d := range ds {
			w[i] = big.Word(d)
		}
		return new(big.Int).SetBits(w)
	}
	p := words(a)
	p.Mul(p, words(b))
	dig := make([]int64, resN)
	for k, w := range p.Bits() {
		if k+2 >= resN {
			break
		}
		dig[k+2] = int64(w)
	}
	return dig
}

var bigTen10 = big.NewInt(10)

func pow10Big(k int) *big.Int { return new(big.Int).Exp(bigTen10, big.NewInt(int64(k)), nil) }

func errDivByZero() error { return sqlerr.DivideByZero() }

// divVar is div_var: the quotient figured to rscale digits (one more when
// round) and rounded half away from zero or truncated at rscale, which is
// the exact quotient rounded or truncated, as computed here.
func divVar(a, b *nvar, rscale int, round bool) (*nvar, error) {
	if len(b.digits) == 0 || b.digits[0] == 0 {
		return nil, errDivByZero()
	}
	if len(a.digits) == 0 {
		return zeroVar(rscale), nil
	}
	an, ae := a.scaled()
	bn, be := b.scaled()
	// q × 10^rscale = an × 10^(ae + rscale - be) / bn
	if k := ae + rscale - be; k >= 0 {
		an.Mul(an, pow10Big(k))
	} else {
		bn.Mul(bn, pow10Big(-k))
	}
	q, r := new(big.Int).QuoRem(an, bn, new(big.Int))
	if round {
		r.Lsh(r, 1)
		if r.Cmp(bn) >= 0 {
			q.Add(q, big.NewInt(1))
		}
	}
	return fromScaled(q, -rscale, a.neg != b.neg, rscale), nil
}

// divVarInt is div_var_int: a / (ival × 10000^ivalWeight), by short
// division to rscale (a digit further when round), then rounded or
// truncated there.
func divVarInt(a *nvar, ival int64, ivalWeight int, rscale int, round bool) *nvar {
	if ival == 0 {
		panic("division by zero")
	}
	if len(a.digits) == 0 {
		return zeroVar(rscale)
	}
	neg := a.neg != (ival < 0)
	divisor := uint64(ival)
	if ival < 0 {
		divisor = uint64(-ival)
	}
	resWeight := a.weight - ivalWeight
	resN := max(resWeight+1+(rscale+decDigits-1)/decDigits, 1)
	if round {
		resN++
	}
	res := make([]int32, resN)
	var carry uint64
	for i := range res {
		carry *= nbase
		if i < len(a.digits) {
			carry += uint64(a.digits[i])
		}
		res[i] = int32(carry / divisor)
		carry %= divisor
	}
	r := &nvar{digits: res, weight: resWeight, neg: neg}
	if round {
		r.round(rscale)
	} else {
		r.trunc(rscale)
	}
	r.strip()
	return r
}

// divVarFast is div_var_fast, digit by digit as PostgreSQL 15 computes it:
// quotient digits estimated in double precision, errors carried into the
// later digits, the last digit taken from what is left.
func divVarFast(v1, v2 *nvar, rscale int, round bool) (*nvar, error) {
	n1, n2 := len(v1.digits), len(v2.digits)
	if n2 == 0 || v2.digits[0] == 0 {
		return nil, errDivByZero()
	}
	if n2 <= 2 {
		idiv := int64(v2.digits[0])
		w := v2.weight
		if n2 == 2 {
			idiv = idiv*nbase + int64(v2.digits[1])
			w--
		}
		if v2.neg {
			idiv = -idiv
		}
		return divVarInt(v1, idiv, w, rscale, round), nil
	}
	if n1 == 0 {
		return zeroVar(rscale), nil
	}
	resWeight, divN := divShape(v1, v2, rscale)
	if divN*min(n2, divN+1) >= fastDivMinWork {
		if r, ok := divVarFastBounded(v1, v2, resWeight, divN, rscale, round); ok {
			return r, nil
		}
	}
	r := divQuotientDigits(v1, v2, resWeight, divN)
	if round {
		r.round(rscale)
	} else {
		r.trunc(rscale)
	}
	r.strip()
	return r, nil
}

// divShape is div_var_fast's res_weight and div_ndigits: its quotient's
// first digit's weight and its number of digits less one.
func divShape(v1, v2 *nvar, rscale int) (resWeight, divN int) {
	resWeight = v1.weight - v2.weight + 1
	divN = resWeight + 1 + (rscale+decDigits-1)/decDigits
	divN += divGuardDigits
	return resWeight, max(divN, divGuardDigits)
}

// fastDivMinWork is the size of div_var_fast's subtraction loop (quotient
// digits × divisor digits) from which divVarFastBounded's big.Int
// division is the cheaper way to its answer.
const fastDivMinWork = 4096

// divSlackPerDigit bounds, per quotient digit, how far div_var_fast's
// unrounded quotient Q (an integer in units of its last digit, div[divN])
// is from the exact quotient E of the dividend's first divN digits by the
// divisor: each of its divN+1 steps subtracts q × divisor with the divisor's
// digits past div[divN] dropped (less than |q| < 2×NBASE units) and the last
// digit comes from a four-digit floating-point estimate (within a unit or
// two), so |Q-E| < (divN+2) × 2×NBASE. This bound is 50 times that.
const divSlackPerDigit = 1_000_000

// divVarFastBounded is div_var_fast's answer without its quadratic loop:
// the exact quotient E by big.Int division, and |Q-E| bounded by
// divSlackPerDigit. The rounding (or truncation) at rscale sits at least
// 20 decimal digits above Q's last unit (the DIV_GUARD_DIGITS and the
// digit res_weight+1 adds), so when E-slack and E+slack round to the same
// value, so does Q, and that value is PostgreSQL's. When they do not (the
// quotient within the slack of a rounding boundary: an exact quotient
// truncated, say), false: the caller runs the loop itself.
func divVarFastBounded(v1, v2 *nvar, resWeight, divN, rscale int, round bool) (*nvar, bool) {
	k := decDigits*(divN-resWeight) - rscale // decimal digits from Q's unit to rscale's
	if k < 16 {
		return nil, false
	}
	load := min(divN, len(v1.digits))
	// E = (dividend digits loaded into div[1..divN]) / divisor, in units of
	// div[divN]: the divisor's first digit is of weight 0 in that frame
	num := digitsBig(v1.digits[:load])
	num.Mul(num, pow10Big(decDigits*(divN-load+len(v2.digits)-1)))
	q := new(big.Int).Quo(num, digitsBig(v2.digits)) // E in [q, q+1)
	slack := new(big.Int).SetInt64(int64(divN+2) * divSlackPerDigit)
	lo := new(big.Int).Sub(q, slack)
	if lo.Sign() < 0 {
		return nil, false
	}
	hi := new(big.Int).Add(q, slack)
	hi.Add(hi, big.NewInt(1))
	p := pow10Big(k)
	if round {
		half := new(big.Int).Rsh(p, 1)
		lo.Add(lo, half)
		hi.Add(hi, half)
	}
	lo.Quo(lo, p)
	if hi.Quo(hi, p).Cmp(lo) != 0 {
		return nil, false
	}
	return fromScaled(lo, -rscale, v1.neg != v2.neg, rscale), true
}

// divQuotientDigits is div_var_fast's long division as PostgreSQL 15 runs
// it (n2 > 2 divisor digits, a non-zero dividend): its quotient of divN+1
// digits before the rounding at rscale.
func divQuotientDigits(v1, v2 *nvar, resWeight, divN int) *nvar {
	n1, n2 := len(v1.digits), len(v2.digits)
	neg := v1.neg != v2.neg
	div := make([]int64, divN+1)
	load := min(divN, n1)
	for i := 0; i < load; i++ {
		div[i+1] = int64(v1.digits[i])
	}
	fdivisor := float64(v2.digits[0])
	for i := 1; i < 4; i++ {
		fdivisor *= nbase
		if i < n2 {
			fdivisor += float64(v2.digits[i])
		}
	}
	inv := 1.0 / fdivisor
	qdig := func(f float64) int64 {
		if f >= 0 {
			return int64(int32(f))
		}
		return int64(int32(f)) - 1
	}
	fdividendAt := func(qi int) float64 {
		f := float64(div[qi])
		for i := 1; i < 4; i++ {
			f *= nbase
			if qi+i <= divN {
				f += float64(div[qi+i])
			}
		}
		return f
	}
	maxdiv := int64(1)
	qi := 0
	for ; qi < divN; qi++ {
		q := qdig(fdividendAt(qi) * inv)
		if q != 0 {
			maxdiv += abs64(q)
			if maxdiv > (intMax-intMax/nbase-1)/(nbase-1) {
				var carry int64
				for i := min(qi+n2-2, divN); i > qi; i-- {
					nd := div[i] + carry
					switch {
					case nd < 0:
						carry = -((-nd - 1) / nbase) - 1
						nd -= carry * nbase
					case nd >= nbase:
						carry = nd / nbase
						nd -= carry * nbase
					default:
						carry = 0
					}
					div[i] = nd
				}
				div[qi] += carry
				maxdiv = 1
				q = qdig(fdividendAt(qi) * inv)
				maxdiv += abs64(q)
			}
			if q != 0 {
				// (NumericDigit) qdigit: PostgreSQL multiplies in 16 bits
				q16 := int64(int16(q))
				src := v2.digits[:min(n2, divN-qi+1)]
				dst := div[qi : qi+len(src)]
				for i, d := range src {
					dst[i] -= q16 * int64(d)
				}
			}
		}
		div[qi+1] += div[qi] * nbase
		div[qi] = q
	}
	f := float64(div[qi])
	for i := 1; i < 4; i++ {
		f *= nbase
	}
	div[qi] = qdig(f * inv)
	res := make([]int32, divN+1)
	var carry int64
	for i := divN; i >= 0; i-- {
		nd := div[i] + carry
		switch {
		case nd < 0:
			carry = -((-nd - 1) / nbase) - 1
			nd -= carry * nbase
		case nd >= nbase:
			carry = nd / nbase
			nd -= carry * nbase
		default:
			carry = 0
		}
		res[i] = int32(nd)
	}
	return &nvar{digits: res, weight: resWeight, neg: neg}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// sqrtVar is sqrt_var: the integer square root of the input's first
// src_ndigits digits (the Karatsuba steps compute it exactly), placed at
// res_weight and rounded at rscale.
func sqrtVar(arg *nvar, rscale int) (*nvar, error) {
	switch arg.sign() {
	case 0:
		return zeroVar(rscale), nil
	case -1:
		return nil, errSqrtNeg()
	}
	var resWeight int
	if arg.weight >= 0 {
		resWeight = arg.weight / 2
	} else {
		resWeight = -((-arg.weight-1)/2 + 1)
	}
	var resN int
	if rscale+1 >= 0 {
		resN = resWeight + 1 + (rscale+decDigits)/decDigits
	} else {
		resN = resWeight + 1 - (-rscale-1)/decDigits
	}
	resN = max(resN, 1)
	srcN := max(arg.weight+1+(resN-resWeight-1)*2, 1)
	n := digitsBig(arg.digits[:min(srcN, len(arg.digits))])
	if srcN > len(arg.digits) {
		n.Mul(n, pow10Big(decDigits*(srcN-len(arg.digits))))
	}
	s := isqrt(n)
	r := &nvar{weight: resWeight}
	if s.Sign() > 0 {
		r.digits = bigDigits(s)
	}
	r.round(rscale)
	r.strip()
	return r, nil
}

// isqrt is ⌊√n⌋ (n ≥ 0): the square root of n's upper half, found the
// same way, shifted into place and taken one Newton step (from any start
// the step lands on ⌊√n⌋ or above it; from this one, within a unit or
// two), then stepped down to ⌊√n⌋. big.Int's Sqrt starts from a power of
// two and takes a full-width division per step, some twelve of them for
// the thousand-digit arguments ln_var square-roots.
func isqrt(n *big.Int) *big.Int {
	b := n.BitLen()
	if b <= 128 {
		return new(big.Int).Sqrt(n)
	}
	k := uint(b / 4)
	s := isqrt(new(big.Int).Rsh(n, 2*k))
	s.Lsh(s, k)
	s.Add(s, new(big.Int).Quo(n, s))
	s.Rsh(s, 1)
	one := big.NewInt(1)
	for sq := new(big.Int); sq.Mul(s, s).Cmp(n) > 0; {
		s.Sub(s, one)
	}
	return s
}

// expVar is exp_var.
func expVar(arg *nvar, rscale int) (*nvar, error) {
	x := arg.clone()
	val := x.toFloat()
	if math.Abs(val) >= MaxResultScale*3 {
		if val > 0 {
			return nil, errOverflow()
		}
		return zeroVar(rscale), nil
	}
	dweight := int(val * 0.434294481903252)
	ndiv2 := 0
	if math.Abs(val) > 0.01 {
		ndiv2 = 1
		val /= 2
		for math.Abs(val) > 0.01 {
			ndiv2++
			val /= 2
		}
		x = divVarInt(x, 1<<ndiv2, 0, x.dscale+ndiv2, true)
	}
	sig := 1 + dweight + rscale + int(float64(ndiv2)*0.301029995663981)
	sig = max(sig, 0) + 8
	local := sig - 1
	result := addVar(varOne, x)
	elem := mulVar(x, x, local)
	ni := int64(2)
	elem = divVarInt(elem, ni, 0, local, true)
	for len(elem.digits) != 0 {
		result = addVar(result, elem)
		elem = mulVar(elem, x, local)
		ni++
		elem = divVarInt(elem, ni, 0, local, true)
	}
	for ; ndiv2 > 0; ndiv2-- {
		local = max(sig-result.weight*2*decDigits, 0)
		result = mulVar(result, result, local)
	}
	result.round(rscale)
	return result, nil
}

// lnDweightVar is estimate_ln_dweight.
func lnDweightVar(v *nvar) int {
	if v.neg {
		return 0
	}
	if cmpVar(v, varZeroPointNin) >= 0 && cmpVar(v, varOnePointOne) <= 0 {
		x := subVar(v, varOne)
		if len(x.digits) > 0 {
			return x.weight*decDigits + int(math.Log10(float64(x.digits[0])))
		}
		return 0
	}
	if len(v.digits) == 0 {
		return 0
	}
	digits := int(v.digits[0])
	dweight := v.weight * decDigits
	if len(v.digits) > 1 {
		digits = digits*nbase + int(v.digits[1])
		dweight -= decDigits
	}
	ln := math.Log(float64(digits)) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(ln)))
}

// lnVar is ln_var.
func lnVar(arg *nvar, rscale int) (*nvar, error) {
	switch arg.sign() {
	case 0:
		return nil, errLog(true)
	case -1:
		return nil, errLog(false)
	}
	x := arg.clone()
	fact := varTwo.clone()
	nsqrt := 0
	var err error
	for cmpVar(x, varZeroPointNin) <= 0 {
		local := rscale - x.weight*decDigits/2 + 8
		if x, err = sqrtVar(x, local); err != nil {
			return nil, err
		}
		fact = mulVar(fact, varTwo, 0)
		nsqrt++
	}
	for cmpVar(x, varOnePointOne) >= 0 {
		local := rscale - x.weight*decDigits/2 + 8
		if x, err = sqrtVar(x, local); err != nil {
			return nil, err
		}
		fact = mulVar(fact, varTwo, 0)
		nsqrt++
	}
	local := rscale + int(float64(nsqrt+1)*0.301029995663981) + 8
	result := subVar(x, varOne)
	elem := addVar(x, varOne)
	if result, err = divVarFast(result, elem, local, true); err != nil {
		return nil, err
	}
	xx := result.clone()
	x = mulVar(result, result, local)
	ni := int64(1)
	for {
		ni += 2
		xx = mulVar(xx, x, local)
		elem = divVarInt(xx, ni, 0, local, true)
		if len(elem.digits) == 0 {
			break
		}
		result = addVar(result, elem)
		if elem.weight < result.weight-local*2/decDigits {
			break
		}
	}
	return mulVar(result, fact, rscale), nil
}

// logVar is log_var: it chooses the result's scale.
func logVar(base, num *nvar) (*nvar, error) {
	bdw, ndw := lnDweightVar(base), lnDweightVar(num)
	rdw := ndw - bdw
	rscale := MinSigDigits - rdw
	rscale = max(rscale, base.dscale, num.dscale, 0)
	rscale = min(rscale, MaxDisplayScale)
	bscale := max(rscale+rdw-bdw+8, 0)
	nscale := max(rscale+rdw-ndw+8, 0)
	lb, err := lnVar(base, bscale)
	if err != nil {
		return nil, err
	}
	ln, err := lnVar(num, nscale)
	if err != nil {
		return nil, err
	}
	return divVarFast(ln, lb, rscale, true)
}

// varInt64 is numericvar_to_int64 for an integral v: false past int64.
func varInt64(v *nvar) (int64, bool) {
	n, e := v.scaled()
	if e > 0 {
		n.Mul(n, pow10Big(e))
	} else if e < 0 {
		n.Quo(n, pow10Big(-e))
	}
	if v.neg {
		n.Neg(n)
	}
	if !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// powerVar is power_var: it chooses the result's scale.
func powerVar(base, exp *nvar) (*nvar, error) {
	if len(exp.digits) == 0 || len(exp.digits) <= exp.weight+1 {
		if v, ok := varInt64(exp); ok && v >= math.MinInt32 && v <= math.MaxInt32 {
			rscale := min(max(MinSigDigits, base.dscale, 0), MaxDisplayScale)
			return powerVarInt(base, int(v), rscale)
		}
	}
	if base.sign() == 0 {
		return zeroVar(MinSigDigits), nil
	}
	neg := false
	if base.neg {
		if len(exp.digits) > 0 && len(exp.digits) > exp.weight+1 {
			return nil, errPower("a negative number raised to a non-integer power yields a complex result")
		}
		neg = len(exp.digits) > 0 && len(exp.digits) == exp.weight+1 && exp.digits[len(exp.digits)-1]&1 == 1
		b := base.clone()
		b.neg = false
		base = b
	}
	ldw := lnDweightVar(base)
	local := max(8-ldw, 0)
	lnb, err := lnVar(base, local)
	if err != nil {
		return nil, err
	}
	lnn := mulVar(lnb, exp, local)
	val := lnn.toFloat()
	if math.Abs(val) > MaxResultScale*3.01 {
		if val > 0 {
			return nil, errOverflow()
		}
		return zeroVar(MaxDisplayScale), nil
	}
	val *= 0.434294481903252
	rscale := MinSigDigits - int(val)
	rscale = max(rscale, base.dscale, exp.dscale, 0)
	rscale = min(rscale, MaxDisplayScale)
	sig := max(rscale+int(val), 0)
	local = max(sig-ldw+8, 0)
	if lnb, err = lnVar(base, local); err != nil {
		return nil, err
	}
	lnn = mulVar(lnb, exp, local)
	r, err := expVar(lnn, rscale)
	if err != nil {
		return nil, err
	}
	if neg && len(r.digits) > 0 {
		r.neg = true
	}
	return r, nil
}

// powerVarInt is power_var_int.
func powerVarInt(base *nvar, exp int, rscale int) (*nvar, error) {
	switch exp {
	case 0:
		r := varOne.clone()
		r.dscale = rscale
		return r, nil
	case 1:
		r := base.clone()
		r.round(rscale)
		return r, nil
	case -1:
		return divVar(varOne, base, rscale, true)
	case 2:
		return mulVar(base, base, rscale), nil
	}
	if len(base.digits) == 0 {
		if exp < 0 {
			return nil, errDivByZero()
		}
		return zeroVar(rscale), nil
	}
	f := float64(base.digits[0])
	p := base.weight * decDigits
	for i := 1; i < len(base.digits) && i*decDigits < 16; i++ {
		f = f*nbase + float64(base.digits[i])
		p -= decDigits
	}
	f = float64(exp) * (math.Log10(f) + float64(p))
	if f > 3*maxWeight*decDigits {
		return nil, errOverflow()
	}
	if f+1 < float64(-rscale) || f+1 < -MaxDisplayScale {
		return zeroVar(rscale), nil
	}
	sig := 1 + rscale + int(f)
	sig += int(math.Log(math.Abs(float64(exp)))) + 8
	neg := exp < 0
	mask := uint32(exp)
	if neg {
		mask = uint32(-int64(exp))
	}
	prod := base.clone()
	var result *nvar
	if mask&1 != 0 {
		result = base.clone()
	} else {
		result = varOne.clone()
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		local := sig - 2*prod.weight*decDigits
		local = min(local, 2*prod.dscale)
		local = max(local, 0)
		prod = mulVar(prod, prod, local)
		if mask&1 != 0 {
			local = sig - (prod.weight+result.weight)*decDigits
			local = min(local, prod.dscale+result.dscale)
			local = max(local, 0)
			result = mulVar(prod, result, local)
		}
		if prod.weight > maxWeight || result.weight > maxWeight {
			if !neg {
				return nil, errOverflow()
			}
			result = zeroVar(0)
			neg = false
			break
		}
	}
	if neg {
		return divVarFast(varOne, result, rscale, true)
	}
	result.round(rscale)
	return result, nil
}
