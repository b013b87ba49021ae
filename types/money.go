package types

import (
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// money (OID 790) is PostgreSQL's cash type: a 64-bit count of cents
// (MoneyType, an Int64 with the Variant Money), which orders, sums and
// stores (as a Fluss BIGINT) as the integer does. Its text follows
// lc_monetary; sqlgate has the C locale's conventions, which are also
// PostgreSQL's fallbacks for an empty locale field: two fraction digits,
// '.' as the point, ',' between groups of three, '$' before the amount
// and '-' before the '$' (cash.c: cash_in, cash_out, cash_words).

// moneyScale is the number of fraction digits (frac_digits of the C
// locale falls back to 2), and moneyFactor 10^moneyScale.
const (
	moneyScale  = 2
	moneyFactor = 100
)

// MoneyOutOfRange is cash.c's 22003 for a result that does not fit.
func MoneyOutOfRange() *sqlerr.Error {
	return sqlerr.New(sqlerr.NumericValueOutOfRange, "money out of range")
}

// ParseMoney reads money's text as cash_in does: blanks, a '$' and a
// sign ('-', '+' or an opening parenthesis) in front, digits with ','
// between groups anywhere and at most one '.', digits past the second
// fraction digit rounding the amount (half away from zero) and
// otherwise ignored, then blanks, ')', a sign or a '$' behind. An input
// with nothing else ("", "$") is zero. 22P02 for anything else, 22003
// for an amount past int64's cents.
func ParseMoney(str string) (int64, error) {
	outOfRange := func() (int64, error) {
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type money", str)
	}
	s := str
	skipSpace := func() {
		for len(s) > 0 && isCSpace(s[0]) {
			s = s[1:]
		}
	}
	skipSpace()
	s = strings.TrimPrefix(s, "$")
	skipSpace()
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "("):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	skipSpace()
	s = strings.TrimPrefix(s, "$")
	skipSpace()
	// the amount accumulates negative, as cash_in builds it, so that
	// -92233720368547758.08 fits
	var value int64
	dec, seenDot := 0, false
	for ; len(s) > 0; s = s[1:] {
		c := s[0]
		switch {
		case isDigit(c) && (!seenDot || dec < moneyScale):
			if value < (minInt64+int64(c-'0'))/10 {
				return outOfRange()
			}
			value = value*10 - int64(c-'0')
			if seenDot {
				dec++
			}
			continue
		case c == '.' && !seenDot:
			seenDot = true
			continue
		case c == ',':
			continue
		}
		break
	}
	if len(s) > 0 && isDigit(s[0]) && s[0] >= '5' {
		if value == minInt64 {
			return outOfRange()
		}
		value--
	}
	for ; dec < moneyScale; dec++ {
		if value < minInt64/10 {
			return outOfRange()
		}
		value *= 10
	}
	for len(s) > 0 && isDigit(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 {
		switch {
		case isCSpace(s[0]) || s[0] == ')' || s[0] == '+' || s[0] == '$':
		case s[0] == '-':
			neg = true
		default:
			return 0, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type money: \"%s\"", str)
		}
		s = s[1:]
	}
	if neg {
		return value, nil
	}
	if value == minInt64 {
		return outOfRange()
	}
	return -value, nil
}

const minInt64 = -1 << 63

// isCSpace is C's isspace in the C locale.
func isCSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// FormatMoney is money's text (cash_out): "$1,234.50", "-$0.01".
func FormatMoney(v int64) string { return string(AppendMoney(nil, v)) }

// AppendMoney appends money's text of v to dst.
func AppendMoney(dst []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		dst = append(dst, '-')
		u = -u // -MinInt64 wraps to 2^63, right as uint64
	}
	dst = append(dst, '$')
	var buf [40]byte
	i := len(buf)
	for pos := moneyScale; u != 0 || pos >= 0; pos-- {
		if pos == 0 {
			i--
			buf[i] = '.'
		} else if pos < 0 && pos%3 == 0 {
			i--
			buf[i] = ','
		}
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	return append(dst, buf[i:]...)
}

// MoneyToNumeric is cash_numeric: the amount with exactly two fraction
// digits.
func MoneyToNumeric(v int64) *apd.Decimal {
	d := new(apd.Decimal)
	d.SetFinite(v, -moneyScale)
	if v == 0 {
		d.Negative = false
	}
	return d
}

// MoneyFromNumeric is numeric_cash: the amount times 100 rounded half
// away from zero to cents, as numeric_int8 rounds and checks it
// ("bigint out of range", 22003; NaN and infinity are 0A000).
func MoneyFromNumeric(d *apd.Decimal) (int64, error) {
	cents, err := numeric.Mul(d, numeric.FromInt64(moneyFactor))
	if err != nil {
		return 0, err
	}
	v, ok, err := numeric.ToInt64(cents, "bigint")
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "bigint out of range")
	}
	return v, nil
}

// MoneyFromInt is int4_cash and int8_cash: the whole amount in cents,
// "bigint out of range" (22003) past int64 as int8mul reports it.
func MoneyFromInt(v int64) (int64, error) {
	if v > (1<<63-1)/moneyFactor || v < minInt64/moneyFactor {
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "bigint out of range")
	}
	return v * moneyFactor, nil
}

// CashWords is cash_words: the amount in English words, "One thousand
// dollars and one cent", with cash.c's spacing (two blanks where a
// group of thousands ends the dollars).
func CashWords(v int64) string {
	var b strings.Builder
	u := uint64(v)
	if v < 0 {
		b.WriteString("minus ")
		u = -u
	}
	start := b.Len()
	groups := []struct {
		div  uint64
		name string
	}{
		{100000000000000000, " quadrillion "}, {100000000000000, " trillion "},
		{100000000000, " billion "}, {100000000, " million "}, {100000, " thousand "},
	}
	for _, g := range groups {
		if m := (u / g.div) % 1000; m != 0 {
			b.WriteString(numWord(m))
			b.WriteString(g.name)
		}
	}
	if m := (u / 100) % 1000; m != 0 {
		b.WriteString(numWord(m))
	}
	if b.Len() == start {
		b.WriteString("zero")
	}
	if u/100 == 1 {
		b.WriteString(" dollar and ")
	} else {
		b.WriteString(" dollars and ")
	}
	cents := u % 100
	b.WriteString(numWord(cents))
	if cents == 1 {
		b.WriteString(" cent")
	} else {
		b.WriteString(" cents")
	}
	out := b.String()
	return strings.ToUpper(out[:1]) + out[1:]
}

var smallWords = [...]string{
	"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
	"thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
}

// numWord is cash.c's num_word of 0..999.
func numWord(v uint64) string {
	big := smallWords[18:] // big[2] is "twenty"
	tu := v % 100
	if v <= 20 {
		return smallWords[v]
	}
	if tu == 0 {
		return smallWords[v/100] + " hundred"
	}
	var tens string
	switch {
	case v%10 == 0 && tu > 10:
		tens = big[tu/10]
	case tu < 20:
		tens = smallWords[tu]
	default:
		tens = big[tu/10] + " " + smallWords[tu%10]
	}
	if v > 99 {
		if tu < 20 && !(v%10 == 0 && tu > 10) {
			return smallWords[v/100] + " hundred and " + tens
		}
		return smallWords[v/100] + " hundred " + tens
	}
	return tens
}

// MoneyBytes and MoneyFromBytes are money's binary form (cash_send,
// cash_recv): the cents as a big-endian int64.
func MoneyFromBytes(b []byte) (int64, error) {
	if len(b) != 8 {
		return 0, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "insufficient data left in message")
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return int64(v), nil
}
