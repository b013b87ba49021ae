package embedded

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestAddRecordMatchesSketchFold: a bulk append's sketch built part by
// part with addRecord holds the registers that sketchRecord and fold make
// of the same parts (the sketch is persisted: its hash must not change),
// for parts above and below sparseLimit, with nulls, strings, booleans,
// a column of a type not sketched and empty parts.
func TestAddRecordMatchesSketchFold(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	part := func(first, n int) arrow.RecordBatch {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer rb.Release()
		for i := first; i < first+n; i++ {
			if i%7 == 0 {
				for c := range schema.NumFields() {
					rb.Field(c).AppendNull()
				}
				continue
			}
			rb.Field(0).(*array.Int64Builder).Append(int64(i) * 31)
			rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("v%d", i%5000))
			rb.Field(2).(*array.BooleanBuilder).Append(i%3 == 0)
			rb.Field(3).(*array.Float32Builder).Append(float32(i) / 4)
			rb.Field(4).(*array.ListBuilder).Append(true)
		}
		return rb.NewRecordBatch()
	}
	for _, sizes := range [][]int{{10}, {sparseLimit + 1}, {8192, 8192, 100, 0, 8192}, {5, 3000, sparseLimit * 2}} {
		var want, got *ndvDelta
		var buf []uint64
		first := 0
		for _, n := range sizes {
			rec := part(first, n)
			want = want.fold(sketchRecord(rec, nil))
			got, buf = got.addRecord(rec, buf)
			rec.Release()
			first += n
		}
		if want == nil || got == nil {
			if (want == nil) != (got == nil) {
				t.Errorf("parts %v: delta %v, want %v", sizes, got, want)
			}
			continue
		}
		for c := range max(len(want.dense), len(got.dense)) {
			var w, g []uint8
			if c < len(want.dense) {
				w = want.dense[c]
			}
			if c < len(got.dense) {
				g = got.dense[c]
			}
			if !bytes.Equal(w, g) {
				t.Errorf("parts %v, column %d: registers differ (%d vs %d bytes)", sizes, c, len(g), len(w))
			}
		}
		if got.sparse != nil {
			t.Errorf("parts %v: addRecord left sparse values", sizes)
		}
	}
}

// eventsPart is an 8192-row part shaped like bench's W8 events (a bulk
// append's decoded COPY batch): int64, int32, float64 with 1% NULLs,
// int32, a text column and a timestamp.
func eventsPart(first, n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "user_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for i := first; i < first+n; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		rb.Field(1).(*array.Int32Builder).Append(int32(i*7919) % 100000)
		if i%100 == 0 {
			rb.Field(2).AppendNull()
		} else {
			rb.Field(2).(*array.Float64Builder).Append(float64(i%1000000) / 100)
		}
		rb.Field(3).(*array.Int32Builder).Append(int32(i % 50))
		rb.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("n%x", uint64(i)*0x9e3779b97f4a7c15>>(i%40)))
		rb.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1_000_003))
	}
	return rb.NewRecordBatch()
}

// BenchmarkAddRecordEvents is a bulk append's sketch cost per row
// (addRecord over W8-shaped 8192-row parts).
func BenchmarkAddRecordEvents(b *testing.B) {
	const parts, n = 8, 8192
	recs := make([]arrow.RecordBatch, parts)
	for i := range recs {
		recs[i] = eventsPart(i*n, n)
	}
	b.ReportAllocs()
	for b.Loop() {
		var d *ndvDelta
		var buf []uint64
		for _, rec := range recs {
			d, buf = d.addRecord(rec, buf)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*parts*n), "ns/row")
	for _, rec := range recs {
		rec.Release()
	}
}

// TestAddRecordEventsMatchesSketchFold: addRecord's one-pass folds (text,
// 4- and 8-byte columns) give sketchRecord's registers for W8-shaped
// parts, whole and sliced (values at an offset in their buffers).
func TestAddRecordEventsMatchesSketchFold(t *testing.T) {
	rec := eventsPart(0, 3000)
	defer rec.Release()
	for _, r := range [][2]int64{{0, 3000}, {1, 2999}, {37, 1500}, {2999, 3000}} {
		part := rec.NewSlice(r[0], r[1])
		want := (*ndvDelta)(nil).fold(sketchRecord(part, nil))
		got, _ := (*ndvDelta)(nil).addRecord(part, nil)
		part.Release()
		for c := range int(rec.NumCols()) {
			if !bytes.Equal(want.dense[c], got.dense[c]) {
				t.Errorf("slice %v, column %d: registers differ", r, c)
			}
		}
	}
}

// TestSketchSmallMatchesLarge: a record of a few values is sketched
// (sketchSmall) into the packed values the general path
// (sketchLarge) makes, column by column, for every column count and row
// count the small path takes, with nulls, strings, booleans, a column of a
// type not sketched and a target that leaves columns out.
func TestSketchSmallMatchesLarge(t *testing.T) {
	types := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String, arrow.FixedWidthTypes.Boolean,
		arrow.PrimitiveTypes.Float32, arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.PrimitiveTypes.Int32}
	for cols := 1; cols <= smallSketchCols; cols++ {
		fs := make([]arrow.Field, cols)
		for c := range fs {
			fs[c] = arrow.Field{Name: fmt.Sprintf("c%d", c), Type: types[c%len(types)], Nullable: true}
		}
		schema := arrow.NewSchema(fs, nil)
		for rows := 1; rows*cols <= smallSketchValues; rows++ {
			rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
			for i := range rows {
				for c := range cols {
					if (i+c)%4 == 3 {
						rb.Field(c).AppendNull()
						continue
					}
					switch b := rb.Field(c).(type) {
					case *array.Int64Builder:
						b.Append(int64(i*1000 + c))
					case *array.StringBuilder:
						b.Append(fmt.Sprintf("s%d-%d", i, c))
					case *array.BooleanBuilder:
						b.Append(i%2 == 0)
					case *array.Float32Builder:
						b.Append(float32(i) / 3)
					case *array.ListBuilder:
						b.Append(true)
					case *array.Int32Builder:
						b.Append(int32(-i))
					}
				}
			}
			rec := rb.NewRecordBatch()
			rb.Release()
			for _, target := range [][]bool{nil, func() []bool {
				tg := make([]bool, cols)
				tg[0] = true
				return tg
			}()} {
				small, large := sketchRecord(rec, target), sketchLarge(rec, target, rows, cols)
				if got, want := fmt.Sprint(small.sparse), fmt.Sprint(large.sparse); got != want || small.dense != nil {
					t.Errorf("%d columns, %d rows, target %v: small %s (dense %v), want %s", cols, rows, target, got, small.dense != nil, want)
				}
			}
			rec.Release()
		}
	}
}
