package relop

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// benchBatches makes rows rows of (key int32 or int64, value int64) in
// batches of 8192; keys are uniform in [0, groups).
func benchBatches(rows, groups int, key64 bool, seed uint64) (*arrow.Schema, []arrow.RecordBatch) {
	rng := rand.New(rand.NewPCG(seed, 1))
	kt := types.Int32Type
	if key64 {
		kt = types.Int64Type
	}
	schema := schemaOf(kt, types.Int64Type)
	var out []arrow.RecordBatch
	for lo := 0; lo < rows; lo += defaultBatchRows {
		n := min(defaultBatchRows, rows-lo)
		vb := array.NewInt64Builder(memory.DefaultAllocator)
		var ka arrow.Array
		if key64 {
			kb := array.NewInt64Builder(memory.DefaultAllocator)
			for i := 0; i < n; i++ {
				kb.Append(int64(rng.IntN(groups)))
			}
			ka = kb.NewArray()
			kb.Release()
		} else {
			kb := array.NewInt32Builder(memory.DefaultAllocator)
			for i := 0; i < n; i++ {
				kb.Append(int32(rng.IntN(groups)))
			}
			ka = kb.NewArray()
			kb.Release()
		}
		for i := 0; i < n; i++ {
			vb.Append(int64(rng.IntN(1000)))
		}
		va := vb.NewArray()
		vb.Release()
		out = append(out, array.NewRecordBatch(schema, []arrow.Array{ka, va}, int64(n)))
		ka.Release()
		va.Release()
	}
	return schema, out
}

// cpuTime is the process's user+system CPU time so far: on a shared
// machine the CPU an operator burns is a steadier figure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU seconds per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

func benchSource(schema *arrow.Schema, bs []arrow.RecordBatch) exec.Operator {
	return &source{schema: schema, batches: bs}
}

func drainCount(b *testing.B, op exec.Operator) int64 {
	defer op.Close()
	var n int64
	for {
		out, err := op.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if out == nil {
			return n
		}
		n += out.NumRows()
		out.Release()
	}
}

func benchAgg(b *testing.B, rows, groups int) {
	schema, bs := benchBatches(rows, groups, false, 1)
	aggs := []AggSpec{agg("sum", 1), agg("count", -1)}
	out := outSchema(b, []types.T{types.Int32Type, types.Int64Type}, []int{0}, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, bs), GroupBy: []int{0}, Aggs: aggs, Out: out}
		// uniform random keys: a few of a million may never occur
		if n := drainCount(b, op); n > int64(groups) || n < int64(groups)*99/100 {
			b.Fatalf("%d groups", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAggregate100Groups: SELECT k, sum(v), count(*) FROM 10M rows GROUP BY k (100 groups).
func BenchmarkAggregate100Groups(b *testing.B) { benchAgg(b, 10_000_000, 100) }

// BenchmarkAggregate1MGroups: the same with a million groups.
func BenchmarkAggregate1MGroups(b *testing.B) { benchAgg(b, 10_000_000, 1_000_000) }

// BenchmarkHashJoin1Mx1M: 1M probe rows joined with 1M build rows on int64 keys.
func BenchmarkHashJoin1Mx1M(b *testing.B) {
	ls, lb := benchBatches(1_000_000, 1_000_000, true, 2)
	rs, rb := benchBatches(1_000_000, 1_000_000, true, 3)
	b.ResetTimer()
	cpu0 := cpuTime()
	var n int64
	var probe, probeCPU time.Duration
	for i := 0; i < b.N; i++ {
		op := &HashJoin{Left: benchSource(ls, lb), Right: benchSource(rs, rb), LeftKeys: []int{0}, RightKeys: []int{0}}
		// the first Next builds the table (and probes one batch): the
		// probe phase is the rest
		first, err := op.Next(context.Background())
		if err != nil || first == nil {
			b.Fatal(err)
		}
		t0, c0 := time.Now(), cpuTime()
		n = first.NumRows() + drainCount(b, op)
		probe += time.Since(t0)
		probeCPU += cpuTime() - c0
		first.Release()
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(2_000_000)*float64(b.N)/b.Elapsed().Seconds(), "input-rows/s")
	b.ReportMetric(float64(1_000_000)*float64(b.N)/b.Elapsed().Seconds(), "probe-rows/s")
	b.ReportMetric(float64(1_000_000)*float64(b.N)/probe.Seconds(), "probe-phase-rows/s")
	// the same per CPU second: steadier on a shared machine
	b.ReportMetric(float64(1_000_000)*float64(b.N)/probeCPU.Seconds(), "probe-phase-cpu-rows/s")
	b.ReportMetric(float64(n), "output-rows")
}

// BenchmarkSort10M sorts 10M int64 values.
func BenchmarkSort10M(b *testing.B) {
	s, bs := benchBatches(10_000_000, 1<<62, true, 4)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &Sort{Input: benchSource(s, bs), Keys: []SortKey{{Column: 0}}}
		if n := drainCount(b, op); n != 10_000_000 {
			b.Fatal(n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(10_000_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkTop100Of10M: ORDER BY k LIMIT 100 over 10M int64 rows.
func BenchmarkTop100Of10M(b *testing.B) {
	s, bs := benchBatches(10_000_000, 1<<62, true, 5)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &TopN{Input: benchSource(s, bs), Keys: []SortKey{{Column: 0}}, N: 100}
		if n := drainCount(b, op); n != 100 {
			b.Fatal(n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(10_000_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAggregate100kGroups: 1M rows into 100k groups (W7's
// pre-aggregation of events by user_id below the join).
func BenchmarkAggregate100kGroups(b *testing.B) { benchAgg(b, 1_000_000, 100_000) }

// BenchmarkAggregateNoGroups: SELECT count(*), sum(k), sum(v) FROM 10M rows
// (W4's shape: one group; sum(int) is bigint, sum(bigint) numeric).
func BenchmarkAggregateNoGroups(b *testing.B) {
	schema, bs := benchBatches(10_000_000, 100, false, 1)
	aggs := []AggSpec{agg("count", -1), agg("sum", 0), agg("sum", 1)}
	out := outSchema(b, []types.T{types.Int32Type, types.Int64Type}, nil, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, bs), Aggs: aggs, Out: out}
		if n := drainCount(b, op); n != 1 {
			b.Fatalf("%d rows", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(10_000_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAggregateFloat100Groups: SELECT k, count(*), sum(f) FROM 10M rows
// GROUP BY k, f double precision (W5's shape: sum(amount) by qty).
func BenchmarkAggregateFloat100Groups(b *testing.B) {
	_, bs := benchBatches(10_000_000, 100, false, 1)
	schema := schemaOf(types.Int32Type, types.Float64Type)
	fs := make([]arrow.RecordBatch, len(bs))
	for i, r := range bs {
		fb := array.NewFloat64Builder(memory.DefaultAllocator)
		for _, v := range r.Column(1).(*array.Int64).Int64Values() {
			fb.Append(float64(v) / 4)
		}
		f := fb.NewArray()
		fb.Release()
		fs[i] = array.NewRecordBatch(schema, []arrow.Array{r.Column(0), f}, r.NumRows())
		f.Release()
		r.Release()
	}
	aggs := []AggSpec{agg("count", -1), agg("sum", 1)}
	out := outSchema(b, []types.T{types.Int32Type, types.Float64Type}, []int{0}, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, fs), GroupBy: []int{0}, Aggs: aggs, Out: out}
		if n := drainCount(b, op); n != 100 {
			b.Fatalf("%d groups", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(10_000_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAggregateMin100Groups: SELECT k, min(v), max(v) FROM 10M rows
// GROUP BY k (W5's min(ts) is the same loop over timestamps).
func BenchmarkAggregateMin100Groups(b *testing.B) {
	schema, bs := benchBatches(10_000_000, 100, false, 1)
	aggs := []AggSpec{agg("min", 1), agg("max", 1)}
	out := outSchema(b, []types.T{types.Int32Type, types.Int64Type}, []int{0}, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, bs), GroupBy: []int{0}, Aggs: aggs, Out: out}
		if n := drainCount(b, op); n != 100 {
			b.Fatalf("%d groups", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(10_000_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkAggregateDistinct1k: SELECT k, count(DISTINCT v), sum(DISTINCT
// v), array_agg(DISTINCT v) FROM 200k rows GROUP BY k (1000 groups,
// integer values in [0, 1000)): the DISTINCT aggregates over integers,
// whose equal values print alike, so they keep the first of each as they
// meet it.
func BenchmarkAggregateDistinct1k(b *testing.B) {
	schema, bs := benchBatches(200_000, 1000, false, 1)
	dist := func(fn string) AggSpec {
		a := agg(fn, 1)
		a.Distinct = true
		if fn == "array_agg" {
			a.OrderBy = []SortKeySpec{{Column: 1}}
		}
		return a
	}
	aggs := []AggSpec{dist("count"), dist("sum"), dist("array_agg")}
	out := outSchema(b, []types.T{types.Int32Type, types.Int64Type}, []int{0}, aggs)
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		op := &HashAggregate{Input: benchSource(schema, bs), GroupBy: []int{0}, Aggs: aggs, Out: out}
		if n := drainCount(b, op); n != 1000 {
			b.Fatalf("%d groups", n)
		}
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(200_000)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
