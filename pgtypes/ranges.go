package pgtypes

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The range types on the wire (types/ranges.go holds them as their text):
// the text form in the session's DateStyle and TimeZone, and range_send's
// binary form, a flags byte and each finite bound as a length and the
// subtype's binary form.

// range type OIDs and their arrays
const (
	OIDInt4Range      uint32 = 3904
	OIDInt4RangeArray uint32 = 3905
	OIDNumRange       uint32 = 3906
	OIDNumRangeArray  uint32 = 3907
	OIDTsRange        uint32 = 3908
	OIDTsRangeArray   uint32 = 3909
	OIDTstzRange      uint32 = 3910
	OIDTstzRangeArray uint32 = 3911
	OIDDateRange      uint32 = 3912
	OIDDateRangeArray uint32 = 3913
	OIDInt8Range      uint32 = 3926
	OIDInt8RangeArray uint32 = 3927
)

// rangeOIDs are the range and multirange variants' OIDs.
var rangeOIDs = map[types.Variant]uint32{
	types.Int4Range: OIDInt4Range, types.Int8Range: OIDInt8Range, types.NumRange: OIDNumRange,
	types.DateRange: OIDDateRange, types.TsRange: OIDTsRange, types.TstzRange: OIDTstzRange,
	types.Int4Multirange: OIDInt4Multirange, types.Int8Multirange: OIDInt8Multirange, types.NumMultirange: OIDNumMultirange, // multirange.go
	types.DateMultirange: OIDDateMultirange, types.TsMultirange: OIDTsMultirange, types.TstzMultirange: OIDTstzMultirange,
}

// rangeVariantOf is the range variant of a range type's OID.
func rangeVariantOf(oid uint32) (types.Variant, bool) {
	for v, o := range rangeOIDs {
		if o == oid {
			return v, true
		}
	}
	return types.NoVariant, false
}

// rangeEncoder writes a range column (its stored text) in a format.
type rangeEncoder struct {
	mode    mode
	variant types.Variant
	loc     *time.Location
	style   types.Style
	session bool // the text is printed anew in the session's styles
	arr     *array.String
	scratch []byte
}

func newRangeEncoder(t types.T, m mode, loc *time.Location, st types.Style) *rangeEncoder {
	rv := t.Variant
	if rv.IsMultirange() {
		rv = types.RangeOfMultirange(rv)
	}
	return &rangeEncoder{mode: m, variant: t.Variant, loc: loc, style: st, session: types.RangeNeedsSession(rv, loc, st)}
}

func (e *rangeEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.String)
	if !ok {
		return mismatch(arr, types.RangeType(e.variant))
	}
	e.arr = a
	return nil
}

func (e *rangeEncoder) appendValue(dst []byte, row int) []byte {
	s := e.arr.Value(row)
	if e.variant.IsMultirange() {
		return e.appendMultirange(dst, s) // multirange.go
	}
	switch e.mode {
	case modeBinary:
		r, err := types.ParseRangeValue(s, e.variant)
		if err != nil {
			return append(dst, s...)
		}
		return AppendRangeBinary(dst, r)
	case modeJSON:
		if e.session {
			s, _ = types.FormatRange(s, e.variant, e.loc, e.style)
		}
		return appendJSONString(dst, []byte(s))
	}
	if e.session {
		if out, err := types.FormatRange(s, e.variant, e.loc, e.style); err == nil {
			s = out
		}
	}
	return append(dst, s...)
}

// AppendRangeBinary appends range_send's form of r.
func AppendRangeBinary(dst []byte, r types.Range) []byte {
	dst = append(dst, r.Flags())
	if r.Empty {
		return dst
	}
	for _, b := range [2]types.RangeBound{r.Lo, r.Hi} {
		if b.Inf {
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		switch v := b.Val.(type) {
		case int64:
			switch r.Type {
			case types.Int4Range:
				dst = appendUint32(dst, uint32(int32(v)))
			case types.Int8Range:
				dst = appendUint64(dst, uint64(v))
			default: // a timestamp's microseconds since 1970
				if v != math.MaxInt64 && v != math.MinInt64 {
					v -= unixToPGEpochUs
				}
				dst = appendUint64(dst, uint64(v))
			}
		case int32:
			if v != math.MaxInt32 && v != math.MinInt32 {
				v -= unixToPGEpochDays
			}
			dst = appendUint32(dst, uint32(v))
		case *apd.Decimal:
			dst = AppendNumericValueBinary(dst, v)
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}

// decodeRangeBinary is range_recv: the range of v in data, as its stored
// text (the parameter's value, which the range type's input reads).
func decodeRangeBinary(index int, v types.Variant, data []byte) (any, error) {
	if v.IsMultirange() {
		return decodeMultirangeBinary(index, v, data) // multirange.go
	}
	if len(data) < 1 {
		return nil, insufficientData()
	}
	flags := data[0]
	data = data[1:]
	var vals [2]any
	for i, inf := range [2]byte{0x08, 0x10} {
		if flags&0x01 != 0 || flags&inf != 0 {
			continue
		}
		if len(data) < 4 {
			return nil, insufficientData()
		}
		n := int(int32(binary.BigEndian.Uint32(data)))
		if n < 0 || len(data) < 4+n {
			return nil, insufficientData()
		}
		b := data[4 : 4+n]
		data = data[4+n:]
		val, err := decodeRangeBound(index, v, b)
		if err != nil {
			return nil, err
		}
		vals[i] = val
	}
	if len(data) != 0 {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format in parameter %d", index+1)
	}
	r, err := types.RangeFromFlags(v, flags, vals[0], vals[1])
	if err != nil {
		return nil, err
	}
	return r.String(), nil
}

// decodeRangeBound reads a bound's value in the subtype's binary form.
func decodeRangeBound(index int, v types.Variant, b []byte) (any, error) {
	be := binary.BigEndian
	switch v {
	case types.Int4Range:
		if err := fixedLen(index, b, 4); err != nil {
			return nil, err
		}
		return int64(int32(be.Uint32(b))), nil
	case types.Int8Range:
		if err := fixedLen(index, b, 8); err != nil {
			return nil, err
		}
		return int64(be.Uint64(b)), nil
	case types.DateRange:
		if err := fixedLen(index, b, 4); err != nil {
			return nil, err
		}
		d := int32(be.Uint32(b))
		if d != math.MaxInt32 && d != math.MinInt32 {
			d += unixToPGEpochDays
		}
		return d, nil
	case types.NumRange:
		s, err := decodeNumericBinary(index, b)
		if err != nil {
			return nil, err
		}
		return numeric.Parse(s.(string))
	}
	if err := fixedLen(index, b, 8); err != nil {
		return nil, err
	}
	us := int64(be.Uint64(b))
	if us != math.MaxInt64 && us != math.MinInt64 {
		us += unixToPGEpochUs
	}
	return us, nil
}

// RangeTypeOfOID is the range type (or array of one) of a type OID; ok is
// false for another OID.
func RangeTypeOfOID(oid uint32) (types.T, bool) {
	if v, ok := rangeVariantOf(oid); ok {
		return types.RangeType(v), true
	}
	if e, ok := ElemOIDOf(oid); ok {
		if v, ok := rangeVariantOf(e); ok {
			return types.ArrayOf(types.RangeType(v)), true
		}
	}
	return types.T{}, false
}
