package fileio

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TypeOf is the sqlgate type a file column of Arrow type dt is read as by
// read_parquet / read_arrow: the Fluss type of the same values (the
// inverse of types.T.ArrowType), widened where Fluss has no type of that
// width (unsigned integers, second and millisecond timestamps, date64),
// which Conformer converts without changing a value. ok is false for
// types sqlgate cannot hold (durations, intervals, decimal256 beyond 38
// digits, unsigned 64-bit, half floats, unions).
func TypeOf(dt arrow.DataType) (types.T, bool) {
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return TypeOf(t.ValueType)
	case *arrow.BooleanType:
		return types.T{Kind: types.Bool}, true
	case *arrow.Int8Type:
		return types.T{Kind: types.Int8}, true
	case *arrow.Int16Type, *arrow.Uint8Type:
		return types.T{Kind: types.Int16}, true
	case *arrow.Int32Type, *arrow.Uint16Type:
		return types.T{Kind: types.Int32}, true
	case *arrow.Int64Type, *arrow.Uint32Type:
		return types.T{Kind: types.Int64}, true
	case *arrow.Float32Type:
		return types.T{Kind: types.Float32}, true
	case *arrow.Float64Type:
		return types.T{Kind: types.Float64}, true
	case *arrow.Decimal128Type:
		if t.Precision < 1 || t.Precision > 38 {
			return types.T{}, false
		}
		return types.DecimalType(int(t.Precision), int(t.Scale)), true
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return types.T{Kind: types.String}, true
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return types.T{Kind: types.Bytes}, true
	case *arrow.FixedSizeBinaryType:
		return types.T{Kind: types.Binary, Length: t.ByteWidth}, true
	case *arrow.Date32Type, *arrow.Date64Type:
		return types.T{Kind: types.Date}, true
	case *arrow.Time32Type:
		return types.T{Kind: types.Time, Precision: 3}, true
	case *arrow.Time64Type:
		if t.Unit == arrow.Nanosecond {
			return types.T{Kind: types.Time, Precision: 9}, true
		}
		return types.T{Kind: types.Time, Precision: 6}, true
	case *arrow.TimestampType:
		p := 6
		if t.Unit == arrow.Nanosecond {
			p = 9
		}
		if t.TimeZone != "" {
			return types.TimestampTZType(p), true
		}
		return types.TimestampType(p), true
	case arrow.ListLikeType:
		if _, isMap := t.(*arrow.MapType); isMap {
			break
		}
		if _, fixed := t.(*arrow.FixedSizeListType); fixed {
			return types.T{}, false
		}
		e, ok := TypeOf(t.Elem())
		if !ok {
			return types.T{}, false
		}
		e.NotNull = !t.ElemField().Nullable
		return types.ArrayOf(e), true
	case *arrow.StructType:
		row := types.T{Kind: types.Row}
		for _, f := range t.Fields() {
			ft, ok := TypeOf(f.Type)
			if !ok {
				return types.T{}, false
			}
			ft.NotNull = !f.Nullable
			row.Fields = append(row.Fields, types.Field{Name: f.Name, Type: ft})
		}
		return row, true
	}
	if m, ok := dt.(*arrow.MapType); ok {
		k, okK := TypeOf(m.KeyType())
		v, okV := TypeOf(m.ItemType())
		if !okK || !okV {
			return types.T{}, false
		}
		k.NotNull = true
		v.NotNull = !m.ItemField().Nullable
		return types.T{Kind: types.Map, Key: &k, Elem: &v}, true
	}
	return types.T{}, false
}

// FileColumns are the columns a file is read as (TypeOf of each), or an
// error naming the first column sqlgate cannot hold.
func FileColumns(file string, s *arrow.Schema) ([]Column, error) {
	cols := make([]Column, s.NumFields())
	for i, f := range s.Fields() {
		t, ok := TypeOf(f.Type)
		if !ok {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "column \"%s\" of file \"%s\" has type %s, which sqlgate cannot read", f.Name, file, f.Type)
		}
		cols[i] = Column{Name: f.Name, Type: t}
	}
	return cols, nil
}
