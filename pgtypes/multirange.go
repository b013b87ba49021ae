package pgtypes

import (
	"encoding/binary"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The multirange types on the wire (types/multirange.go holds them as
// their text): the text form in the session's DateStyle and TimeZone, and
// multirange_send's binary form, the count of ranges and each range as a
// length and range_send's form. They share the range types' encoder
// (ranges.go), which calls appendMultirange for them.

// multirange type OIDs and their arrays
const (
	OIDInt4Multirange      uint32 = 4451
	OIDNumMultirange       uint32 = 4532
	OIDTsMultirange        uint32 = 4533
	OIDTstzMultirange      uint32 = 4534
	OIDDateMultirange      uint32 = 4535
	OIDInt8Multirange      uint32 = 4536
	OIDInt4MultirangeArray uint32 = 6150
	OIDNumMultirangeArray  uint32 = 6151
	OIDTsMultirangeArray   uint32 = 6152
	OIDTstzMultirangeArray uint32 = 6153
	OIDDateMultirangeArray uint32 = 6155
	OIDInt8MultirangeArray uint32 = 6157
)

// appendMultirange appends the stored multirange text s in e's format.
func (e *rangeEncoder) appendMultirange(dst []byte, s string) []byte {
	switch e.mode {
	case modeBinary:
		m, err := types.ParseMultirangeValue(s, e.variant)
		if err != nil {
			return append(dst, s...)
		}
		return AppendMultirangeBinary(dst, m)
	case modeJSON:
		if e.session {
			s, _ = types.FormatMultirange(s, e.variant, e.loc, e.style)
		}
		return appendJSONString(dst, []byte(s))
	}
	if e.session {
		if out, err := types.FormatMultirange(s, e.variant, e.loc, e.style); err == nil {
			s = out
		}
	}
	return append(dst, s...)
}

// AppendMultirangeBinary appends multirange_send's form of m.
func AppendMultirangeBinary(dst []byte, m types.Multirange) []byte {
	dst = appendUint32(dst, uint32(len(m.Ranges)))
	for _, r := range m.Ranges {
		at := len(dst)
		dst = AppendRangeBinary(append(dst, 0, 0, 0, 0), r)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}

// decodeMultirangeBinary is multirange_recv: the multirange of type v in
// data, normalised, as its stored text.
func decodeMultirangeBinary(index int, v types.Variant, data []byte) (any, error) {
	if len(data) < 4 {
		return nil, insufficientData()
	}
	n := int(int32(binary.BigEndian.Uint32(data)))
	data = data[4:]
	if n < 0 {
		return nil, insufficientData()
	}
	rv := types.RangeOfMultirange(v)
	ranges := make([]types.Range, 0, min(n, len(data)/5))
	for i := 0; i < n; i++ {
		if len(data) < 4 {
			return nil, insufficientData()
		}
		l := int(int32(binary.BigEndian.Uint32(data)))
		if l < 0 || len(data) < 4+l {
			return nil, insufficientData()
		}
		s, err := decodeRangeBinary(index, rv, data[4:4+l])
		if err != nil {
			return nil, err
		}
		data = data[4+l:]
		r, err := types.ParseRangeValue(s.(string), rv)
		if err != nil {
			return nil, err
		}
		ranges = append(ranges, r)
	}
	if len(data) != 0 {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format in parameter %d", index+1)
	}
	m, err := types.MakeMultirange(rv, ranges)
	if err != nil {
		return nil, err
	}
	return m.String(), nil
}
