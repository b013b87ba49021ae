package format

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
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
		// The reusable record, labelled as a plan labels it (other names).
		renamed := make([]arrow.Field, len(fields))
		for o, f := range fields {
			renamed[o] = arrow.Field{Name: fmt.Sprintf("c%d", o), Type: f.Type, Nullable: true}
		}
		reuse := one.NewReusable(arrow.NewSchema(renamed, nil))
		if reuse == nil {
			t.Fatalf("projection %v: no reusable record", proj)
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
			again, ok, err := reuse.Decode(row)
			if err != nil || !ok {
				t.Fatalf("projection %v row %d: reusable record: %v, %v", proj, i, ok, err)
			}
			if again.Schema() != reuse.Schema() || again.NumRows() != 1 || len(proj) > 0 && !sameColumns(want, again) {
				t.Errorf("projection %v row %d, reusable record:\nwant %v\ngot  %v", proj, i, want, again)
			}
			if _, ok, _ := reuse.Decode(row); ok {
				t.Errorf("projection %v row %d: the reusable record was handed out twice", proj, i)
			}
			again.Release()
			want.Release()
			got.Release()
			for cut := 0; cut < len(row); cut++ {
				if r, err := one.Decode(row[:cut]); err == nil {
					// Cut inside a NULL-free tail that was not needed.
					r.Release()
				}
				if r, ok, err := reuse.Decode(row[:cut]); !ok {
					t.Fatalf("projection %v row %d cut %d: the reusable record was kept by an error", proj, i, cut)
				} else if err == nil {
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

// sameColumns reports whether two records hold equal columns, whatever
// their names.
func sameColumns(a, b arrow.RecordBatch) bool {
	if a.NumCols() != b.NumCols() || a.NumRows() != b.NumRows() {
		return false
	}
	for i := range a.Columns() {
		if !array.ApproxEqual(a.Column(i), b.Column(i), array.WithNaNsEqual(true)) {
			return false
		}
	}
	return true
}

// TestReusableRowGrows decodes values longer than a reusable record's room
// for them, then shorter ones, NULLs and values again.
func TestReusableRowGrows(t *testing.T) {
	ts := []types.T{types.Int64Type, types.StringType, types.BytesType}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	one, ok := NewOneRow(ts, []int{0, 1, 2}, schema)
	if !ok {
		t.Fatal("declined")
	}
	reuse := one.NewReusable(schema)
	long := strings.Repeat("x", 3*minReusableRoom)
	for i, v := range []*string{ptr("short"), ptr(long), nil, ptr(""), ptr(long + long), ptr("é")} {
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		bb := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		if v == nil {
			ib.AppendNull()
			sb.AppendNull()
			bb.AppendNull()
		} else {
			ib.Append(int64(i))
			sb.Append(*v)
			bb.Append([]byte(*v))
		}
		want := array.NewRecordBatch(schema, []arrow.Array{ib.NewArray(), sb.NewArray(), bb.NewArray()}, 1)
		row, err := AppendRow(nil, ts, want.Columns(), 0)
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := reuse.Decode(row)
		if err != nil || !ok {
			t.Fatalf("value %d: %v, %v", i, ok, err)
		}
		if !array.RecordEqual(want, got) || got.Column(1).NullN() != want.Column(1).NullN() {
			t.Errorf("value %d:\nwant %v\ngot  %v", i, want, got)
		}
		got.Release()
		want.Release()
	}
}

func ptr(s string) *string { return &s }
