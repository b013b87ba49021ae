package relop

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// w4Batches is rows rows of W4's scan (user_id int, qty int, amount double
// precision with 1% NULLs) in batches of 8192, as the columnar image hands
// them over; user_id is uniform in 1..100000.
func w4Batches(rows int) (*arrow.Schema, []arrow.RecordBatch) {
	rng := rand.New(rand.NewPCG(7, 1))
	schema := schemaOf(types.Int32Type, types.Int32Type, types.Float64Type)
	var out []arrow.RecordBatch
	for lo := 0; lo < rows; lo += defaultBatchRows {
		n := min(defaultBatchRows, rows-lo)
		ub, qb, ab := array.NewInt32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator), array.NewFloat64Builder(memory.DefaultAllocator)
		for range n {
			ub.Append(int32(rng.IntN(100_000)) + 1)
			qb.Append(int32(rng.IntN(50)) + 1)
			if rng.IntN(100) == 0 {
				ab.AppendNull()
			} else {
				ab.Append(float64(rng.IntN(1_000_000)) / 100)
			}
		}
		cols := []arrow.Array{ub.NewArray(), qb.NewArray(), ab.NewArray()}
		out = append(out, array.NewRecordBatch(schema, cols, int64(n)))
		for _, c := range cols {
			c.Release()
		}
		ub.Release()
		qb.Release()
		ab.Release()
	}
	return schema, out
}

// BenchmarkFilterAggW4 is W4's plan on one core over batches in memory:
// SELECT count(*), sum(qty), avg(amount) FROM events WHERE user_id < 50000,
// the filter under the aggregation, as one part of the parallel plan runs
// it (partial: count(*), sum(qty), sum(amount), count(amount)) and as the
// serial plan does (avg). 10M rows; CPU per input row.
func BenchmarkFilterAggW4(b *testing.B) {
	const rows = 10_000_000
	schema, bs := w4Batches(rows)
	cond := &exec.CmpExpr{Op: exec.Lt, L: &exec.ColExpr{Index: 0, Name: "user_id", T: types.Int32Type},
		R: &exec.ConstExpr{Value: int64(50000), T: types.Int32Type}}
	in := []types.T{types.Int32Type, types.Int32Type, types.Float64Type}
	for _, c := range []struct {
		name string
		aggs []AggSpec
	}{
		{"partial", []AggSpec{agg("count", -1), agg("sum", 1), agg("sum", 2), agg("count", 2)}},
		{"serial", []AggSpec{agg("count", -1), agg("sum", 1), agg("avg", 2)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			out := outSchema(b, in, nil, c.aggs)
			ec := &exec.EvalContext{Ctx: context.Background(), Mem: exec.NewPoolAllocator(64 << 20)}
			b.ResetTimer()
			cpu0 := cpuTime()
			for range b.N {
				f := &exec.Filter{EC: ec, Input: benchSource(schema, bs), Cond: cond}
				op := &HashAggregate{Input: f, Aggs: c.aggs, Out: out, Alloc: ec.Mem}
				if n := drainCount(b, op); n != 1 {
					b.Fatalf("%d rows", n)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/rows, "cpu-ns/row")
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
