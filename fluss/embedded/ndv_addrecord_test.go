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
