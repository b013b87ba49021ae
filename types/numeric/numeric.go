package numeric

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// numeric.c's limits.
const (
	MinSigDigits    = 16    // NUMERIC_MIN_SIG_DIGITS
	MaxDisplayScale = 1000  // NUMERIC_MAX_DISPLAY_SCALE
	MaxResultScale  = 2000  // NUMERIC_MAX_RESULT_SCALE
	MaxDscale       = 16383 // NUMERIC_DSCALE_MAX: digits after the point
	MaxIntDigits    = 131072
	maxWeight       = 32767 // NUMERIC_WEIGHT_MAX, in base-10000 digits
	// MaxPrecision is the largest precision numeric(p,s) accepts.
	MaxPrecision = 1000
)

// NaN, PosInf and NegInf return the special values.
func NaN() *apd.Decimal    { return &apd.Decimal{Form: apd.NaN} }
func PosInf() *apd.Decimal { return &apd.Decimal{Form: apd.Infinite} }
func NegInf() *apd.Decimal { return &apd.Decimal{Form: apd.Infinite, Negative: true} }

// IsNaN reports whether d is NaN.
func IsNaN(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }

// IsInf reports whether d is +Infinity or -Infinity.
func IsInf(d *apd.Decimal) bool { return d.Form == apd.Infinite }

// IsSpecial reports whether d is NaN or an infinity.
func IsSpecial(d *apd.Decimal) bool { return d.Form != apd.Finite }

// Dscale is d's display scale (0 for special values).
func Dscale(d *apd.Decimal) int {
	if d.Form != apd.Finite {
		return 0
	}
	return int(-d.Exponent)
}

// FromInt64 is v with scale 0.
func FromInt64(v int64) *apd.Decimal {
	d := new(apd.Decimal)
	d.SetInt64(v)
	return d
}

// FromUnscaled is v × 10^-scale (scale ≥ 0), as a decimal128 or a
// DECIMAL(p,s) column holds its values.
func FromUnscaled(v *big.Int, scale int) *apd.Decimal {
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(v)
	if d.Coeff.Sign() < 0 {
		d.Coeff.Neg(&d.Coeff)
		d.Negative = true
	}
	d.Exponent = int32(-scale)
	return norm(d)
}

// FromUnscaled64 is FromUnscaled for a value that fits an int64.
func FromUnscaled64(v int64, scale int) *apd.Decimal {
	d := new(apd.Decimal)
	d.SetFinite(v, int32(-scale))
	return norm(d)
}

// Unscaled returns d's coefficient with its sign: d = Unscaled(d) × 10^-Dscale(d).
func Unscaled(d *apd.Decimal) *big.Int {
	v := d.Coeff.MathBigInt()
	if d.Negative {
		v.Neg(v)
	}
	return v
}

// norm keeps the canonical shape: no negative zero.
func norm(d *apd.Decimal) *apd.Decimal {
	if d.Form == apd.Finite && d.Coeff.Sign() == 0 {
		d.Negative = false
	}
	return d
}

func errOverflow() error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "value overflows numeric format")
}

func errDivZero() error { return sqlerr.DivideByZero() }

// make finishes a finite result as make_result does: 22003 when it has
// more than 131072 digits before the point or more than 16383 after.
func mk(neg bool, coef *apd.BigInt, scale int) (*apd.Decimal, error) {
	if scale > MaxDscale {
		return nil, errOverflow()
	}
	d := &apd.Decimal{Negative: neg, Exponent: int32(-scale)}
	d.Coeff.Set(coef)
	if d.Coeff.Sign() < 0 {
		d.Coeff.Neg(&d.Coeff)
		d.Negative = !d.Negative
	}
	if nd := numDigits(&d.Coeff); nd-scale > MaxIntDigits-4 {
		if w, _ := weightOf(d); w > maxWeight {
			return nil, errOverflow()
		}
	}
	return norm(d), nil
}

// Check applies make_result's limits to a finite value built elsewhere.
func Check(d *apd.Decimal) (*apd.Decimal, error) {
	if d.Form != apd.Finite {
		return d, nil
	}
	return mk(d.Negative, &d.Coeff, Dscale(d))
}

var bigTen = apd.NewBigInt(10)

// pow10 is 10^k (k ≥ 0) as a fresh BigInt.
func pow10(k int) *apd.BigInt {
	if k < 19 {
		return apd.NewBigInt(int64(math.Pow10(k)))
	}
	return new(apd.BigInt).Exp(bigTen, apd.NewBigInt(int64(k)), nil)
}

// numDigits is the number of decimal digits of |b| (1 for 0).
func numDigits(b *apd.BigInt) int {
	if b.IsInt64() {
		v := b.Int64()
		if v < 0 {
			v = -v
		}
		n := 1
		for v >= 10 {
			v /= 10
			n++
		}
		return n
	}
	// estimate from the bit length, then correct
	n := int(float64(b.BitLen())*0.30102999566398120) + 1
	var a apd.BigInt
	a.Abs(b)
	if a.Cmp(pow10(n-1)) < 0 {
		n--
	} else if a.Cmp(pow10(n)) >= 0 {
		n++
	}
	return n
}

// dexp is the decimal exponent of d's leading digit (d finite, nonzero).
func dexp(d *apd.Decimal) int { return numDigits(&d.Coeff) - 1 + int(d.Exponent) }

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// weightOf is PostgreSQL's NumericVar weight of a normalised value (the
// base-10000 position of its leading nonzero digit group; 0 for zero)
// and that group's value.
func weightOf(d *apd.Decimal) (weight int, first int) {
	if d.Coeff.Sign() == 0 {
		return 0, 0
	}
	w := floorDiv(dexp(d), 4)
	return w, groupAt(d, w)
}

// groupAt is the base-10000 digit of |d| at position w.
func groupAt(d *apd.Decimal, w int) int {
	shift := 4*w + int(-d.Exponent) // |d| / 10000^w = coef / 10^shift
	var q apd.BigInt
	if shift >= 0 {
		q.Quo(&d.Coeff, pow10(shift))
	} else {
		q.Mul(&d.Coeff, pow10(-shift))
	}
	q.Rem(&q, apd.NewBigInt(10000))
	return int(q.Int64())
}

// ndigits is the count of base-10000 digits PostgreSQL stores for d: from
// its leading group to its last nonzero one.
func ndigits(d *apd.Decimal) int {
	if d.Coeff.Sign() == 0 {
		return 0
	}
	w := floorDiv(dexp(d), 4)
	tz := 0
	var c, r apd.BigInt
	c.Set(&d.Coeff)
	for {
		var q apd.BigInt
		q.QuoRem(&c, bigTen, &r)
		if r.Sign() != 0 {
			break
		}
		c.Set(&q)
		tz++
	}
	low := floorDiv(tz+int(d.Exponent), 4)
	return w - low + 1
}

// IsIntegral reports whether a finite d has no nonzero fraction digits.
func IsIntegral(d *apd.Decimal) bool {
	if d.Form != apd.Finite {
		return false
	}
	if d.Exponent >= 0 || d.Coeff.Sign() == 0 {
		return true
	}
	var r apd.BigInt
	r.Rem(&d.Coeff, pow10(int(-d.Exponent)))
	return r.Sign() == 0
}

// --- text -----------------------------------------------------------------

func invalid(s string) error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type %s: %q", "numeric", s)
}

// Parse reads numeric_in's text: optional sign, digits with an optional
// point, an optional exponent; NaN and the infinities (Infinity, inf, with
// a sign) in any case; blanks around.
func Parse(s string) (*apd.Decimal, error) {
	t := strings.Trim(s, " \t\n\r\v\f")
	switch strings.ToLower(t) {
	case "nan":
		return NaN(), nil
	case "infinity", "+infinity", "inf", "+inf":
		return PosInf(), nil
	case "-infinity", "-inf":
		return NegInf(), nil
	}
	i := 0
	neg := false
	if i < len(t) && (t[i] == '+' || t[i] == '-') {
		neg = t[i] == '-'
		i++
	}
	var digits []byte
	scale := 0
	seenDigit, seenPoint := false, false
	for ; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			seenDigit = true
			if len(digits) > 0 || c != '0' {
				digits = append(digits, c)
			}
			if seenPoint {
				scale++
			}
			continue
		case c == '.' && !seenPoint:
			seenPoint = true
			continue
		}
		break
	}
	if !seenDigit {
		return nil, invalid(s)
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		j := i
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		k := j
		for k < len(t) && t[k] >= '0' && t[k] <= '9' {
			k++
		}
		if k == j {
			return nil, invalid(s)
		}
		e, err := strconv.ParseInt(t[i:k], 10, 64)
		if err != nil || e >= math.MaxInt32/2 || e <= -(math.MaxInt32/2) {
			return nil, errOverflow()
		}
		scale -= int(e)
		i = k
	}
	if i != len(t) {
		return nil, invalid(s)
	}
	var coef apd.BigInt
	if len(digits) > 0 {
		if _, ok := coef.SetString(string(digits), 10); !ok {
			return nil, invalid(s)
		}
	}
	if scale < 0 {
		if coef.Sign() != 0 {
			if len(digits)-scale > MaxIntDigits+1 {
				return nil, errOverflow()
			}
			coef.Mul(&coef, pow10(-scale))
		}
		scale = 0
	}
	return mk(neg, &coef, scale)
}

// MustParse is Parse for constants known to be valid.
func MustParse(s string) *apd.Decimal {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Append appends numeric_out's text of d.
func Append(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, "NaN"...)
	case apd.Infinite:
		if d.Negative {
			return append(dst, "-Infinity"...)
		}
		return append(dst, "Infinity"...)
	}
	if d.Negative && d.Coeff.Sign() != 0 {
		dst = append(dst, '-')
	}
	scale := int(-d.Exponent)
	var buf [40]byte
	digits := d.Coeff.Append(buf[:0], 10)
	if scale <= 0 {
		dst = append(dst, digits...)
		for k := 0; k < -scale && d.Coeff.Sign() != 0; k++ {
			dst = append(dst, '0')
		}
		return dst
	}
	if len(digits) <= scale {
		dst = append(dst, '0', '.')
		for k := len(digits); k < scale; k++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// String is numeric_out's text of d.
func String(d *apd.Decimal) string { return string(Append(nil, d)) }

// --- binary storage -------------------------------------------------------

// The compact form an Arrow column of numeric holds: one byte of kind
// (0 positive, 1 negative, 2 NaN, 3 +Infinity, 4 -Infinity), the display
// scale as a uvarint, then the coefficient's magnitude big-endian.
const (
	encPos byte = iota
	encNeg
	encNaN
	encPosInf
	encNegInf
)

// Encode appends d's compact form.
func Encode(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, encNaN)
	case apd.Infinite:
		if d.Negative {
			return append(dst, encNegInf)
		}
		return append(dst, encPosInf)
	}
	k := encPos
	if d.Negative {
		k = encNeg
	}
	dst = append(dst, k)
	dst = appendUvarint(dst, uint64(-d.Exponent))
	if d.Coeff.IsUint64() {
		v := d.Coeff.Uint64()
		n := 0
		for x := v; x > 0; x >>= 8 {
			n++
		}
		for i := n - 1; i >= 0; i-- {
			dst = append(dst, byte(v>>(8*uint(i))))
		}
		return dst
	}
	return append(dst, d.Coeff.Bytes()...)
}

func appendUvarint(dst []byte, v uint64) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// Decode reads a compact form written by Encode into d.
func Decode(b []byte, d *apd.Decimal) error {
	if len(b) == 0 {
		return sqlerr.New(sqlerr.InternalError, "empty numeric encoding")
	}
	*d = apd.Decimal{}
	switch b[0] {
	case encNaN:
		d.Form = apd.NaN
		return nil
	case encPosInf:
		d.Form = apd.Infinite
		return nil
	case encNegInf:
		d.Form = apd.Infinite
		d.Negative = true
		return nil
	case encPos, encNeg:
	default:
		return sqlerr.New(sqlerr.InternalError, "bad numeric encoding")
	}
	d.Negative = b[0] == encNeg
	var scale uint64
	i := 1
	for shift := uint(0); ; shift += 7 {
		if i >= len(b) || shift > 63 {
			return sqlerr.New(sqlerr.InternalError, "bad numeric encoding")
		}
		c := b[i]
		i++
		scale |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	d.Exponent = -int32(scale)
	mag := b[i:]
	if len(mag) <= 8 {
		var v uint64
		for _, c := range mag {
			v = v<<8 | uint64(c)
		}
		d.Coeff.SetUint64(v)
		return nil
	}
	d.Coeff.SetBytes(mag)
	return nil
}

// KeyBytes appends a form of d equal for equal values whatever their
// display scales (1.0 and 1.00 group together), for hashing and grouping.
func KeyBytes(dst []byte, d *apd.Decimal) []byte {
	if d.Form != apd.Finite || d.Exponent == 0 || d.Coeff.Sign() == 0 {
		if d.Form == apd.Finite && d.Coeff.Sign() == 0 {
			return append(dst, encPos, 0)
		}
		return Encode(dst, d)
	}
	r := *d
	r.Coeff.Set(&d.Coeff)
	var q, m apd.BigInt
	for r.Exponent < 0 {
		q.QuoRem(&r.Coeff, bigTen, &m)
		if m.Sign() != 0 {
			break
		}
		r.Coeff.Set(&q)
		r.Exponent++
	}
	return Encode(dst, &r)
}

// --- conversions ----------------------------------------------------------

// ToFloat64 is numeric_float8: the text read as a double; 22003 past
// its range.
func ToFloat64(d *apd.Decimal) (float64, error) {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return math.NaN(), nil
	case apd.Infinite:
		if d.Negative {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	}
	return ParseFloat(String(d), 64)
}

// ParseFloat reads a numeric's text as float8in (bits 64) or float4in
// (32) do: correctly rounded, and 22003 when the value overflows or
// underflows the type (strtod's ERANGE).
func ParseFloat(s string, bits int) (float64, error) {
	f, err := strconv.ParseFloat(s, bits)
	if err != nil || f == 0 && strings.Trim(s, "-0.") != "" {
		name := "double precision"
		if bits == 32 {
			name = "real"
		}
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "%q is out of range for type %s", s, name)
	}
	return f, nil
}

// ToFloat64Lossy is numericvar_to_double_no_overflow: the nearest double,
// ±Inf past the range.
func ToFloat64Lossy(d *apd.Decimal) float64 {
	f, err := strconv.ParseFloat(String(d), 64)
	if err != nil {
		return f // ±Inf or 0 from ParseFloat's range errors
	}
	return f
}

// FromFloat64 is float8_numeric (digits 15) or float4_numeric (digits 6):
// the value printed with that many significant digits, read back.
func FromFloat64(f float64, digits int) (*apd.Decimal, error) {
	switch {
	case math.IsNaN(f):
		return NaN(), nil
	case math.IsInf(f, 1):
		return PosInf(), nil
	case math.IsInf(f, -1):
		return NegInf(), nil
	}
	return Parse(strconv.FormatFloat(f, 'g', digits, 64))
}

// ErrSpecialValue is the cause of the 0A000 errors a NaN or an infinity
// raises where no special value fits (an integer): unlike sqlgate's own
// 0A000s (a feature not there yet), PostgreSQL raises these for the value,
// at planning too when the operand is a constant.
var ErrSpecialValue = errors.New("numeric special value has no integer form")

// ToInt64 rounds d half away from zero to an integer; ok is false when it
// does not fit an int64. Special values are errors (0A000) as in PostgreSQL.
func ToInt64(d *apd.Decimal, typeName string) (int64, bool, error) {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return 0, false, sqlerr.Wrap(ErrSpecialValue, sqlerr.FeatureNotSupported, "cannot convert NaN to %s", typeName)
	case apd.Infinite:
		return 0, false, sqlerr.Wrap(ErrSpecialValue, sqlerr.FeatureNotSupported, "cannot convert infinity to %s", typeName)
	}
	r := roundTo(d, 0, false)
	if !r.Coeff.IsInt64() {
		// The coefficient is a magnitude: -2^63 fits an int64 although
		// its magnitude does not.
		if r.Negative && r.Coeff.Cmp(minInt64Magnitude) == 0 {
			return math.MinInt64, true, nil
		}
		return 0, false, nil
	}
	v := r.Coeff.Int64()
	if r.Negative {
		v = -v
	}
	return v, true, nil
}

// minInt64Magnitude is 2^63, the magnitude of math.MinInt64.
var minInt64Magnitude = new(apd.BigInt).Lsh(apd.NewBigInt(1), 63)

// ApplyTypmod rounds d to scale and checks it fits numeric(precision,
// scale), as apply_typmod does (22003 "numeric field overflow").
func ApplyTypmod(d *apd.Decimal, precision, scale int) (*apd.Decimal, error) {
	if d.Form == apd.Infinite {
		return nil, fieldOverflow().WithDetail("A field with precision %d, scale %d cannot hold an infinite value.", precision, scale)
	}
	if d.Form != apd.Finite {
		return d, nil
	}
	r := roundTo(d, scale, false)
	maxDigits := precision - scale
	if r.Coeff.Sign() != 0 && numDigits(&r.Coeff)-Dscale(r) > maxDigits {
		return nil, FieldOverflow(precision, scale)
	}
	return r, nil
}

// FieldOverflow is apply_typmod's error for a value beyond numeric(precision,
// scale): unplaced, as PostgreSQL reports a type modifier's errors.
func FieldOverflow(precision, scale int) *sqlerr.Error {
	if maxDigits := precision - scale; maxDigits > 0 {
		return fieldOverflow().WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", precision, scale, maxDigits)
	}
	return fieldOverflow().WithDetail("A field with precision %d, scale %d must round to an absolute value less than 1.", precision, scale)
}

func fieldOverflow() *sqlerr.Error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "numeric field overflow").AsUnplaced()
}

// AppendSortKey appends bytes that compare (bytes.Compare) as Cmp orders
// the values and are equal exactly when the values are (1.0 and 1.00 are
// one key): a class byte (-Infinity, negative, zero, positive, +Infinity,
// NaN), then for a nonzero value the decimal exponent of its leading digit
// and its digits without trailing zeros, terminated; negatives inverted.
func AppendSortKey(dst []byte, d *apd.Decimal) []byte {
	switch {
	case IsNaN(d):
		return append(dst, 5)
	case d.Form == apd.Infinite && d.Negative:
		return append(dst, 0)
	case d.Form == apd.Infinite:
		return append(dst, 4)
	case d.Coeff.Sign() == 0:
		return append(dst, 2)
	}
	class := byte(3)
	if d.Negative {
		class = 1
	}
	dst = append(dst, class)
	start := len(dst)
	e := uint32(int32(dexp(d))) ^ (1 << 31)
	dst = append(dst, byte(e>>24), byte(e>>16), byte(e>>8), byte(e))
	var buf [40]byte
	digits := d.Coeff.Append(buf[:0], 10)
	k := len(digits)
	for k > 1 && digits[k-1] == '0' {
		k--
	}
	dst = append(dst, digits[:k]...)
	dst = append(dst, 0)
	if d.Negative {
		for i := start; i < len(dst); i++ {
			dst[i] = ^dst[i]
		}
	}
	return dst
}
