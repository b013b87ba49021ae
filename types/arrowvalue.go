package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// ValueAt returns row i of a as the physical value of its type (see
// value.go): nil for NULL; a list's value is a []any of its elements', a
// struct's (ROW) a []any of its fields'.
// It is the one place the executor and the function library read single
// values out of Arrow arrays.
func ValueAt(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Int8:
		return int64(x.Value(i))
	case *array.Int16:
		return int64(x.Value(i))
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Int64:
		return x.Value(i)
	case *array.Uint32:
		return int64(x.Value(i))
	case *array.Float32:
		return float64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	case *array.Decimal128:
		return x.Value(i)
	case *NumericArray:
		return x.Value(i)
	case *array.String:
		return x.Value(i)
	case *array.Binary:
		return x.Value(i)
	case *array.FixedSizeBinary:
		return x.Value(i)
	case *array.Date32:
		return int32(x.Value(i))
	case *array.Time32:
		return int64(x.Value(i))
	case *array.Time64:
		return int64(x.Value(i))
	case *array.Timestamp:
		return int64(x.Value(i))
	case *array.MonthDayNanoInterval:
		return x.Value(i)
	case *array.Map:
		return mapValueAt(x, i)
	case *array.List:
		start, end := x.ValueOffsets(i)
		vals := x.ListValues()
		out := make([]any, 0, end-start)
		for k := start; k < end; k++ {
			out = append(out, ValueAt(vals, int(k)))
		}
		return out
	case *array.Struct:
		out := make([]any, x.NumField())
		for k := range out {
			out[k] = ValueAt(x.Field(k), i)
		}
		return out
	}
	return fmt.Sprintf("<%s>", a.DataType())
}

// AppendValue appends a physical value (nil = NULL) to a builder of its
// type; a value of the wrong Go type is an internal error.
func AppendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	ok := true
	switch x := b.(type) {
	case *array.BooleanBuilder:
		var bv bool
		if bv, ok = v.(bool); ok {
			x.Append(bv)
		}
	case *array.Int8Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(int8(n))
		}
	case *array.Int16Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(int16(n))
		}
	case *array.Int32Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(int32(n))
		}
	case *array.Int64Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(n)
		}
	case *array.Uint32Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(uint32(n))
		}
	case *array.Float32Builder:
		var f float64
		if f, ok = v.(float64); ok {
			x.Append(float32(f))
		}
	case *array.Float64Builder:
		var f float64
		if f, ok = v.(float64); ok {
			x.Append(f)
		}
	case *array.Decimal128Builder:
		var d decimal128.Num
		if d, ok = v.(decimal128.Num); ok {
			x.Append(d)
		}
	case *array.ExtensionBuilder:
		var d *apd.Decimal
		if d, ok = v.(*apd.Decimal); ok && IsNumericArrow(x.Type()) {
			x.Builder.(*array.BinaryBuilder).Append(numeric.Encode(nil, d))
		} else {
			ok = false
		}
	case *array.StringBuilder:
		var s string
		if s, ok = v.(string); ok {
			x.Append(s)
		}
	case *array.BinaryBuilder:
		var bs []byte
		if bs, ok = v.([]byte); ok {
			x.Append(bs)
		}
	case *array.FixedSizeBinaryBuilder:
		var bs []byte
		if bs, ok = v.([]byte); ok {
			// arrow-go panics on a value of the wrong width; the casts
			// check first, this keeps a missed path an error
			w := x.Type().(*arrow.FixedSizeBinaryType).ByteWidth
			if err := CheckBinaryLength(bs, T{Kind: Binary, Length: w}); err != nil {
				return err
			}
			x.Append(bs)
		}
	case *array.Date32Builder:
		var d int32
		if d, ok = v.(int32); ok {
			x.Append(arrow.Date32(d))
		}
	case *array.Time32Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(arrow.Time32(n))
		}
	case *array.Time64Builder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(arrow.Time64(n))
		}
	case *array.TimestampBuilder:
		var n int64
		if n, ok = v.(int64); ok {
			x.Append(arrow.Timestamp(n))
		}
	case *array.MonthDayNanoIntervalBuilder:
		var iv arrow.MonthDayNanoInterval
		if iv, ok = v.(arrow.MonthDayNanoInterval); ok {
			x.Append(iv)
		}
	case *array.MapBuilder:
		var err error
		if ok, err = appendMap(x, v); err != nil {
			return err
		}
	case *array.ListBuilder:
		var items []any
		if items, ok = v.([]any); ok {
			x.Append(true)
			for _, it := range items {
				if err := AppendValue(x.ValueBuilder(), it); err != nil {
					return err
				}
			}
		}
	case *array.StructBuilder:
		var fields []any
		if fields, ok = v.([]any); ok && len(fields) == x.NumField() {
			x.Append(true)
			for k, f := range fields {
				if err := AppendValue(x.FieldBuilder(k), f); err != nil {
					return err
				}
			}
		} else {
			ok = false
		}
	default:
		ok = false
	}
	if !ok {
		return sqlerr.New(sqlerr.InternalError, "cannot append a %T to a %s column", v, b.Type())
	}
	return nil
}

// ConstArray returns an array of n copies of v typed t.
func ConstArray(mem memory.Allocator, v any, t T, n int) (arrow.Array, error) {
	b := array.NewBuilder(mem, t.ArrowType())
	defer b.Release()
	b.Reserve(n)
	if v == nil {
		b.AppendNulls(n)
		return b.NewArray(), nil
	}
	for i := 0; i < n; i++ {
		if err := AppendValue(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}
