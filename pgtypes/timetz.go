package pgtypes

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// time with time zone (OID 1266) on the wire. Its text form is
// timetz_out's ("12:34:56.789+02"); its binary form is timetz_send's: the
// time of day as int64 microseconds, then the zone as int32 seconds west
// of UTC (so +02 travels as -7200).

// Type OIDs of timetz and its array.
const (
	OIDTimeTZ      uint32 = 1266
	OIDTimeTZArray uint32 = 1270
)

type timeTZEncoder struct {
	mode    mode
	vals    []int64
	scratch []byte
}

func (e *timeTZEncoder) reset(arr arrow.Array) error {
	a, ok := arr.(*array.Int64)
	if !ok {
		return mismatch(arr, types.TimeTZType(6))
	}
	e.vals = a.Int64Values()
	return nil
}

func (e *timeTZEncoder) appendValue(dst []byte, row int) []byte {
	v := e.vals[row]
	switch e.mode {
	case modeBinary:
		us, zone := types.TimeTZParts(v)
		dst = appendUint64(dst, uint64(us))
		return appendUint32(dst, uint32(zone))
	case modeJSON:
		start := len(dst)
		dst = append(dst, types.FormatTimeTZ(v)...)
		return quoteJSONTail(dst, start, &e.scratch)
	}
	return append(dst, types.FormatTimeTZ(v)...)
}

// decodeTimeTZBinary reads timetz_recv's form as its text, which the
// parameter's type then reads (the range checks are timetz_recv's).
func decodeTimeTZBinary(index int, data []byte) (any, error) {
	if err := fixedLen(index, data, 12); err != nil {
		return nil, err
	}
	us := int64(binary.BigEndian.Uint64(data))
	zone := int32(binary.BigEndian.Uint32(data[8:]))
	if us < 0 || us > usPerDay {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "time out of range")
	}
	if zone <= -(types.MaxTimeTZZone+1) || zone >= types.MaxTimeTZZone+1 {
		return nil, sqlerr.New(sqlerr.InvalidBinaryRepresentation, "time zone displacement out of range")
	}
	return types.FormatTimeTZ(types.TimeTZValue(us, zone)), nil
}
