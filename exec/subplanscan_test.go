package exec

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// failingRows is a subquery's plan giving ys one row a batch, and 22012
// in place of row failAt (none when failAt >= len(ys)).
type failingRows struct {
	mem    memory.Allocator
	schema *arrow.Schema
	ys     []*int64
	failAt int
	next   int
}

func (o *failingRows) Schema() *arrow.Schema { return o.schema }
func (o *failingRows) Close()                {}
func (o *failingRows) Next(context.Context) (arrow.RecordBatch, error) {
	switch {
	case o.next == o.failAt:
		return nil, sqlerr.New(sqlerr.DivisionByZero, "division by zero")
	case o.next >= len(o.ys):
		return nil, nil
	}
	b := array.NewInt64Builder(o.mem)
	defer b.Release()
	if y := o.ys[o.next]; y == nil {
		b.AppendNull()
	} else {
		b.Append(*y)
	}
	o.next++
	col := b.NewArray()
	defer col.Release()
	return array.NewRecordBatch(o.schema, []arrow.Array{col}, 1), nil
}

// scanReference is what ExecScanSubPlan gives for the outer values xs in
// order over a Material node of ys: each row compares with ys from the
// first until one decides, and reading row failAt fails the statement.
func scanReference(mode SubqueryMode, op CmpOp, xs, ys []*int64, failAt int) ([]any, error) {
	out := make([]any, len(xs))
	for i, x := range xs {
		var v any = mode == AllMode
		for j := 0; ; j++ {
			if j == failAt {
				return nil, sqlerr.New(sqlerr.DivisionByZero, "division by zero")
			}
			if j == len(ys) {
				break
			}
			if x == nil || ys[j] == nil {
				v = nil
				continue
			}
			c := 0
			if *x < *ys[j] {
				c = -1
			} else if *x > *ys[j] {
				c = 1
			}
			if r := cmpResult(op, c); r == (mode == AnyMode) {
				v = r
				break
			}
		}
		out[i] = v
	}
	return out, nil
}

// TestScannedSubPlanStopsWhereDecided: an uncorrelated x op ANY | ALL
// that is not Hashed reads its subquery only as far as its rows'
// comparisons need, across the batches of the outer side (a later batch
// reads on past the rows an earlier one read), so a failing subquery
// row after that is not an error; random outer values and subquery rows
// (NULLs among them), operators, failing rows and batch sizes, against
// scanReference.
func TestScannedSubPlanStopsWhereDecided(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rnd := rand.New(rand.NewPCG(43, 7))
	i64 := types.Int64Type
	schema := SchemaOf([]string{"y"}, []types.T{i64})
	values := func(n int) []*int64 {
		out := make([]*int64, n)
		for i := range out {
			if rnd.IntN(6) > 0 {
				v := int64(rnd.IntN(5))
				out[i] = &v
			}
		}
		return out
	}
	for round := 0; round < 400; round++ {
		mode := []SubqueryMode{AnyMode, AllMode}[rnd.IntN(2)]
		op := []CmpOp{Eq, Ne, Lt, Le, Gt, Ge}[rnd.IntN(6)]
		xs, ys := values(1+rnd.IntN(6)), values(rnd.IntN(6))
		failAt := rnd.IntN(len(ys) + 2)
		e := &SubqueryExpr{Mode: mode, Op: op, T: types.BoolType, X: &ColExpr{Index: 0, Name: "x", T: i64},
			Open: func(*EvalContext) (Operator, error) {
				return &failingRows{mem: mem, schema: schema, ys: ys, failAt: failAt}, nil
			}}
		want, wantErr := scanReference(mode, op, xs, ys, failAt)
		ec := &EvalContext{Ctx: context.Background(), Mem: mem}
		var got []any
		var err error
		for from := 0; from < len(xs) && err == nil; {
			n := min(1+rnd.IntN(3), len(xs)-from)
			b := array.NewInt64Builder(mem)
			for _, x := range xs[from : from+n] {
				if x == nil {
					b.AppendNull()
				} else {
					b.Append(*x)
				}
			}
			col := b.NewArray()
			b.Release()
			batch := array.NewRecordBatch(SchemaOf([]string{"x"}, []types.T{i64}), []arrow.Array{col}, int64(n))
			col.Release()
			var res arrow.Array
			if res, err = e.Eval(ec, batch); err == nil {
				for i := 0; i < res.Len(); i++ {
					got = append(got, valueAt(res, i))
				}
				res.Release()
			}
			batch.Release()
			from += n
		}
		for _, r := range ec.subqueries {
			r.values.Release()
		}
		what := fmt.Sprintf("round %d: %v %v %v over %v failing at %d", round, show(xs), mode, op, show(ys), failAt)
		var se *sqlerr.Error
		switch {
		case wantErr != nil:
			if !errors.As(err, &se) || se.Code != sqlerr.DivisionByZero {
				t.Errorf("%s: got %v, %v; want 22012", what, got, err)
			}
		case err != nil:
			t.Errorf("%s: %v; want %v", what, err, want)
		case fmt.Sprint(got) != fmt.Sprint(want):
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
}

func show(vs []*int64) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		if v != nil {
			out[i] = *v
		}
	}
	return out
}
