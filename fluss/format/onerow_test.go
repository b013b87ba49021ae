package format

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
)

// TestOneRowMatchesRowDecoder: OneRow decodes every row of the fixture
// (extremes, NULLs) as a RowDecoder does, for projections of the kinds it
// builds in any order, stepping over every other kind; it declines
// projections of other kinds and fails on truncated rows without a panic.
func TestOneRowMatchesRowDecoder(t *testing.T) {
	rec := fixture.Record(0, 12)
	defer rec.Release()
	ts := colTypes()
	full := rec.Schema()
	for _, proj := range [][]int{{0}, {9, 1, 2, 3, 4, 5}, {8, 10, 11, 12, 14}, {18, 19, 20, 21}, {}} {
		pos := make([]int, len(ts))
		for i := range pos {
			pos[i] = -1
		}
		fields := make([]arrow.Field, len(proj))
		for o, c := range proj {
			pos[c] = o
			fields[o] = full.Field(c)
		}
		schema := arrow.NewSchema(fields, nil)
		one, ok := NewOneRow(ts, pos, schema)
		if !ok {
			t.Fatalf("projection %v: declined", proj)
		}
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		dec := NewRowDecoder(ts)
		targets := make([]array.Builder, len(ts))
		for c, o := range pos {
			if o >= 0 {
				targets[c] = rb.Field(o)
			}
		}
		dec.Bind(targets)
		for i := 0; i < int(rec.NumRows()); i++ {
			row, err := AppendRow(nil, ts, rec.Columns(), i)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := dec.Decode(row); err != nil {
				t.Fatal(err)
			}
			want := rb.NewRecordBatch()
			got, err := one.Decode(row)
			if err != nil {
				t.Fatalf("projection %v row %d: %v", proj, i, err)
			}
			if got.NumRows() != 1 || len(proj) > 0 && !array.RecordApproxEqual(want, got, array.WithNaNsEqual(true)) {
				t.Errorf("projection %v row %d:\nwant %v\ngot  %v", proj, i, want, got)
			}
			want.Release()
			got.Release()
			for cut := 0; cut < len(row); cut++ {
				if r, err := one.Decode(row[:cut]); err == nil {
					// Cut inside a NULL-free tail that was not needed.
					r.Release()
				}
			}
		}
		rb.Release()
	}
	pos := make([]int, len(ts))
	for i := range pos {
		pos[i] = -1
	}
	pos[6] = 0 // DECIMAL(10,2)
	if _, ok := NewOneRow(ts, pos, arrow.NewSchema([]arrow.Field{full.Field(6)}, nil)); ok {
		t.Error("a DECIMAL projection was accepted")
	}
}
