package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// AppendFrom appends element i of src to b. src may use any representation
// that holds the same values as b's type: dictionary encoding, large and view
// string/binary/list types. It is how batches written with representation-
// only differences are converted to the table's types, and how rows are
// copied between records.
func AppendFrom(b array.Builder, src arrow.Array, i int) error {
	if d, ok := src.(*array.Dictionary); ok {
		if d.IsNull(i) {
			b.AppendNull()
			return nil
		}
		return AppendFrom(b, d.Dictionary(), d.GetValueIndex(i))
	}
	if src.IsNull(i) {
		b.AppendNull()
		return nil
	}
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		if s, ok := src.(*array.Boolean); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Int8Builder:
		if s, ok := src.(*array.Int8); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Int16Builder:
		if s, ok := src.(*array.Int16); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Int32Builder:
		if s, ok := src.(*array.Int32); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Int64Builder:
		if s, ok := src.(*array.Int64); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Uint32Builder:
		if s, ok := src.(*array.Uint32); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Float32Builder:
		if s, ok := src.(*array.Float32); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Float64Builder:
		if s, ok := src.(*array.Float64); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Decimal128Builder:
		if s, ok := src.(*array.Decimal128); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Date32Builder:
		if s, ok := src.(*array.Date32); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Time32Builder:
		if s, ok := src.(*array.Time32); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.Time64Builder:
		if s, ok := src.(*array.Time64); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.TimestampBuilder:
		if s, ok := src.(*array.Timestamp); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.FixedSizeBinaryBuilder:
		if s, ok := src.(*array.FixedSizeBinary); ok {
			bb.Append(s.Value(i))
			return nil
		}
	case *array.StringBuilder:
		switch s := src.(type) {
		case *array.String:
			bb.Append(s.Value(i))
			return nil
		case *array.LargeString:
			bb.Append(s.Value(i))
			return nil
		case *array.StringView:
			bb.Append(s.Value(i))
			return nil
		}
	case *array.BinaryBuilder:
		switch s := src.(type) {
		case *array.Binary:
			bb.Append(s.Value(i))
			return nil
		case *array.LargeBinary:
			bb.Append(s.Value(i))
			return nil
		case *array.BinaryView:
			bb.Append(s.Value(i))
			return nil
		}
	case *array.MapBuilder:
		if s, ok := src.(*array.Map); ok {
			bb.Append(true)
			start, end := s.ValueOffsets(i)
			keys, items := s.Keys(), s.Items()
			for j := int(start); j < int(end); j++ {
				if err := AppendFrom(bb.KeyBuilder(), keys, j); err != nil {
					return err
				}
				if err := AppendFrom(bb.ItemBuilder(), items, j); err != nil {
					return err
				}
			}
			return nil
		}
	case *array.ListBuilder:
		if s, ok := src.(array.ListLike); ok {
			if _, isMap := src.(*array.Map); !isMap {
				bb.Append(true)
				start, end := s.ValueOffsets(i)
				vals := s.ListValues()
				for j := int(start); j < int(end); j++ {
					if err := AppendFrom(bb.ValueBuilder(), vals, j); err != nil {
						return err
					}
				}
				return nil
			}
		}
	case *array.StructBuilder:
		if s, ok := src.(*array.Struct); ok && s.NumField() == bb.NumField() {
			bb.Append(true)
			for f := 0; f < s.NumField(); f++ {
				if err := AppendFrom(bb.FieldBuilder(f), s.Field(f), i); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("cannot copy a %s value into a %s column", src.DataType(), b.Type())
}
