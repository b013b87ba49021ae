package fileio_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// arrayOf builds an array of type dt from its JSON form.
func arrayOf(t *testing.T, dt arrow.DataType, js string) arrow.Array {
	t.Helper()
	a, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(js))
	if err != nil {
		t.Fatalf("%s %s: %v", dt, js, err)
	}
	return a
}

// marshal is an array's JSON on one line.
func marshal(a arrow.Array) string {
	b, _ := a.MarshalJSON()
	return strings.ReplaceAll(string(b), "\n", "")
}

func conform(t *testing.T, want types.T, dt arrow.DataType, js string) (string, error) {
	t.Helper()
	a := arrayOf(t, dt, js)
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil)
	c, err := fileio.NewConformer("f.parquet", schema, []fileio.Column{{Name: "c", Type: want}}, memory.DefaultAllocator)
	if err != nil {
		return "", err
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
	defer rec.Release()
	out, err := c.Apply(context.Background(), rec)
	if err != nil {
		return "", err
	}
	defer out.Release()
	if !arrow.TypeEqual(out.Column(0).DataType(), want.ArrowType()) {
		t.Errorf("%s into %s: got type %s", dt, want, out.Column(0).DataType())
	}
	return marshal(out.Column(0)), nil
}

// Seed 000's rules: types that store the same values differently are
// converted, the values kept; anything that would change a value is
// refused, naming the file and the column.
func TestConformStorageOnlyDifferences(t *testing.T) {
	str := types.T{Kind: types.String}
	dict := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	for _, c := range []struct {
		want types.T
		dt   arrow.DataType
		in   string
		out  string
	}{
		{str, arrow.BinaryTypes.LargeString, `["a", null, ""]`, `["a",null,""]`},
		{str, arrow.BinaryTypes.StringView, `["a", null, "a much longer string than twelve"]`, `["a",null,"a much longer string than twelve"]`},
		{str, dict, `["x", "y", null, "x"]`, `["x","y",null,"x"]`},
		{types.T{Kind: types.Bytes}, arrow.BinaryTypes.LargeBinary, `["AQI=", null]`, `["AQI=",null]`},
		{types.ArrayOf(types.T{Kind: types.Int32}), arrow.LargeListOf(arrow.PrimitiveTypes.Int32), `[[1, null], null, []]`, `[[1,null],null,[]]`},
		{types.ArrayOf(str), arrow.ListOf(arrow.BinaryTypes.LargeString), `[["a"], [null]]`, `[["a"],[null]]`},
		{types.T{Kind: types.Char, Length: 3}, arrow.BinaryTypes.String, `["ab", "abc", "abc  ", null]`, `["ab ","abc","abc",null]`},
		{types.TimestampTZType(6), &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Paris"}, `[0, null]`, `["1970-01-01T00:00:00Z",null]`},
	} {
		got, err := conform(t, c.want, c.dt, c.in)
		if err != nil || got != c.out {
			t.Errorf("%s into %s: %s %v, want %s", c.dt, c.want, got, err, c.out)
		}
	}
	for _, c := range []struct {
		want types.T
		dt   arrow.DataType
		code sqlerr.Code
		msg  string
	}{
		{types.T{Kind: types.Int32}, arrow.PrimitiveTypes.Int64, sqlerr.DatatypeMismatch, `column "c" of file "f.parquet" has type int64`},
		{types.TimestampType(6), &arrow.TimestampType{Unit: arrow.Millisecond}, sqlerr.DatatypeMismatch, "timestamp[ms]"},
		{types.DecimalType(10, 2), &arrow.Decimal128Type{Precision: 10, Scale: 3}, sqlerr.DatatypeMismatch, "decimal(10, 3)"},
		{types.TimestampType(6), &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, sqlerr.DatatypeMismatch, "tz=UTC"},
		{types.T{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.T{Kind: types.Int32}}}},
			arrow.StructOf(arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int32}), fileio.BadCopyFileFormat, `has field "b" where field "a" is expected`},
	} {
		a := arrayOf(t, c.dt, `[null]`)
		schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: c.dt, Nullable: true}}, nil)
		_, err := fileio.NewConformer("f.parquet", schema, []fileio.Column{{Name: "c", Type: c.want}}, memory.DefaultAllocator)
		a.Release()
		if sqlerr.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s into %s: %v, want %s %q", c.dt, c.want, err, c.code, c.msg)
		}
	}
	if _, err := conform(t, types.T{Kind: types.Char, Length: 2}, arrow.BinaryTypes.String, `["ab", "abc"]`); sqlerr.CodeOf(err) != sqlerr.StringDataRightTruncation ||
		!strings.Contains(err.Error(), `column "c" of file "f.parquet": value too long for type character(2)`) || sqlerr.As(err).Detail != "Row 2 of the file." {
		t.Errorf("CHAR(2) overflow: %v", err)
	}
}

// read_parquet reads a file as its own columns: types Fluss lacks are
// widened without changing a value.
func TestReadAsWidens(t *testing.T) {
	for _, c := range []struct {
		dt   arrow.DataType
		in   string
		want types.T
		out  string
	}{
		{arrow.PrimitiveTypes.Uint8, `[255, null]`, types.T{Kind: types.Int16}, `[255,null]`},
		{arrow.PrimitiveTypes.Uint32, `[4294967295]`, types.T{Kind: types.Int64}, `[4294967295]`},
		{&arrow.TimestampType{Unit: arrow.Millisecond}, `[1500]`, types.TimestampType(6), `["1970-01-01T00:00:01.5"]`},
		{&arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}, `[1]`, types.TimestampTZType(6), `["1970-01-01T00:00:01Z"]`},
		{arrow.FixedWidthTypes.Time32s, `[61]`, types.T{Kind: types.Time, Precision: 3}, `["00:01:01"]`},
		{arrow.FixedWidthTypes.Date64, `[86400000]`, types.T{Kind: types.Date}, `["1970-01-02"]`},
		{arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.PrimitiveTypes.Uint16), `[[{"key": "k", "value": 7}]]`,
			types.T{Kind: types.Map, Key: &types.T{Kind: types.String, NotNull: true}, Elem: &types.T{Kind: types.Int32}}, `[[{"key":"k","value":7}]]`},
	} {
		a := arrayOf(t, c.dt, c.in)
		schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: c.dt, Nullable: true}}, nil)
		conf, cols, err := fileio.ReadAs("f.parquet", schema, memory.DefaultAllocator)
		if err != nil {
			t.Errorf("%s: %v", c.dt, err)
			a.Release()
			continue
		}
		if !cols[0].Type.Equal(c.want) {
			t.Errorf("%s: read as %s, want %s", c.dt, cols[0].Type, c.want)
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
		out, err := conf.Apply(context.Background(), rec)
		if err != nil {
			t.Errorf("%s: %v", c.dt, err)
		} else {
			if b := marshal(out.Column(0)); b != c.out {
				t.Errorf("%s: %s, want %s", c.dt, b, c.out)
			}
			out.Release()
		}
		rec.Release()
		a.Release()
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "d", Type: arrow.FixedWidthTypes.Duration_s}}, nil)
	if _, _, err := fileio.ReadAs("f.parquet", schema, memory.DefaultAllocator); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported ||
		!strings.Contains(err.Error(), `column "d" of file "f.parquet" has type duration[s], which sqlgate cannot read`) {
		t.Errorf("duration: %v", err)
	}
}
