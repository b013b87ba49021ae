package fluss

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func col(name string, t types.T) Column { return Column{Name: name, Type: t} }

func TestValidateDescriptor(t *testing.T) {
	str := types.StringType
	arr := types.ArrayOf(types.Int32Type)
	mp := types.T{Kind: types.Map, Key: &str, Elem: &str}
	cases := []struct {
		name    string
		desc    TableDescriptor
		code    sqlerr.Code
		mention string
	}{
		{"no columns", TableDescriptor{}, sqlerr.InvalidTableDefinition, ""},
		{"duplicate", TableDescriptor{Schema: Schema{Columns: []Column{col("a", str), col("a", str)}}}, sqlerr.DuplicateColumn, `"a"`},
		{"reserved", TableDescriptor{Schema: Schema{Columns: []Column{col("__offset", str)}}}, "42939", "__offset"},
		{"reserved change type", TableDescriptor{Schema: Schema{Columns: []Column{col("_change_type", str)}}}, "42939", "_change_type"},
		{"missing pk", TableDescriptor{Schema: Schema{Columns: []Column{col("a", str)}, PrimaryKey: []string{"b"}}}, sqlerr.UndefinedColumn, `"b"`},
		{"array pk", TableDescriptor{Schema: Schema{Columns: []Column{col("a", arr)}, PrimaryKey: []string{"a"}}}, sqlerr.InvalidTableDefinition, `"a"`},
		{"map bucket key", TableDescriptor{Schema: Schema{Columns: []Column{col("m", mp)}}, BucketKey: []string{"m"}}, sqlerr.InvalidTableDefinition, `"m"`},
		{"bucket key outside pk", TableDescriptor{Schema: Schema{Columns: []Column{col("a", str), col("b", str)}, PrimaryKey: []string{"a"}}, BucketKey: []string{"b"}}, sqlerr.InvalidTableDefinition, `"b"`},
		{"too many buckets", TableDescriptor{Schema: Schema{Columns: []Column{col("a", str)}}, BucketCount: 4097}, sqlerr.InvalidTableDefinition, "4096"},
		{"negative buckets", TableDescriptor{Schema: Schema{Columns: []Column{col("a", str)}}, BucketCount: -1}, sqlerr.InvalidTableDefinition, ""},
		{"interval", TableDescriptor{Schema: Schema{Columns: []Column{col("i", types.T{Kind: types.Interval})}}}, sqlerr.FeatureNotSupported, `"i"`},
		{"unknown", TableDescriptor{Schema: Schema{Columns: []Column{col("u", types.UnknownType)}}}, sqlerr.FeatureNotSupported, `"u"`},
		{"oid in array", TableDescriptor{Schema: Schema{Columns: []Column{col("o", types.ArrayOf(types.T{Kind: types.Oid}))}}}, sqlerr.FeatureNotSupported, `"o"`},
		{"decimal 39", TableDescriptor{Schema: Schema{Columns: []Column{col("d", types.DecimalType(39, 0))}}}, sqlerr.InvalidColumnDefinition, `"d"`},
		{"timestamp 10", TableDescriptor{Schema: Schema{Columns: []Column{col("t", types.TimestampType(10))}}}, sqlerr.InvalidColumnDefinition, `"t"`},
	}
	for _, c := range cases {
		_, err := ValidateDescriptor(c.desc)
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.mention) {
			t.Errorf("%s: got %v (%v), want %s mentioning %s", c.name, err, sqlerr.CodeOf(err), c.code, c.mention)
		}
	}

	in := TableDescriptor{Schema: Schema{Columns: []Column{col("k", types.Int32Type), col("v", str), col("m", mp), col("n", types.NumericType)}, PrimaryKey: []string{"k"}}}
	out, err := ValidateDescriptor(in)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Schema.Columns[0].Type.NotNull || in.Schema.Columns[0].Type.NotNull {
		t.Error("PK column not forced NOT NULL (or the input was modified)")
	}
	if !out.Schema.Columns[2].Type.Key.NotNull {
		t.Error("MAP key not forced NOT NULL")
	}
	if out.BucketCount != 1 || len(out.BucketKey) != 1 || out.BucketKey[0] != "k" {
		t.Errorf("defaults: buckets %d key %v", out.BucketCount, out.BucketKey)
	}
	if p := out.Schema.Columns[3].Type.Precision; p != 38 {
		t.Errorf("unconstrained numeric precision %d", p)
	}
	logOut, err := ValidateDescriptor(TableDescriptor{Schema: Schema{Columns: []Column{col("a", str)}}})
	if err != nil || len(logOut.BucketKey) != 0 {
		t.Errorf("log table: %v %v", logOut.BucketKey, err)
	}
}

func testInfo(cols ...Column) TableInfo {
	d, err := ValidateDescriptor(TableDescriptor{Schema: Schema{Columns: cols}})
	if err != nil {
		panic(err)
	}
	return TableInfo{Path: TablePath{Database: DefaultDatabase, Table: "t"}, Descriptor: d}
}

func buildRecord(t *testing.T, fields []arrow.Field, fill func(b *array.RecordBuilder)) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	fill(b)
	return b.NewRecordBatch()
}

func TestValidateRecordRules(t *testing.T) {
	notNullInt := types.T{Kind: types.Int32, NotNull: true}
	info := testInfo(col("id", notNullInt), col("s", types.StringType), col("ts", types.TimestampType(3)))
	tsUS := &arrow.TimestampType{Unit: arrow.Microsecond}
	good := func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
		b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, []bool{true, false})
		b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
	}
	cases := []struct {
		name    string
		fields  []arrow.Field
		fill    func(b *array.RecordBuilder)
		code    sqlerr.Code
		mention string
	}{
		{"exact, nullable flags differ", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: false}, {Name: "ts", Type: tsUS}}, good, "", ""},
		{"large_string converted", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: arrow.BinaryTypes.LargeString}, {Name: "ts", Type: tsUS}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
			b.Field(1).(*array.LargeStringBuilder).AppendValues([]string{"a", "b"}, nil)
			b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
		}, "", ""},
		{"string view converted", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: arrow.BinaryTypes.StringView}, {Name: "ts", Type: tsUS}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
			b.Field(1).(*array.StringViewBuilder).AppendValues([]string{"a", "b"}, nil)
			b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
		}, "", ""},
		{"dictionary converted", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}}, {Name: "ts", Type: tsUS}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
			db := b.Field(1).(*array.BinaryDictionaryBuilder)
			_ = db.AppendString("a")
			db.AppendNull()
			b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
		}, "", ""},
		{"timestamp unit", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: arrow.BinaryTypes.String}, {Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Nanosecond}}}, good, sqlerr.DatatypeMismatch, `"ts"`},
		{"integer width", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}, {Name: "ts", Type: tsUS}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
			b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
		}, sqlerr.DatatypeMismatch, `"id"`},
		{"wrong name", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "x", Type: arrow.BinaryTypes.String}, {Name: "ts", Type: tsUS}}, good, sqlerr.UndefinedColumn, `"x"`},
		{"missing column", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "s", Type: arrow.BinaryTypes.String}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{1}, nil)
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"a"}, nil)
		}, sqlerr.UndefinedColumn, `"ts"`},
		{"null in NOT NULL", []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String}, {Name: "ts", Type: tsUS}}, func(b *array.RecordBuilder) {
			b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 0}, []bool{true, false})
			b.Field(1).(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
			b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
		}, sqlerr.NotNullViolation, `null value in column "id" of relation "t" violates not-null constraint`},
	}
	for _, c := range cases {
		rec := buildRecord(t, c.fields, c.fill)
		out, err := ValidateRecord(info, rec)
		rec.Release()
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			if !out.Schema().Equal(info.ArrowSchema()) {
				t.Errorf("%s: schema %v", c.name, out.Schema())
			}
			if s := out.Column(1).(*array.String); s.Value(0) != "a" {
				t.Errorf("%s: value %q", c.name, s.Value(0))
			}
			out.Release()
			continue
		}
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.mention) {
			t.Errorf("%s: got %v (%s), want %s mentioning %s", c.name, err, sqlerr.CodeOf(err), c.code, c.mention)
		}
	}
}

func TestValidateRecordNestedNotNull(t *testing.T) {
	rowT := types.T{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.T{Kind: types.Int32, NotNull: true}}}}
	info := testInfo(col("r", rowT))
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	rec := buildRecord(t, []arrow.Field{{Name: "r", Type: st, Nullable: true}}, func(b *array.RecordBuilder) {
		sb := b.Field(0).(*array.StructBuilder)
		sb.AppendNull() // a null ROW is fine: only its field is NOT NULL
		sb.Append(true)
		sb.FieldBuilder(0).AppendNull()
	})
	defer rec.Release()
	_, err := ValidateRecord(info, rec)
	if e := sqlerr.As(err); e == nil || e.Code != sqlerr.NotNullViolation || !strings.Contains(e.Message, `"r.a"`) {
		t.Fatalf("got %v", err)
	}
	// A struct with wrong field names is rejected naming the field.
	st2 := arrow.StructOf(arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	rec2 := buildRecord(t, []arrow.Field{{Name: "r", Type: st2}}, func(b *array.RecordBuilder) {
		b.Field(0).(*array.StructBuilder).AppendNull()
	})
	defer rec2.Release()
	if _, err := ValidateRecord(info, rec2); err == nil || !strings.Contains(err.Error(), `"b"`) {
		t.Fatalf("got %v", err)
	}
}

// TestValidateRecordTimeBelowMillis: Fluss keeps TIME(p) as milliseconds
// of the day, so a TIME(6)/TIME(9) value with digits below the millisecond
// (top level or nested) is refused with 22008; whole milliseconds pass.
func TestValidateRecordTimeBelowMillis(t *testing.T) {
	for _, c := range []struct {
		t    types.T
		unit arrow.TimeUnit
	}{{types.T{Kind: types.Time, Precision: 6}, arrow.Microsecond}, {types.T{Kind: types.Time, Precision: 9}, arrow.Nanosecond}} {
		perMs := int64(1000)
		if c.unit == arrow.Nanosecond {
			perMs = 1_000_000
		}
		arr := types.ArrayOf(c.t)
		info := testInfo(col("t", c.t), col("a", arr))
		build := func(top, nested int64) arrow.RecordBatch {
			return buildRecord(t, []arrow.Field{{Name: "t", Type: c.t.ArrowType(), Nullable: true}, {Name: "a", Type: arr.ArrowType(), Nullable: true}}, func(b *array.RecordBuilder) {
				b.Field(0).(*array.Time64Builder).Append(arrow.Time64(top))
				lb := b.Field(1).(*array.ListBuilder)
				lb.Append(true)
				lb.ValueBuilder().AppendNull()
				lb.ValueBuilder().(*array.Time64Builder).Append(arrow.Time64(nested))
			})
		}
		ok := build(45296789*perMs, 0)
		if out, err := ValidateRecord(info, ok); err != nil {
			t.Errorf("%s: whole milliseconds refused: %v", c.t, err)
		} else {
			out.Release()
		}
		ok.Release()
		for _, bad := range []struct {
			top, nested int64
			path        string
		}{{45296789*perMs + 1, 0, `"t"`}, {0, perMs/2 + 3, `"a"`}} {
			rec := build(bad.top, bad.nested)
			_, err := ValidateRecord(info, rec)
			rec.Release()
			if e := sqlerr.As(err); e == nil || e.Code != sqlerr.DatetimeFieldOverflow || !strings.Contains(e.Message, bad.path) || !strings.Contains(e.Message, c.t.String()) {
				t.Errorf("%s %+v: got %v", c.t, bad, err)
			}
		}
	}
}

func TestValidateRecordDecimalAndLists(t *testing.T) {
	info := testInfo(col("d", types.DecimalType(10, 2)), col("l", types.ArrayOf(types.Int32Type)), col("by", types.BytesType))
	dec := func(p, s int32) arrow.DataType { return &arrow.Decimal128Type{Precision: p, Scale: s} }
	fill := func(b *array.RecordBuilder) {
		b.Field(0).(*array.Decimal128Builder).Append(decimal128.FromI64(12345))
		var vb array.Builder
		switch lb := b.Field(1).(type) {
		case *array.ListBuilder:
			lb.Append(true)
			vb = lb.ValueBuilder()
		case *array.LargeListBuilder:
			lb.Append(true)
			vb = lb.ValueBuilder()
		}
		switch v := vb.(type) {
		case *array.Int32Builder:
			v.Append(7)
		case *array.Int64Builder:
			v.Append(7)
		}
		switch bb := b.Field(2).(type) {
		case *array.BinaryBuilder:
			bb.Append([]byte("x"))
		}
	}
	list := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	cases := []struct {
		name    string
		fields  []arrow.Field
		code    sqlerr.Code
		mention string
	}{
		{"narrower decimal precision is fine", []arrow.Field{{Name: "d", Type: dec(6, 2)}, {Name: "l", Type: list}, {Name: "by", Type: arrow.BinaryTypes.Binary}}, "", ""},
		{"large_list and large_binary converted", []arrow.Field{{Name: "d", Type: dec(10, 2)}, {Name: "l", Type: arrow.LargeListOf(arrow.PrimitiveTypes.Int32)}, {Name: "by", Type: arrow.BinaryTypes.LargeBinary}}, "", ""},
		{"decimal scale rejected", []arrow.Field{{Name: "d", Type: dec(10, 3)}, {Name: "l", Type: list}, {Name: "by", Type: arrow.BinaryTypes.Binary}}, sqlerr.DatatypeMismatch, `"d"`},
		{"wider decimal rejected", []arrow.Field{{Name: "d", Type: dec(20, 2)}, {Name: "l", Type: list}, {Name: "by", Type: arrow.BinaryTypes.Binary}}, sqlerr.DatatypeMismatch, `"d"`},
		{"list element width rejected", []arrow.Field{{Name: "d", Type: dec(10, 2)}, {Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)}, {Name: "by", Type: arrow.BinaryTypes.Binary}}, sqlerr.DatatypeMismatch, `"l"`},
		{"string for bytes rejected", []arrow.Field{{Name: "d", Type: dec(10, 2)}, {Name: "l", Type: list}, {Name: "by", Type: arrow.BinaryTypes.String}}, sqlerr.DatatypeMismatch, `"by"`},
	}
	for _, c := range cases {
		rec := buildRecord(t, c.fields, func(b *array.RecordBuilder) {
			fill(b)
			if b.Field(2).Len() == 0 {
				if sb, ok := b.Field(2).(*array.StringBuilder); ok {
					sb.Append("x")
				} else if lb, ok := b.Field(2).(*array.BinaryBuilder); ok {
					lb.Append([]byte("x"))
				}
			}
		})
		out, err := ValidateRecord(info, rec)
		rec.Release()
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			if got := out.Column(0).(*array.Decimal128).Value(0); got != decimal128.FromI64(12345) {
				t.Errorf("%s: decimal %v", c.name, got)
			}
			if l := out.Column(1).(*array.List); l.ListValues().(*array.Int32).Value(0) != 7 {
				t.Errorf("%s: list %v", c.name, l)
			}
			if b := out.Column(2).(*array.Binary); string(b.Value(0)) != "x" {
				t.Errorf("%s: bytes %v", c.name, b)
			}
			out.Release()
			continue
		}
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.mention) {
			t.Errorf("%s: got %v, want %s mentioning %s", c.name, err, c.code, c.mention)
		}
	}
}
