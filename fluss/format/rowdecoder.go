package format

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// RowDecoder decodes many compacted rows of one row type into the same
// builders: what DecodeRow does, but with each column's kind and builder
// type resolved once (Bind) instead of per value. A scan decodes every row
// of a primary-key table through it. It is not safe for concurrent use.
type RowDecoder struct {
	ts   []types.T
	nb   int // null bitset bytes
	cols []rowCol
	// room is how many more rows the bound builders have reserved
	// (Reserve): while it lasts, fixed-width values skip the builders'
	// per-value capacity check.
	room int
}

// rowCol is one column's decoding: the fast kinds keep their typed
// builder; the others go through DecodeValue.
type rowCol struct {
	kind  types.Kind
	wide  bool // Timestamp: more than millisecond precision follows
	nanos bool // Timestamp builder in nanoseconds (else microseconds or less)
	b     array.Builder
	i8    *array.Int8Builder
	i16   *array.Int16Builder
	i32   *array.Int32Builder
	i64   *array.Int64Builder
	f32   *array.Float32Builder
	f64   *array.Float64Builder
	bin   *array.BinaryBuilder
	date  *array.Date32Builder
	ts    *array.TimestampBuilder
	bool  *array.BooleanBuilder
	other bool // decoded by DecodeValue
	// skip says how an unbound column (not projected) is stepped over
	// without DecodeValue: skipFixed bytes, one varint (two for a wide
	// timestamp), or a length-prefixed byte string.
	skip      skipKind
	skipFixed int
}

type skipKind uint8

const (
	skipGeneric skipKind = iota // DecodeValue with no builder
	skipFixedWidth
	skipVarint
	skipBytes
)

// NewRowDecoder returns a decoder of rows of types ts.
func NewRowDecoder(ts []types.T) *RowDecoder {
	d := &RowDecoder{ts: ts, nb: (len(ts) + 7) / 8, cols: make([]rowCol, len(ts))}
	for f, t := range ts {
		d.cols[f].kind = t.Kind
		d.cols[f].wide = t.Precision > 3
	}
	return d
}

// Bind sets the builders the following rows go to (builders[f] for column
// f; nil skips it). The builders must have the column types' Arrow types.
func (d *RowDecoder) Bind(builders []array.Builder) {
	d.room = 0
	for f := range d.cols {
		c := &d.cols[f]
		kind, wide := c.kind, c.wide
		*c = rowCol{kind: kind, wide: wide, b: builders[f]}
		if c.b == nil {
			c.skip, c.skipFixed = skipOf(kind)
			continue
		}
		switch b := c.b.(type) {
		case *array.Int8Builder:
			c.i8 = b
		case *array.Int16Builder:
			c.i16 = b
		case *array.Int32Builder:
			c.i32 = b
		case *array.Int64Builder:
			c.i64 = b
		case *array.Float32Builder:
			c.f32 = b
		case *array.Float64Builder:
			c.f64 = b
		case *array.StringBuilder:
			c.bin = b.BinaryBuilder
		case *array.BinaryBuilder:
			c.bin = b
		case *array.Date32Builder:
			c.date = b
		case *array.BooleanBuilder:
			c.bool = b
		case *array.TimestampBuilder:
			c.ts = b
			c.nanos = b.Type().(*arrow.TimestampType).Unit == arrow.Nanosecond
		}
		// Anything the switch below does not handle with the builder it
		// resolved goes through DecodeValue.
		switch kind {
		case types.Bool:
			c.other = c.bool == nil
		case types.Int8:
			c.other = c.i8 == nil
		case types.Int16:
			c.other = c.i16 == nil
		case types.Int32:
			c.other = c.i32 == nil
		case types.Int64:
			c.other = c.i64 == nil
		case types.Float32:
			c.other = c.f32 == nil
		case types.Float64:
			c.other = c.f64 == nil
		case types.Char, types.String, types.Bytes:
			c.other = c.bin == nil
		case types.Date:
			c.other = c.date == nil
		case types.Timestamp, types.TimestampTZ:
			c.other = c.ts == nil
		default:
			c.other = true
		}
	}
}

// skipOf returns how a column of kind k is stepped over when not decoded.
func skipOf(k types.Kind) (skipKind, int) {
	switch k {
	case types.Bool, types.Int8:
		return skipFixedWidth, 1
	case types.Int16:
		return skipFixedWidth, 2
	case types.Float32:
		return skipFixedWidth, 4
	case types.Float64:
		return skipFixedWidth, 8
	case types.Int32, types.Date, types.Time, types.Int64, types.Timestamp, types.TimestampTZ:
		return skipVarint, 0
	case types.Char, types.String, types.Bytes:
		return skipBytes, 0
	}
	return skipGeneric, 0
}

// skipValue returns the length of the non-null value of column c at the
// start of b without decoding it, checking what decoding would check
// about its length.
func (c *rowCol) skipValue(b []byte) (int, bool) {
	switch c.skip {
	case skipFixedWidth:
		return c.skipFixed, len(b) >= c.skipFixed
	case skipVarint:
		v, m := binary.Uvarint(b)
		if m <= 0 || (c.kind == types.Int32 || c.kind == types.Date || c.kind == types.Time) && v > math.MaxUint32 {
			return 0, false
		}
		if c.wide && (c.kind == types.Timestamp || c.kind == types.TimestampTZ) {
			v, k := binary.Uvarint(b[m:])
			if k <= 0 || v > math.MaxUint32 {
				return 0, false
			}
			m += k
		}
		return m, true
	case skipBytes:
		l, m := binary.Uvarint(b)
		if m <= 0 || l > uint64(len(b)-m) {
			return 0, false
		}
		return m + int(l), true
	}
	return 0, false
}

// Reserve makes room for n more rows in every bound builder; the next n
// rows decode without a capacity check per value.
func (d *RowDecoder) Reserve(n int) {
	for f := range d.cols {
		if b := d.cols[f].b; b != nil {
			b.Reserve(n)
		}
	}
	d.room = n
}

// Decode decodes one row into the bound builders and returns its length.
// On an error the builders may hold part of the row.
func (d *RowDecoder) Decode(row []byte) (int, error) {
	if len(row) < d.nb {
		return 0, errShortRow
	}
	if d.room > 0 {
		d.room--
		return d.decodeReserved(row)
	}
	pos := d.nb
	for f := range d.cols {
		c := &d.cols[f]
		if row[f>>3]&(1<<(f&7)) != 0 {
			if c.b != nil {
				c.b.AppendNull()
			}
			continue
		}
		n, err := d.decodeColumn(f, row[pos:])
		if err != nil {
			return 0, err
		}
		pos += n
	}
	return pos, nil
}

// decodeReserved is Decode for a row the builders have room for: the
// common fixed-width kinds append without a capacity check; the others
// take Decode's path.
func (d *RowDecoder) decodeReserved(row []byte) (int, error) {
	pos := d.nb
	for f := range d.cols {
		c := &d.cols[f]
		if row[f>>3]&(1<<(f&7)) != 0 {
			if c.b != nil {
				c.b.AppendNull()
			}
			continue
		}
		b := row[pos:]
		switch {
		case c.b == nil && c.skip != skipGeneric:
			n, ok := c.skipValue(b)
			if !ok {
				return 0, errShortRow
			}
			pos += n
		case c.i64 != nil && c.kind == types.Int64:
			v, m := binary.Uvarint(b)
			if m <= 0 {
				return 0, errShortRow
			}
			c.i64.UnsafeAppend(int64(v))
			pos += m
		case c.i32 != nil && c.kind == types.Int32:
			v, m := binary.Uvarint(b)
			if m <= 0 || v > math.MaxUint32 {
				return 0, errShortRow
			}
			c.i32.UnsafeAppend(int32(uint32(v)))
			pos += m
		case c.f64 != nil && c.kind == types.Float64:
			if len(b) < 8 {
				return 0, errShortRow
			}
			c.f64.UnsafeAppend(math.Float64frombits(binary.LittleEndian.Uint64(b)))
			pos += 8
		case c.ts != nil && (c.kind == types.Timestamp || c.kind == types.TimestampTZ):
			ms, m := binary.Uvarint(b)
			if m <= 0 {
				return 0, errShortRow
			}
			var nano int32
			if c.wide {
				v, k := binary.Uvarint(b[m:])
				if k <= 0 || v > math.MaxUint32 {
					return 0, errShortRow
				}
				nano, m = int32(uint32(v)), m+k
			}
			c.ts.UnsafeAppend(arrow.Timestamp(timestampOfParts(int64(ms), nano, c.nanos)))
			pos += m
		default:
			// Decode of this one column: the builder checks capacity.
			n, err := d.decodeColumn(f, b)
			if err != nil {
				return 0, err
			}
			pos += n
		}
	}
	return pos, nil
}

// decodeColumn decodes the non-null value of column f at the start of b into
// its builder (if bound) and returns its length.
func (d *RowDecoder) decodeColumn(f int, b []byte) (int, error) {
	c := &d.cols[f]
	if c.b == nil && c.skip != skipGeneric {
		n, ok := c.skipValue(b)
		if !ok {
			return 0, errShortRow
		}
		return n, nil
	}
	if c.b == nil || c.other {
		return DecodeValue(b, d.ts[f], c.b)
	}
	var n int
	switch c.kind {
	case types.Bool:
		if len(b) < 1 {
			return 0, errShortRow
		}
		c.bool.Append(b[0] != 0)
		n = 1
	case types.Int8:
		if len(b) < 1 {
			return 0, errShortRow
		}
		c.i8.Append(int8(b[0]))
		n = 1
	case types.Int16:
		if len(b) < 2 {
			return 0, errShortRow
		}
		c.i16.Append(int16(binary.LittleEndian.Uint16(b)))
		n = 2
	case types.Int32, types.Date:
		v, m := binary.Uvarint(b)
		if m <= 0 || v > math.MaxUint32 {
			return 0, errShortRow
		}
		if c.kind == types.Date {
			c.date.Append(arrow.Date32(int32(uint32(v))))
		} else {
			c.i32.Append(int32(uint32(v)))
		}
		n = m
	case types.Int64:
		v, m := binary.Uvarint(b)
		if m <= 0 {
			return 0, errShortRow
		}
		c.i64.Append(int64(v))
		n = m
	case types.Float32:
		if len(b) < 4 {
			return 0, errShortRow
		}
		c.f32.Append(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		n = 4
	case types.Float64:
		if len(b) < 8 {
			return 0, errShortRow
		}
		c.f64.Append(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		n = 8
	case types.Char, types.String, types.Bytes:
		v, m, err := readBytes(b)
		if err != nil {
			return 0, err
		}
		c.bin.Append(v)
		n = m
	case types.Timestamp, types.TimestampTZ:
		ms, m := binary.Uvarint(b)
		if m <= 0 {
			return 0, errShortRow
		}
		var nano int32
		if c.wide {
			v, k := binary.Uvarint(b[m:])
			if k <= 0 || v > math.MaxUint32 {
				return 0, errShortRow
			}
			nano, m = int32(uint32(v)), m+k
		}
		c.ts.Append(arrow.Timestamp(timestampOfParts(int64(ms), nano, c.nanos)))
		n = m
	}
	return n, nil
}
