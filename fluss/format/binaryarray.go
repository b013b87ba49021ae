package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/types"
)

// Fluss's nested values inside a CompactedRow (BinaryArray.java,
// BinaryArrayWriter.java, AbstractBinaryWriter.java, BinaryMap.java; the
// compacted flavour: CompactedArray, CompactedMap):
//
//   - BinaryArray: int32 element count; null bits, one per element, in
//     32-bit words (4 * ceil(n/32) bytes, bit j = byte j/8, bit j%8); one
//     fixed-width slot per element (1 byte BOOLEAN/TINYINT, 2 SMALLINT, 4
//     INT/FLOAT/DATE/TIME, 8 for everything else), the fixed part padded to
//     8 bytes; then a variable-length region of 8-byte-padded parts. A
//     variable-length element's slot holds offset<<32 | size, the offset
//     from the array's start; a string or byte string of at most 7 bytes is
//     kept in the slot itself (bytes 0..6, byte 7 = 0x80 | length). A
//     DECIMAL with precision > 18 reserves 16 bytes of the region (its
//     BigInteger bytes first); a TIMESTAMP with precision > 3 keeps its
//     milliseconds in 8 bytes of the region and its nano-of-millisecond in
//     the slot's low 32 bits. NULL slots are zero. Integers little-endian.
//   - BinaryMap: int32 byte size of the key array, the key BinaryArray, the
//     value BinaryArray.
//   - A ROW nested in an array is a CompactedRow (null bitset, fields).
//
// Integers are the machine's order in Java (MemorySegment); every platform
// Fluss runs on is little-endian.

// ErrTimeBelowMillis reports a TIME value with digits below the
// millisecond: Fluss keeps a TIME (of any precision) as milliseconds of the
// day, so such a value cannot be stored.
var ErrTimeBelowMillis = errors.New("a TIME value with digits below the millisecond cannot be stored: Fluss keeps TIME as milliseconds of the day")

// maxInline is the longest string or byte string kept inside its slot
// (BinarySection.MAX_FIX_PART_DATA_SIZE).
const maxInline = 7

// slotSize is the fixed-width slot of an element of type t
// (BinaryArray.calculateFixLengthPartSize).
func slotSize(t types.T) int {
	switch t.Kind {
	case types.Bool, types.Int8:
		return 1
	case types.Int16:
		return 2
	case types.Int32, types.Float32, types.Date, types.Time:
		return 4
	}
	return 8
}

func arrayHeaderSize(n int) int { return 4 + (n+31)/32*4 }

func roundWord(n int) int { return (n + 7) &^ 7 }

// appendNestedBody appends the bytes of the nested value i of a (type t)
// without their length prefix: a BinaryArray, a BinaryMap or a CompactedRow.
func appendNestedBody(dst []byte, t types.T, a arrow.Array, i int) ([]byte, error) {
	switch t.Kind {
	case types.Array:
		l, ok := a.(array.ListLike)
		if !ok {
			break
		}
		s, e := l.ValueOffsets(i)
		return appendBinaryArray(dst, *t.Elem, l.ListValues(), int(s), int(e))
	case types.Map:
		m, ok := a.(*array.Map)
		if !ok {
			break
		}
		s, e := m.ValueOffsets(i)
		base := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		var err error
		if dst, err = appendBinaryArray(dst, *t.Key, m.Keys(), int(s), int(e)); err != nil {
			return nil, err
		}
		binary.LittleEndian.PutUint32(dst[base:], uint32(len(dst)-base-4))
		return appendBinaryArray(dst, *t.Elem, m.Items(), int(s), int(e))
	case types.Row:
		st, ok := a.(*array.Struct)
		if !ok || st.NumField() != len(t.Fields) {
			break
		}
		return appendStructRow(dst, t.Fields, st, i)
	}
	return nil, fmt.Errorf("compacted encoding: unsupported %s value in a %s array", t, a.DataType())
}

// appendStructRow appends the CompactedRow of element i of st (fields fs).
func appendStructRow(dst []byte, fs []types.Field, st *array.Struct, i int) ([]byte, error) {
	base := len(dst)
	dst = append(dst, make([]byte, (len(fs)+7)/8)...)
	var err error
	for f := range fs {
		c := st.Field(f)
		if c.IsNull(i) {
			dst[base+f>>3] |= 1 << (f & 7)
			continue
		}
		if dst, err = AppendValue(dst, fs[f].Type, c, i); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// appendBinaryArray appends the BinaryArray of vals[s:e] (elements of type elem).
func appendBinaryArray(dst []byte, elem types.T, vals arrow.Array, s, e int) ([]byte, error) {
	n := e - s
	hdr, w := arrayHeaderSize(n), slotSize(elem)
	base := len(dst)
	dst = append(dst, make([]byte, roundWord(hdr+w*n))...)
	le := binary.LittleEndian
	le.PutUint32(dst[base:], uint32(n))
	for j := 0; j < n; j++ {
		k := s + j
		if vals.IsNull(k) {
			dst[base+4+j>>3] |= 1 << (j & 7)
			continue
		}
		slot := base + hdr + w*j
		var err error
		if dst, err = appendElement(dst, base, slot, elem, vals, k); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// appendElement writes element k of vals into its slot at dst[slot:] of
// the array starting at dst[base:], appending its variable-length part.
func appendElement(dst []byte, base, slot int, elem types.T, vals arrow.Array, k int) ([]byte, error) {
	le := binary.LittleEndian
	// varPart appends v to the variable-length region, zero-padded to 8
	// bytes, and points the slot at it (low 32 bits: lo).
	varPart := func(v []byte, lo uint32) {
		off := len(dst) - base
		dst = append(dst, v...)
		dst = append(dst, make([]byte, roundWord(len(v))-len(v))...)
		le.PutUint64(dst[slot:], uint64(off)<<32|uint64(lo))
	}
	bytesValue := func(v []byte) {
		if len(v) <= maxInline {
			copy(dst[slot:slot+maxInline], v)
			dst[slot+7] = 0x80 | byte(len(v))
			return
		}
		varPart(v, uint32(len(v)))
	}
	switch elem.Kind {
	case types.Bool:
		if vals.(*array.Boolean).Value(k) {
			dst[slot] = 1
		}
	case types.Int8:
		dst[slot] = byte(vals.(*array.Int8).Value(k))
	case types.Int16:
		le.PutUint16(dst[slot:], uint16(vals.(*array.Int16).Value(k)))
	case types.Int32:
		le.PutUint32(dst[slot:], uint32(vals.(*array.Int32).Value(k)))
	case types.Date:
		le.PutUint32(dst[slot:], uint32(vals.(*array.Date32).Value(k)))
	case types.Time:
		ms, err := timeMillis(vals, k)
		if err != nil {
			return nil, err
		}
		le.PutUint32(dst[slot:], uint32(ms))
	case types.Float32:
		v := vals.(*array.Float32).Value(k)
		bits := math.Float32bits(v)
		if v != v {
			bits = 0x7fc00000 // BinaryArrayWriter.writeFloat: Java's canonical NaN
		}
		le.PutUint32(dst[slot:], bits)
	case types.Int64:
		le.PutUint64(dst[slot:], uint64(vals.(*array.Int64).Value(k)))
	case types.Float64:
		v := vals.(*array.Float64).Value(k)
		bits := math.Float64bits(v)
		if v != v {
			bits = 0x7ff8000000000000
		}
		le.PutUint64(dst[slot:], bits)
	case types.Char, types.String:
		v := vals.(*array.String).Value(k)
		bytesValue(unsafe.Slice(unsafe.StringData(v), len(v)))
	case types.Bytes:
		bytesValue(vals.(*array.Binary).Value(k))
	case types.Binary:
		bytesValue(vals.(*array.FixedSizeBinary).Value(k))
	case types.Decimal:
		n := vals.(*array.Decimal128).Value(k)
		if elem.Precision <= 18 {
			le.PutUint64(dst[slot:], n.LowBits())
			break
		}
		v := decimalBytes(n)
		off := len(dst) - base
		dst = append(dst, make([]byte, 16)...)
		copy(dst[base+off:], v)
		le.PutUint64(dst[slot:], uint64(off)<<32|uint64(len(v)))
	case types.Timestamp, types.TimestampTZ:
		ms, nano := timestampParts(vals.(*array.Timestamp), k)
		if elem.Precision <= 3 {
			le.PutUint64(dst[slot:], uint64(ms))
			break
		}
		var b [8]byte
		le.PutUint64(b[:], uint64(ms))
		varPart(b[:], uint32(nano))
	case types.Array, types.Map, types.Row:
		start := len(dst)
		var err error
		if dst, err = appendNestedBody(dst, elem, vals, k); err != nil {
			return nil, err
		}
		size := len(dst) - start
		dst = append(dst, make([]byte, roundWord(size)-size)...)
		le.PutUint64(dst[slot:], uint64(start-base)<<32|uint64(size))
	default:
		return nil, fmt.Errorf("compacted encoding: unsupported array element type %s", elem)
	}
	return dst, nil
}

// decodeNestedBody decodes b, exactly the bytes of one nested value of type
// t (a BinaryArray, BinaryMap or CompactedRow), into bld (nil: check only).
func decodeNestedBody(b []byte, t types.T, bld array.Builder) error {
	switch t.Kind {
	case types.Array:
		var vb array.Builder
		if bld != nil {
			lb, ok := bld.(array.ListLikeBuilder)
			if !ok {
				return fmt.Errorf("compacted decoding: an array into a %s builder", bld.Type())
			}
			lb.Append(true)
			vb = lb.ValueBuilder()
		}
		_, err := decodeBinaryArray(b, *t.Elem, vb)
		return err
	case types.Map:
		if len(b) < 4 {
			return errShortRow
		}
		kn := int64(int32(binary.LittleEndian.Uint32(b)))
		if kn < 0 || kn > int64(len(b)-4) {
			return errShortRow
		}
		var kb, ib array.Builder
		if bld != nil {
			mb, ok := bld.(*array.MapBuilder)
			if !ok {
				return fmt.Errorf("compacted decoding: a map into a %s builder", bld.Type())
			}
			mb.Append(true)
			kb, ib = mb.KeyBuilder(), mb.ItemBuilder()
		}
		keys, vals := b[4:4+kn], b[4+kn:]
		nk, err := decodeBinaryArray(keys, *t.Key, kb)
		if err != nil {
			return err
		}
		nv, err := decodeBinaryArray(vals, *t.Elem, ib)
		if err != nil {
			return err
		}
		if nk != nv {
			return fmt.Errorf("compacted decoding: a map of %d keys and %d values", nk, nv)
		}
		return nil
	case types.Row:
		var sb *array.StructBuilder
		if bld != nil {
			var ok bool
			if sb, ok = bld.(*array.StructBuilder); !ok || sb.NumField() != len(t.Fields) {
				return fmt.Errorf("compacted decoding: a row into a %s builder", bld.Type())
			}
			sb.Append(true)
		}
		n, err := decodeStructRow(b, t.Fields, sb)
		if err != nil {
			return err
		}
		if n != len(b) {
			return fmt.Errorf("compacted decoding: a nested row of %d bytes holds %d", len(b), n)
		}
		return nil
	}
	return fmt.Errorf("compacted decoding: %s is not a nested type", t)
}

// decodeStructRow decodes a CompactedRow of fields fs into sb's field
// builders (nil sb: check only) and returns its length.
func decodeStructRow(b []byte, fs []types.Field, sb *array.StructBuilder) (int, error) {
	nb := (len(fs) + 7) / 8
	if len(b) < nb {
		return 0, errShortRow
	}
	pos := nb
	for f := range fs {
		var fb array.Builder
		if sb != nil {
			fb = sb.FieldBuilder(f)
		}
		if b[f>>3]&(1<<(f&7)) != 0 {
			if fb != nil {
				fb.AppendNull()
			}
			continue
		}
		n, err := DecodeValue(b[pos:], fs[f].Type, fb)
		if err != nil {
			return 0, err
		}
		pos += n
	}
	return pos, nil
}

// decodeBinaryArray decodes the BinaryArray b (elements of type elem) into
// bld (nil: check only) and returns its element count.
func decodeBinaryArray(b []byte, elem types.T, bld array.Builder) (int, error) {
	if len(b) < 4 {
		return 0, errShortRow
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	w := int64(slotSize(elem))
	if n < 0 || 4+(n+31)/32*4+w*n > int64(len(b)) {
		return 0, errShortRow
	}
	hdr := arrayHeaderSize(int(n))
	for j := 0; j < int(n); j++ {
		if b[4+j>>3]&(1<<(j&7)) != 0 {
			if bld != nil {
				bld.AppendNull()
			}
			continue
		}
		if err := decodeElement(b, hdr+int(w)*j, elem, bld); err != nil {
			return 0, err
		}
	}
	return int(n), nil
}

// varRegion returns the variable-length part a slot points at, checked to
// lie within the array b.
func varRegion(b []byte, slot uint64, size int) ([]byte, error) {
	off := int64(slot >> 32)
	if off < 0 || int64(size) > int64(len(b))-off || size < 0 {
		return nil, errShortRow
	}
	return b[off : off+int64(size)], nil
}

// decodeElement decodes the non-null element whose slot is at b[slot:].
func decodeElement(b []byte, slot int, elem types.T, bld array.Builder) error {
	le := binary.LittleEndian
	s := b[slot:]
	bytesValue := func() ([]byte, error) {
		v := le.Uint64(s)
		if v>>63 != 0 {
			l := int(v>>56) & 0x7f
			if l > maxInline {
				return nil, errShortRow
			}
			return s[:l], nil
		}
		return varRegion(b, v, int(uint32(v)))
	}
	if bld == nil {
		// check what decoding would check of the variable-length parts
		switch elem.Kind {
		case types.Char, types.String, types.Bytes, types.Binary:
			_, err := bytesValue()
			return err
		case types.Decimal, types.Timestamp, types.TimestampTZ, types.Array, types.Map, types.Row:
		default:
			return nil
		}
	}
	switch elem.Kind {
	case types.Bool:
		bld.(*array.BooleanBuilder).Append(s[0] != 0)
	case types.Int8:
		bld.(*array.Int8Builder).Append(int8(s[0]))
	case types.Int16:
		bld.(*array.Int16Builder).Append(int16(le.Uint16(s)))
	case types.Int32:
		bld.(*array.Int32Builder).Append(int32(le.Uint32(s)))
	case types.Date:
		bld.(*array.Date32Builder).Append(arrow.Date32(int32(le.Uint32(s))))
	case types.Time:
		return appendTimeMillis(bld, int32(le.Uint32(s)))
	case types.Float32:
		bld.(*array.Float32Builder).Append(math.Float32frombits(le.Uint32(s)))
	case types.Int64:
		bld.(*array.Int64Builder).Append(int64(le.Uint64(s)))
	case types.Float64:
		bld.(*array.Float64Builder).Append(math.Float64frombits(le.Uint64(s)))
	case types.Char, types.String, types.Bytes, types.Binary:
		v, err := bytesValue()
		if err != nil {
			return err
		}
		switch bb := bld.(type) {
		case *array.StringBuilder:
			bb.BinaryBuilder.Append(v)
		case *array.BinaryBuilder:
			bb.Append(v)
		case *array.FixedSizeBinaryBuilder:
			if len(v) != elem.Length {
				return fmt.Errorf("binary(%d) value of %d bytes", elem.Length, len(v))
			}
			bb.Append(v)
		default:
			return fmt.Errorf("compacted decoding: a %s into a %s builder", elem, bld.Type())
		}
	case types.Decimal:
		v := le.Uint64(s)
		var num decimal128.Num
		if elem.Precision <= 18 {
			num = decimal128.FromI64(int64(v))
		} else {
			raw, err := varRegion(b, v, int(uint32(v)))
			if err != nil {
				return err
			}
			if num, err = decimalFromBytes(raw); err != nil {
				return err
			}
		}
		if bld != nil {
			bld.(*array.Decimal128Builder).Append(num)
		}
	case types.Timestamp, types.TimestampTZ:
		v := le.Uint64(s)
		ms, nano := int64(v), int32(0)
		if elem.Precision > 3 {
			raw, err := varRegion(b, v, 8)
			if err != nil {
				return err
			}
			ms, nano = int64(le.Uint64(raw)), int32(uint32(v))
			if nano < 0 || nano > 999_999 {
				return fmt.Errorf("compacted decoding: nano-of-millisecond %d", nano)
			}
		}
		if bld != nil {
			appendTimestamp(bld.(*array.TimestampBuilder), ms, nano)
		}
	case types.Array, types.Map, types.Row:
		v := le.Uint64(s)
		raw, err := varRegion(b, v, int(uint32(v)))
		if err != nil {
			return err
		}
		return decodeNestedBody(raw, elem, bld)
	default:
		return fmt.Errorf("compacted decoding: unsupported array element type %s", elem)
	}
	return nil
}

// timeMillis returns element i of a TIME array (any unit) as milliseconds
// of the day; a value with digits below the millisecond is an error
// wrapping ErrTimeBelowMillis.
func timeMillis(a arrow.Array, i int) (int32, error) {
	var v, per int64 // value and its units per millisecond
	switch t := a.(type) {
	case *array.Time32:
		if t.DataType().(*arrow.Time32Type).Unit == arrow.Second {
			return int32(t.Value(i)) * 1000, nil
		}
		return int32(t.Value(i)), nil
	case *array.Time64:
		v, per = int64(t.Value(i)), 1000
		if t.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			per = 1_000_000
		}
	default:
		return 0, fmt.Errorf("compacted encoding: a TIME value in a %s array", a.DataType())
	}
	ms, rest := floorDivMod(v, per)
	if rest != 0 {
		return 0, fmt.Errorf("%w (%s)", ErrTimeBelowMillis, formatTimeOfDay(v, per))
	}
	return int32(ms), nil
}

// formatTimeOfDay renders v units (per per millisecond) of the day for an
// error message.
func formatTimeOfDay(v, per int64) string {
	unitsPerSec := per * 1000
	sec, frac := floorDivMod(v, unitsPerSec)
	digits := 6
	if per == 1_000_000 {
		digits = 9
	}
	return fmt.Sprintf("%02d:%02d:%02d.%0*d", sec/3600, sec/60%60, sec%60, digits, frac)
}

// appendTimeMillis appends ms (milliseconds of the day) to a TIME builder
// of any unit.
func appendTimeMillis(bld array.Builder, ms int32) error {
	switch b := bld.(type) {
	case *array.Time32Builder:
		if b.Type().(*arrow.Time32Type).Unit == arrow.Second {
			b.Append(arrow.Time32(ms / 1000))
		} else {
			b.Append(arrow.Time32(ms))
		}
	case *array.Time64Builder:
		per := int64(1000)
		if b.Type().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			per = 1_000_000
		}
		b.Append(arrow.Time64(int64(ms) * per))
	default:
		return fmt.Errorf("compacted decoding: a TIME into a %s builder", bld.Type())
	}
	return nil
}

// timestampParts splits element i of a (any unit) into Fluss's epoch
// milliseconds and nano-of-millisecond.
func timestampParts(a *array.Timestamp, i int) (int64, int32) {
	v := int64(a.Value(i))
	if v == math.MaxInt64 || v == math.MinInt64 {
		// infinity and -infinity (types/infinity.go) are the extreme
		// values in every unit, milliseconds too
		return v, 0
	}
	switch a.DataType().(*arrow.TimestampType).Unit {
	case arrow.Second:
		return v * 1000, 0
	case arrow.Millisecond:
		return v, 0
	case arrow.Microsecond:
		ms, us := floorDivMod(v, 1000)
		return ms, int32(us * 1000)
	}
	ms, ns := floorDivMod(v, 1_000_000)
	return ms, int32(ns)
}

// appendTimestamp appends (ms, nano-of-millisecond) to a timestamp builder
// of any unit (a finer part than the unit holds is dropped: the column's
// precision says it is zero).
func appendTimestamp(b *array.TimestampBuilder, ms int64, nano int32) {
	if ms == math.MaxInt64 || ms == math.MinInt64 {
		b.Append(arrow.Timestamp(ms)) // infinity, -infinity
		return
	}
	switch b.Type().(*arrow.TimestampType).Unit {
	case arrow.Second:
		s, _ := floorDivMod(ms, 1000)
		b.Append(arrow.Timestamp(s))
	case arrow.Millisecond:
		b.Append(arrow.Timestamp(ms))
	default:
		b.Append(arrow.Timestamp(timestampOfParts(ms, nano, b.Type().(*arrow.TimestampType).Unit == arrow.Nanosecond)))
	}
}

// timestampOfParts is Fluss's (epoch milliseconds, nano-of-millisecond) as
// microseconds, or nanoseconds when nanos is set; infinity and -infinity
// (the extreme milliseconds) stay the extreme values.
func timestampOfParts(ms int64, nano int32, nanos bool) int64 {
	switch {
	case ms == math.MaxInt64 || ms == math.MinInt64:
		return ms
	case nanos:
		return ms*1_000_000 + int64(nano)
	}
	return ms*1000 + int64(nano)/1000
}
