package exec

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// membershipInput builds a column of n random values of t (NULL one time
// in nullEvery when nullEvery > 0) from a small domain, so that values
// repeat and both sides meet.
func membershipInput(mem memory.Allocator, rnd *rand.Rand, t types.T, n, domain, nullEvery int) arrow.Array {
	floats := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1.5}
	b := array.NewBuilder(mem, t.ArrowType())
	defer b.Release()
	for i := 0; i < n; i++ {
		if nullEvery > 0 && rnd.IntN(nullEvery) == 0 {
			b.AppendNull()
			continue
		}
		switch bb := b.(type) {
		case *array.Int64Builder:
			bb.Append(int64(rnd.IntN(domain)))
		case *array.Float64Builder:
			bb.Append(floats[rnd.IntN(len(floats))])
		case *array.StringBuilder:
			bb.Append(fmt.Sprint("s", rnd.IntN(domain)))
		}
	}
	return b.NewArray()
}

// subqueryOver is an uncorrelated x op ANY|ALL (subquery) whose subquery
// emits rows and whose X is column 0 of the batch it is evaluated over.
func subqueryOver(rows arrow.Array, t types.T, mode SubqueryMode, op CmpOp) *SubqueryExpr {
	schema := SchemaOf([]string{"y"}, []types.T{t})
	// IN and NOT IN of one value: hashed, the index answers them
	return &SubqueryExpr{Mode: mode, Op: op, Hashed: true, T: types.BoolType, X: &ColExpr{Index: 0, Name: "x", T: t},
		Open: func(*EvalContext) (Operator, error) {
			return &sliceOperator{schema: schema, batches: []arrow.RecordBatch{array.NewRecordBatch(schema, []arrow.Array{rows}, int64(rows.Len()))}}, nil
		}}
}

// TestMembershipIndexMatchesPairs: a single value's IN (= ANY) and NOT IN
// (<> ALL) through the sorted index give what comparing every pair gives
// (SQL's NULL rules: NULL on the left, a NULL among the rows, no rows),
// over random integers, floats (NaN, ±Infinity, -0) and strings with NULLs
// on either side.
func TestMembershipIndexMatchesPairs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rnd := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 300; round++ {
		typ := []types.T{types.Int64Type, types.Float64Type, types.StringType}[rnd.IntN(3)]
		n, m := 1+rnd.IntN(20), rnd.IntN(12)
		x := membershipInput(mem, rnd, typ, n, 6, []int{0, 3, 8}[rnd.IntN(3)])
		ys := membershipInput(mem, rnd, typ, m, 6, []int{0, 2, 6}[rnd.IntN(3)])
		mode, op := AnyMode, Eq
		if rnd.IntN(2) == 0 {
			mode, op = AllMode, Ne
		}
		e := subqueryOver(ys, typ, mode, op)
		batch := array.NewRecordBatch(SchemaOf([]string{"x"}, []types.T{typ}), []arrow.Array{x}, int64(n))
		ec := &EvalContext{Ctx: context.Background(), Mem: mem}
		got, err := e.Eval(ec, batch)
		if err != nil {
			t.Fatal(err)
		}
		pair, err := comparePairs(op, x, ys, false)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			want, wantNull := e.fold(pair, i, m)
			if m == 0 {
				want, wantNull = mode == AllMode, false
			}
			b := got.(*array.Boolean)
			if b.IsNull(i) != wantNull || (!wantNull && b.Value(i) != want) {
				t.Errorf("round %d: %v %v %v over %v: row %d = %v, want %v (null %v)", round, x, mode, op, ys, i, b, want, wantNull)
			}
		}
		got.Release()
		for _, r := range ec.subqueries {
			r.values.Release()
		}
		batch.Release()
		x.Release()
		ys.Release()
	}
}

// BenchmarkMembership: x IN (SELECT ...) of one value over n left rows and
// n subquery rows without NULLs, the subquery's rows read once (a binary
// search per left row; every pair was compared before).
func BenchmarkMembership(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			mem := memory.DefaultAllocator
			rnd := rand.New(rand.NewPCG(1, 2))
			x := membershipInput(mem, rnd, types.Int64Type, n, 4*n, 0)
			ys := membershipInput(mem, rnd, types.Int64Type, n, 4*n, 0)
			batch := array.NewRecordBatch(SchemaOf([]string{"x"}, []types.T{types.Int64Type}), []arrow.Array{x}, int64(n))
			e := subqueryOver(ys, types.Int64Type, AnyMode, Eq)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ec := &EvalContext{Ctx: context.Background(), Mem: mem}
				got, err := e.Eval(ec, batch)
				if err != nil {
					b.Fatal(err)
				}
				got.Release()
			}
		})
	}
}
