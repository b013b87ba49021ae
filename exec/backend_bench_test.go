package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/scalar"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/types"
)

// Native kernels against arrow-go, side by side (bench/LEDGER.md records
// the figures). Targets (issue 4): checked a*2+b over 1M rows at most
// 1.5 ns/row native and 2.5x faster than arrow-go's checked
// multiply+add; filter a >= 20 at 50% random selectivity at most 1.5
// ns/row; a 6-node expression over 10M rows from the embedded store at
// 100M rows/s or more on one core.

// int64Batch is n rows of columns a, b, c uniform in [0, 40).
func int64Batch(n int) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(1, 2))
	fields := []arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "c", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}
	arrs := make([]arrow.Array, 3)
	for i := range arrs {
		vals := make([]int64, n)
		for j := range vals {
			vals[j] = int64(rng.IntN(40))
		}
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(vals, nil)
		arrs[i] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

var (
	benchA = &ColExpr{Index: 0, Name: "a", T: types.Int64Type}
	benchB = &ColExpr{Index: 1, Name: "b", T: types.Int64Type}
	benchC = &ColExpr{Index: 2, Name: "c", T: types.Int64Type}
)

func int64Const(v int64) *ConstExpr { return &ConstExpr{Value: v, T: types.Int64Type} }

// aTimes2PlusB is a*2+b.
func aTimes2PlusB() Expr {
	return &ArithExpr{Op: Add, L: &ArithExpr{Op: Mul, L: benchA, R: int64Const(2), T: types.Int64Type}, R: benchB, T: types.Int64Type}
}

// The machine the benchmarks run on is shared: besides wall-clock ns/row
// they report the process's CPU time per row (getrusage user+system),
// which other processes' load inflates far less.
func reportPerRow(b *testing.B, rows int, cpuStart time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
	b.ReportMetric(float64((cpuTime()-cpuStart).Nanoseconds())/float64(b.N)/float64(rows), "cpu-ns/row")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// minorFaults is the process's count of page faults served without I/O.
func minorFaults() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Minflt
}

func benchEval(b *testing.B, ec *EvalContext, e Expr, rec arrow.RecordBatch) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		out, err := e.Eval(ec, rec)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	reportPerRow(b, int(rec.NumRows()), cpu0)
}

// BenchmarkCheckedA2B compares checked int64 a*2+b over 1M rows: native
// with the recycling allocator, native allocating per batch (the "before"
// of buffer pooling), and arrow-go's checked multiply then add.
func BenchmarkCheckedA2B(b *testing.B) {
	const n = 1 << 20
	rec := int64Batch(n)
	defer rec.Release()
	ctx := context.Background()
	b.Run("native", func(b *testing.B) {
		benchEval(b, &EvalContext{Ctx: ctx, Mem: NewPoolAllocator(64 << 20), Backend: BackendNative}, aTimes2PlusB(), rec)
	})
	b.Run("native-goalloc", func(b *testing.B) {
		benchEval(b, &EvalContext{Ctx: ctx, Mem: memory.NewGoAllocator(), Backend: BackendNative}, aTimes2PlusB(), rec)
	})
	b.Run("arrow-go", func(b *testing.B) {
		cctx := compute.WithAllocator(ctx, NewPoolAllocator(64<<20))
		two := compute.NewDatum(scalar.NewInt64Scalar(2))
		a, bb := compute.NewDatum(rec.Column(0)), compute.NewDatum(rec.Column(1))
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := cpuTime()
		for i := 0; i < b.N; i++ {
			m, err := compute.Multiply(cctx, compute.ArithmeticOptions{}, a, two)
			if err != nil {
				b.Fatal(err)
			}
			s, err := compute.Add(cctx, compute.ArithmeticOptions{}, m, bb)
			if err != nil {
				b.Fatal(err)
			}
			m.Release()
			s.Release()
		}
		reportPerRow(b, n, cpu0)
	})
}

// randomSelectivity makes a >= 20 keep half the rows at random.
func benchFilter(b *testing.B, backend Backend) {
	const n = 1 << 20
	rec := int64Batch(n)
	defer rec.Release()
	cols := []arrow.Array{rec.Column(0)}
	one := array.NewRecordBatch(arrow.NewSchema(rec.Schema().Fields()[:1], nil), cols, n)
	defer one.Release()
	ec := &EvalContext{Ctx: context.Background(), Mem: NewPoolAllocator(64 << 20), Backend: backend}
	cond := &CmpExpr{Op: Ge, L: benchA, R: int64Const(20)}
	in := &repeatOperator{batch: one}
	runFilterBench(b, &Filter{EC: ec, Input: in, Cond: cond}, n)
}

// runFilterBench measures f.Next over a repeating input of n rows per batch.
func runFilterBench(b *testing.B, f *Filter, n int) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		out, err := f.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	reportPerRow(b, n, cpu0)
}

// BenchmarkFilterGE20 is a >= 20 over 1M int64 rows uniform in [0, 40):
// 50% random selectivity.
func BenchmarkFilterGE20(b *testing.B) {
	b.Run("native", func(b *testing.B) { benchFilter(b, BackendNative) })
	b.Run("arrow-go", func(b *testing.B) { benchFilter(b, BackendArrow) })
}

// repeatOperator returns the same batch forever.
type repeatOperator struct{ batch arrow.RecordBatch }

func (o *repeatOperator) Schema() *arrow.Schema { return o.batch.Schema() }
func (o *repeatOperator) Close()                {}
func (o *repeatOperator) Next(context.Context) (arrow.RecordBatch, error) {
	o.batch.Retain()
	return o.batch, nil
}

// sixNodes is ((a*2 + b) - c >= 10) AND (b <> 0): six kernel nodes.
func sixNodes() Expr {
	i64 := types.Int64Type
	sum := &ArithExpr{Op: Sub, L: &ArithExpr{Op: Add, L: &ArithExpr{Op: Mul, L: benchA, R: int64Const(2), T: i64}, R: benchB, T: i64}, R: benchC, T: i64}
	return &LogicExpr{And: true, L: &CmpExpr{Op: Ge, L: sum, R: int64Const(10)}, R: &CmpExpr{Op: Ne, L: benchB, R: int64Const(0)}}
}

// BenchmarkSixNodeExprFromStore scans 10M rows (a, b, c bigint) from the
// embedded store and filters them by the six-node expression on one
// goroutine; rows/s is the scan and the expression together.
func BenchmarkSixNodeExprFromStore(b *testing.B) {
	const n = 10_000_000
	ctx := context.Background()
	st, err := embedded.Open(b.TempDir(), embedded.Options{BatchRows: 1 << 16})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	p := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.Int64Type}, {Name: "c", Type: types.Int64Type}}}, BucketCount: 1}
	if _, err := st.CreateTable(ctx, p, desc, false); err != nil {
		b.Fatal(err)
	}
	tb, err := st.Table(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	chunk := int64Batch(1 << 20)
	for written := 0; written < n; written += 1 << 20 {
		rec := chunk
		if n-written < 1<<20 {
			rec = chunk.NewSlice(0, int64(n-written))
		}
		if _, err := tb.Append(ctx, rec); err != nil {
			b.Fatal(err)
		}
		if rec != chunk {
			rec.Release()
		}
	}
	chunk.Release()
	for _, backend := range []Backend{BackendNative, BackendArrow} {
		b.Run(backend.String(), func(b *testing.B) {
			ec := &EvalContext{Ctx: ctx, Mem: NewPoolAllocator(256 << 20), Backend: backend}
			b.ReportAllocs()
			b.ResetTimer()
			cpu0, faults0 := cpuTime(), minorFaults()
			for i := 0; i < b.N; i++ {
				scan := &TableScan{Table: tb, Out: tb.Info().ArrowSchema()}
				f := &Filter{EC: ec, Input: scan, Cond: sixNodes()}
				rows := 0
				for {
					out, err := f.Next(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if out == nil {
						break
					}
					rows += int(out.NumRows())
					out.Release()
				}
				f.Close()
				if rows == 0 {
					b.Fatal("no rows")
				}
			}
			// Page faults per scan: the log's mapping lasts as long as the
			// table, so only the first scan should fault its pages in.
			b.ReportMetric(float64(minorFaults()-faults0)/float64(b.N), "faults/op")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			reportPerRow(b, n, cpu0)
		})
	}
}

// BenchmarkMulAddKernel is the fused a*2+b loop alone at batch sizes whose
// three columns fit L1/L2 (4K rows: 96 KiB), L3 (64K rows: 1.5 MiB) and
// not the share of L3 a busy machine leaves (1M rows: 24 MiB): the loop's
// compute cost against its memory traffic.
func BenchmarkMulAddKernel(b *testing.B) {
	for _, n := range []int{4 << 10, 64 << 10, 1 << 20} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			x, y, out := make([]int64, n), make([]int64, n), make([]int64, n)
			for i := range x {
				x[i], y[i] = int64(rng.IntN(40)), int64(rng.IntN(40))
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if mulConstAdd(x, y, 2, false, out) {
					b.Fatal("overflow")
				}
			}
			reportPerRow(b, n, cpu0)
		})
	}
}

// BenchmarkSixNodeKernels is BenchmarkSixNodeExprFromStore's filter over
// 64K-row in-memory batches (the store's batch size) without the scan: the
// kernels' share of that benchmark's cost per row.
func BenchmarkSixNodeKernels(b *testing.B) {
	const n = 1 << 16
	rec := int64Batch(n)
	defer rec.Release()
	for _, backend := range []Backend{BackendNative, BackendArrow} {
		b.Run(backend.String(), func(b *testing.B) {
			ec := &EvalContext{Ctx: context.Background(), Mem: NewPoolAllocator(64 << 20), Backend: backend}
			runFilterBench(b, &Filter{EC: ec, Input: &repeatOperator{batch: rec}, Cond: sixNodes()}, n)
		})
	}
}
