package relop

import (
	"encoding/binary"
	"math"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// SortKey orders by one input column (the shape of exec.SortKey).
type SortKey = exec.SortKey

// SortKeySpec is an ordering key of an ordered aggregate or a window.
type SortKeySpec = exec.SortKey

// Keys are encoded into byte strings that compare (bytes.Compare) in the
// order PostgreSQL sorts the values, and are equal exactly when the values
// are "not distinct": NULL markers, NaN canonicalised, -0 folded into +0,
// integers sign-flipped big-endian, strings escaped and terminated so that a
// prefix sorts first. One encoding thus serves sorting, merging, grouping,
// distinct, set operations and join keys, for every scalar type and for
// lists and structs (equality, element-wise order).

const (
	markNullFirst = 0x00
	markValue     = 0x01
	markNullLast  = 0x02
)

// encodeKeys appends the encoding of columns keys of batch, row by row, to
// out[i] (len(out) == rows).
func encodeKeys(cols []arrow.Array, keys []SortKey, out [][]byte) error {
	for _, k := range keys {
		if k.Column < 0 || k.Column >= len(cols) {
			return sqlerr.New(sqlerr.InternalError, "sort key column %d out of range", k.Column)
		}
		if err := encodeColumn(cols[k.Column], k, out); err != nil {
			return err
		}
	}
	return nil
}

// ascKeys builds ascending keys (for equality use: grouping, distinct,
// partitions, set operations, join keys) over the given columns;
// forms[i] is cols[i]'s key form (SortKey.Form; nil: all as stored).
func ascKeys(cols []int, forms []types.KeyForm) []SortKey {
	ks := make([]SortKey, len(cols))
	for i, c := range cols {
		ks[i] = SortKey{Column: c}
		if i < len(forms) {
			ks[i].Form = forms[i]
		}
	}
	return ks
}

// encodeColumn appends the encoding of every row of a to out[i] in k's
// order (k.Column is not read: a is the column).
func encodeColumn(a arrow.Array, k SortKey, out [][]byte) error {
	desc := k.Desc
	nullMark := byte(markNullLast)
	if k.NullsFirst {
		nullMark = markNullFirst
	}
	hasNulls := a.NullN() > 0
	n := a.Len()
	put := func(i int, enc func(dst []byte) []byte) {
		if hasNulls && a.IsNull(i) {
			out[i] = append(out[i], nullMark)
			return
		}
		start := len(out[i])
		out[i] = append(out[i], markValue)
		out[i] = enc(out[i])
		if desc {
			invert(out[i][start+1:])
		}
	}
	switch x := a.(type) {
	case *array.Int64:
		vs := x.Int64Values()
		for i := 0; i < n; i++ {
			if hasNulls && x.IsNull(i) {
				out[i] = append(out[i], nullMark)
				continue
			}
			start := len(out[i])
			out[i] = binary.BigEndian.AppendUint64(append(out[i], markValue), uint64(vs[i])^(1<<63))
			if desc {
				invert(out[i][start+1:])
			}
		}
		return nil
	case *array.Int32:
		vs := x.Int32Values()
		for i := 0; i < n; i++ {
			if hasNulls && x.IsNull(i) {
				out[i] = append(out[i], nullMark)
				continue
			}
			start := len(out[i])
			out[i] = binary.BigEndian.AppendUint32(append(out[i], markValue), uint32(vs[i])^(1<<31))
			if desc {
				invert(out[i][start+1:])
			}
		}
		return nil
	}
	if ints, ok := intClass(a); ok {
		for i := 0; i < n; i++ {
			v := ints(i)
			put(i, func(dst []byte) []byte { return binary.BigEndian.AppendUint64(dst, uint64(v)^(1<<63)) })
		}
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte {
				if x.Value(i) {
					return append(dst, 1)
				}
				return append(dst, 0)
			})
		}
	case *array.Uint32:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return binary.BigEndian.AppendUint32(dst, x.Value(i)) })
		}
	case *array.Float32:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return binary.BigEndian.AppendUint64(dst, floatKey(float64(x.Value(i)))) })
		}
	case *array.Float64:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return binary.BigEndian.AppendUint64(dst, floatKey(x.Value(i))) })
		}
	case *array.Decimal128:
		for i := 0; i < n; i++ {
			v := x.Value(i)
			put(i, func(dst []byte) []byte {
				dst = binary.BigEndian.AppendUint64(dst, uint64(v.HighBits())^(1<<63))
				return binary.BigEndian.AppendUint64(dst, v.LowBits())
			})
		}
	case *types.NumericArray:
		var d apd.Decimal
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { x.ValueInto(i, &d); return numeric.AppendSortKey(dst, &d) })
		}
	case *array.String:
		if k.Form == types.KeyJSONB {
			return encodeJSONB(x.Value, n, put)
		}
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return appendEscaped(dst, unpadded(x.Value(i), k.Form)) })
		}
	case *array.LargeString:
		if k.Form == types.KeyJSONB {
			return encodeJSONB(x.Value, n, put)
		}
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return appendEscaped(dst, unpadded(x.Value(i), k.Form)) })
		}
	case *array.Binary:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return appendEscaped(dst, x.Value(i)) })
		}
	case *array.FixedSizeBinary:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte { return append(dst, x.Value(i)...) })
		}
	case *array.MonthDayNanoInterval:
		for i := 0; i < n; i++ {
			put(i, func(dst []byte) []byte {
				// PostgreSQL orders and groups intervals by their span with
				// 30-day months and 24-hour days: '1 day' = '24 hours'.
				days, us := types.IntervalSpan(x.Value(i))
				dst = binary.BigEndian.AppendUint64(dst, uint64(days)^(1<<63))
				return binary.BigEndian.AppendUint64(dst, uint64(us))
			})
		}
	case *array.List, *array.Struct:
		for i := 0; i < n; i++ {
			var err error
			put(i, func(dst []byte) []byte {
				dst, err = appendNested(dst, a, i, k.Form)
				return dst
			})
			if err != nil {
				return err
			}
		}
	default:
		return sqlerr.New(sqlerr.FeatureNotSupported, "could not identify an ordering or equality operator for type %s", a.DataType())
	}
	return nil
}

// appendNested encodes one list or struct value. A struct is its fields,
// each with its own marker, then a terminator below every marker. A list
// is one array of as many dimensions as it nests (PostgreSQL's int[][]):
// its innermost elements in storage order, the terminator (so that a
// prefix sorts first), then its shape, the lengths of its levels in
// pre-order, so that arrays order element by element, then by their
// number of elements, then by their dimensions, as PostgreSQL's
// array_cmp, and are equal exactly when elements and shape are. form is
// the elements' key form (SortKey.Form); a struct's fields keep every
// byte (a row's bpchar fields are not told apart from its text fields
// here).
func appendNested(dst []byte, a arrow.Array, i int, form types.KeyForm) ([]byte, error) {
	switch x := a.(type) {
	case *array.List:
		var shape []uint32
		var err error
		if dst, shape, err = appendElements(dst, x, i, form, shape); err != nil {
			return nil, err
		}
		dst = append(dst, 0x00)
		for _, n := range shape {
			dst = binary.BigEndian.AppendUint32(dst, n)
		}
		return dst, nil
	case *array.Struct:
		for f := 0; f < x.NumField(); f++ {
			var err error
			if dst, err = appendOne(dst, x.Field(f), i, types.KeyAsStored); err != nil {
				return nil, err
			}
		}
		return append(dst, 0x00), nil
	}
	return dst, nil
}

// appendElements appends the innermost elements of list i of x in storage
// order, and its length and its sub-lists' lengths (pre-order) to shape.
// A NULL sub-list, which a multidimensional array cannot hold but a Fluss
// ARRAY<ARRAY<T>> can, is one NULL element of length MaxUint32.
func appendElements(dst []byte, x *array.List, i int, form types.KeyForm, shape []uint32) ([]byte, []uint32, error) {
	lo, hi := x.ValueOffsets(i)
	shape = append(shape, uint32(hi-lo))
	child := x.ListValues()
	sub, nested := child.(*array.List)
	for j := int(lo); j < int(hi); j++ {
		var err error
		switch {
		case nested && sub.IsNull(j):
			dst = append(dst, markNullLast+1)
			shape = append(shape, math.MaxUint32)
		case nested:
			dst, shape, err = appendElements(dst, sub, j, form, shape)
		default:
			dst, err = appendOne(dst, child, j, form)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return dst, shape, nil
}

// appendOne encodes row j of a (a nested element), shifting markers by one
// so that 0x00 stays free as the terminator.
func appendOne(dst []byte, a arrow.Array, j int, form types.KeyForm) ([]byte, error) {
	one := [][]byte{nil}
	s := array.NewSlice(a, int64(j), int64(j+1))
	defer s.Release()
	if err := encodeColumn(s, SortKey{Form: form}, one); err != nil {
		return nil, err
	}
	one[0][0]++
	return append(dst, one[0]...), nil
}

// unpadded is s without its trailing blanks for a bpchar key, else s:
// PostgreSQL's bpchar equality and order compare the values so.
func unpadded(s string, form types.KeyForm) string {
	if form == types.KeyBlankPadded {
		return strings.TrimRight(s, " ")
	}
	return s
}

// encodeJSONB encodes n jsonb texts (value(i)) in jsonb's btree order
// (types.AppendJSONBKey), which is not the order of their text: '1' and
// '1.0' are one key, and objects order by their number of pairs first.
func encodeJSONB(value func(int) string, n int, put func(int, func([]byte) []byte)) error {
	var err error
	for i := 0; i < n && err == nil; i++ {
		put(i, func(dst []byte) []byte {
			var out []byte
			if out, err = types.AppendJSONBKey(dst, value(i)); err != nil {
				return dst
			}
			return out
		})
	}
	return err
}

func invert(b []byte) {
	for i := range b {
		b[i] = ^b[i]
	}
}

// floatKey maps a float to an unsigned integer in PostgreSQL's float order.
func floatKey(f float64) uint64 {
	switch {
	case f == 0:
		f = 0 // -0 = +0
	case f != f:
		return math.MaxUint64 // every NaN is one value, above +Inf
	}
	b := math.Float64bits(f)
	if b&(1<<63) != 0 {
		return ^b
	}
	return b | 1<<63
}

// appendEscaped writes s with 0x00 escaped as 0x00 0xFF and a 0x00 0x01
// terminator, so that bytewise order of the encodings is the order of s.
func appendEscaped[S string | []byte](dst []byte, s S) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0 {
			dst = append(dst, 0, 0xFF)
		} else {
			dst = append(dst, c)
		}
	}
	return append(dst, 0, 1)
}

// intClass returns a getter for arrays whose values are integers in their
// physical form (integers, dates, times, timestamps, durations).
func intClass(a arrow.Array) (func(i int) int64, bool) {
	switch x := a.(type) {
	case *array.Int8:
		v := x.Int8Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Int16:
		v := x.Int16Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Int32:
		v := x.Int32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Int64:
		v := x.Int64Values()
		return func(i int) int64 { return v[i] }, true
	case *array.Date32:
		v := x.Date32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Date64:
		v := x.Date64Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Time32:
		v := x.Time32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Time64:
		v := x.Time64Values()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Timestamp:
		v := x.TimestampValues()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Duration:
		v := x.DurationValues()
		return func(i int) int64 { return int64(v[i]) }, true
	case *array.Uint32: // oid (min/max only: isIntClass leaves it out of keys)
		v := x.Uint32Values()
		return func(i int) int64 { return int64(v[i]) }, true
	}
	return nil, false
}

// isIntClass reports whether a type's values are physical integers.
func isIntClass(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64,
		arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return true
	}
	return false
}

// toInt64s converts an int-class array's values into buf (resized).
func toInt64s(a arrow.Array, buf []int64) []int64 {
	n := a.Len()
	if cap(buf) < n {
		buf = make([]int64, n)
	}
	buf = buf[:n]
	switch x := a.(type) {
	case *array.Int32:
		for i, v := range x.Int32Values() {
			buf[i] = int64(v)
		}
		return buf
	case *array.Int64:
		copy(buf, x.Int64Values())
		return buf
	}
	get, _ := intClass(a)
	for i := range buf {
		buf[i] = get(i)
	}
	return buf
}

// keyBuffers returns n empty byte slices carved from one arena, for encoding
// a batch's keys without a separate allocation per row.
func keyBuffers(n, perRow int, arena []byte) ([][]byte, []byte) {
	if cap(arena) < n*perRow {
		arena = make([]byte, n*perRow)
	}
	arena = arena[:n*perRow]
	out := make([][]byte, n)
	for i := range out {
		out[i] = arena[i*perRow : i*perRow : (i+1)*perRow]
	}
	return out, arena
}

// keyWidthHint estimates a row's encoded size for the arena.
func keyWidthHint(cols []arrow.Array, keys []SortKey) int {
	w := 0
	for _, k := range keys {
		switch cols[k.Column].DataType().ID() {
		case arrow.BOOL, arrow.INT8:
			w += 2
		case arrow.INT16, arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
			w += 5
		case arrow.DECIMAL128:
			w += 17
		case arrow.STRING, arrow.BINARY:
			w += 16
		default:
			w += 9
		}
	}
	return w
}

// encodeBatchKeys encodes the keys of every row of a batch.
func encodeBatchKeys(b arrow.RecordBatch, keys []SortKey) ([][]byte, error) {
	cols := b.Columns()
	out, _ := keyBuffers(int(b.NumRows()), keyWidthHint(cols, keys), nil)
	if err := encodeKeys(cols, keys, out); err != nil {
		return nil, err
	}
	return out, nil
}

// unsafeBytes views a string's bytes without copying; callers never write.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// isFixedKey reports whether a single key of type dt can be hashed and
// compared as one int64: integer-like types by value, floats through
// floatKey (NaN = NaN, -0 = +0, as PostgreSQL's float equality).
func isFixedKey(dt arrow.DataType) bool {
	return isIntClass(dt) || dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT64
}

// fixedKeys converts a fixed-key array's values into buf (resized): equal
// keys (in PostgreSQL's sense) get equal int64s. NULL rows get arbitrary
// values; callers test validity themselves.
func fixedKeys(a arrow.Array, buf []int64) []int64 {
	switch x := a.(type) {
	case *array.Float64:
		buf = resize(buf, x.Len())
		for i, v := range x.Float64Values() {
			buf[i] = int64(floatKey(v))
		}
		return buf
	case *array.Float32:
		buf = resize(buf, x.Len())
		for i, v := range x.Float32Values() {
			buf[i] = int64(floatKey(float64(v)))
		}
		return buf
	}
	return toInt64s(a, buf)
}
