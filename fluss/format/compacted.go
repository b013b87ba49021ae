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
// types are types.T.ArrowType() of the column types. Nested values are
// Fluss's: an ARRAY is a VLQ length and a BinaryArray, a MAP a VLQ length and
// a BinaryMap, a ROW a VLQ length and a CompactedRow (binaryarray.go). A
// TIME of any precision is its milliseconds of the day (Fluss's TIME holds
// no more): a value with digits below the millisecond is refused, not
// rounded (ErrTimeBelowMillis).

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
	if t.Kind == types.Time {
		ms, err := timeMillis(a, i)
		if err != nil {
			return nil, err
		}
		return appendU32(dst, ms), nil
	}
	switch t.Kind {
	case types.Array, types.Map, types.Row:
		// VLQ length, then the nested bytes: written after room for the
		// longest length and moved down once their size is known.
		base := len(dst)
		dst = append(dst, 0, 0, 0, 0, 0)
		var err error
		if dst, err = appendNestedBody(dst, t, a, i); err != nil {
			return nil, err
		}
		n := len(dst) - base - 5
		m := len(binary.AppendUvarint(dst[base:base], uint64(n)))
		copy(dst[base+m:], dst[base+5:])
		return dst[:base+m+n], nil
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
		// milliseconds of the day; a value below the millisecond fails
		// (timeMillis), which the caller reports
		if ms, err := timeMillis(a, i); err == nil {
			return appendU32(dst, ms), true
		}
	case types.Timestamp, types.TimestampTZ:
		ms, nano := timestampParts(a.(*array.Timestamp), i)
		dst = appendU64(dst, ms)
		if t.Precision <= 3 {
			return dst, true
		}
		return appendU32(dst, nano), true
	}
	return nil, false
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
// are NOT NULL; a null is an error. A TIME with digits below the
// millisecond, which no stored row holds, is encoded as a field no stored
// key has, so that looking it up finds nothing.
func AppendKey(dst []byte, ts []types.T, cols []arrow.Array, i int) ([]byte, error) {
	for f, c := range cols {
		if c.IsNull(i) {
			return nil, fmt.Errorf("key column %d is null", f+1)
		}
		// Keys are scalar (fluss.ValidateDescriptor): appendScalar, not
		// AppendValue, keeps a point lookup's key buffer off the heap.
		var out []byte
		var ok bool
		switch ts[f].Kind {
		case types.Float32, types.Float64:
			out, ok = appendFloatKey(dst, ts[f].Kind, c, i)
		default:
			out, ok = appendScalar(dst, ts[f], c, i)
		}
		if !ok && ts[f].Kind == types.Time {
			if _, err := timeMillis(c, i); errors.Is(err, ErrTimeBelowMillis) {
				// No stored key holds such a TIME (rows refuse it), so the
				// key must match none: a VLQ no int has (a fifth byte
				// above 0x0f), unequal to every stored key from this field
				// on. A lookup of it finds nothing.
				out, ok = append(dst, 0xff, 0xff, 0xff, 0xff, 0x7f), true
			}
		}
		if !ok {
			return nil, fmt.Errorf("key column %d: unsupported %s value in a %s array", f+1, ts[f], c.DataType())
		}
		dst = out
	}
	return dst, nil
}

// DecodeKey decodes a key encoding of AppendKey (key columns of types ts),
// appending field f to builders[f]. A float key decodes to its canonical
// value (appendFloatKey), which finds the same row.
func DecodeKey(key []byte, ts []types.T, builders []array.Builder) error {
	pos := 0
	for f, t := range ts {
		n, err := DecodeValue(key[pos:], t, builders[f])
		if err != nil {
			return err
		}
		pos += n
	}
	if pos != len(key) {
		return fmt.Errorf("key of %d bytes has %d left over", len(key), len(key)-pos)
	}
	return nil
}

// appendFloatKey appends a float key field as appendScalar would, with
// the value PostgreSQL's float equality makes it one of: -0 is 0 and every
// NaN is the one NaN (float8eq), so that a key written or looked up as -0
// finds the row of 0 and a NaN key is one key. The row keeps the value as
// written; only the key, which decides which row a write replaces and a
// lookup finds, is canonical.
func appendFloatKey(dst []byte, k types.Kind, a arrow.Array, i int) ([]byte, bool) {
	switch x := a.(type) {
	case *array.Float32:
		v := x.Value(i)
		switch {
		case v == 0:
			v = 0
		case v != v:
			v = float32(math.NaN())
		}
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(v)), k == types.Float32
	case *array.Float64:
		v := x.Value(i)
		switch {
		case v == 0:
			v = 0
		case math.IsNaN(v):
			v = math.NaN()
		}
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v)), k == types.Float64
	}
	return nil, false
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
		if bld != nil {
			if err := appendTimeMillis(bld, ms); err != nil {
				return 0, err
			}
		}
		return n, nil
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
			appendTimestamp(bld.(*array.TimestampBuilder), ms, nano)
		}
		return n, nil
	case types.Array, types.Map, types.Row:
		v, n, err := readBytes(b)
		if err != nil {
			return 0, err
		}
		if err := decodeNestedBody(v, t, bld); err != nil {
			return 0, err
		}
		return n, nil
	}
	return 0, fmt.Errorf("compacted encoding: unsupported type %s", t)
}
