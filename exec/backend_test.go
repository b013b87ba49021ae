package exec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The cross-backend test: every kernel family, on random batches with
// NULLs, NaN, -0, minimum and maximum values, MinInt64 / -1, empty and
// one-row batches, must give identical results (values, NULLs, types) or
// the same error (SQLSTATE and text) on the native and the arrow backend.

// crossCols are the columns of the random batches.
var crossCols = []struct {
	name string
	t    types.T
}{
	{"i16a", types.T{Kind: types.Int16}}, {"i16b", types.T{Kind: types.Int16}},
	{"i32a", types.Int32Type}, {"i32b", types.Int32Type},
	{"i64a", types.Int64Type}, {"i64b", types.Int64Type},
	{"f64a", types.Float64Type}, {"f64b", types.Float64Type},
	{"sa", types.StringType}, {"sb", types.StringType},
	{"ba", types.BoolType}, {"bb", types.BoolType},
	{"da", types.T{Kind: types.Date}}, {"db", types.T{Kind: types.Date}},
	{"ta", types.T{Kind: types.Timestamp, Precision: 6}}, {"tb", types.T{Kind: types.Timestamp, Precision: 6}},
	{"deca", types.DecimalType(12, 2)}, {"decb", types.DecimalType(12, 2)},
}

func crossCol(name string) *ColExpr {
	for i, c := range crossCols {
		if c.name == name {
			return &ColExpr{Index: i, Name: name, T: c.t}
		}
	}
	panic(name)
}

// randomBatch builds n rows: each value is NULL with probability pNull, an
// extreme (min, max, -1, 0, NaN, -0, Inf, "") with probability pEdge, else
// small.
func randomBatch(rng *rand.Rand, n int, pNull, pEdge float64) arrow.RecordBatch {
	mem := memory.NewGoAllocator()
	fields := make([]arrow.Field, len(crossCols))
	arrs := make([]arrow.Array, len(crossCols))
	pick := func() (null, edge bool) {
		x := rng.Float64()
		return x < pNull, x >= pNull && x < pNull+pEdge
	}
	for ci, c := range crossCols {
		fields[ci] = arrow.Field{Name: c.name, Type: c.t.ArrowType(), Nullable: true}
		b := array.NewBuilder(mem, c.t.ArrowType())
		for i := 0; i < n; i++ {
			null, edge := pick()
			if null {
				b.AppendNull()
				continue
			}
			switch x := b.(type) {
			case *array.Int16Builder:
				v := int16(rng.IntN(401) - 200)
				if edge {
					v = []int16{math.MinInt16, math.MaxInt16, -1, 0, 1}[rng.IntN(5)]
				}
				x.Append(v)
			case *array.Int32Builder:
				v := int32(rng.IntN(20001) - 10000)
				if edge {
					v = []int32{math.MinInt32, math.MaxInt32, -1, 0, 1}[rng.IntN(5)]
				}
				x.Append(v)
			case *array.Int64Builder:
				v := int64(rng.IntN(2000001) - 1000000)
				if edge {
					v = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, math.MaxInt64 / 2, math.MinInt64 / 2}[rng.IntN(7)]
				}
				x.Append(v)
			case *array.Float64Builder:
				v := float64(rng.IntN(21)-10) / 4
				if edge {
					v = []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64}[rng.IntN(7)]
				}
				x.Append(v)
			case *array.StringBuilder:
				v := []string{"a", "b", "ab", "B", "é", "zz"}[rng.IntN(6)]
				if edge {
					v = []string{"", "\x00", "\U0010FFFF", "a\u0301"}[rng.IntN(4)]
				}
				x.Append(v)
			case *array.BooleanBuilder:
				x.Append(rng.IntN(2) == 0)
			case *array.Date32Builder:
				v := arrow.Date32(rng.IntN(41) - 20)
				if edge {
					v = []arrow.Date32{math.MinInt32, math.MaxInt32, 0}[rng.IntN(3)]
				}
				x.Append(v)
			case *array.TimestampBuilder:
				v := arrow.Timestamp(rng.IntN(41) - 20)
				if edge {
					v = []arrow.Timestamp{math.MinInt64, math.MaxInt64, 0}[rng.IntN(3)]
				}
				x.Append(v)
			case *array.Decimal128Builder:
				x.Append(decimalFromInt(int64(rng.IntN(2001) - 1000)))
			}
		}
		arrs[ci] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

func decimalFromInt(v int64) decimal128.Num { return decimal128.FromI64(v) }

// crossExprs are the expressions of every family; each family appears.
func crossExprs() map[Family][]Expr {
	c := crossCol
	k := func(v any, t types.T) Expr { return &ConstExpr{Value: v, T: t} }
	i16, i32, i64 := types.T{Kind: types.Int16}, types.Int32Type, types.Int64Type
	out := map[Family][]Expr{}
	for _, ty := range []struct {
		a, b string
		t    types.T
	}{{"i16a", "i16b", i16}, {"i32a", "i32b", i32}, {"i64a", "i64b", i64}} {
		for _, op := range []ArithOp{Add, Sub, Mul} {
			out[FamIntMul] = append(out[FamIntMul],
				&ArithExpr{Op: op, L: c(ty.a), R: c(ty.b), T: ty.t},
				&ArithExpr{Op: op, L: c(ty.a), R: k(int64(2), ty.t), T: ty.t},
				&ArithExpr{Op: op, L: k(int64(-1), ty.t), R: c(ty.b), T: ty.t},
				&ArithExpr{Op: op, L: c(ty.a), R: k(nil, ty.t), T: ty.t},
			)
		}
		out[FamIntMul] = append(out[FamIntMul],
			&NegExpr{X: c(ty.a), T: ty.t},
			&ArithExpr{Op: Add, L: &ArithExpr{Op: Mul, L: c(ty.a), R: k(int64(2), ty.t), T: ty.t}, R: c(ty.b), T: ty.t},
			&ArithExpr{Op: Sub, L: c(ty.b), R: &ArithExpr{Op: Mul, L: c(ty.a), R: k(int64(-3), ty.t), T: ty.t}, T: ty.t},
		)
		for _, op := range []ArithOp{Div, Mod} {
			out[FamIntDivMod] = append(out[FamIntDivMod], &ArithExpr{Op: op, L: c(ty.a), R: c(ty.b), T: ty.t})
		}
		for _, to := range []types.T{{Kind: types.Int8}, i16, i32, i64} {
			out[FamIntCast] = append(out[FamIntCast], &CastExpr{X: c(ty.a), T: to})
		}
	}
	out[FamIntMul] = append(out[FamIntMul],
		&ArithExpr{Op: Mul, L: c("i64a"), R: k(int64(math.MinInt64), i64), T: i64},
		&ArithExpr{Op: Mul, L: k(int64(math.MaxInt64), i64), R: k(int64(2), i64), T: i64})
	out[FamIntDivMod] = append(out[FamIntDivMod], &ArithExpr{Op: Div, L: c("i64a"), R: k(int64(-1), i64), T: i64})
	for _, op := range []ArithOp{Add, Sub, Mul, Div, Mod} {
		out[FamFloatArith] = append(out[FamFloatArith], &ArithExpr{Op: op, L: c("f64a"), R: c("f64b"), T: types.Float64Type})
	}
	out[FamFloatArith] = append(out[FamFloatArith], &NegExpr{X: c("f64a"), T: types.Float64Type})
	for _, op := range []ArithOp{Add, Sub, Mul} {
		out[FamDecimalArith] = append(out[FamDecimalArith], &ArithExpr{Op: op, L: c("deca"), R: c("decb"), T: types.DecimalType(25, 4)})
	}
	for _, op := range []CmpOp{Eq, Ne, Lt, Le, Gt, Ge} {
		for _, p := range [][2]string{{"i16a", "i16b"}, {"i32a", "i32b"}, {"i64a", "i64b"}, {"da", "db"}, {"ta", "tb"}} {
			out[FamIntCmp] = append(out[FamIntCmp], &CmpExpr{Op: op, L: c(p[0]), R: c(p[1])})
		}
		out[FamIntCmp] = append(out[FamIntCmp], &CmpExpr{Op: op, L: c("i64a"), R: k(int64(20), i64)},
			&CmpExpr{Op: op, L: k(int64(-5), i32), R: c("i32b")}, &CmpExpr{Op: op, L: c("i64a"), R: k(nil, i64)})
		out[FamStringCmp] = append(out[FamStringCmp], &CmpExpr{Op: op, L: c("sa"), R: c("sb")},
			&CmpExpr{Op: op, L: c("sa"), R: k("ab", types.StringType)})
		out[FamFloatCmp] = append(out[FamFloatCmp], &CmpExpr{Op: op, L: c("f64a"), R: c("f64b")})
		out[FamOtherCmp] = append(out[FamOtherCmp], &CmpExpr{Op: op, L: c("ba"), R: c("bb")}, &CmpExpr{Op: op, L: c("deca"), R: c("decb")})
	}
	out[FamOtherCmp] = append(out[FamOtherCmp], &CmpExpr{Op: Distinct, L: c("i64a"), R: c("i64b")}, &CmpExpr{Op: NotDistinct, L: c("sa"), R: c("sb")})
	out[FamBoolLogic] = []Expr{
		&LogicExpr{And: true, L: c("ba"), R: c("bb")}, &LogicExpr{L: c("ba"), R: c("bb")},
		&NotExpr{X: c("ba")}, &LogicExpr{And: true, L: c("ba"), R: k(nil, types.BoolType)},
		&LogicExpr{L: k(true, types.BoolType), R: c("bb")},
	}
	for _, col := range []string{"i64a", "sa", "ba", "f64a", "deca"} {
		out[FamDecIsNull] = append(out[FamDecIsNull], &IsNullExpr{X: c("deca")})
		out[FamIsNull] = append(out[FamIsNull], &IsNullExpr{X: c(col)}, &IsNullExpr{X: c(col), Not: true})
	}
	for _, from := range []string{"i16a", "i32a", "i64a"} {
		for _, to := range []types.T{{Kind: types.Float32}, types.Float64Type} {
			out[FamIntFloatCast] = append(out[FamIntFloatCast], &CastExpr{X: c(from), T: to})
		}
	}
	out[FamOtherCast] = []Expr{&CastExpr{X: c("i32a"), T: types.StringType},
		&CastExpr{X: c("f64a"), T: types.Int32Type}}
	// the families that always run natively, whose kernels the report
	// names too: a library function, ||, CASE and COALESCE, a subquery
	passThrough := func(_ context.Context, _ memory.Allocator, args []arrow.Array, _ int) (arrow.Array, error) {
		args[0].Retain()
		return args[0], nil
	}
	out[FamFunction] = []Expr{&FuncExpr{Name: "same", Args: []Expr{c("i64a")}, T: i64, Kernel: passThrough}}
	out[FamConcat] = []Expr{&ConcatExpr{L: c("sa"), R: c("sb")}}
	out[FamConditional] = []Expr{&CaseExpr{Whens: []CaseWhen{{Cond: c("ba"), Result: c("i64a")}}, Else: c("i64b"), T: i64},
		&CoalesceExpr{Args: []Expr{c("i64a"), c("i64b")}, T: i64}}
	one := SchemaOf([]string{"x"}, []types.T{i64})
	out[FamSubquery] = []Expr{&SubqueryExpr{Mode: ScalarMode, T: i64, Open: func(ec *EvalContext) (Operator, error) {
		col := constArray(ec.Mem, int64(7), i64, 1)
		defer col.Release()
		return &sliceOperator{batches: []arrow.RecordBatch{array.NewRecordBatch(one, []arrow.Array{col}, 1)}, schema: one}, nil
	}}}
	// filter is checked through the Filter operator (crossFilters)
	return out
}

// crossFilters are the masks of the filter family.
func crossFilters() []Expr {
	c := crossCol
	return []Expr{
		c("ba"),
		&CmpExpr{Op: Ge, L: c("i64a"), R: &ConstExpr{Value: int64(20), T: types.Int64Type}},
		&LogicExpr{L: c("ba"), R: &IsNullExpr{X: c("sa")}},
		&ConstExpr{Value: true, T: types.BoolType},
		&ConstExpr{Value: nil, T: types.BoolType},
	}
}

type evalResult struct {
	arr arrow.Array
	err error
}

func evalWith(b Backend, e Expr, rec arrow.RecordBatch) evalResult {
	ec := &EvalContext{Ctx: context.Background(), Mem: memory.NewGoAllocator(), Backend: b}
	a, err := e.Eval(ec, rec)
	return evalResult{a, err}
}

func filterWith(b Backend, cond Expr, rec arrow.RecordBatch) ([]arrow.RecordBatch, error) {
	rec.Retain()
	ec := &EvalContext{Ctx: context.Background(), Mem: memory.NewGoAllocator(), Backend: b}
	f := &Filter{EC: ec, Input: &sliceOperator{batches: []arrow.RecordBatch{rec}, schema: rec.Schema()}, Cond: cond}
	defer f.Close()
	var out []arrow.RecordBatch
	for {
		r, err := f.Next(context.Background())
		if err != nil || r == nil {
			return out, err
		}
		out = append(out, r)
	}
}

// sliceOperator emits prepared batches.
type sliceOperator struct {
	batches []arrow.RecordBatch
	schema  *arrow.Schema
}

func (o *sliceOperator) Schema() *arrow.Schema { return o.schema }
func (o *sliceOperator) Close() {
	for _, b := range o.batches {
		b.Release()
	}
	o.batches = nil
}
func (o *sliceOperator) Next(context.Context) (arrow.RecordBatch, error) {
	if len(o.batches) == 0 {
		return nil, nil
	}
	b := o.batches[0]
	o.batches = o.batches[1:]
	return b, nil
}

// identical compares arrays value by value: floats bit for bit (-0 is not
// 0 here) except that any NaN equals any NaN.
func identical(a, b arrow.Array) bool {
	fa, ok1 := a.(*array.Float64)
	fb, ok2 := b.(*array.Float64)
	if !ok1 || !ok2 {
		return array.Equal(a, b)
	}
	if fa.Len() != fb.Len() || fa.NullN() != fb.NullN() {
		return false
	}
	for i := 0; i < fa.Len(); i++ {
		if fa.IsNull(i) != fb.IsNull(i) {
			return false
		}
		if fa.IsNull(i) {
			continue
		}
		x, y := fa.Value(i), fb.Value(i)
		if !(math.IsNaN(x) && math.IsNaN(y)) && math.Float64bits(x) != math.Float64bits(y) {
			return false
		}
	}
	return true
}

func recordsIdentical(a, b arrow.RecordBatch) bool {
	if a.NumRows() != b.NumRows() || a.NumCols() != b.NumCols() || !a.Schema().Equal(b.Schema()) {
		return false
	}
	for i := range a.Columns() {
		if !identical(a.Column(i), b.Column(i)) {
			return false
		}
	}
	return true
}

// fixedWidthOnly keeps a batch's fixed-width columns (the filter family
// arrow-go serves); the other columns become all-NULL int64 columns so the
// column indexes stay.
func fixedWidthOnly(rec arrow.RecordBatch) arrow.RecordBatch {
	fields := make([]arrow.Field, rec.NumCols())
	cols := make([]arrow.Array, rec.NumCols())
	for i, f := range rec.Schema().Fields() {
		fields[i], cols[i] = f, rec.Column(i)
		if _, ok := f.Type.(arrow.FixedWidthDataType); !ok {
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}
			cols[i] = constArray(memory.NewGoAllocator(), nil, types.Int64Type, int(rec.NumRows()))
			defer cols[i].Release()
		}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
}

func sameError(a, b error) error {
	var ea, eb *sqlerr.Error
	if !errors.As(a, &ea) || !errors.As(b, &eb) {
		return fmt.Errorf("not both SQL errors: native %v, arrow %v", a, b)
	}
	if ea.Code != eb.Code || ea.Message != eb.Message {
		return fmt.Errorf("native %s %q, arrow %s %q", ea.Code, ea.Message, eb.Code, eb.Message)
	}
	return nil
}

func TestCrossBackend(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	exprs := crossExprs()
	covered := map[Family]bool{FamFilter: true, FamFilterVar: true}
	for _, es := range exprs {
		for _, e := range es {
			for _, f := range ExprFamilies(e) {
				covered[f] = true
			}
		}
	}
	for _, f := range Families() {
		if !covered[f] {
			t.Errorf("family %s has no expressions in the cross-backend test", f)
		}
	}
	sizes := []int{0, 1, 1, 2, 7, 65, 1000}
	mixes := [][2]float64{{0, 0}, {0.2, 0}, {0.1, 0.01}, {0.2, 0.3}, {0, 1}}
	errs, oks := map[Family]int{}, map[Family]int{}
	for round := 0; round < 2; round++ {
		for _, n := range sizes {
			for _, mix := range mixes {
				rec := randomBatch(rng, n, mix[0], mix[1])
				// a sliced batch too: offsets must not matter
				recs := []arrow.RecordBatch{rec}
				if n > 2 {
					recs = append(recs, rec.NewSlice(1, int64(n)))
				}
				var fixed arrow.RecordBatch
				if n > 2 {
					fixed = fixedWidthOnly(rec)
					recs = append(recs, fixed)
				}
				for _, r := range recs {
					for f, es := range exprs {
						if r == fixed {
							break // its text columns are placeholders: filters only
						}
						for _, e := range es {
							nat, arr := evalWith(BackendNative, e, r), evalWith(BackendArrow, e, r)
							desc := fmt.Sprintf("%s %s n=%d mix=%v", f, e, r.NumRows(), mix)
							switch {
							case nat.err != nil || arr.err != nil:
								if nat.err == nil || arr.err == nil {
									t.Errorf("%s: native err %v, arrow err %v", desc, nat.err, arr.err)
								} else if err := sameError(nat.err, arr.err); err != nil {
									t.Errorf("%s: %v", desc, err)
								}
								for _, f := range ExprFamilies(e) {
									errs[f]++
								}
							default:
								if !arrow.TypeEqual(nat.arr.DataType(), arr.arr.DataType()) || !identical(nat.arr, arr.arr) {
									t.Errorf("%s:\nnative %v\narrow  %v\ninput  %v", desc, nat.arr, arr.arr, r)
								}
								if nat.arr.Len() != int(r.NumRows()) {
									t.Errorf("%s: %d rows out of %d", desc, nat.arr.Len(), r.NumRows())
								}
								for _, f := range ExprFamilies(e) {
									oks[f]++
								}
							}
							for _, x := range []evalResult{nat, arr} {
								if x.arr != nil {
									x.arr.Release()
								}
							}
						}
					}
					for _, cond := range crossFilters() {
						nb, nerr := filterWith(BackendNative, cond, r)
						ab, aerr := filterWith(BackendArrow, cond, r)
						if nerr != nil || aerr != nil {
							t.Errorf("filter %s: %v / %v", cond, nerr, aerr)
						}
						if len(nb) != len(ab) {
							t.Errorf("filter %s n=%d: %d batches native, %d arrow", cond, r.NumRows(), len(nb), len(ab))
						} else {
							for i := range nb {
								if !recordsIdentical(nb[i], ab[i]) {
									for c := range nb[i].Columns() {
										if !identical(nb[i].Column(c), ab[i].Column(c)) {
											t.Errorf("filter %s n=%d column %s differs:\nnative %v\narrow  %v\ninput  %v",
												cond, r.NumRows(), nb[i].ColumnName(c), nb[i].Column(c), ab[i].Column(c), r.Column(c))
										}
									}
								}
							}
						}
						for _, b := range append(nb, ab...) {
							b.Release()
						}
						oks[FamFilter]++
					}
				}
				for _, r := range recs {
					r.Release()
				}
			}
		}
	}
	// the random batches must reach both outcomes where a family can fail
	for _, f := range []Family{FamIntMul, FamIntAddSub, FamIntCast, FamIntDivMod} {
		if errs[f] == 0 || oks[f] == 0 {
			t.Errorf("family %s: %d errors, %d results: the batches do not exercise both", f, errs[f], oks[f])
		}
	}
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(9, 9)) }

// refInt evaluates an integer arithmetic tree for row i the slow way: one
// checked operation at a time. overflow reports a non-NULL overflow.
func refInt(e Expr, rec arrow.RecordBatch, i int) (v int64, null, overflow bool) {
	switch x := e.(type) {
	case *ColExpr:
		c := rec.Column(x.Index)
		if c.IsNull(i) {
			return 0, true, false
		}
		return valueAt(c, i).(int64), false, false
	case *ConstExpr:
		if x.Value == nil {
			return 0, true, false
		}
		return x.Value.(int64), false, false
	case *NegExpr:
		return refInt(&ArithExpr{Op: Sub, L: &ConstExpr{Value: int64(0), T: x.T}, R: x.X, T: x.T}, rec, i)
	case *ArithExpr:
		a, an, ao := refInt(x.L, rec, i)
		b, bn, bo := refInt(x.R, rec, i)
		if ao || bo {
			return 0, false, true
		}
		if an || bn {
			return 0, true, false
		}
		r, ok := checkedOp(x.Op, a, b, x.T)
		return r, false, !ok
	}
	panic(fmt.Sprintf("refInt: %T", e))
}

// The native integer kernels (fast paths, in-place temporaries, the
// overflow recheck) against a row-at-a-time reference: the cross-backend
// test cannot see a native-only family's bugs.
func TestNativeIntArithMatchesRowReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	exprs := crossExprs()[FamIntMul]
	for round := 0; round < 200; round++ {
		n := []int{1, 2, 9, 70}[round%4]
		mix := [][2]float64{{0, 0}, {0, 0.05}, {0.3, 0.05}, {0.1, 0.5}}[(round/4)%4]
		rec := randomBatch(rng, n, mix[0], mix[1])
		for _, e := range exprs {
			got := evalWith(BackendNative, e, rec)
			wantErr := false
			for i := 0; i < n && !wantErr; i++ {
				_, _, wantErr = refInt(e, rec, i)
			}
			if wantErr != (got.err != nil) {
				t.Errorf("%s n=%d mix=%v: error %v, reference overflows: %v\n%v", e, n, mix, got.err, wantErr, rec)
			}
			if got.err == nil {
				for i := 0; i < n; i++ {
					v, null, _ := refInt(e, rec, i)
					if null != got.arr.IsNull(i) || (!null && valueAt(got.arr, i).(int64) != v) {
						t.Errorf("%s row %d: got %v, want %d (null %v)", e, i, valueAt(got.arr, i), v, null)
						break
					}
				}
				got.arr.Release()
			}
		}
		rec.Release()
	}
}
