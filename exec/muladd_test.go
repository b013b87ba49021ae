package exec

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestMulAddFused checks the fused x*c ± y kernel against the row-at-a-time
// reference: the shapes it takes (and those it must leave alone), constants
// small, large and extreme, batches with
// NULLs and with values whose product or sum overflows (an overflow under
// a NULL is no error), empty and one-row batches.
func TestMulAddFused(t *testing.T) {
	i64 := types.Int64Type
	a, b := crossCol("i64a"), crossCol("i64b")
	k := func(v int64) Expr { return &ConstExpr{Value: v, T: i64} }
	mul := func(x, y Expr) Expr { return &ArithExpr{Op: Mul, L: x, R: y, T: i64} }
	op := func(o ArithOp, x, y Expr) Expr { return &ArithExpr{Op: o, L: x, R: y, T: i64} }
	consts := []int64{2, 3, -2, -3, 1, 4, 1 << 62, -1 << 62, 7 << 40, math.MinInt64, math.MaxInt64, math.MinInt64 + 1}
	type shape struct {
		e     Expr
		fused bool
	}
	var shapes []shape
	for _, c := range consts {
		shapes = append(shapes,
			shape{op(Add, mul(a, k(c)), b), true},
			shape{op(Add, b, mul(a, k(c))), true},
			shape{op(Add, mul(k(c), a), b), true},
			shape{op(Sub, mul(a, k(c)), b), true},
			shape{op(Sub, b, mul(a, k(c))), false},             // y - x*c: not fused
			shape{op(Add, mul(a, k(c)), mul(b, k(3))), true},   // y itself a product
			shape{op(Add, op(Add, mul(a, k(c)), b), a), false}, // its inner sum is fused
		)
	}
	shapes = append(shapes,
		shape{op(Add, mul(a, k(0)), b), false},
		shape{op(Add, mul(a, k(-1)), b), false},
		shape{op(Add, mul(a, &ConstExpr{Value: nil, T: i64}), b), false},
		shape{op(Add, mul(a, k(2)), k(5)), false},
		shape{op(Add, mul(a, b), b), false},
	)
	ec := &EvalContext{Backend: BackendNative}
	for _, s := range shapes {
		_, fused := s.e.(*ArithExpr).mulAddOf(ec)
		if fused != s.fused {
			t.Errorf("%s: fused %v, want %v", s.e, fused, s.fused)
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for round := 0; round < 120; round++ {
		n := []int{0, 1, 2, 63, 64, 65, 300}[round%7]
		mix := [][2]float64{{0, 0}, {0, 0.05}, {0.3, 0.05}, {0.1, 0.5}, {0.5, 0.5}}[(round/7)%5]
		rec := randomBatch(rng, n, mix[0], mix[1])
		for _, s := range shapes {
			got := evalWith(BackendNative, s.e, rec)
			wantErr := false
			for i := 0; i < n && !wantErr; i++ {
				_, _, wantErr = refInt(s.e, rec, i)
			}
			desc := fmt.Sprintf("%s n=%d mix=%v", s.e, n, mix)
			if wantErr != (got.err != nil) {
				t.Errorf("%s: error %v, reference overflows: %v", desc, got.err, wantErr)
			}
			var se *sqlerr.Error
			if got.err != nil && (!errors.As(got.err, &se) || se.Code != sqlerr.NumericValueOutOfRange || se.Message != "bigint out of range") {
				t.Errorf("%s: error %v, want 22003 bigint out of range", desc, got.err)
			}
			if got.err != nil {
				continue
			}
			if got.arr.Len() != n {
				t.Errorf("%s: %d rows", desc, got.arr.Len())
			}
			nulls := 0
			for i := 0; i < n; i++ {
				v, null, _ := refInt(s.e, rec, i)
				if null {
					nulls++
				}
				if null != got.arr.IsNull(i) || (!null && valueAt(got.arr, i).(int64) != v) {
					t.Errorf("%s row %d: got %v, want %d (null %v)", desc, i, valueAt(got.arr, i), v, null)
					break
				}
			}
			if got.arr.NullN() != nulls {
				t.Errorf("%s: NullN %d, want %d", desc, got.arr.NullN(), nulls)
			}
			got.arr.Release()
		}
		rec.Release()
	}
}

// TestMulAddParam: a parameter as the constant fuses and gives the
// constant's result.
func TestMulAddParam(t *testing.T) {
	i64 := types.Int64Type
	a, b := crossCol("i64a"), crossCol("i64b")
	withParam := &ArithExpr{Op: Add, L: &ArithExpr{Op: Mul, L: a, R: &ParamExpr{Index: 0, T: i64}, T: i64}, R: b, T: i64}
	withConst := &ArithExpr{Op: Add, L: &ArithExpr{Op: Mul, L: a, R: &ConstExpr{Value: int64(5), T: i64}, T: i64}, R: b, T: i64}
	ec := &EvalContext{Backend: BackendNative, Params: []any{int64(5)}}
	if _, ok := withParam.mulAddOf(ec); !ok {
		t.Fatal("x * $1 + y is not fused")
	}
	rec := randomBatch(rand.New(rand.NewPCG(8, 8)), 200, 0.2, 0)
	defer rec.Release()
	ec.Mem = memory.NewGoAllocator()
	p, err := withParam.Eval(ec, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	c := evalWith(BackendNative, withConst, rec)
	if c.err != nil {
		t.Fatal(c.err)
	}
	defer c.arr.Release()
	if !identical(p, c.arr) {
		t.Errorf("x * $1 + y:\n%v\nx * 5 + y:\n%v", p, c.arr)
	}
}
