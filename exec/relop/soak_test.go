//go:build soak

package relop

import (
	"context"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Issue 5, acceptance 3: a GROUP BY over 100M generated rows with a
// 512 MiB memory limit finishes with peak RSS under 1 GiB. Run with
//
//	go test -tags soak -run '^$' -bench SoakGroupBy100M -benchtime 1x ./exec/relop
//
// The rows are generated batch by batch, never held. The Go heap runs at
// up to twice its live size unless the runtime has a soft limit: the
// benchmark sets it as `sqlgate serve` does, from the query memory limit
// (ApplyGoMemoryLimit; an explicit GOMEMLIMIT wins).

// genSource emits rows (k int64, v int64) with k = i*7919 mod groups (every
// key occurs rows/groups times, spread over the whole input) and v = i mod 1000.
type genSource struct {
	schema       *arrow.Schema
	rows, groups int64
	next         int64
}

func (g *genSource) Schema() *arrow.Schema { return g.schema }
func (g *genSource) Close()                {}
func (g *genSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if g.next >= g.rows {
		return nil, nil
	}
	n := min(int64(defaultBatchRows), g.rows-g.next)
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	vb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	defer vb.Release()
	kb.Reserve(int(n))
	vb.Reserve(int(n))
	for i := g.next; i < g.next+n; i++ {
		kb.UnsafeAppend(i * 7919 % g.groups)
		vb.UnsafeAppend(i % 1000)
	}
	g.next += n
	k, v := kb.NewArray(), vb.NewArray()
	defer k.Release()
	defer v.Release()
	return array.NewRecordBatch(g.schema, []arrow.Array{k, v}, n), nil
}

// vmHWM is the process's peak resident set size in bytes (Linux).
func vmHWM(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM")
	return 0
}

// BenchmarkSoakGroupBy100M: SELECT k, sum(v), count(*) FROM 100M rows
// GROUP BY k with 10M groups (about 0.8 GB of aggregate state in memory,
// so it must spill) under a 512 MiB limit.
func BenchmarkSoakGroupBy100M(b *testing.B) {
	const rows, groups = 100_000_000, 10_000_000
	const limit = 512 << 20
	schema := schemaOf(types.Int64Type, types.Int64Type)
	aggs := []AggSpec{agg("sum", 1), agg("count", -1)}
	out := outSchema(b, []types.T{types.Int64Type, types.Int64Type}, []int{0}, aggs)
	goLimit, _ := ApplyGoMemoryLimit(limit, 0, os.Getenv)
	defer debug.SetMemoryLimit(math.MaxInt64)
	b.ReportMetric(float64(goLimit)/(1<<20), "go-limit-MiB")
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		mem := NewMemoryAccount(limit)
		op := &HashAggregate{Input: &genSource{schema: schema, rows: rows, groups: groups}, GroupBy: []int{0},
			Aggs: aggs, Out: out, Mem: mem, SpillDir: b.TempDir()}
		var n, total int64
		ctx := context.Background()
		for {
			batch, err := op.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if batch == nil {
				break
			}
			n += batch.NumRows()
			cnt := batch.Column(2).(*array.Int64)
			for j := 0; j < cnt.Len(); j++ {
				total += cnt.Value(j)
			}
			batch.Release()
		}
		spilled := op.Spilled()
		op.Close()
		if n != groups || total != rows {
			b.Fatalf("%d groups, count(*) total %d", n, total)
		}
		if !spilled {
			b.Fatal("the aggregation did not spill")
		}
		b.ReportMetric(float64(mem.Peak())/(1<<20), "acct-peak-MiB")
	}
	reportCPU(b, cpu0)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.NumGC), "GCs")
	hwm := vmHWM(b)
	b.ReportMetric(float64(hwm)/(1<<20), "VmHWM-MiB")
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if hwm >= 1<<30 {
		b.Fatalf("peak RSS %d MiB, over 1 GiB", hwm>>20)
	}
}
