package format

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestKeyEncodingOrder pins which primary-key types' CompactedKeyEncoder
// bytes sort (bytes.Compare, as pebble orders the embedded store's state)
// in SQL order: an ORDER BY <primary key> LIMIT n could read the state in
// key order and stop after n rows only for those. Fluss's encoding is
// varint (ints, dates, timestamps: unsigned LEB128, low bits first, and a
// negative value is a huge unsigned one), little-endian (SMALLINT, floats)
// or length-prefixed (text, bytes, large decimals), so only BOOLEAN keeps
// SQL order; and the state is keyed by bucket (a hash of the key) before
// the key, so even then only within one bucket. The embedded store
// therefore has no key-order path (lower plans a top-N over the scan);
// a change of the encoding that makes this table wrong should enable one.
func TestKeyEncodingOrder(t *testing.T) {
	mem := memory.DefaultAllocator
	build := func(t types.T, fill func(b array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, t.ArrowType())
		defer b.Release()
		fill(b)
		return b.NewArray()
	}
	for _, c := range []struct {
		name    string
		t       types.T
		sqlSort arrow.Array // values in ascending SQL order
		ordered bool
	}{
		{"boolean", types.T{Kind: types.Bool}, build(types.T{Kind: types.Bool}, func(b array.Builder) {
			b.(*array.BooleanBuilder).AppendValues([]bool{false, true}, nil)
		}), true},
		{"tinyint", types.T{Kind: types.Int8}, build(types.T{Kind: types.Int8}, func(b array.Builder) {
			b.(*array.Int8Builder).AppendValues([]int8{-1, 0, 1}, nil)
		}), false},
		{"smallint", types.T{Kind: types.Int16}, build(types.T{Kind: types.Int16}, func(b array.Builder) {
			b.(*array.Int16Builder).AppendValues([]int16{1, 256, 257}, nil)
		}), false},
		{"int", types.Int32Type, build(types.Int32Type, func(b array.Builder) {
			b.(*array.Int32Builder).AppendValues([]int32{-1, 1, 129, 256}, nil)
		}), false},
		{"bigint", types.Int64Type, build(types.Int64Type, func(b array.Builder) {
			b.(*array.Int64Builder).AppendValues([]int64{1, 129, 256}, nil)
		}), false},
		{"double", types.Float64Type, build(types.Float64Type, func(b array.Builder) {
			b.(*array.Float64Builder).AppendValues([]float64{-2, 1, 2}, nil)
		}), false},
		{"text (collation C)", types.T{Kind: types.String}, build(types.T{Kind: types.String}, func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"a", "ab", "b"}, nil)
		}), false},
		{"char(3)", types.T{Kind: types.Char, Length: 3}, build(types.T{Kind: types.Char, Length: 3}, func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"a", "ab", "b"}, nil)
		}), false},
		{"decimal(10,2)", types.T{Kind: types.Decimal, Precision: 10, Scale: 2}, build(types.T{Kind: types.Decimal, Precision: 10, Scale: 2}, func(b array.Builder) {
			b.(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(-100), decimal128.FromI64(100), decimal128.FromI64(200)}, nil)
		}), false},
		{"date", types.T{Kind: types.Date}, build(types.T{Kind: types.Date}, func(b array.Builder) {
			b.(*array.Date32Builder).AppendValues([]arrow.Date32{-1, 1, 200}, nil)
		}), false},
	} {
		defer c.sqlSort.Release()
		keys := make([][]byte, c.sqlSort.Len())
		for i := range keys {
			k, err := AppendKey(nil, []types.T{c.t}, []arrow.Array{c.sqlSort}, i)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			keys[i] = k
		}
		ordered := true
		for i := 1; i < len(keys); i++ {
			if bytes.Compare(keys[i-1], keys[i]) >= 0 {
				ordered = false
			}
		}
		if ordered != c.ordered {
			t.Errorf("%s: key bytes in SQL order = %v, want %v (keys %x): an ordered scan of the state must follow", c.name, ordered, c.ordered, keys)
		}
	}
}
