package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/types"
)

// This file is Fluss's CompactedRow / CompactedKeyEncoder field encoding
// (CompactedRowWriter.java, fluss.md §6.3–6.4), driven by Arrow arrays whose
// types are types.T.ArrowType() of the column types.
//
// Deviations, both chosen so that values read back exactly what was written:
//   - TIME(p) with p > 3 is written as VLQ millis-of-day followed by VLQ
//     nano-of-milli (as TIMESTAMP does); Fluss's TIME holds millis only, and
//     for p <= 3 the encoding is Fluss's.
//   - ARRAY, MAP and ROW values use sqlgate's own nested encoding instead of
//     Fluss's BinaryArray/BinaryMap layout: ARRAY = VLQ count, null bitset of
//     count bits, the non-null elements; MAP = VLQ count, the keys, a null
//     bitset of the values, the non-null values; ROW = a compacted row (null
//     bitset, non-null fields). Keys never contain nested types, so key bytes
//     and bucket hashes are unaffected.

// ErrShortRow reports compacted bytes that end before their fields do.
var errShortRow = errors.New("compacted row is truncated")

func appendU32(dst []byte, v int32) []byte { return binary.AppendUvarint(dst, uint64(uint32(v))) }
func appendU64(dst []byte, v int64) []byte { return binary.AppendUvarint(dst, uint64(v)) }

func readU32(b []byte) (int32, int, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 || v > math.MaxUint32 {
		return 0, 0, errShortRow
	}
	return int32(uint32(v)), n, nil
}

func readU64(b []byte) (int64, int, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, 0, errShortRow
	}
	return int64(v), n, nil
}

func appendBytes(dst, v []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	return append(dst, v...)
}

func readBytes(b []byte) ([]byte, int, error) {
	l, n := binary.Uvarint(b)
	if n <= 0 || l > uint64(len(b)-n) {
		return nil, 0, errShortRow
	}
	return b[n : n+int(l)], n + int(l), nil
}

func floorDivMod(v, d int64) (int64, int64) {
	q, r := v/d, v%d
	if r < 0 {
		q--
		r += d
	}
	return q, r
}

// decimalBytes is Java's BigInteger.toByteArray of n: minimal big-endian two's complement.
func decimalBytes(n decimal128.Num) []byte {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], uint64(n.HighBits()))
	binary.BigEndian.PutUint64(b[8:], n.LowBits())
	i := 0
	for i < 15 && ((b[i] == 0 && b[i+1]&0x80 == 0) || (b[i] == 0xff && b[i+1]&0x80 != 0)) {
		i++
	}
	return b[i:]
}

func decimalFromBytes(v []byte) (decimal128.Num, error) {
	if len(v) == 0 || len(v) > 16 {
		return decimal128.Num{}, fmt.Errorf("decimal of %d bytes", len(v))
	}
	var b [16]byte
	fill := byte(0)
	if v[0]&0x80 != 0 {
		fill = 0xff
	}
	for i := 0; i < 16-len(v); i++ {
		b[i] = fill
	}
	copy(b[16-len(v):], v)
	return decimal128.New(int64(binary.BigEndian.Uint64(b[:8])), binary.BigEndian.Uint64(b[8:])), nil
}

// AppendValue appends the compacted encoding of the non-null element i of a,
// a column of type t.
func AppendValue(dst []byte, t types.T, a arrow.Array, i int) ([]byte, error) {
	if out, ok := appendScalar(dst, t, a, i); ok {
		return out, nil
	}
	switch t.Kind {
	case types.Array:
		l := a.(array.ListLike)
		s, e := l.ValueOffsets(i)
		return appendNested(dst, *t.Elem, l.ListValues(), int(s), int(e))
	case types.Map:
		m := a.(*array.Map)
		s, e := m.ValueOffsets(i)
		dst = binary.AppendUvarint(dst, uint64(e-s))
		for j := int(s); j < int(e); j++ {
			if m.Keys().IsNull(j) {
				return nil, fmt.Errorf("map key is null")
			}
			var err error
			if dst, err = AppendValue(dst, *t.Key, m.Keys(), j); err != nil {
				return nil, err
			}
		}
		return appendElems(dst, *t.Elem, m.Items(), int(s), int(e))
	case types.Row:
		st := a.(*array.Struct)
		cols := make([]arrow.Array, st.NumField())
		ts := make([]types.T, st.NumField())
		for f := range cols {
			cols[f], ts[f] = st.Field(f), t.Fields[f].Type
		}
		return AppendRow(dst, ts, cols, i)
	}
	return nil, fmt.Errorf("compacted encoding: unsupported %s value in a %s array", t, a.DataType())
}

// appendScalar is AppendValue of a scalar (false: t is nested or a's type
// is not t's). It does not call itself or AppendValue, so that the compiler
// sees dst only flow to the result: a caller's key buffer on the stack stays
// there (AppendKey).
func appendScalar(dst []byte, t types.T, a arrow.Array, i int) ([]byte, bool) {
	switch t.Kind {
	case types.Bool:
		if a.(*array.Boolean).Value(i) {
			return append(dst, 1), true
		}
		return append(dst, 0), true
	case types.Int8:
		return append(dst, byte(a.(*array.Int8).Value(i))), true
	case types.Int16:
		return binary.LittleEndian.AppendUint16(dst, uint16(a.(*array.Int16).Value(i))), true
	case types.Int32:
		return appendU32(dst, a.(*array.Int32).Value(i)), true
	case types.Int64:
		return appendU64(dst, a.(*array.Int64).Value(i)), true
	case types.Float32:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(a.(*array.Float32).Value(i))), true
	case types.Float64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(a.(*array.Float64).Value(i))), true
	case types.Char, types.String:
		s := a.(*array.String).Value(i)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...), true
	case types.Bytes:
		return appendBytes(dst, a.(*array.Binary).Value(i)), true
	case types.Binary:
		return appendBytes(dst, a.(*array.FixedSizeBinary).Value(i)), true
	case types.Decimal:
		n := a.(*array.Decimal128).Value(i)
		if t.Precision <= 18 {
			return appendU64(dst, int64(n.LowBits())), true
		}
		return appendBytes(dst, decimalBytes(n)), true
	case types.Date:
		return appendU32(dst, int32(a.(*array.Date32).Value(i))), true
	case types.Time:
		switch v := a.(type) {
		case *array.Time32:
			return appendU32(dst, int32(v.Value(i))), true
		case *array.Time64:
			per := int64(1000) // micros per milli
			if v.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
				per = 1_000_000
			}
			ms, rest := floorDivMod(int64(v.Value(i)), per)
			dst = appendU32(dst, int32(ms))
			return appendU32(dst, int32(rest*(1_000_000/per))), true
		}
	case types.Timestamp, types.TimestampTZ:
		v := a.(*array.Timestamp)
		per := int64(1000)
		if v.DataType().(*arrow.TimestampType).Unit == arrow.Nanosecond {
			per = 1_000_000
		}
		ms, rest := floorDivMod(int64(v.Value(i)), per)
		dst = appendU64(dst, ms)
		if t.Precision <= 3 {
			return dst, true
		}
		return appendU32(dst, int32(rest*(1_000_000/per))), true
	}
	return nil, false
}

func appendNested(dst []byte, elem types.T, vals arrow.Array, s, e int) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(e-s))
	return appendElems(dst, elem, vals, s, e)
}

// appendElems writes a null bitset for vals[s:e] and the non-null elements.
func appendElems(dst []byte, elem types.T, vals arrow.Array, s, e int) ([]byte, error) {
	n := e - s
	base := len(dst)
	dst = append(dst, make([]byte, (n+7)/8)...)
	var err error
	for j := s; j < e; j++ {
		if vals.IsNull(j) {
			dst[base+(j-s)>>3] |= 1 << ((j - s) & 7)
			continue
		}
		if dst, err = AppendValue(dst, elem, vals, j); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// AppendRow appends the CompactedRow encoding of row i of cols (of types ts):
// a null bitset, then the non-null fields.
func AppendRow(dst []byte, ts []types.T, cols []arrow.Array, i int) ([]byte, error) {
	base := len(dst)
	dst = append(dst, make([]byte, (len(cols)+7)/8)...)
	var err error
	for f, c := range cols {
		if c.IsNull(i) {
			dst[base+f>>3] |= 1 << (f & 7)
			continue
		}
		if dst, err = AppendValue(dst, ts[f], c, i); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// AppendKey appends the CompactedKeyEncoder encoding of row i of the key
// columns cols (of types ts): the fields without a null bitset. Key columns
// are NOT NULL; a null is an error.
func AppendKey(dst []byte, ts []types.T, cols []arrow.Array, i int) ([]byte, error) {
	for f, c := range cols {
		if c.IsNull(i) {
			return nil, fmt.Errorf("key column %d is null", f+1)
		}
		// Keys are scalar (fluss.ValidateDescriptor): appendScalar, not
		// AppendValue, keeps a point lookup's key buffer off the heap.
		var ok bool
		if dst, ok = appendScalar(dst, ts[f], c, i); !ok {
			return nil, fmt.Errorf("key column %d: unsupported %s value in a %s array", f+1, ts[f], c.DataType())
		}
	}
	return dst, nil
}

// SplitRow returns the encoded bytes of each field of a compacted row; a
// null field has an empty slice (every non-null encoding is at least 1 byte).
func SplitRow(ts []types.T, row []byte) ([][]byte, error) {
	nb := (len(ts) + 7) / 8
	if len(row) < nb {
		return nil, errShortRow
	}
	out := make([][]byte, len(ts))
	pos := nb
	for f, t := range ts {
		if row[f>>3]&(1<<(f&7)) != 0 {
			continue
		}
		n, err := DecodeValue(row[pos:], t, nil)
		if err != nil {
			return nil, err
		}
		out[f] = row[pos : pos+n]
		pos += n
	}
	return out, nil
}

// JoinRow builds a compacted row from field encodings as SplitRow returns them.
func JoinRow(dst []byte, fields [][]byte) []byte {
	base := len(dst)
	dst = append(dst, make([]byte, (len(fields)+7)/8)...)
	for f, v := range fields {
		if len(v) == 0 {
			dst[base+f>>3] |= 1 << (f & 7)
			continue
		}
		dst = append(dst, v...)
	}
	return dst
}

// DecodeRow decodes a compacted row of types ts, appending field f to
// builders[f]; a nil builder skips the field.
func DecodeRow(row []byte, ts []types.T, builders []array.Builder) (int, error) {
	nb := (len(ts) + 7) / 8
	if len(row) < nb {
		return 0, errShortRow
	}
	pos := nb
	for f, t := range ts {
		if row[f>>3]&(1<<(f&7)) != 0 {
			if builders[f] != nil {
				builders[f].AppendNull()
			}
			continue
		}
		n, err := DecodeValue(row[pos:], t, builders[f])
		if err != nil {
			return 0, err
		}
		pos += n
	}
	return pos, nil
}

func need(b []byte, n int) error {
	if len(b) < n {
		return errShortRow
	}
	return nil
}

// DecodeValue decodes one non-null value of type t from the front of b,
// appends it to bld (nil = skip) and returns the number of bytes consumed.
func DecodeValue(b []byte, t types.T, bld array.Builder) (int, error) {
	switch t.Kind {
	case types.Bool:
		if err := need(b, 1); err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.BooleanBuilder).Append(b[0] != 0)
		}
		return 1, nil
	case types.Int8:
		if err := need(b, 1); err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.Int8Builder).Append(int8(b[0]))
		}
		return 1, nil
	case types.Int16:
		if err := need(b, 2); err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.Int16Builder).Append(int16(binary.LittleEndian.Uint16(b)))
		}
		return 2, nil
	case types.Int32, types.Date:
		v, n, err := readU32(b)
		if err != nil {
			return 0, err
		}
		if bld != nil {
			if t.Kind == types.Date {
				bld.(*array.Date32Builder).Append(arrow.Date32(v))
			} else {
				bld.(*array.Int32Builder).Append(v)
			}
		}
		return n, nil
	case types.Int64:
		v, n, err := readU64(b)
		if err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.Int64Builder).Append(v)
		}
		return n, nil
	case types.Float32:
		if err := need(b, 4); err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.Float32Builder).Append(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		return 4, nil
	case types.Float64:
		if err := need(b, 8); err != nil {
			return 0, err
		}
		if bld != nil {
			bld.(*array.Float64Builder).Append(math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
		return 8, nil
	case types.Char, types.String, types.Bytes, types.Binary:
		v, n, err := readBytes(b)
		if err != nil {
			return 0, err
		}
		if bld != nil {
			switch bb := bld.(type) {
			case *array.StringBuilder:
				bb.BinaryBuilder.Append(v)
			case *array.BinaryBuilder:
				bb.Append(v)
			case *array.FixedSizeBinaryBuilder:
				if len(v) != t.Length {
					return 0, fmt.Errorf("binary(%d) value of %d bytes", t.Length, len(v))
				}
				bb.Append(v)
			}
		}
		return n, nil
	case types.Decimal:
		var num decimal128.Num
		var n int
		if t.Precision <= 18 {
			v, m, err := readU64(b)
			if err != nil {
				return 0, err
			}
			num, n = decimal128.FromI64(v), m
		} else {
			v, m, err := readBytes(b)
			if err != nil {
				return 0, err
			}
			if num, err = decimalFromBytes(v); err != nil {
				return 0, err
			}
			n = m
		}
		if bld != nil {
			bld.(*array.Decimal128Builder).Append(num)
		}
		return n, nil
	case types.Time:
		ms, n, err := readU32(b)
		if err != nil {
			return 0, err
		}
		if t.Precision <= 3 {
			if bld != nil {
				bld.(*array.Time32Builder).Append(arrow.Time32(ms))
			}
			return n, nil
		}
		nano, m, err := readU32(b[n:])
		if err != nil {
			return 0, err
		}
		if bld != nil {
			v := int64(ms)*1_000_000 + int64(nano)
			if bld.Type().(*arrow.Time64Type).Unit == arrow.Microsecond {
				v /= 1000
			}
			bld.(*array.Time64Builder).Append(arrow.Time64(v))
		}
		return n + m, nil
	case types.Timestamp, types.TimestampTZ:
		ms, n, err := readU64(b)
		if err != nil {
			return 0, err
		}
		var nano int32
		if t.Precision > 3 {
			var m int
			if nano, m, err = readU32(b[n:]); err != nil {
				return 0, err
			}
			n += m
		}
		if bld != nil {
			tb := bld.(*array.TimestampBuilder)
			if tb.Type().(*arrow.TimestampType).Unit == arrow.Nanosecond {
				tb.Append(arrow.Timestamp(ms*1_000_000 + int64(nano)))
			} else {
				tb.Append(arrow.Timestamp(ms*1000 + int64(nano)/1000))
			}
		}
		return n, nil
	case types.Array:
		cnt, n, err := readCount(b)
		if err != nil {
			return 0, err
		}
		var vb array.Builder
		if bld != nil {
			lb := bld.(*array.ListBuilder)
			lb.Append(true)
			vb = lb.ValueBuilder()
		}
		m, err := decodeElems(b[n:], *t.Elem, cnt, vb)
		return n + m, err
	case types.Map:
		cnt, n, err := readCount(b)
		if err != nil {
			return 0, err
		}
		var kb, ib array.Builder
		if bld != nil {
			mb := bld.(*array.MapBuilder)
			mb.Append(true)
			kb, ib = mb.KeyBuilder(), mb.ItemBuilder()
		}
		for j := 0; j < cnt; j++ {
			m, err := DecodeValue(b[n:], *t.Key, kb)
			if err != nil {
				return 0, err
			}
			n += m
		}
		m, err := decodeElems(b[n:], *t.Elem, cnt, ib)
		return n + m, err
	case types.Row:
		ts := make([]types.T, len(t.Fields))
		bs := make([]array.Builder, len(t.Fields))
		for f := range t.Fields {
			ts[f] = t.Fields[f].Type
		}
		if bld != nil {
			sb := bld.(*array.StructBuilder)
			sb.Append(true)
			for f := range bs {
				bs[f] = sb.FieldBuilder(f)
			}
		}
		return DecodeRow(b, ts, bs)
	}
	return 0, fmt.Errorf("compacted encoding: unsupported type %s", t)
}

func readCount(b []byte) (int, int, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 || v > uint64(len(b)) { // every element costs at least one bit
		return 0, 0, errShortRow
	}
	return int(v), n, nil
}

func decodeElems(b []byte, elem types.T, cnt int, bld array.Builder) (int, error) {
	nb := (cnt + 7) / 8
	if len(b) < nb {
		return 0, errShortRow
	}
	pos := nb
	for j := 0; j < cnt; j++ {
		if b[j>>3]&(1<<(j&7)) != 0 {
			if bld != nil {
				bld.AppendNull()
			}
			continue
		}
		n, err := DecodeValue(b[pos:], elem, bld)
		if err != nil {
			return 0, err
		}
		pos += n
	}
	return pos, nil
}
