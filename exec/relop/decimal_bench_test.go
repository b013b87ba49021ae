package relop

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// The bench harness's W4-W6 shapes over a DECIMAL(12,2) column, in
// process: the events table's (qty INT, amount DECIMAL(12,2)) with 1% NULL
// amounts of 0.00 .. 9999.99 and 100 quantities, 4M rows.

const decBenchRows = 4_000_000

func decimalBatches(rows int) (*arrow.Schema, []arrow.RecordBatch) {
	rng := rand.New(rand.NewPCG(9, 9))
	schema := schemaOf(types.Int32Type, types.DecimalType(12, 2))
	var out []arrow.RecordBatch
	for lo := 0; lo < rows; lo += defaultBatchRows {
		n := min(defaultBatchRows, rows-lo)
		qb := array.NewInt32Builder(memory.DefaultAllocator)
		ab := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 12, Scale: 2})
		for i := 0; i < n; i++ {
			qb.Append(int32(rng.IntN(100)))
			if rng.IntN(100) == 0 {
				ab.AppendNull()
			} else {
				ab.Append(decimal128.FromI64(int64(rng.IntN(1_000_000))))
			}
		}
		qa, aa := qb.NewArray(), ab.NewArray()
		qb.Release()
		ab.Release()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{qa, aa}, int64(n)))
		qa.Release()
		aa.Release()
	}
	return schema, out
}

func benchDecimalAgg(b *testing.B, groupBy []int, aggs []AggSpec, wantGroups int64) {
	schema, bs := decimalBatches(decBenchRows)
	out := outSchema(b, []types.T{types.Int32Type, types.DecimalType(12, 2)}, groupBy, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, bs), GroupBy: groupBy, Aggs: aggs, Out: out}
		if n := drainCount(b, op); n != wantGroups {
			b.Fatalf("%d groups", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(decBenchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkDecimalW4: SELECT count(*), sum(qty), avg(amount) (one group).
func BenchmarkDecimalW4(b *testing.B) {
	benchDecimalAgg(b, nil, []AggSpec{agg("count", -1), agg("sum", 0), agg("avg", 1)}, 1)
}

// BenchmarkDecimalW5: SELECT qty, count(*), sum(amount) ... GROUP BY qty.
func BenchmarkDecimalW5(b *testing.B) {
	benchDecimalAgg(b, []int{0}, []AggSpec{agg("count", -1), agg("sum", 1)}, 100)
}

// BenchmarkDecimalW6: ORDER BY amount DESC LIMIT 100.
func BenchmarkDecimalW6(b *testing.B) {
	schema, bs := decimalBatches(decBenchRows)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &TopN{Input: benchSource(schema, bs), Keys: []SortKey{{Column: 1, Desc: true}}, N: 100}
		if n := drainCount(b, op); n != 100 {
			b.Fatal(n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(decBenchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
