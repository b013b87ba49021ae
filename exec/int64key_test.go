package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestOneInt64Key: the point lookup's key record reads, slices, marshals
// and survives Retain/Release as arrow's own one-row record does.
func TestOneInt64Key(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	for _, id := range []int64{0, 1, -7, 1 << 62} {
		k := (&int64Key{}).init(schema, id)
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.Append(id)
		col := b.NewArray()
		want := array.NewRecordBatch(schema, []arrow.Array{col}, 1)
		col.Release()
		b.Release()
		if k.Schema() != schema || k.NumRows() != 1 || k.NumCols() != 1 || k.ColumnName(0) != "id" {
			t.Errorf("%d: shape %v %d %d %q", id, k.Schema(), k.NumRows(), k.NumCols(), k.ColumnName(0))
		}
		if !array.RecordEqual(k, want) || !array.Equal(k.Column(0), k.Columns()[0]) {
			t.Errorf("%d: record %v, want %v", id, k, want)
		}
		if got := k.Column(0).(*array.Int64).Value(0); got != id {
			t.Errorf("%d: value %d", id, got)
		}
		gj, err1 := k.MarshalJSON()
		wj, err2 := want.MarshalJSON()
		if err1 != nil || err2 != nil || string(gj) != string(wj) {
			t.Errorf("%d: JSON %s (%v), want %s (%v)", id, gj, err1, wj, err2)
		}
		s := k.NewSlice(1, 1)
		if s.NumRows() != 0 {
			t.Errorf("%d: empty slice has %d rows", id, s.NumRows())
		}
		s.Release()
		k.Retain()
		k.Release()
		if got := k.Column(0).(*array.Int64).Value(0); got != id {
			t.Errorf("%d: value after Retain/Release %d", id, got)
		}
		k.Release()
		want.Release()
	}
}
