package types

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// PostgreSQL's built-in range types (int4range, int8range, numrange,
// daterange, tsrange, tstzrange) are String variants holding the range's
// text as PostgreSQL prints it with DateStyle ISO and TimeZone UTC: the
// discrete ones canonical ([) with the upper bound + 1), "empty" for an
// empty range, bounds quoted as range_out quotes them. That text is what a
// column of a range type stores (Fluss has no range type: a STRING, as
// inet's text is), what functions read back (ParseRangeValue) and, for
// the types without a date or time subtype, what clients see; the wire's
// text output renders a date or time bound in the session's DateStyle
// and TimeZone (FormatRange). Ranges order and compare as range_cmp
// through RangeKey, whose bytes the binder compares in place of the text.

// IsRange reports whether v is one of the range types.
func (v Variant) IsRange() bool { return v >= Int4Range && v <= TstzRange }

// IsRange reports whether t is a range type.
func (t T) IsRange() bool { return t.Kind == String && t.Variant.IsRange() }

// RangeType is the range type v (a String variant).
func RangeType(v Variant) T { return T{Kind: String, Variant: v} }

// RangeSubtype is the type of v's bounds: integer, bigint, numeric, date,
// timestamp or timestamptz.
func RangeSubtype(v Variant) T {
	switch v {
	case Int4Range:
		return Int32Type
	case Int8Range:
		return Int64Type
	case NumRange:
		return NumericType
	case DateRange:
		return DateType
	case TsRange:
		return TimestampType(6)
	}
	return TimestampTZType(6)
}

// RangeOfSubtype is the range type whose bounds are of type t; ok is false
// when t has none.
func RangeOfSubtype(t T) (Variant, bool) {
	if t.Variant != NoVariant {
		return NoVariant, false
	}
	switch t.Kind {
	case Int32:
		return Int4Range, true
	case Int64:
		return Int8Range, true
	case Decimal:
		return NumRange, true
	case Date:
		return DateRange, true
	case Timestamp:
		return TsRange, true
	case TimestampTZ:
		return TstzRange, true
	}
	return NoVariant, false
}

// rangeDiscrete reports whether v has a canonical form (int4range,
// int8range, daterange).
func rangeDiscrete(v Variant) bool { return v == Int4Range || v == Int8Range || v == DateRange }

// RangeBound is one bound of a range: its value (the subtype's value as
// value.go describes it) unless Inf, and whether it is inclusive.
type RangeBound struct {
	Val any
	Inf bool
	Inc bool
}

// Range is one range value. An empty range has no bounds.
type Range struct {
	Type   Variant
	Empty  bool
	Lo, Hi RangeBound
}

// range flags of the binary form (rangetypes.h)
const (
	rangeEmpty = 0x01
	rangeLBInc = 0x02
	rangeUBInc = 0x04
	rangeLBInf = 0x08
	rangeUBInf = 0x10
)

// Flags is the range's flags byte of its binary form.
func (r Range) Flags() byte {
	if r.Empty {
		return rangeEmpty
	}
	var f byte
	if r.Lo.Inf {
		f |= rangeLBInf
	} else if r.Lo.Inc {
		f |= rangeLBInc
	}
	if r.Hi.Inf {
		f |= rangeUBInf
	} else if r.Hi.Inc {
		f |= rangeUBInc
	}
	return f
}

// RangeFromFlags is the range of v with the flags of a binary form and
// the bounds' values (ignored where a flag says infinite), made as
// range_recv makes it (MakeRange: checked and canonical).
func RangeFromFlags(v Variant, flags byte, lo, hi any) (Range, error) {
	if flags&rangeEmpty != 0 {
		return Range{Type: v, Empty: true}, nil
	}
	return MakeRange(v, RangeBound{Val: lo, Inf: flags&rangeLBInf != 0, Inc: flags&rangeLBInc != 0},
		RangeBound{Val: hi, Inf: flags&rangeUBInf != 0, Inc: flags&rangeUBInc != 0})
}

func malformedRange(s, detail string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed range literal: %q", s).WithDetail("%s", detail)
}

// RangeBoundsOrderError is range_serialize's error for a lower bound
// above the upper one.
func RangeBoundsOrderError() *sqlerr.Error {
	return sqlerr.New(sqlerr.DataException, "range lower bound must be less than or equal to range upper bound")
}

func isRangeSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// ParseRange reads s with range_in's rules as a range of type v; loc,
// now and st are the session's TimeZone, the transaction's time (for
// 'now' and 'today' bounds) and DateStyle, with which the bounds are read.
func ParseRange(s string, v Variant, loc *time.Location, now time.Time, st Style) (Range, error) {
	i := 0
	for i < len(s) && isRangeSpace(s[i]) {
		i++
	}
	if len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty") {
		i += 5
		for i < len(s) && isRangeSpace(s[i]) {
			i++
		}
		if i != len(s) {
			return Range{}, malformedRange(s, `Junk after "empty" key word.`)
		}
		return Range{Type: v, Empty: true}, nil
	}
	var lo, hi RangeBound
	switch {
	case i < len(s) && s[i] == '[':
		lo.Inc = true
	case i < len(s) && s[i] == '(':
	default:
		return Range{}, malformedRange(s, "Missing left parenthesis or bracket.")
	}
	i++
	loText, loInf, i, err := parseRangeBound(s, i)
	if err != nil {
		return Range{}, err
	}
	if i >= len(s) || s[i] != ',' {
		return Range{}, malformedRange(s, "Missing comma after lower bound.")
	}
	i++
	hiText, hiInf, i, err := parseRangeBound(s, i)
	if err != nil {
		return Range{}, err
	}
	switch {
	case i < len(s) && s[i] == ']':
		hi.Inc = true
	case i < len(s) && s[i] == ')':
	default:
		return Range{}, malformedRange(s, "Too many commas.")
	}
	i++
	for i < len(s) && isRangeSpace(s[i]) {
		i++
	}
	if i != len(s) {
		return Range{}, malformedRange(s, "Junk after right parenthesis or bracket.")
	}
	sub := RangeSubtype(v)
	lo.Inf, hi.Inf = loInf, hiInf
	if !loInf {
		if lo.Val, err = ParseTextStyle(loText, sub, loc, now, st); err != nil {
			return Range{}, err
		}
	}
	if !hiInf {
		if hi.Val, err = ParseTextStyle(hiText, sub, loc, now, st); err != nil {
			return Range{}, err
		}
	}
	return MakeRange(v, lo, hi)
}

// parseRangeBound is range_parse_bound: the bound's text from s[i:] up to
// an unquoted , ) or ], with quotes and backslashes taken off; infinite
// when nothing is there. next is the index of the character ending it.
func parseRangeBound(s string, i int) (text string, infinite bool, next int, err error) {
	if i < len(s) && (s[i] == ',' || s[i] == ')' || s[i] == ']') {
		return "", true, i, nil
	}
	var b strings.Builder
	inQuote := false
	for inQuote || i >= len(s) || !(s[i] == ',' || s[i] == ')' || s[i] == ']') {
		if i >= len(s) {
			return "", false, i, malformedRange(s, "Unexpected end of input.")
		}
		c := s[i]
		i++
		switch {
		case c == '\\':
			if i >= len(s) {
				return "", false, i, malformedRange(s, "Unexpected end of input.")
			}
			b.WriteByte(s[i])
			i++
		case c == '"':
			if !inQuote {
				inQuote = true
			} else if i < len(s) && s[i] == '"' {
				b.WriteByte('"')
				i++
			} else {
				inQuote = false
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), false, i, nil
}

// MakeRange is make_range: the range of v between lo and hi (an infinite
// bound is never inclusive), 22000 when lo is above hi, empty when they
// are equal and not both inclusive, canonical for the discrete types.
func MakeRange(v Variant, lo, hi RangeBound) (Range, error) {
	if lo.Inf {
		lo.Inc, lo.Val = false, nil
	}
	if hi.Inf {
		hi.Inc, hi.Val = false, nil
	}
	r := Range{Type: v, Lo: lo, Hi: hi}
	if !lo.Inf && !hi.Inf {
		c := CompareRangeValues(lo.Val, hi.Val)
		if c > 0 {
			return Range{}, RangeBoundsOrderError()
		}
		if c == 0 && !(lo.Inc && hi.Inc) {
			return Range{Type: v, Empty: true}, nil
		}
	}
	if !rangeDiscrete(v) {
		return r, nil
	}
	// the canonical function: [) with the next value where a bound says
	// otherwise
	var err error
	finite := func(b RangeBound) bool { // daterange_canonical leaves ±infinity be
		d, ok := b.Val.(int32)
		return !ok || d != math.MaxInt32 && d != math.MinInt32
	}
	if !r.Lo.Inf && !r.Lo.Inc && finite(r.Lo) {
		if r.Lo.Val, err = rangeNext(v, r.Lo.Val); err != nil {
			return Range{}, err
		}
		r.Lo.Inc = true
	}
	if !r.Hi.Inf && r.Hi.Inc && finite(r.Hi) {
		if r.Hi.Val, err = rangeNext(v, r.Hi.Val); err != nil {
			return Range{}, err
		}
		r.Hi.Inc = false
	}
	if !r.Lo.Inf && !r.Hi.Inf && CompareRangeValues(r.Lo.Val, r.Hi.Val) >= 0 && !(r.Lo.Inc && r.Hi.Inc) {
		return Range{Type: v, Empty: true}, nil
	}
	return r, nil
}

// unix days of PostgreSQL's first and one past its last date
const (
	minDateDays = -2440588
	endDateDays = 2145042906
)

// rangeNext is the value after x in the discrete type v (int4pl,
// int8pl, date_pli by 1); a date ±infinity stays itself.
func rangeNext(v Variant, x any) (any, error) {
	switch v {
	case Int4Range:
		n := x.(int64)
		if n == math.MaxInt32 {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "integer out of range")
		}
		return n + 1, nil
	case Int8Range:
		n := x.(int64)
		if n == math.MaxInt64 {
			return nil, sqlerr.New(sqlerr.NumericValueOutOfRange, "bigint out of range")
		}
		return n + 1, nil
	}
	d := x.(int32)
	if d == math.MaxInt32 || d == math.MinInt32 {
		return d, nil
	}
	if int64(d)+1 >= endDateDays {
		return nil, sqlerr.New(sqlerr.DatetimeFieldOverflow, "date out of range")
	}
	return d + 1, nil
}

// CompareRangeValues compares two bound values of one subtype: integers,
// dates, timestamps (±infinity at the ends) and numerics (NaN above all).
func CompareRangeValues(a, b any) int {
	switch x := a.(type) {
	case int64:
		return cmp.Compare(x, b.(int64))
	case int32:
		return cmp.Compare(x, b.(int32))
	case *apd.Decimal:
		return numeric.Cmp(x, b.(*apd.Decimal))
	}
	return 0
}

// CompareRangeBounds is range_cmp_bounds: a and b are lower bounds when
// aLower (bLower), upper ones otherwise; -infinity is below every value,
// +infinity above; at one value an inclusive lower bound is below an
// exclusive one, an exclusive upper bound below an inclusive one.
func CompareRangeBounds(a RangeBound, aLower bool, b RangeBound, bLower bool) int {
	c := boundValueCmp(a, aLower, b, bLower) // rangeops.go
	if c != 0 || a.Inf || b.Inf {
		return c
	}
	switch {
	case !a.Inc && !b.Inc:
		if aLower == bLower {
			return 0
		}
		if aLower {
			return 1
		}
		return -1
	case !a.Inc:
		if aLower {
			return 1
		}
		return -1
	case !b.Inc:
		if bLower {
			return -1
		}
		return 1
	}
	return 0
}

// rangeBoundText is range_bound_escape: the bound's text, in double
// quotes when empty or holding " \ ( ) [ ] , or white space, with " and \
// doubled.
func appendRangeBound(b []byte, s string) []byte {
	quote := s == ""
	for i := 0; i < len(s) && !quote; i++ {
		switch c := s[i]; c {
		case '"', '\\', '(', ')', '[', ']', ',':
			quote = true
		default:
			quote = isRangeSpace(c)
		}
	}
	if quote {
		b = append(b, '"')
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, s[i])
		}
		b = append(b, s[i])
	}
	if quote {
		b = append(b, '"')
	}
	return b
}

// Text is r as range_out prints it in a session whose TimeZone is loc
// and whose DateStyle is st.
func (r Range) Text(loc *time.Location, st Style) string {
	if r.Empty {
		return "empty"
	}
	sub := RangeSubtype(r.Type)
	b := make([]byte, 0, 32)
	if r.Lo.Inc {
		b = append(b, '[')
	} else {
		b = append(b, '(')
	}
	if !r.Lo.Inf {
		b = appendRangeBound(b, FormatTextStyle(r.Lo.Val, sub, loc, st))
	}
	b = append(b, ',')
	if !r.Hi.Inf {
		b = appendRangeBound(b, FormatTextStyle(r.Hi.Val, sub, loc, st))
	}
	if r.Hi.Inc {
		b = append(b, ']')
	} else {
		b = append(b, ')')
	}
	return string(b)
}

// String is r's stored text: Text in DateStyle ISO and TimeZone UTC.
func (r Range) String() string { return r.Text(time.UTC, Style{}) }

// ParseRangeValue reads a range's stored text (Range.String).
func ParseRangeValue(s string, v Variant) (Range, error) {
	return ParseRange(s, v, time.UTC, time.Now(), Style{})
}

// FormatRange is the stored text s of a range of type v as the session
// (TimeZone loc, DateStyle st) prints it: itself unless a bound is a date
// or a time that the session prints otherwise.
func FormatRange(s string, v Variant, loc *time.Location, st Style) (string, error) {
	if !RangeNeedsSession(v, loc, st) {
		return s, nil
	}
	r, err := ParseRangeValue(s, v)
	if err != nil {
		return "", err
	}
	return r.Text(loc, st), nil
}

// RangeNeedsSession reports whether a range of type v prints otherwise in
// a session of TimeZone loc and DateStyle st than its stored text.
func RangeNeedsSession(v Variant, loc *time.Location, st Style) bool {
	switch v {
	case DateRange, TsRange:
		return st.Date.Output != OutputISO
	case TstzRange:
		return st.Date.Output != OutputISO || loc != nil && loc != time.UTC
	}
	return false
}

// RangeKey is a key of the range text s of type v whose byte order is
// range_cmp's and which is equal exactly when the ranges are (numrange's
// [1.0,2) and [1,2) are one): empty first, then the lower bound (-infinity
// first, at one value inclusive first), then the upper (+infinity last, at
// one value exclusive first). It is hex so that it stays valid text.
func RangeKey(s string, v Variant) (string, error) {
	r, err := ParseRangeValue(s, v)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(r.AppendKey(nil)), nil
}

// AppendKey appends RangeKey's bytes of r.
func (r Range) AppendKey(dst []byte) []byte {
	if r.Empty {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	if r.Lo.Inf {
		dst = append(dst, 0)
	} else {
		dst = appendRangeValueKey(append(dst, 1), r.Lo.Val)
		if r.Lo.Inc {
			dst = append(dst, 0)
		} else {
			dst = append(dst, 1)
		}
	}
	if r.Hi.Inf {
		return append(dst, 2)
	}
	dst = appendRangeValueKey(append(dst, 1), r.Hi.Val)
	if r.Hi.Inc {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// appendRangeValueKey appends an order-preserving, self-delimiting key of
// a bound value.
func appendRangeValueKey(dst []byte, x any) []byte {
	switch v := x.(type) {
	case int64:
		return binary.BigEndian.AppendUint64(dst, uint64(v)^(1<<63))
	case int32:
		return binary.BigEndian.AppendUint32(dst, uint32(v)^(1<<31))
	case *apd.Decimal:
		return numeric.AppendSortKey(dst, v)
	}
	return dst
}

// ParseRangeFlags is range_constructor3's reading of its flags argument:
// "[]", "[)", "(]" or "()" (42601 otherwise).
func ParseRangeFlags(s string) (loInc, hiInc bool, err error) {
	if len(s) != 2 || s[0] != '[' && s[0] != '(' || s[1] != ']' && s[1] != ')' {
		return false, false, sqlerr.New(sqlerr.SyntaxError, "invalid range bound flags").
			WithHint(`Valid values are "[]", "[)", "(]", and "()".`)
	}
	return s[0] == '[', s[1] == ']', nil
}
