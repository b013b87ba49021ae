package types

import (
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL 15's multirange types (int4multirange ... tstzmultirange) are,
// as the range types are (ranges.go), String variants holding their text
// as PostgreSQL prints it in DateStyle ISO and TimeZone UTC: '{}' or the
// ranges in braces, sorted, merged where they overlap or touch, empty ones
// dropped ('{[1,3),[5,7)}'). A column of a multirange type stores that
// text; functions read it back (ParseMultirangeValue) and order it as
// multirange_cmp through MultirangeKey.

// IsMultirange reports whether v is one of the multirange types.
func (v Variant) IsMultirange() bool { return v >= Int4Multirange && v <= TstzMultirange }

// IsMultirange reports whether t is a multirange type.
func (t T) IsMultirange() bool { return t.Kind == String && t.Variant.IsMultirange() }

// MultirangeOf is the multirange type of the range type v.
func MultirangeOf(v Variant) Variant { return Int4Multirange + (v - Int4Range) }

// RangeOfMultirange is the range type of the multirange type v.
func RangeOfMultirange(v Variant) Variant { return Int4Range + (v - Int4Multirange) }

// Multirange is one multirange value: its range type and its ranges,
// normalised (none empty, sorted, none overlapping or touching another).
type Multirange struct {
	Type   Variant // the range type
	Ranges []Range
}

func malformedMultirange(s, detail string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed multirange literal: %q", s).WithDetail("%s", detail)
}

// multirange_in's states between and inside the ranges of a literal
const (
	mrBeforeRange = iota
	mrInRange
	mrInRangeEscaped
	mrInRangeQuoted
	mrInRangeQuotedEscaped
	mrAfterRange
	mrFinished
)

// ParseMultirange reads s with multirange_in's rules as a multirange of
// the range type v: braces around ranges separated by commas, each read by
// range_in (ParseRange, with the session's loc, now and st), white space
// skipped between them; the result normalised (MakeMultirange).
func ParseMultirange(s string, v Variant, loc *time.Location, now time.Time, st Style) (Multirange, error) {
	i := 0
	for i < len(s) && isRangeSpace(s[i]) {
		i++
	}
	if i >= len(s) || s[i] != '{' {
		return Multirange{}, malformedMultirange(s, "Missing left brace.")
	}
	i++
	var ranges []Range
	state, seen, start := mrBeforeRange, 0, 0
	for ; state != mrFinished; i++ {
		if i >= len(s) {
			return Multirange{}, malformedMultirange(s, "Unexpected end of input.")
		}
		c := s[i]
		if isRangeSpace(c) {
			continue // multirange_in skips white space in every state
		}
		switch state {
		case mrBeforeRange:
			switch {
			case c == '[' || c == '(':
				start, state = i, mrInRange
			case c == '}' && seen == 0:
				state = mrFinished
			case len(s)-i >= 5 && strings.EqualFold(s[i:i+5], "empty"):
				seen++
				i += 4
				state = mrAfterRange
			default:
				return Multirange{}, malformedMultirange(s, "Expected range start.")
			}
		case mrInRange:
			switch c {
			case ']', ')':
				seen++
				r, err := ParseRange(s[start:i+1], v, loc, now, st)
				if err != nil {
					return Multirange{}, err
				}
				if !r.Empty {
					ranges = append(ranges, r)
				}
				state = mrAfterRange
			case '"':
				state = mrInRangeQuoted
			case '\\':
				state = mrInRangeEscaped
			}
		case mrInRangeEscaped:
			state = mrInRange
		case mrInRangeQuoted:
			switch {
			case c == '"' && i+1 < len(s) && s[i+1] == '"':
				i++ // a doubled quote is a quote
			case c == '"':
				state = mrInRange
			case c == '\\':
				state = mrInRangeQuotedEscaped
			}
		case mrInRangeQuotedEscaped:
			state = mrInRangeQuoted
		case mrAfterRange:
			switch c {
			case ',':
				state = mrBeforeRange
			case '}':
				state = mrFinished
			default:
				return Multirange{}, malformedMultirange(s, "Expected comma or end of multirange.")
			}
		}
	}
	for i < len(s) && isRangeSpace(s[i]) {
		i++
	}
	if i != len(s) {
		return Multirange{}, malformedMultirange(s, "Junk after closing right brace.")
	}
	return MakeMultirange(v, ranges)
}

// MakeMultirange is make_multirange's canonical form of ranges of the
// range type v: empty ranges dropped, the others sorted as range_cmp
// orders them, and each merged into the one before it where the two touch
// or overlap.
func MakeMultirange(v Variant, ranges []Range) (Multirange, error) {
	in := make([]Range, 0, len(ranges))
	for _, r := range ranges {
		if !r.Empty {
			in = append(in, r)
		}
	}
	sort.SliceStable(in, func(i, j int) bool { return CompareRanges(in[i], in[j]) < 0 })
	out := in[:0]
	for _, r := range in {
		if len(out) == 0 {
			out = append(out, r)
			continue
		}
		last := &out[len(out)-1]
		switch {
		case RangeAdjacent(*last, r):
			// sorted, r can only follow last
			u, err := RangeUnion(*last, r, false)
			if err != nil {
				return Multirange{}, err
			}
			*last = u
		case RangeBefore(*last, r):
			out = append(out, r)
		default:
			u, err := RangeUnion(*last, r, true)
			if err != nil {
				return Multirange{}, err
			}
			*last = u
		}
	}
	return Multirange{Type: v, Ranges: out}, nil
}

// CompareRanges is range_cmp: empty first, then the lower bounds, then
// the upper ones.
func CompareRanges(a, b Range) int {
	switch {
	case a.Empty && b.Empty:
		return 0
	case a.Empty:
		return -1
	case b.Empty:
		return 1
	}
	if c := CompareRangeBounds(a.Lo, true, b.Lo, true); c != 0 {
		return c
	}
	return CompareRangeBounds(a.Hi, false, b.Hi, false)
}

// Text is m as multirange_out prints it in a session whose TimeZone is
// loc and whose DateStyle is st.
func (m Multirange) Text(loc *time.Location, st Style) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, r := range m.Ranges {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(r.Text(loc, st))
	}
	b.WriteByte('}')
	return b.String()
}

// String is m's stored text: Text in DateStyle ISO and TimeZone UTC.
func (m Multirange) String() string { return m.Text(time.UTC, Style{}) }

// IsEmpty reports whether m holds no range.
func (m Multirange) IsEmpty() bool { return len(m.Ranges) == 0 }

// Span is the smallest range holding all of m's (range_merge(anymultirange)):
// empty for an empty multirange.
func (m Multirange) Span() (Range, error) {
	if m.IsEmpty() {
		return Range{Type: m.Type, Empty: true}, nil
	}
	return MakeRange(m.Type, m.Ranges[0].Lo, m.Ranges[len(m.Ranges)-1].Hi)
}

// ParseMultirangeValue reads a multirange's stored text (Multirange.String)
// of the multirange type v.
func ParseMultirangeValue(s string, v Variant) (Multirange, error) {
	return ParseMultirange(s, RangeOfMultirange(v), time.UTC, time.Now(), Style{})
}

// FormatMultirange is the stored text s of a multirange of type v as the
// session (TimeZone loc, DateStyle st) prints it.
func FormatMultirange(s string, v Variant, loc *time.Location, st Style) (string, error) {
	if !RangeNeedsSession(RangeOfMultirange(v), loc, st) {
		return s, nil
	}
	m, err := ParseMultirangeValue(s, v)
	if err != nil {
		return "", err
	}
	return m.Text(loc, st), nil
}

// MultirangeKey is a key of the multirange text s of type v whose byte
// order is multirange_cmp's (range by range, bounds as range_cmp compares
// them, a multirange before any longer one it begins) and which is equal
// exactly when the multiranges are. Hex, as RangeKey's.
func MultirangeKey(s string, v Variant) (string, error) {
	m, err := ParseMultirangeValue(s, v)
	if err != nil {
		return "", err
	}
	var dst []byte
	for _, r := range m.Ranges {
		dst = r.AppendKey(dst) // each begins with 1, the non-empty mark
	}
	return hex.EncodeToString(append(dst, 0)), nil
}

// MultirangeNullMember is the constructors' 22004 for a NULL range.
func MultirangeNullMember() *sqlerr.Error {
	return sqlerr.New(sqlerr.NullValueNotAllowed, "multirange values cannot contain null members")
}
