package arrowrec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRecord checks that a Record answers as arrow's own record over the
// same columns and releases its columns exactly once, at its last Release.
func TestRecord(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{7, 8}, nil)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", ""}, []bool{true, false})
	cols := []arrow.Array{ib.NewArray(), sb.NewArray()}
	ib.Release()
	sb.Release()

	var r Record
	r.Init(schema, cols, 2)
	want := array.NewRecordBatch(schema, cols, 2) // retains the columns
	defer want.Release()
	if r.Schema() != schema || r.NumRows() != 2 || r.NumCols() != 2 || r.ColumnName(1) != "name" || r.Column(0) != cols[0] {
		t.Fatalf("record header: schema %v rows %d cols %d name %q", r.Schema(), r.NumRows(), r.NumCols(), r.ColumnName(1))
	}
	if !array.RecordEqual(&r, want) {
		t.Fatalf("record differs from arrow's over the same columns")
	}
	got, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	exp, _ := want.MarshalJSON()
	if string(got) != string(exp) {
		t.Errorf("MarshalJSON = %s, want %s", got, exp)
	}
	s := r.NewSlice(1, 2)
	if s.NumRows() != 1 || !s.Column(1).IsNull(0) {
		t.Errorf("NewSlice(1, 2): rows %d, name null %v", s.NumRows(), s.Column(1).IsNull(0))
	}
	s.Release()
	ib2 := array.NewInt64Builder(mem)
	ib2.AppendValues([]int64{1, 2}, nil)
	id2 := ib2.NewArray()
	ib2.Release()
	set, err := r.SetColumn(0, id2)
	id2.Release()
	if err != nil || set.Column(0).(*array.Int64).Value(1) != 2 {
		t.Fatalf("SetColumn: %v", err)
	}
	set.Release()

	r.Retain()
	r.Release()
	if cols[0].(*array.Int64).Value(0) != 7 {
		t.Fatal("a column was released while the record held a reference")
	}
	r.Release() // the last: the columns go; want still holds its own
	if want.Column(0).(*array.Int64).Value(1) != 8 {
		t.Fatal("arrow's record lost its columns")
	}
}

// TestRecordKept checks a kept record: its columns survive its last
// Release, and Claim hands it out once at a time.
func TestRecordKept(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	ib := array.NewInt64Builder(mem)
	ib.Append(7)
	cols := []arrow.Array{ib.NewArray()}
	ib.Append(8)
	grown := ib.NewArray()
	ib.Release()

	var r Record
	r.InitKept(schema, cols, 1)
	if !r.Claim() {
		t.Fatal("a new kept record is not free")
	}
	if r.Claim() {
		t.Fatal("a claimed record was claimed again")
	}
	r.Retain()
	r.Release()
	if r.Claim() {
		t.Fatal("a record still referenced was claimed")
	}
	r.Release()
	if cols[0].(*array.Int64).Value(0) != 7 {
		t.Fatal("the last Release of a kept record released its column")
	}
	if !r.Claim() {
		t.Fatal("a released kept record is not free")
	}
	r.ReplaceColumn(0, grown)
	if r.Column(0).(*array.Int64).Value(0) != 8 {
		t.Fatal("ReplaceColumn did not replace the column")
	}
	r.Release()
	if (&Record{}).Claim() {
		t.Fatal("a record that is not kept was claimed")
	}
	r.Column(0).Release() // the owner's last use
}
