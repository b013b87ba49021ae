package fluss

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestPartitionValue renders one value of each partition-key type as
// Fluss's PartitionUtils.convertValueOfType does (the expected strings are
// those of Fluss's PartitionUtilsTest and PartitionNameConverters).
func TestPartitionValue(t *testing.T) {
	mem := memory.NewGoAllocator()
	one := func(dt arrow.DataType, add func(b array.Builder)) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		add(b)
		return b.NewArray()
	}
	cases := []struct {
		kind types.Kind
		col  arrow.Array
		want string
	}{
		{types.String, one(arrow.BinaryTypes.String, func(b array.Builder) { b.(*array.StringBuilder).Append("20240101") }), "20240101"},
		{types.Bool, one(arrow.FixedWidthTypes.Boolean, func(b array.Builder) { b.(*array.BooleanBuilder).Append(true) }), "true"},
		{types.Bytes, one(arrow.BinaryTypes.Binary, func(b array.Builder) { b.(*array.BinaryBuilder).Append([]byte{0x01, 0xab, 0x0f}) }), "01ab0f"},
		{types.Int8, one(arrow.PrimitiveTypes.Int8, func(b array.Builder) { b.(*array.Int8Builder).Append(-7) }), "-7"},
		{types.Int64, one(arrow.PrimitiveTypes.Int64, func(b array.Builder) { b.(*array.Int64Builder).Append(1234567890123) }), "1234567890123"},
		{types.Date, one(arrow.FixedWidthTypes.Date32, func(b array.Builder) { b.(*array.Date32Builder).Append(19723) }), "2024-01-01"},
		{types.Time, one(arrow.FixedWidthTypes.Time32ms, func(b array.Builder) { b.(*array.Time32Builder).Append(5*3600000 + 6*60000 + 7000 + 89) }), "05-06-07_089"},
		{types.Float64, one(arrow.PrimitiveTypes.Float64, func(b array.Builder) { b.(*array.Float64Builder).Append(1.5) }), "1_5"},
		{types.Float64, one(arrow.PrimitiveTypes.Float64, func(b array.Builder) { b.(*array.Float64Builder).Append(2) }), "2_0"},
		{types.Float64, one(arrow.PrimitiveTypes.Float64, func(b array.Builder) { b.(*array.Float64Builder).Append(1e10) }), "1_0E10"},
		{types.Float32, one(arrow.PrimitiveTypes.Float32, func(b array.Builder) { b.(*array.Float32Builder).Append(0.1) }), "0_1"},
		{types.Timestamp, one(&arrow.TimestampType{Unit: arrow.Millisecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(1704067200123))
		}), "2024-01-01-00-00-00_123"},
		{types.Timestamp, one(&arrow.TimestampType{Unit: arrow.Second}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(1704067200))
		}), "2024-01-01-00-00-00_"},
	}
	for _, c := range cases {
		got, err := PartitionValue(types.T{Kind: c.kind}, c.col, 0, "k")
		if err != nil || got != c.want {
			t.Errorf("%v: got %q, %v; want %q", c.kind, got, err, c.want)
		}
		c.col.Release()
	}
	null := one(arrow.BinaryTypes.String, func(b array.Builder) { b.AppendNull() })
	defer null.Release()
	if _, err := PartitionValue(types.StringType, null, 0, "k"); sqlerr.CodeOf(err) != sqlerr.NotNullViolation {
		t.Errorf("null partition value: %v", err)
	}
}

func TestValidatePartitionValue(t *testing.T) {
	long := make([]byte, 201)
	for i := range long {
		long[i] = 'a'
	}
	for _, c := range []struct {
		v      string
		create bool
		ok     bool
	}{
		{"20240101", true, true}, {"a-b_C9", true, true}, {"", true, false}, {"a b", true, false},
		{"a.b", true, false}, {"a$b", true, false}, {"__x", true, false}, {"__x", false, true},
		{string(long), true, false}, {string(long[:200]), true, true},
	} {
		err := ValidatePartitionValue(c.v, c.create)
		if (err == nil) != c.ok {
			t.Errorf("%q (create %v): %v", c.v, c.create, err)
		}
		if err != nil && sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
			t.Errorf("%q: code %s", c.v, sqlerr.CodeOf(err))
		}
	}
}

func TestAutoPartitionTimeValue(t *testing.T) {
	now := time.Date(2024, 11, 30, 23, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		unit   string
		offset int
		want   string
	}{
		{"DAY", 0, "20241130"}, {"DAY", 1, "20241201"}, {"DAY", -7, "20241123"},
		{"HOUR", 1, "2024120100"}, {"MONTH", 1, "202412"}, {"MONTH", 2, "202501"},
		{"QUARTER", 0, "20244"}, {"QUARTER", 1, "20251"}, {"YEAR", -1, "2023"},
	} {
		a := AutoPartition{Enabled: true, Unit: c.unit, Zone: time.UTC}
		if got := a.TimeValue(now, c.offset); got != c.want {
			t.Errorf("%s %+d: %s, want %s", c.unit, c.offset, got, c.want)
		}
	}
}

func TestAutoPartitionPlan(t *testing.T) {
	now := time.Date(2024, 11, 30, 12, 0, 0, 0, time.UTC)
	a := AutoPartition{Enabled: true, Unit: "DAY", Zone: time.UTC, Precreate: 3, Retention: 2}
	have := []PartitionInfo{{ID: 1, Name: "20241127", Values: []string{"20241127"}},
		{ID: 2, Name: "20241128", Values: []string{"20241128"}}, {ID: 3, Name: "20241201", Values: []string{"20241201"}}}
	drop, create := a.Plan(1, have, now)
	if len(drop) != 1 || drop[0].ID != 1 {
		t.Errorf("drop %+v, want partition 20241127", drop)
	}
	if len(create) != 2 || create[0][0] != "20241130" || create[1][0] != "20241202" {
		t.Errorf("create %v, want 20241130, 20241202", create)
	}
	a.Retention = -1
	if drop, _ := a.Plan(1, have, now); len(drop) != 0 {
		t.Errorf("negative retention dropped %+v", drop)
	}
}

// TestValidatePartitioning checks CREATE TABLE's partition rules, as
// Fluss's TableDescriptorValidation has them.
func TestValidatePartitioning(t *testing.T) {
	cols := []Column{{Name: "dt", Type: types.StringType}, {Name: "id", Type: types.T{Kind: types.Int64}},
		{Name: "d", Type: types.T{Kind: types.Decimal, Precision: 10, Scale: 2}}, {Name: "h", Type: types.StringType}}
	desc := func(pk, part []string, props map[string]string) TableDescriptor {
		return TableDescriptor{Schema: Schema{Columns: cols, PrimaryKey: pk}, PartitionKeys: part, Properties: props}
	}
	auto := map[string]string{PropAutoPartitionEnabled: "true", PropAutoPartitionTimeUnit: "day"}
	for _, c := range []struct {
		name string
		d    TableDescriptor
		code sqlerr.Code
		bk   []string
	}{
		{"log table", desc(nil, []string{"dt"}, nil), "", nil},
		{"pk table: bucket key is pk minus partition keys", desc([]string{"dt", "id"}, []string{"dt"}, nil), "", []string{"id"}},
		{"partition key outside pk", desc([]string{"id"}, []string{"dt"}, nil), sqlerr.InvalidTableDefinition, nil},
		{"pk of partition keys only", desc([]string{"dt"}, []string{"dt"}, nil), sqlerr.InvalidTableDefinition, nil},
		{"decimal partition key", desc(nil, []string{"d"}, nil), sqlerr.InvalidTableDefinition, nil},
		{"missing column", desc(nil, []string{"nope"}, nil), sqlerr.UndefinedColumn, nil},
		{"twice", desc(nil, []string{"dt", "dt"}, nil), sqlerr.DuplicateColumn, nil},
		{"auto partition", desc(nil, []string{"dt"}, auto), "", nil},
		{"auto partition, not partitioned", desc(nil, nil, auto), sqlerr.InvalidTableDefinition, nil},
		{"auto partition, two keys without key", desc(nil, []string{"dt", "h"}, auto), sqlerr.InvalidTableDefinition, nil},
		{"auto partition, two keys with key", desc(nil, []string{"dt", "h"}, map[string]string{PropAutoPartitionEnabled: "true", PropAutoPartitionKey: "dt"}), "", nil},
		{"auto partition, two keys, pre-create", desc(nil, []string{"dt", "h"}, map[string]string{PropAutoPartitionEnabled: "true", PropAutoPartitionKey: "dt", PropAutoPartitionPrecreate: "2"}), sqlerr.InvalidTableDefinition, nil},
		{"bad time unit", desc(nil, []string{"dt"}, map[string]string{PropAutoPartitionEnabled: "true", PropAutoPartitionTimeUnit: "WEEK"}), sqlerr.InvalidParameterValue, nil},
	} {
		got, err := ValidateDescriptor(c.d)
		if sqlerr.CodeOf(err) != c.code && !(c.code == "" && err == nil) {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
			continue
		}
		if err == nil && c.bk != nil && (len(got.BucketKey) != len(c.bk) || got.BucketKey[0] != c.bk[0]) {
			t.Errorf("%s: bucket key %v, want %v", c.name, got.BucketKey, c.bk)
		}
	}
}
