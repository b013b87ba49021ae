package format

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestLogBatchUnitsRoundTrip: every TIME/TIMESTAMP/TIMESTAMP_LTZ precision,
// top level and nested in ARRAY, MAP and ROW, sliced (an array offset),
// goes through a log batch and back unchanged; a value finer than its
// column's precision is refused, not rounded.
func TestLogBatchUnitsRoundTrip(t *testing.T) {
	var ts []types.T
	for p := 0; p <= 9; p++ {
		ts = append(ts, timeT(p), types.TimestampType(p), types.TimestampTZType(p))
	}
	str := types.StringType
	nested := []types.T{
		types.ArrayOf(types.TimestampType(0)),
		{Kind: types.Map, Key: &types.T{Kind: types.String, NotNull: true}, Elem: &types.T{Kind: types.Time, Precision: 0}},
		{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.TimestampTZType(3)}, {Name: "b", Type: str}}},
	}
	ts = append(ts, nested...)
	schema := schemaOf(ts)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	// value k of a column of type t: whole units of its precision
	val := func(t types.T, k int64) int64 {
		per := int64(1)
		for i := t.Precision; i < 9; i++ {
			per *= 10
		}
		switch t.Kind {
		case types.Time:
			ns := (45296789_123456 + k*3_600_000_000_007) % 86_400_000_000_000 // a time of day in ns
			ns = ns / per * per
			switch {
			case t.Precision <= 3:
				return ns / 1_000_000
			case t.Precision <= 6:
				return ns / 1000
			}
			return ns
		}
		ns := (1_700_000_000_123_456_789 - k*987_654_321_987) / per * per // before and after 1970
		if t.Precision <= 6 {
			return ns / 1000
		}
		return ns
	}
	const rows = 6
	for k := int64(0); k < rows; k++ {
		for c, t := range ts {
			b := rb.Field(c)
			if k == 2 {
				b.AppendNull()
				continue
			}
			v := val(t, k*40-100)
			switch bb := b.(type) {
			case *array.Time32Builder:
				bb.Append(arrow.Time32(v))
			case *array.Time64Builder:
				bb.Append(arrow.Time64(v))
			case *array.TimestampBuilder:
				bb.Append(arrow.Timestamp(v))
			case *array.ListBuilder:
				bb.Append(true)
				bb.ValueBuilder().(*array.TimestampBuilder).Append(arrow.Timestamp(val(*t.Elem, k)))
				bb.ValueBuilder().AppendNull()
			case *array.MapBuilder:
				bb.Append(true)
				bb.KeyBuilder().(*array.StringBuilder).Append("k")
				bb.ItemBuilder().(*array.Time32Builder).Append(arrow.Time32(val(*t.Elem, k)))
			case *array.StructBuilder:
				bb.Append(true)
				bb.FieldBuilder(0).(*array.TimestampBuilder).Append(arrow.Timestamp(val(t.Fields[0].Type, k)))
				bb.FieldBuilder(1).(*array.StringBuilder).Append("s")
			}
		}
	}
	full := rb.NewRecordBatch()
	defer full.Release()
	rec := full.NewSlice(1, rows) // an offset into every array
	defer rec.Release()
	dec := NewTableBatchDecoder(schema, ts)
	b, err := EncodeTableBatch(rec, ts, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := dec.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Record.Release()
	for c := range ts {
		if !array.Equal(got.Record.Column(c), rec.Column(c)) {
			t.Errorf("%s: got %v, want %v", ts[c], got.Record.Column(c), rec.Column(c))
		}
	}

	// finer than the precision: refused
	for _, c := range []struct {
		t types.T
		v int64
	}{{timeT(0), 1500}, {types.TimestampType(0), 1_000_001}, {types.TimestampType(3), 1001}, {types.TimestampTZType(2), -1}} {
		s := schemaOf([]types.T{c.t})
		b := array.NewRecordBuilder(memory.DefaultAllocator, s)
		switch bb := b.Field(0).(type) {
		case *array.Time32Builder:
			bb.Append(arrow.Time32(c.v))
		case *array.TimestampBuilder:
			bb.Append(arrow.Timestamp(c.v))
		}
		r := b.NewRecordBatch()
		if _, err := EncodeTableBatch(r, []types.T{c.t}, nil, 1); err == nil || !strings.Contains(err.Error(), "below its precision") {
			t.Errorf("%s value %d: %v", c.t, c.v, err)
		}
		r.Release()
		b.Release()
	}
}

// TestLogBatchUnitsNullColumns: columns of NULLs (whose child arrays may
// have no buffers at all) convert too.
func TestLogBatchUnitsNullColumns(t *testing.T) {
	ts := []types.T{types.ArrayOf(types.TimestampType(3)), types.TimestampType(0), timeT(0),
		{Kind: types.Row, Fields: []types.Field{{Name: "a", Type: types.TimestampTZType(1)}}}}
	schema := schemaOf(ts)
	for _, rows := range []int{0, 1, 3} {
		cols := make([]arrow.Array, len(ts))
		for i, f := range schema.Fields() {
			cols[i] = array.MakeArrayOfNull(memory.DefaultAllocator, f.Type, rows)
		}
		rec := array.NewRecordBatch(schema, cols, int64(rows))
		for _, c := range cols {
			c.Release()
		}
		b, err := EncodeTableBatch(rec, ts, nil, 1)
		if err != nil {
			t.Fatalf("%d rows: %v", rows, err)
		}
		got, err := NewTableBatchDecoder(schema, ts).Decode(b)
		if err != nil {
			t.Fatalf("%d rows: %v", rows, err)
		}
		for i := range ts {
			if !array.Equal(got.Record.Column(i), rec.Column(i)) {
				t.Errorf("%d rows, %s: %v", rows, ts[i], got.Record.Column(i))
			}
		}
		got.Record.Release()
		rec.Release()
	}
}
