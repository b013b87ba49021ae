package pgtypes

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/types"
)

// The expected strings in this file were produced by a PostgreSQL 15.18
// server (initdb into a temporary directory, default settings: DateStyle ISO,
// IntervalStyle postgres, extra_float_digits 1, TimeZone set to UTC) with
// queries such as `SELECT x::text FROM unnest(ARRAY[...]::float8[]) x`, and
// copied here by hand.

func TestAppendFloat64MatchesPostgres(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "-0"},
		{1, "1"},
		{0.1, "0.1"},
		{1.5, "1.5"},
		{123456789012345, "123456789012345"},
		{1234567890123456, "1.234567890123456e+15"},
		{1e15, "1e+15"},
		{1e16, "1e+16"},
		{1e-4, "0.0001"},
		{1e-5, "1e-05"},
		{0.000123, "0.000123"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"},
		{2.2250738585072014e-308, "2.2250738585072014e-308"},
		{3.141592653589793, "3.141592653589793"},
		{1.0 / 3, "0.3333333333333333"},
		{100, "100"},
		{1e22, "1e+22"},
		{999000000000000, "999000000000000"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
		{-1.25e-7, "-1.25e-07"},
		{123.456, "123.456"},
		{-123.456, "-123.456"},
	}
	for _, tt := range tests {
		if got := string(AppendFloat64(nil, tt.in)); got != tt.want {
			t.Errorf("AppendFloat64(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAppendFloat32MatchesPostgres(t *testing.T) {
	tests := []struct {
		in   float32
		want string
	}{
		{0, "0"},
		{float32(math.Copysign(0, -1)), "-0"},
		{1, "1"},
		{0.1, "0.1"},
		{1.5, "1.5"},
		{123456, "123456"},
		{1234567, "1.234567e+06"},
		{12345678, "1.2345678e+07"},
		{1e6, "1e+06"},
		{1e7, "1e+07"},
		{1e-4, "0.0001"},
		{1e-5, "1e-05"},
		{3.4028235e38, "3.4028235e+38"},
		{1e-45, "1e-45"},
		{3.1415927, "3.1415927"},
		{1.0 / 3, "0.33333334"},
		{100, "100"},
		{99999.99, "99999.99"},
		{0.00001234, "1.234e-05"},
		{float32(math.Inf(1)), "Infinity"},
		{float32(math.NaN()), "NaN"},
	}
	for _, tt := range tests {
		if got := string(AppendFloat32(nil, tt.in)); got != tt.want {
			t.Errorf("AppendFloat32(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAppendDecimal128(t *testing.T) {
	tests := []struct {
		num   decimal128.Num
		scale int32
		want  string
	}{
		{decimal128.FromI64(150), 2, "1.50"},   // 1.50::numeric(10,2)
		{decimal128.FromI64(-50), 3, "-0.050"}, // -0.05::numeric(5,3)
		{decimal128.FromI64(0), 2, "0.00"},     // 0::numeric(5,2)
		{decimal128.FromI64(12345), 0, "12345"},
		{decimal128.FromI64(-7), 0, "-7"},
		{decimal128.FromI64(5), 4, "0.0005"},
		{decimal128.FromI64(math.MinInt64), 0, "-9223372036854775808"},
		{decimal128.New(1, 0), 0, "18446744073709551616"},
		{max38, 0, "99999999999999999999999999999999999999"},
		{max38.Negate(), 38, "-0.99999999999999999999999999999999999999"},
		{decimal128.New(0, 10_000_000_000_000_000_000), 19, "1.0000000000000000000"},
	}
	for _, tt := range tests {
		if got := string(AppendDecimal128(nil, tt.num.HighBits(), tt.num.LowBits(), tt.scale)); got != tt.want {
			t.Errorf("AppendDecimal128(%v, %d) = %q, want %q", tt.num, tt.scale, got, tt.want)
		}
	}
}

// TestNumericBinaryRoundTrip decodes our binary numerics with pgx's codec,
// which follows numeric_recv.
func TestNumericBinaryRoundTrip(t *testing.T) {
	tests := []struct {
		num   decimal128.Num
		scale int32
	}{
		{decimal128.FromI64(150), 2},
		{decimal128.FromI64(-50), 3},
		{decimal128.FromI64(0), 2},
		{decimal128.FromI64(0), 0},
		{decimal128.FromI64(12345), 0},
		{decimal128.FromI64(10000), 0},
		{decimal128.FromI64(5), 4},
		{decimal128.FromI64(5), 5},
		{decimal128.FromI64(123456789), 3},
		{max38, 10},
		{max38.Negate(), 38},
		{decimal128.FromI64(12), -3},
	}
	m := pgtype.NewMap()
	for _, tt := range tests {
		bin := AppendNumericBinary(nil, tt.num.HighBits(), tt.num.LowBits(), tt.scale)
		var n pgtype.Numeric
		if err := m.Scan(OIDNumeric, pgtype.BinaryFormatCode, bin, &n); err != nil {
			t.Fatalf("scan %v: %v", tt.num, err)
		}
		want := string(AppendDecimal128(nil, tt.num.HighBits(), tt.num.LowBits(), tt.scale))
		// Compare as rationals: pgx drops the display scale of zero.
		got := new(big.Rat).SetInt(n.Int)
		exp := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(n.Exp))), nil))
		if n.Exp < 0 {
			got.Quo(got, exp)
		} else {
			got.Mul(got, exp)
		}
		wantRat, _ := new(big.Rat).SetString(want)
		if got.Cmp(wantRat) != 0 {
			t.Errorf("binary numeric %v scale %d decodes as %v, want %v", tt.num, tt.scale, got, want)
		}
		// And our own decoder reads it back to the same text.
		back, err := DecodeParam(1, OIDNumeric, FormatBinary, bin)
		if err != nil || back != want {
			t.Errorf("DecodeParam(binary numeric %s) = %v, %v", want, back, err)
		}
	}
}

func abs(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// max38 is 10^38-1, the largest DECIMAL(38, s) unscaled value.
var max38 = func() decimal128.Num {
	v, _ := new(big.Int).SetString("99999999999999999999999999999999999999", 10)
	return decimal128.FromBigInt(v)
}()

func mustDate(y int64, m, d int) int64 { return daysFromCivil(y, m, d) }

func TestAppendDateTime(t *testing.T) {
	us := func(days int64, h, m, s, frac int64) int64 {
		return days*usPerDay + h*usPerHour + m*usPerMinute + s*usPerSecond + frac
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"date", string(AppendDate(nil, mustDate(2024, 1, 2))), "2024-01-02"},
		{"date epoch", string(AppendDate(nil, 0)), "1970-01-01"},
		{"date BC", string(AppendDate(nil, mustDate(-43, 3, 15))), "0044-03-15 BC"},
		{"date 5 digits", string(AppendDate(nil, mustDate(10000, 1, 1))), "10000-01-01"},
		{"timestamp rounded", string(AppendTimestamp(nil, us(mustDate(2024, 1, 2), 3, 4, 5, 123457), false)), "2024-01-02 03:04:05.123457"},
		{"timestamp whole", string(AppendTimestamp(nil, us(mustDate(2024, 1, 2), 3, 4, 5, 0), false)), "2024-01-02 03:04:05"},
		{"timestamp half", string(AppendTimestamp(nil, us(mustDate(2024, 1, 2), 3, 4, 5, 500000), false)), "2024-01-02 03:04:05.5"},
		{"timestamp before 1970", string(AppendTimestamp(nil, -1, false)), "1969-12-31 23:59:59.999999"},
		{"timestamptz", string(AppendTimestamp(nil, us(mustDate(2024, 1, 2), 3, 4, 5, 0), true)), "2024-01-02 03:04:05+00"},
		{"timestamp BC", string(AppendTimestamp(nil, us(mustDate(-43, 3, 15), 10, 0, 0, 0), false)), "0044-03-15 10:00:00 BC"},
		{"timestamptz BC", string(AppendTimestamp(nil, us(mustDate(-43, 3, 15), 10, 0, 0, 0), true)), "0044-03-15 10:00:00+00 BC"},
		{"timestamp infinity", string(AppendTimestamp(nil, math.MaxInt64, false)), "infinity"},
		{"time", string(AppendTime(nil, 12*usPerHour+34*usPerMinute+56*usPerSecond+500000)), "12:34:56.5"},
		{"interval mixed", string(AppendInterval(nil, 14, 3, 4*usPerHour+5*usPerMinute+6*usPerSecond+789000)), "1 year 2 mons 3 days 04:05:06.789"},
		{"interval negative", string(AppendInterval(nil, 0, -1, -usPerSecond)), "-1 days -00:00:01"},
		{"interval zero", string(AppendInterval(nil, 0, 0, 0)), "00:00:00"},
		{"interval months", string(AppendInterval(nil, -3, 0, 0)), "-3 mons"},
		{"interval one", string(AppendInterval(nil, 1, 1, 0)), "1 mon 1 day"},
		{"interval sign flip", string(AppendInterval(nil, 0, -1, usPerHour)), "-1 days +01:00:00"},
		{"bytea", string(AppendByteaHex(nil, []byte{0x00, 0xff})), `\x00ff`},
		{"bytea empty", string(AppendByteaHex(nil, nil)), `\x`},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// encodeText renders every row of arr as text via the row-encoder path.
func encodeColumn(t *testing.T, typ types.T, format int16, arr arrow.Array) []*string {
	t.Helper()
	out := make([]*string, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		b, ok, err := AppendValue(nil, typ, format, arr, i)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			s := string(b)
			out[i] = &s
		}
	}
	return out
}

func TestArrayText(t *testing.T) {
	mem := memory.NewGoAllocator()

	ib := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
	defer ib.Release()
	vb := ib.ValueBuilder().(*array.Int32Builder)
	ib.Append(true)
	vb.AppendValues([]int32{1, 2}, nil)
	vb.AppendNull()
	ib.Append(true) // empty
	ib.AppendNull()
	ints := ib.NewArray()
	defer ints.Release()
	got := encodeColumn(t, types.ArrayOf(types.Int32Type), FormatText, ints)
	if *got[0] != "{1,2,NULL}" || *got[1] != "{}" || got[2] != nil {
		t.Errorf("int arrays: %q %q %v", *got[0], *got[1], got[2])
	}

	sb := array.NewListBuilder(mem, arrow.BinaryTypes.String)
	defer sb.Release()
	svb := sb.ValueBuilder().(*array.StringBuilder)
	sb.Append(true)
	svb.AppendValues([]string{"a", "", "b c", "NULL", `x"y`, `back\slash`, "{}"}, nil)
	svb.AppendNull()
	strs := sb.NewArray()
	defer strs.Release()
	got = encodeColumn(t, types.ArrayOf(types.StringType), FormatText, strs)
	// SELECT ARRAY['a','','b c','NULL','x"y','back\slash','{}',NULL]::text[]
	want := `{a,"","b c","NULL","x\"y","back\\slash","{}",NULL}`
	if *got[0] != want {
		t.Errorf("text array = %s, want %s", *got[0], want)
	}

	// Binary int4[] decodes with pgx.
	bin := encodeColumn(t, types.ArrayOf(types.Int32Type), FormatBinary, ints)
	var arr []pgtype.Int4
	if err := pgtype.NewMap().Scan(OIDInt4Array, pgtype.BinaryFormatCode, []byte(*bin[0]), &arr); err != nil {
		t.Fatal(err)
	}
	if len(arr) != 3 || arr[0].Int32 != 1 || arr[1].Int32 != 2 || arr[2].Valid {
		t.Errorf("binary int4[] decoded as %+v", arr)
	}
	var empty []int32
	if err := pgtype.NewMap().Scan(OIDInt4Array, pgtype.BinaryFormatCode, []byte(*bin[1]), &empty); err != nil || len(empty) != 0 {
		t.Errorf("binary empty int4[]: %v %v", empty, err)
	}
}

// TestVectorAndQCharWireForms checks int2vector, oidvector and "char"
// against PostgreSQL 15's output and send functions: SELECT
// '2 1'::int2vector, int2vectorsend('2 1'), oidvectorsend('0 1978'),
// charsend('r').
func TestVectorAndQCharWireForms(t *testing.T) {
	mem := memory.NewGoAllocator()
	ib := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int16)
	defer ib.Release()
	ib.Append(true)
	ib.ValueBuilder().(*array.Int16Builder).AppendValues([]int16{2, 1}, nil)
	ib.Append(true) // empty
	ints := ib.NewArray()
	defer ints.Release()
	got := encodeColumn(t, types.Int2VectorType, FormatText, ints)
	if *got[0] != "2 1" || *got[1] != "" {
		t.Errorf("int2vector text: %q %q", *got[0], *got[1])
	}
	bin := encodeColumn(t, types.Int2VectorType, FormatBinary, ints)
	if h := hex.EncodeToString([]byte(*bin[0])); h != "0000000100000000000000150000000200000000000000020002000000020001" {
		t.Errorf("int2vector binary: %s", h)
	}

	ob := array.NewListBuilder(mem, arrow.PrimitiveTypes.Uint32)
	defer ob.Release()
	ob.Append(true)
	ob.ValueBuilder().(*array.Uint32Builder).AppendValues([]uint32{0, 1978}, nil)
	oids := ob.NewArray()
	defer oids.Release()
	if got := encodeColumn(t, types.OidVectorType, FormatText, oids); *got[0] != "0 1978" {
		t.Errorf("oidvector text: %q", *got[0])
	}
	bin = encodeColumn(t, types.OidVectorType, FormatBinary, oids)
	if h := hex.EncodeToString([]byte(*bin[0])); h != "00000001000000000000001a0000000200000000000000040000000000000004000007ba" {
		t.Errorf("oidvector binary: %s", h)
	}

	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.Append("r")
	chars := sb.NewArray()
	defer chars.Release()
	for _, f := range []int16{FormatText, FormatBinary} {
		if got := encodeColumn(t, types.QCharType, f, chars); *got[0] != "r" {
			t.Errorf("\"char\" format %d: %q", f, *got[0])
		}
	}
}

func TestJSONForMapAndRow(t *testing.T) {
	mem := memory.NewGoAllocator()
	mapType := types.T{Kind: types.Map, Key: &types.StringType, Elem: &types.Float64Type}
	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64, false)
	defer mb.Release()
	kb := mb.KeyBuilder().(*array.StringBuilder)
	ivb := mb.ItemBuilder().(*array.Float64Builder)
	mb.Append(true)
	kb.AppendValues([]string{"a", "a", `q"`}, nil)
	ivb.Append(1.5)
	ivb.Append(math.NaN())
	ivb.AppendNull()
	maps := mb.NewArray()
	defer maps.Release()
	got := encodeColumn(t, mapType, FormatText, maps)
	if want := `[["a",1.5],["a","NaN"],["q\"",null]]`; *got[0] != want {
		t.Errorf("map json = %s, want %s", *got[0], want)
	}

	rowType := types.T{Kind: types.Row, Fields: []types.Field{
		{Name: "n", Type: types.Int32Type},
		{Name: "s", Type: types.StringType},
		{Name: "ts", Type: types.TimestampType(6)},
		{Name: "tags", Type: types.ArrayOf(types.StringType)},
	}}
	rb := array.NewStructBuilder(mem, rowType.ArrowType().(*arrow.StructType))
	defer rb.Release()
	rb.Append(true)
	rb.FieldBuilder(0).(*array.Int32Builder).Append(7)
	rb.FieldBuilder(1).(*array.StringBuilder).AppendNull()
	rb.FieldBuilder(2).(*array.TimestampBuilder).Append(arrow.Timestamp(mustDate(2024, 1, 2)*usPerDay + 3*usPerHour + 500000))
	lb := rb.FieldBuilder(3).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.StringBuilder).Append("x")
	rows := rb.NewArray()
	defer rows.Release()
	got = encodeColumn(t, rowType, FormatText, rows)
	// row_to_json / to_json render timestamps with a T, as here.
	if want := `{"n":7,"s":null,"ts":"2024-01-02T03:00:00.5","tags":["x"]}`; *got[0] != want {
		t.Errorf("row json = %s, want %s", *got[0], want)
	}
	if oid, _, _ := OIDOf(rowType); oid != OIDJSON {
		t.Errorf("ROW oid = %d", oid)
	}
}

func TestOIDOf(t *testing.T) {
	tests := []struct {
		t      types.T
		oid    uint32
		typmod int32
		size   int16
	}{
		{types.BoolType, 16, -1, 1},
		{types.T{Kind: types.Int8}, 21, -1, 2},
		{types.Int16Type, 21, -1, 2},
		{types.Int32Type, 23, -1, 4},
		{types.Int64Type, 20, -1, 8},
		{types.Float32Type, 700, -1, 4},
		{types.Float64Type, 701, -1, 8},
		{types.T{Kind: types.Char, Length: 5}, 1042, 9, -1},
		{types.StringType, 25, -1, -1},
		{types.T{Kind: types.String, Length: 10}, 1043, 14, -1},
		{types.BytesType, 17, -1, -1},
		{types.T{Kind: types.Binary, Length: 16}, 17, -1, -1},
		{types.DecimalType(10, 2), 1700, (10<<16 | 2) + 4, -1},
		{types.NumericType, 1700, -1, -1},
		{types.DateType, 1082, -1, 4},
		{types.T{Kind: types.Time}, 1083, 0, 8}, // TIME(0): a typmod of its own
		{types.TimestampType(6), 1114, -1, 8},
		{types.TimestampType(3), 1114, 3, 8},
		{types.TimestampTZType(6), 1184, -1, 8},
		{types.T{Kind: types.Interval}, 1186, -1, 16},
		{types.T{Kind: types.Oid}, 26, -1, 4},
		{types.T{Kind: types.Name}, 19, -1, 64},
		{types.UnknownType, 25, -1, -1},
		{types.NullType, 25, -1, -1},
		{types.ArrayOf(types.Int32Type), 1007, -1, -1},
		{types.ArrayOf(types.StringType), 1009, -1, -1},
		{types.ArrayOf(types.ArrayOf(types.Int32Type)), 1007, -1, -1}, // int[][] is int4[]
		{types.ArrayOf(types.T{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.Int32Type}}}), 114, -1, -1},
		{types.TimeTZType(6), 1266, -1, 12},
		{types.TimeTZType(3), 1266, 3, 12},
		{types.ArrayOf(types.TimeTZType(6)), 1270, -1, -1},
		{types.QCharType, 18, -1, 1},
		{types.ArrayOf(types.QCharType), 1002, -1, -1},
		{types.Int2VectorType, 22, -1, -1},
		{types.OidVectorType, 30, -1, -1},
		{types.T{Kind: types.Map, Key: &types.StringType, Elem: &types.StringType}, 114, -1, -1},
	}
	for _, tt := range tests {
		oid, typmod, size := OIDOf(tt.t)
		if oid != tt.oid || typmod != tt.typmod || size != tt.size {
			t.Errorf("OIDOf(%s) = %d, %d, %d; want %d, %d, %d", tt.t, oid, typmod, size, tt.oid, tt.typmod, tt.size)
		}
	}
	if ParamOIDOf(types.UnknownType) != 0 || ParamOIDOf(types.Int32Type) != 23 {
		t.Error("ParamOIDOf")
	}
}

func TestRowEncoderDataRow(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{258, 0}, []bool{true, false})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"hé", ""}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	enc, err := NewRowEncoder([]types.T{types.Int32Type, types.StringType}, []int16{FormatBinary, FormatText})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Reset(rec); err != nil {
		t.Fatal(err)
	}
	got := enc.AppendDataRow(nil, 0)
	got = enc.AppendDataRow(got, 1)
	var want []byte
	want = append(want, 'D', 0, 0, 0, 4+2+4+4+4+3, 0, 2, 0, 0, 0, 4, 0, 0, 1, 2, 0, 0, 0, 3, 'h', 0xc3, 0xa9)
	want = append(want, 'D', 0, 0, 0, 4+2+4+4, 0, 2, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0)
	if !bytes.Equal(got, want) {
		t.Errorf("DataRows = % x\nwant       % x", got, want)
	}
	if binary.BigEndian.Uint32(got[1:]) != uint32(4+2+4+4+4+3) {
		t.Error("length")
	}

	if _, err := NewRowEncoder([]types.T{types.Int32Type}, []int16{0, 1}); err == nil {
		t.Error("format count mismatch accepted")
	}
	if _, err := NewRowEncoder([]types.T{types.Int32Type}, []int16{2}); err == nil {
		t.Error("format code 2 accepted")
	}
	bad, _ := NewRowEncoder([]types.T{types.Int64Type, types.StringType}, nil)
	if err := bad.Reset(rec); err == nil {
		t.Error("Arrow type mismatch accepted")
	}
}
