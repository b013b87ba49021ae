package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// valueAt returns row i of a as the physical value of its type (see
// types/value.go), nil for NULL.
func valueAt(a arrow.Array, i int) any {
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
	}
	return fmt.Sprintf("<%s>", a.DataType())
}

// appendValue appends a physical value (nil = NULL) to a builder of its type.
func appendValue(b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch x := b.(type) {
	case *array.BooleanBuilder:
		x.Append(v.(bool))
	case *array.Int8Builder:
		x.Append(int8(v.(int64)))
	case *array.Int16Builder:
		x.Append(int16(v.(int64)))
	case *array.Int32Builder:
		x.Append(int32(v.(int64)))
	case *array.Int64Builder:
		x.Append(v.(int64))
	case *array.Uint32Builder:
		x.Append(uint32(v.(int64)))
	case *array.Float32Builder:
		x.Append(float32(v.(float64)))
	case *array.Float64Builder:
		x.Append(v.(float64))
	case *array.Decimal128Builder:
		x.Append(v.(decimal128.Num))
	case *array.StringBuilder:
		x.Append(v.(string))
	case *array.BinaryBuilder:
		x.Append(v.([]byte))
	case *array.FixedSizeBinaryBuilder:
		x.Append(v.([]byte))
	case *array.Date32Builder:
		x.Append(arrow.Date32(v.(int32)))
	case *array.Time32Builder:
		x.Append(arrow.Time32(v.(int64)))
	case *array.Time64Builder:
		x.Append(arrow.Time64(v.(int64)))
	case *array.TimestampBuilder:
		x.Append(arrow.Timestamp(v.(int64)))
	case *array.MonthDayNanoIntervalBuilder:
		x.Append(v.(arrow.MonthDayNanoInterval))
	default:
		panic(fmt.Sprintf("exec: cannot append %T to %T", v, b))
	}
}

// constArray returns an array of n copies of v typed t.
func constArray(mem memory.Allocator, v any, t types.T, n int) arrow.Array {
	b := array.NewBuilder(mem, t.ArrowType())
	defer b.Release()
	b.Reserve(n)
	if v == nil {
		b.AppendNulls(n)
	} else {
		for i := 0; i < n; i++ {
			appendValue(b, v)
		}
	}
	return b.NewArray()
}
