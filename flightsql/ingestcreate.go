package flightsql

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// createTableSQL is the CREATE TABLE an ingest with "create if missing"
// runs: each Arrow column as the Fluss type that stores it (seed 000's
// table, read backwards), NOT NULL where the field is not nullable. The
// batches then pass the same rules as for any table, so a column whose
// Arrow type no Fluss type stores as it is (a timestamp in seconds or
// milliseconds: Fluss keeps micro- or nanoseconds) is created and then
// refused naming the column, or refused here when no type fits at all.
func createTableSQL(target string, schema *arrow.Schema) (string, error) {
	if schema.NumFields() == 0 {
		return "", sqlerr.New(sqlerr.InvalidTableDefinition, "ingest into a new table needs at least one column")
	}
	cols := make([]string, schema.NumFields())
	for i, f := range schema.Fields() {
		t, err := flussTypeOf(f.Type, f.Name)
		if err != nil {
			return "", err
		}
		cols[i] = quoteIdent(f.Name) + " " + t + notNull(f)
	}
	return "CREATE TABLE " + target + " (" + strings.Join(cols, ", ") + ")", nil
}

func notNull(f arrow.Field) string {
	if f.Nullable {
		return ""
	}
	return " NOT NULL"
}

// flussTypeOf is the SQL name of the Fluss type whose Arrow type is dt (or
// that dt converts to without changing values).
func flussTypeOf(dt arrow.DataType, col string) (string, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return "BOOLEAN", nil
	case *arrow.Int8Type:
		return "TINYINT", nil
	case *arrow.Int16Type:
		return "SMALLINT", nil
	case *arrow.Int32Type:
		return "INT", nil
	case *arrow.Int64Type:
		return "BIGINT", nil
	case *arrow.Float32Type:
		return "FLOAT", nil
	case *arrow.Float64Type:
		return "DOUBLE", nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return "STRING", nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return "BYTES", nil
	case *arrow.FixedSizeBinaryType:
		return fmt.Sprintf("BINARY(%d)", t.ByteWidth), nil
	case *arrow.Date32Type:
		return "DATE", nil
	case *arrow.Time32Type:
		return "TIME(3)", nil
	case *arrow.Time64Type:
		if t.Unit == arrow.Nanosecond {
			return "TIME(9)", nil
		}
		return "TIME(6)", nil
	case *arrow.TimestampType:
		p := 6
		if t.Unit == arrow.Nanosecond {
			p = 9
		}
		if t.TimeZone != "" {
			return fmt.Sprintf("TIMESTAMP_LTZ(%d)", p), nil
		}
		return fmt.Sprintf("TIMESTAMP(%d)", p), nil
	case *arrow.Decimal128Type:
		return fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale), nil
	case *arrow.DictionaryType:
		return flussTypeOf(t.ValueType, col)
	case arrow.ListLikeType:
		if _, isMap := t.(*arrow.MapType); !isMap {
			if _, fixed := t.(*arrow.FixedSizeListType); !fixed {
				e, err := flussTypeOf(t.Elem(), col)
				if err != nil {
					return "", err
				}
				return "ARRAY<" + e + notNull(t.ElemField()) + ">", nil
			}
		}
	}
	switch t := dt.(type) {
	case *arrow.MapType:
		k, err := flussTypeOf(t.KeyType(), col)
		if err != nil {
			return "", err
		}
		v, err := flussTypeOf(t.ItemType(), col)
		if err != nil {
			return "", err
		}
		return "MAP<" + k + ", " + v + notNull(t.ItemField()) + ">", nil
	case *arrow.StructType:
		fs := make([]string, t.NumFields())
		for i, f := range t.Fields() {
			ft, err := flussTypeOf(f.Type, col+"."+f.Name)
			if err != nil {
				return "", err
			}
			fs[i] = quoteIdent(f.Name) + " " + ft + notNull(f)
		}
		return "ROW<" + strings.Join(fs, ", ") + ">", nil
	}
	return "", sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\": no Fluss type stores Arrow type %s", col, dt)
}
