package exec

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// batchOf builds a one-column-per-value-list batch: values are physical values.
func batchOf(t *testing.T, mem memory.Allocator, cols map[string][]any, ts map[string]types.T, order []string) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(order))
	arrs := make([]arrow.Array, len(order))
	n := 0
	for i, name := range order {
		fields[i] = arrow.Field{Name: name, Type: ts[name].ArrowType(), Nullable: true}
		b := array.NewBuilder(mem, ts[name].ArrowType())
		for _, v := range cols[name] {
			appendValue(b, v)
		}
		arrs[i] = b.NewArray()
		b.Release()
		n = len(cols[name])
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

func evalAll(t *testing.T, e Expr, rec arrow.RecordBatch) ([]any, error) {
	t.Helper()
	ec := &EvalContext{Ctx: context.Background(), Mem: memory.NewGoAllocator()}
	arr, err := e.Eval(ec, rec)
	if err != nil {
		return nil, err
	}
	defer arr.Release()
	out := make([]any, arr.Len())
	for i := range out {
		out[i] = valueAt(arr, i)
	}
	return out, nil
}

func TestArithmetic(t *testing.T) {
	mem := memory.NewGoAllocator()
	i64 := types.Int64Type
	i32 := types.Int32Type
	cases := []struct {
		name    string
		op      ArithOp
		t       types.T
		a, b    []any
		want    []any
		errCode sqlerr.Code
	}{
		{"add with nulls", Add, i64, []any{int64(1), nil, int64(3)}, []any{int64(10), int64(5), nil}, []any{int64(11), nil, nil}, ""},
		{"int64 overflow", Add, i64, []any{int64(math.MaxInt64)}, []any{int64(1)}, nil, sqlerr.NumericValueOutOfRange},
		{"overflow in a null row is ignored", Add, i64, []any{nil, int64(1)}, []any{int64(math.MaxInt64), int64(1)}, []any{nil, int64(2)}, ""},
		{"int32 overflow", Mul, i32, []any{int64(math.MaxInt32)}, []any{int64(2)}, nil, sqlerr.NumericValueOutOfRange},
		{"min int64 * -1", Mul, i64, []any{int64(math.MinInt64)}, []any{int64(-1)}, nil, sqlerr.NumericValueOutOfRange},
		{"min int64 / -1", Div, i64, []any{int64(math.MinInt64)}, []any{int64(-1)}, nil, sqlerr.NumericValueOutOfRange},
		{"min int64 % -1", Mod, i64, []any{int64(math.MinInt64)}, []any{int64(-1)}, []any{int64(0)}, ""},
		{"truncating division", Div, i64, []any{int64(7), int64(-7)}, []any{int64(2), int64(2)}, []any{int64(3), int64(-3)}, ""},
		{"division by zero", Div, i64, []any{int64(1)}, []any{int64(0)}, nil, sqlerr.DivisionByZero},
		{"division by zero in a null row", Div, i64, []any{nil}, []any{int64(0)}, []any{nil}, ""},
		{"float division", Div, types.Float64Type, []any{1.0, -1.0}, []any{4.0, 8.0}, []any{0.25, -0.125}, ""},
		{"float division by zero", Div, types.Float64Type, []any{1.0}, []any{0.0}, nil, sqlerr.DivisionByZero},
		{"float overflow", Mul, types.Float64Type, []any{1e308}, []any{10.0}, nil, sqlerr.NumericValueOutOfRange},
		{"empty batch", Add, i64, []any{}, []any{}, []any{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := batchOf(t, mem, map[string][]any{"a": c.a, "b": c.b}, map[string]types.T{"a": c.t, "b": c.t}, []string{"a", "b"})
			defer rec.Release()
			e := &ArithExpr{Op: c.op, L: &ColExpr{Index: 0, T: c.t}, R: &ColExpr{Index: 1, T: c.t}, T: c.t}
			got, err := evalAll(t, e, rec)
			if c.errCode != "" {
				if sqlerr.CodeOf(err) != c.errCode {
					t.Fatalf("error %v (%s), want %s", err, sqlerr.CodeOf(err), c.errCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("row %d: got %v want %v", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestFloatComparisonFollowsPostgres(t *testing.T) {
	mem := memory.NewGoAllocator()
	nan := math.NaN()
	f := types.Float64Type
	rec := batchOf(t, mem, map[string][]any{
		"a": {nan, nan, 1.0, math.Copysign(0, -1), math.Inf(1), nil},
		"b": {nan, 1.0, nan, 0.0, nan, 1.0},
	}, map[string]types.T{"a": f, "b": f}, []string{"a", "b"})
	defer rec.Release()
	cases := []struct {
		op   CmpOp
		want []any
	}{
		{Eq, []any{true, false, false, true, false, nil}},
		{Gt, []any{false, true, false, false, false, nil}},
		{Lt, []any{false, false, true, false, true, nil}},
		{NotDistinct, []any{true, false, false, true, false, false}},
	}
	for _, c := range cases {
		got, err := evalAll(t, &CmpExpr{Op: c.op, L: &ColExpr{Index: 0, T: f}, R: &ColExpr{Index: 1, T: f}}, rec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s row %d: got %v want %v", cmpNames[c.op], i, got[i], c.want[i])
			}
		}
	}
}

func TestThreeValuedLogic(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := types.BoolType
	vals := []any{true, false, nil}
	var as, bs []any
	for _, x := range vals {
		for _, y := range vals {
			as, bs = append(as, x), append(bs, y)
		}
	}
	rec := batchOf(t, mem, map[string][]any{"a": as, "b": bs}, map[string]types.T{"a": b, "b": b}, []string{"a", "b"})
	defer rec.Release()
	and, _ := evalAll(t, &LogicExpr{And: true, L: &ColExpr{Index: 0, T: b}, R: &ColExpr{Index: 1, T: b}}, rec)
	or, _ := evalAll(t, &LogicExpr{L: &ColExpr{Index: 0, T: b}, R: &ColExpr{Index: 1, T: b}}, rec)
	wantAnd := []any{true, false, nil, false, false, false, nil, false, nil}
	wantOr := []any{true, true, true, true, false, nil, true, nil, nil}
	for i := range and {
		if and[i] != wantAnd[i] || or[i] != wantOr[i] {
			t.Errorf("%v,%v: AND %v (want %v) OR %v (want %v)", as[i], bs[i], and[i], wantAnd[i], or[i], wantOr[i])
		}
	}
}

func TestCastValue(t *testing.T) {
	cases := []struct {
		v        any
		from, to types.T
		want     any
		code     sqlerr.Code
	}{
		{int64(70000), types.Int32Type, types.Int16Type, nil, sqlerr.NumericValueOutOfRange},
		{2.5, types.Float64Type, types.Int32Type, int64(2), ""}, // rint: half to even
		{3.5, types.Float64Type, types.Int32Type, int64(4), ""},
		{math.NaN(), types.Float64Type, types.Int64Type, nil, sqlerr.NumericValueOutOfRange},
		{"12", types.StringType, types.Int32Type, int64(12), ""},
		{"x", types.StringType, types.Int32Type, nil, sqlerr.InvalidTextRepresentation},
		{int64(42), types.Int64Type, types.StringType, "42", ""},
		// a double's text follows extra_float_digits: CastValueStyle
		{1.5, types.Float64Type, types.StringType, nil, sqlerr.FeatureNotSupported},
		{true, types.BoolType, types.StringType, "true", ""},
	}
	for _, c := range cases {
		got, err := CastValue(c.v, c.from, c.to)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%v %s->%s: err %v want %s", c.v, c.from, c.to, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v %s->%s: got %v, %v want %v", c.v, c.from, c.to, got, err, c.want)
		}
	}
}

// TestCastValueStyleFloatDigits: a float printed by a cast to text, also
// inside an array, a record or a map, follows the extra_float_digits the
// cast is given, as PostgreSQL 15's float8out/float4out do.
func TestCastValueStyleFloatDigits(t *testing.T) {
	a, b := 0.1, 0.2
	third := a + b // at run time: 0.30000000000000004
	f8arr := types.T{Kind: types.Array, Elem: &types.Float64Type}
	textArr := types.T{Kind: types.Array, Elem: &types.StringType}
	rec := types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{{Name: "f1", Type: types.Float64Type}, {Name: "f2", Type: types.Float32Type}}}
	for _, c := range []struct {
		v        any
		from, to types.T
		extra    int
		want     any
	}{
		{third, types.Float64Type, types.StringType, 1, "0.30000000000000004"},
		{third, types.Float64Type, types.StringType, 0, "0.3"},
		{third, types.Float64Type, types.StringType, -14, "0.3"},
		{math.Pi, types.Float64Type, types.StringType, -13, "3.1"},
		{float64(float32(1.1)), types.Float32Type, types.StringType, 0, "1.1"},
		{float64(float32(1.1)), types.Float64Type, types.StringType, 0, "1.10000002384186"},
		{float64(float32(1.1)), types.Float64Type, types.StringType, 3, "1.100000023841858"},
		{third, types.Float64Type, types.T{Kind: types.String, Length: 4}, 1, "0.30"},
		{[]any{third, nil}, f8arr, types.StringType, 0, "{0.3,NULL}"},
		{[]any{third, nil}, f8arr, types.StringType, 2, "{0.30000000000000004,NULL}"},
		{[]any{third}, f8arr, textArr, 0, []any{"0.3"}},
		{[]any{third, float64(float32(1.1))}, rec, types.StringType, 0, "(0.3,1.1)"},
		{[]any{third, float64(float32(1.1))}, rec, types.StringType, 1, "(0.30000000000000004,1.1)"},
	} {
		st := types.Style{Float: types.ExtraFloatDigits(c.extra)}
		got, err := CastValueStyle(c.v, c.from, c.to, nil, st)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v %s->%s under extra_float_digits %d: got %#v, %v want %#v", c.v, c.from.PGName(), c.to.PGName(), c.extra, got, err, c.want)
		}
	}
}
