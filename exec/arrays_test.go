package exec

import (
	"context"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestCastArray(t *testing.T) {
	ints, texts := types.ArrayOf(types.Int32Type), types.ArrayOf(types.StringType)
	tstz := types.ArrayOf(types.TimestampTZType(6))
	for _, tc := range []struct {
		v        any
		from, to types.T
		want     any
		code     sqlerr.Code
	}{
		{"{1,NULL,3}", types.UnknownType, ints, []any{int64(1), nil, int64(3)}, ""},
		{"{a,\"b c\"}", types.StringType, texts, []any{"a", "b c"}, ""},
		{[]any{"a", "b c", nil}, texts, types.StringType, `{a,"b c",NULL}`, ""},
		{[]any{int64(1), int64(2)}, ints, texts, []any{"1", "2"}, ""},
		{[]any{"1", nil}, texts, ints, []any{int64(1), nil}, ""},
		{[]any{"x"}, texts, ints, nil, sqlerr.InvalidTextRepresentation},
		{"{1", types.UnknownType, ints, nil, sqlerr.InvalidTextRepresentation},
		{[]any{int64(1)}, ints, types.Int32Type, nil, sqlerr.CannotCoerce},
	} {
		got, err := CastValue(tc.v, tc.from, tc.to)
		if tc.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != tc.code {
				t.Errorf("cast %v %s -> %s: err %v, want %s", tc.v, tc.from, tc.to, err, tc.code)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("cast %v %s -> %s = %#v, %v; want %#v", tc.v, tc.from, tc.to, got, err, tc.want)
		}
	}
	// arrays of timestamptz depend on the session's zone as their elements do
	if !CastNeedsZone(tstz, types.StringType) || !CastNeedsZone(types.StringType, tstz) || CastNeedsZone(ints, texts) {
		t.Error("CastNeedsZone over arrays")
	}
}

// TestTableFunc streams generate_series in batches and numbers the rows
// WITH ORDINALITY.
func TestTableFunc(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	f, err := functions.ResolveSetFunc("generate_series", []types.T{types.Int32Type, types.Int32Type})
	if err != nil {
		t.Fatal(err)
	}
	out := SchemaOf([]string{"g", "ordinality"}, []types.T{types.Int32Type, types.Int64Type})
	op := &TableFunc{EC: &EvalContext{Ctx: context.Background(), Mem: mem},
		Args: []Expr{&ConstExpr{Value: int64(1), T: types.Int32Type}, &ConstExpr{Value: int64(2500), T: types.Int32Type}},
		Rows: f.Rows, Ordinality: true, Out: out}
	defer op.Close()
	var rows, batches int
	var sum, lastOrd int64
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		batches++
		for i := 0; i < int(b.NumRows()); i++ {
			sum += types.ValueAt(b.Column(0), i).(int64)
			lastOrd = types.ValueAt(b.Column(1), i).(int64)
			rows++
		}
		b.Release()
	}
	if rows != 2500 || sum != 2500*2501/2 || lastOrd != 2500 || batches != 3 {
		t.Errorf("rows %d sum %d last ordinality %d batches %d", rows, sum, lastOrd, batches)
	}
	// an error from the function's start (a zero step) reaches Next
	f3, _ := functions.ResolveSetFunc("generate_series", []types.T{types.Int32Type, types.Int32Type, types.Int32Type})
	bad := &TableFunc{EC: &EvalContext{Ctx: context.Background(), Mem: mem}, Rows: f3.Rows, Out: SchemaOf([]string{"g"}, []types.T{types.Int32Type}),
		Args: []Expr{&ConstExpr{Value: int64(1), T: types.Int32Type}, &ConstExpr{Value: int64(2), T: types.Int32Type}, &ConstExpr{Value: int64(0), T: types.Int32Type}}}
	if _, err := bad.Next(context.Background()); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.InvalidParameterValue {
		t.Errorf("zero step: %v", err)
	}
	// a cancelled context stops it
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	op2 := &TableFunc{EC: &EvalContext{Ctx: ctx, Mem: mem}, Args: op.Args, Rows: f.Rows, Out: SchemaOf([]string{"g"}, []types.T{types.Int32Type})}
	if _, err := op2.Next(ctx); err == nil {
		t.Error("a cancelled context must stop the function")
	}
}

// TestArraySubquery: ARRAY(subquery) collects the column, NULLs kept,
// and is empty (not NULL) over no rows.
func TestArraySubquery(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, tc := range []struct {
		rows [][]Expr
		want []any
	}{
		{[][]Expr{{&ConstExpr{Value: int64(3), T: types.Int32Type}}, {&ConstExpr{T: types.Int32Type}}}, []any{int64(3), nil}},
		{nil, []any{}},
	} {
		ec := &EvalContext{Ctx: context.Background(), Mem: mem}
		rows := tc.rows
		sq := &SubqueryExpr{Mode: ArrayMode, T: types.ArrayOf(types.Int32Type), Open: func(ec *EvalContext) (Operator, error) {
			return &Values{EC: ec, Rows: rows, Out: SchemaOf([]string{"x"}, []types.T{types.Int32Type})}, nil
		}}
		got, err := EvalScalar(ec, sq)
		for _, r := range ec.subqueries {
			r.values.Release()
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("got %#v, %v; want %#v", got, err, tc.want)
		}
	}
}

// TestProjectSet expands rows in lockstep (shorter calls padded with NULL,
// rows whose calls are all empty dropped) across output batches.
func TestProjectSet(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	series, _ := functions.ResolveSetFunc("generate_series", []types.T{types.Int32Type, types.Int32Type})
	unnest, _ := functions.ResolveSetFunc("unnest", []types.T{types.ArrayOf(types.StringType)})
	ec := &EvalContext{Ctx: context.Background(), Mem: mem}
	in := &Values{EC: ec, Out: SchemaOf([]string{"n", "tags"}, []types.T{types.Int32Type, types.ArrayOf(types.StringType)}), Rows: [][]Expr{
		{&ConstExpr{Value: int64(2), T: types.Int32Type}, &ConstExpr{Value: []any{"a", "b", "c"}, T: types.ArrayOf(types.StringType)}},
		{&ConstExpr{Value: int64(0), T: types.Int32Type}, &ConstExpr{Value: []any{}, T: types.ArrayOf(types.StringType)}},
		{&ConstExpr{Value: int64(1500), T: types.Int32Type}, &ConstExpr{T: types.ArrayOf(types.StringType)}},
	}}
	out := SchemaOf([]string{"n", "tags", "g", "u"}, []types.T{types.Int32Type, types.ArrayOf(types.StringType), types.Int32Type, types.StringType})
	op := &ProjectSet{EC: ec, Input: in, Out: out, Calls: []SetCall{
		{Args: []Expr{&ConstExpr{Value: int64(1), T: types.Int32Type}, &ColExpr{Index: 0, Name: "n", T: types.Int32Type}}, Rows: series.Rows},
		{Args: []Expr{&ColExpr{Index: 1, Name: "tags", T: types.ArrayOf(types.StringType)}}, Rows: unnest.Rows},
	}}
	defer op.Close()
	var got [][]any
	batches := 0
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		batches++
		for i := 0; i < int(b.NumRows()); i++ {
			got = append(got, []any{types.ValueAt(b.Column(0), i), types.ValueAt(b.Column(2), i), types.ValueAt(b.Column(3), i)})
		}
		b.Release()
	}
	want := [][]any{{int64(2), int64(1), "a"}, {int64(2), int64(2), "b"}, {int64(2), nil, "c"}}
	if len(got) != 3+1500 || !reflect.DeepEqual(got[:3], want) || batches != 2 {
		t.Fatalf("%d rows in %d batches, first %v", len(got), batches, got[:min(3, len(got))])
	}
	if last := got[len(got)-1]; !reflect.DeepEqual(last, []any{int64(1500), int64(1500), nil}) {
		t.Errorf("last row %v", last)
	}
}
