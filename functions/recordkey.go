package functions

import (
	"context"
	"encoding/binary"
	"github.com/sqlgate/sqlgate/types/numeric"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Record keys stand for the record and record[] values that PostgreSQL's
// SEARCH and CYCLE clauses of WITH RECURSIVE add (the binder's
// recursive.go): a byte string that compares, bytewise, as PostgreSQL
// compares the values (record_cmp field by field, NULL after every value;
// arrays element by element, a prefix first), and is equal exactly when
// the values are. A record is its fields' keys in order, each a tag byte
// (1 a value, 2 NULL) and the value's order-preserving bytes; a record[]
// is its elements' keys one after another. Nothing prints them: the binder
// refuses to send one to a client.

// RecordKeyable reports whether a column of type t can be a field of a
// record key.
func RecordKeyable(t types.T) bool {
	if t.Variant != types.NoVariant && !t.Variant.IsJSON() && t.Variant != types.QChar {
		return false
	}
	switch t.Kind {
	case types.Bool, types.Int8, types.Int16, types.Int32, types.Int64, types.Oid, types.Float32, types.Float64,
		types.String, types.Char, types.Name, types.Bytes, types.Date, types.Time, types.Timestamp, types.TimestampTZ, types.Decimal:
		return !t.Variant.IsJSON() // json has no equality in PostgreSQL
	}
	return false
}

const (
	keyValue byte = 1
	keyNull  byte = 2
)

// appendFieldKey appends the key of row i of a.
func appendFieldKey(dst []byte, a arrow.Array, i int, t types.T) ([]byte, error) {
	if a.IsNull(i) {
		return append(dst, keyNull), nil
	}
	dst = append(dst, keyValue)
	u64 := func(v uint64) []byte { return binary.BigEndian.AppendUint64(dst, v) }
	i64 := func(v int64) []byte { return u64(uint64(v) ^ (1 << 63)) }
	switch x := a.(type) {
	case *array.Boolean:
		if x.Value(i) {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case *array.Int8:
		return i64(int64(x.Value(i))), nil
	case *array.Int16:
		return i64(int64(x.Value(i))), nil
	case *array.Int32:
		return i64(int64(x.Value(i))), nil
	case *array.Int64:
		return i64(x.Value(i)), nil
	case *array.Uint32:
		return i64(int64(x.Value(i))), nil
	case *array.Date32:
		return i64(int64(x.Value(i))), nil
	case *array.Time32:
		return i64(int64(x.Value(i))), nil
	case *array.Time64:
		return i64(int64(x.Value(i))), nil
	case *array.Timestamp:
		return i64(int64(x.Value(i))), nil
	case *array.Float32:
		return u64(floatKey(float64(x.Value(i)))), nil
	case *array.Float64:
		return u64(floatKey(x.Value(i))), nil
	case *array.Decimal128:
		v := x.Value(i) // one column's values share its scale
		dst = u64(uint64(v.HighBits()) ^ (1 << 63))
		return binary.BigEndian.AppendUint64(dst, v.LowBits()), nil
	case *types.NumericArray:
		// equal values share a key whatever their display scales
		return numeric.AppendSortKey(dst, x.Value(i)), nil
	case *array.String:
		s := x.Value(i)
		if t.Kind == types.Char { // bpchar compares without its trailing blanks
			s = strings.TrimRight(s, " ")
		}
		return appendBytesKey(dst, s), nil
	case *array.Binary:
		return appendBytesKey(dst, string(x.Value(i))), nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "a record of type %s is not supported", t.PGName())
}

// floatKey orders floats as PostgreSQL does: -0 = 0, NaN equal to itself
// and above every number.
func floatKey(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	if math.IsNaN(f) {
		return math.MaxUint64
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// appendBytesKey appends s with 0x00 escaped as 0x00 0xff and ended by
// 0x00 0x01: bytewise order, and no key a prefix of another's.
func appendBytesKey(dst []byte, s string) []byte {
	for j := 0; j < len(s); j++ {
		dst = append(dst, s[j])
		if s[j] == 0 {
			dst = append(dst, 0xff)
		}
	}
	return append(dst, 0, 1)
}

// skipFieldKey returns the length of the field key at the start of b.
func skipFieldKey(b []byte, t types.T) int {
	if len(b) == 0 || b[0] == keyNull {
		return 1
	}
	switch t.Kind {
	case types.Bool:
		return 2
	case types.Decimal:
		return 17
	case types.String, types.Char, types.Name, types.Bytes:
		for j := 1; j+1 < len(b); j++ {
			if b[j] == 0 {
				if b[j+1] == 1 {
					return j + 2
				}
				j++ // an escaped 0x00
			}
		}
		return len(b)
	}
	return 9
}

// recordKeys returns the record key of each row of the field arrays.
func recordKeys(fields []arrow.Array, ts []types.T, n int) ([][]byte, error) {
	keys := make([][]byte, n)
	for i := 0; i < n; i++ {
		var k []byte
		for f, a := range fields {
			var err error
			if k, err = appendFieldKey(k, a, i, ts[f]); err != nil {
				return nil, err
			}
		}
		keys[i] = k
	}
	return keys, nil
}

// fieldKeys is recordKeys of the record's fields: args, or with prefix
// args[1:] (args[0] is the key they extend).
func fieldKeys(args []arrow.Array, ts []types.T, n int, prefix bool) ([][]byte, error) {
	if prefix {
		args = args[1:]
	}
	return recordKeys(args, ts, n)
}

func binaryResult(mem memory.Allocator, vals [][]byte) arrow.Array {
	b := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	defer b.Release()
	for _, v := range vals {
		b.Append(v)
	}
	return b.NewArray()
}

// RecordArrayKernel computes a record[] key: with prefix, args[0] is the
// record[] so far and the rest the fields of the element to append to it
// (path || ROW(fields)); without, the one-element array ARRAY[ROW(args)].
// ts are the fields' types.
func RecordArrayKernel(ts []types.T, prefix bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		keys, err := fieldKeys(args, ts, n, prefix)
		if err != nil {
			return nil, err
		}
		if prefix {
			prev := args[0].(*array.Binary)
			for i := range keys {
				keys[i] = append(append([]byte(nil), prev.Value(i)...), keys[i]...)
			}
		}
		return binaryResult(mem, keys), nil
	}
}

// BreadthKernel computes the record key of ROW(depth, fields): with
// prefix, args[0] is the previous row's such record and depth is its depth
// plus one; without, depth is 0. ts are the fields' types.
func BreadthKernel(ts []types.T, prefix bool) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		keys, err := fieldKeys(args, ts, n, prefix)
		if err != nil {
			return nil, err
		}
		for i := range keys {
			depth := int64(0)
			if prefix {
				prev := args[0].(*array.Binary).Value(i)
				if len(prev) >= 9 {
					depth = int64(binary.BigEndian.Uint64(prev[1:9])^(1<<63)) + 1
				}
			}
			k := append([]byte{keyValue}, binary.BigEndian.AppendUint64(nil, uint64(depth)^(1<<63))...)
			keys[i] = append(k, keys[i]...)
		}
		return binaryResult(mem, keys), nil
	}
}

// MemberKernel computes ROW(args[1:]) = ANY(args[0]) for a record[] key
// args[0] as CYCLE tests it, with record_eq's equality (a NULL field equals
// a NULL field): true when an element equals the row, else false.
func MemberKernel(ts []types.T) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		keys, err := recordKeys(args[1:], ts, n)
		if err != nil {
			return nil, err
		}
		path := args[0].(*array.Binary)
		b := array.NewBooleanBuilder(mem)
		defer b.Release()
		for i := 0; i < n; i++ {
			found := false
			if !path.IsNull(i) {
				p := path.Value(i)
				for len(p) > 0 && !found {
					l := 0
					for _, t := range ts {
						l += skipFieldKey(p[l:], t)
					}
					l = min(l, len(p))
					found = string(p[:l]) == string(keys[i])
					p = p[l:]
				}
			}
			b.Append(found)
		}
		return b.NewArray(), nil
	}
}
