package embedded

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// The storage targets of issue 3 (acceptance 4), measured on 10M-row tables
// of six columns that BenchmarkStore10M builds once for all its
// sub-benchmarks (SQLGATE_BENCH_ROWS overrides the row count for a quick
// profile). bench/LEDGER.md records the figures; they are targets, never
// assertions.

// sixColDesc is the benchmarks' six-column table: id, a, b, c bigint, d int, s string.
func sixColDesc(pk bool, buckets int) fluss.TableDescriptor {
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: types.Int64Type}, {Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.Int64Type},
		{Name: "c", Type: types.Int64Type}, {Name: "d", Type: types.Int32Type}, {Name: "s", Type: types.StringType},
	}}, BucketCount: buckets}
	if pk {
		d.Schema.PrimaryKey = []string{"id"}
	}
	return d
}

// sixColRecord is n rows of sixColDesc with ids first, first+1, ...
func sixColRecord(s *arrow.Schema, first int64, n int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer rb.Release()
	for _, f := range rb.Fields() {
		f.Reserve(n)
	}
	names := [...]string{"alpha", "bravo-charlie", "delta", "echo-foxtrot-golf", "hotel", "india-juliet"}
	id, a, bb, c := rb.Field(0).(*array.Int64Builder), rb.Field(1).(*array.Int64Builder), rb.Field(2).(*array.Int64Builder), rb.Field(3).(*array.Int64Builder)
	d, str := rb.Field(4).(*array.Int32Builder), rb.Field(5).(*array.StringBuilder)
	for i := first; i < first+int64(n); i++ {
		id.Append(i)
		a.Append(i % 1000)
		bb.Append(i * 7 % 1001)
		c.Append(i % 2777)
		d.Append(int32(i % 100)) // 100 groups (aggregate benchmarks)
		str.Append(names[i%int64(len(names))])
	}
	return rb.NewRecordBatch()
}

func benchRows(b *testing.B) int {
	if v := os.Getenv("SQLGATE_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 10_000 {
			b.Fatalf("SQLGATE_BENCH_ROWS=%q: want a number >= 10000", v)
		}
		return n
	}
	return 10_000_000
}

// BenchmarkLog10M builds a 10M-row log table (appends of 10k rows, stored
// as batches of 10k rows in one bucket, as a sticky writer leaves them)
// once, then measures projected scans and the scan's memory; append-1M-10k
// measures durable appends into a fresh table.
func BenchmarkLog10M(b *testing.B) {
	ctx := context.Background()
	rows := benchRows(b)
	s := openStore(b, b.TempDir())
	defer s.Close()
	logT := createTable(b, s, "log", sixColDesc(false, 4))
	schema := logT.Info().ArrowSchema()
	start := time.Now()
	for first := 0; first < rows; first += 10_000 {
		rec := sixColRecord(schema, int64(first), min(10_000, rows-first))
		if _, err := logT.Append(ctx, rec); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.Logf("log table: %d rows in %v", rows, time.Since(start))
	b.Run("scan-2of6", func(b *testing.B) { benchScan(b, logT, []int{1, 2}, rows) })
	b.Run("scan-6of6", func(b *testing.B) { benchScan(b, logT, nil, rows) })
	b.Run("scan-mem", func(b *testing.B) { benchScanMemory(b, logT, rows) })
	tables := 0
	b.Run("append-1M-10k", func(b *testing.B) {
		recs := make([]arrow.RecordBatch, 100)
		for j := range recs {
			recs[j] = sixColRecord(schema, int64(j)*10_000, 10_000)
		}
		defer func() {
			for _, r := range recs {
				r.Release()
			}
		}()
		var rates []float64
		for i := 0; i < b.N; i++ {
			tables++
			tb := createTable(b, s, fmt.Sprintf("append%d", tables), sixColDesc(false, 4))
			t0 := time.Now()
			for _, rec := range recs {
				if _, err := tb.Append(ctx, rec); err != nil {
					b.Fatal(err)
				}
			}
			rates = append(rates, 1e6/time.Since(t0).Seconds())
		}
		reportRates(b, rates, "rows/s")
	})
}

// BenchmarkPK10M builds a 10M-row primary-key table (4 buckets, loaded in
// 1M-row upserts, which the store ingests as sstables) once, then measures
// projected scans of its state, point lookups and upserts of 10k rows.
func BenchmarkPK10M(b *testing.B) {
	ctx := context.Background()
	rows := benchRows(b)
	s := openStore(b, b.TempDir())
	defer s.Close()
	pkT := createTable(b, s, "pk", sixColDesc(true, 4))
	schema := pkT.Info().ArrowSchema()
	start := time.Now()
	for first := 0; first < rows; first += 1_000_000 {
		rec := sixColRecord(schema, int64(first), min(1_000_000, rows-first))
		if _, err := pkT.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			b.Fatal(err)
		}
		rec.Release()
	}
	b.Logf("pk table: %d rows in %v", rows, time.Since(start))
	// Lookups are measured on the settled state: the store compacts a
	// bulk-loaded table's ingested sstables to one level in the background
	// (settle.go), which the write's acknowledgement does not wait for.
	start = time.Now()
	s.settle.wait()
	b.Logf("pk table settled in %v more", time.Since(start))
	// The row store's scan, then the columnar image's (columnar.go), on
	// one core and split over GOMAXPROCS workers.
	s.opts.ColumnarMinRows = -1
	b.Run("scan-2of6", func(b *testing.B) { benchScan(b, pkT, []int{1, 2}, rows) })
	s.opts.ColumnarMinRows = 0
	start = time.Now()
	if r, err := pkT.Scan(ctx, fluss.ScanOptions{Projection: []int{1, 2}}); err == nil {
		r.Close() // asks for the image
	}
	s.colWG.Wait()
	b.Logf("columnar image of 2 columns built in %v", time.Since(start))
	b.Run("scan-2of6-columnar", func(b *testing.B) { benchScan(b, pkT, []int{1, 2}, rows) })
	b.Run("scan-2of6-columnar-split", func(b *testing.B) { benchSplitScan(b, pkT, []int{1, 2}, rows) })
	s.opts.ColumnarMinRows = -1
	b.Run("scan-2of6-split", func(b *testing.B) { benchSplitScan(b, pkT, []int{1, 2}, rows) })
	// SUM/COUNT of a bigint by an int32 of 100 groups (issue 27,
	// acceptance 4): the row store's scan on one core and split, then the
	// image's (d added to it first).
	b.Run("agg-100groups", func(b *testing.B) { benchAggregate(b, pkT, rows, false) })
	b.Run("agg-100groups-split", func(b *testing.B) { benchAggregate(b, pkT, rows, true) })
	s.opts.ColumnarMinRows = 0
	start = time.Now()
	if r, err := pkT.Scan(ctx, fluss.ScanOptions{Projection: []int{4, 1}}); err == nil {
		r.Close() // asks for the image's missing column d
	}
	s.colWG.Wait()
	b.Logf("column d added to the columnar image in %v", time.Since(start))
	b.Run("agg-100groups-columnar", func(b *testing.B) { benchAggregate(b, pkT, rows, false) })
	b.Run("agg-100groups-columnar-split", func(b *testing.B) { benchAggregate(b, pkT, rows, true) })
	b.Run("lookup", func(b *testing.B) { benchLookup(b, pkT, rows, false) })
	b.Run("lookup-row", func(b *testing.B) { benchLookup(b, pkT, rows, true) })
	s.iters.mu.Lock()
	b.Logf("point lookups: %d key regions (itercache.go)", len(s.iters.bounds)+1)
	s.iters.mu.Unlock()
	tables := 0
	for _, replace := range []bool{false, true} {
		name := map[bool]string{false: "upsert-new-10k", true: "upsert-replace-10k"}[replace]
		b.Run(name, func(b *testing.B) {
			// 10 upserts of 10k rows: new keys into a fresh table, or
			// existing keys spread over the 10M-row table.
			recs := make([]arrow.RecordBatch, 10)
			for j := range recs {
				first := int64(j) * 10_000
				if replace {
					first = int64(j) * int64(rows/len(recs))
				}
				recs[j] = sixColRecord(schema, first, 10_000)
			}
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			var rates []float64
			for i := 0; i < b.N; i++ {
				tb := pkT
				if !replace {
					tables++
					tb = createTable(b, s, fmt.Sprintf("upsert%d", tables), sixColDesc(true, 4))
				}
				t0 := time.Now()
				for _, rec := range recs {
					if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
						b.Fatal(err)
					}
				}
				rates = append(rates, float64(len(recs)*10_000)/time.Since(t0).Seconds())
			}
			reportRates(b, rates, "rows/s")
		})
	}
}

// reportRates reports the best and the median of per-iteration rates.
func reportRates(b *testing.B, rates []float64, unit string) {
	slices.Sort(rates)
	b.ReportMetric(rates[len(rates)-1], "best-"+unit)
	b.ReportMetric(rates[(len(rates)-1)/2], "median-"+unit)
}

// benchScan reads the whole table projected to proj per iteration and
// reports values/s (best and median over the iterations) and rows/s.
func benchScan(b *testing.B, tb fluss.Table, proj []int, rows int) {
	ctx := context.Background()
	var rates []float64
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: proj})
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		var sum int64
		for {
			rec, err := r.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				break
			}
			n += rec.NumRows()
			// Read every bigint value, as a consumer does: a scan whose
			// arrays point into a mapping of the log reads its pages only
			// when they are touched.
			for _, col := range rec.Columns() {
				if a, ok := col.(*array.Int64); ok {
					for _, v := range a.Int64Values() {
						sum += v
					}
				}
			}
			rec.Release()
		}
		r.Close()
		cols := len(proj)
		if proj == nil {
			cols = len(tb.Info().Descriptor.Schema.Columns)
		}
		rates = append(rates, float64(rows*cols)/time.Since(t0).Seconds())
		if n != int64(rows) {
			b.Fatalf("%d rows, want %d", n, rows)
		}
		_ = sum
	}
	reportRates(b, rates, "values/s")
	// Process CPU (every goroutine, the collector's included) per row: on
	// a shared machine a steadier figure than the wall clock.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(rows), "cpu-ns/row")
}

// benchSplitScan is benchScan with the scan split over GOMAXPROCS workers
// (SplitScan), each summing its part's values.
func benchSplitScan(b *testing.B, tb fluss.Table, proj []int, rows int) {
	ctx := context.Background()
	var rates []float64
	cpu0 := cpuTime()
	workers := runtime.GOMAXPROCS(0)
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{Projection: proj}, workers)
		if err != nil || rs == nil {
			b.Fatalf("SplitScan: %d readers, %v", len(rs), err)
		}
		counts := make([]int64, len(rs))
		var wg sync.WaitGroup
		for w, r := range rs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer r.Close()
				var sum int64
				for {
					rec, err := r.Next(ctx)
					if err != nil || rec == nil {
						break
					}
					counts[w] += rec.NumRows()
					for _, col := range rec.Columns() {
						if a, ok := col.(*array.Int64); ok {
							for _, v := range a.Int64Values() {
								sum += v
							}
						}
					}
					rec.Release()
				}
				_ = sum
			}()
		}
		wg.Wait()
		var n int64
		for _, c := range counts {
			n += c
		}
		if n != int64(rows) {
			b.Fatalf("%d rows, want %d", n, rows)
		}
		rates = append(rates, float64(rows*len(proj))/time.Since(t0).Seconds())
	}
	reportRates(b, rates, "values/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(rows), "cpu-ns/row")
}

// benchAggregate runs SELECT d, sum(a), count(*) GROUP BY d (d int32, 100
// groups; a bigint) over the whole table per iteration with relop's hash
// aggregation, as the engine does: over one scan, or (split) as
// GOMAXPROCS partial aggregations over the parts of a split scan and a
// merge of their 100 groups. It reports rows/s (best and median).
func benchAggregate(b *testing.B, tb fluss.Table, rows int, split bool) {
	ctx := context.Background()
	proj := []int{4, 1}
	in := []types.T{types.Int32Type, types.Int64Type}
	aggs := []relop.AggSpec{{Func: "sum", Arg: 1, Filter: -1, Sep: -1}, {Func: "count", Arg: -1, Filter: -1, Sep: -1}}
	outTypes := []types.T{types.Int32Type}
	for _, a := range aggs {
		var arg types.T
		if a.Arg >= 0 {
			arg = in[a.Arg]
		}
		rt, err := relop.AggResultType(a.Func, arg)
		if err != nil {
			b.Fatal(err)
		}
		outTypes = append(outTypes, rt)
	}
	inSchema := exec.SchemaOf([]string{"d", "a"}, in)
	out := exec.SchemaOf([]string{"d", "sum", "count"}, outTypes)
	// aggregate drains one aggregation over r and returns its rows'
	// counts per group.
	aggregate := func(r fluss.RecordReader) (map[int32]int64, error) {
		op := &relop.HashAggregate{Input: exec.NewTableScanOf(tb, r, inSchema), GroupBy: []int{0}, Aggs: aggs, Out: out}
		defer op.Close()
		counts := map[int32]int64{}
		for {
			rec, err := op.Next(ctx)
			if err != nil || rec == nil {
				return counts, err
			}
			g, c := rec.Column(0).(*array.Int32), rec.Column(2).(*array.Int64)
			for i := range int(rec.NumRows()) {
				counts[g.Value(i)] += c.Value(i)
			}
			rec.Release()
		}
	}
	var rates []float64
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		var readers []fluss.RecordReader
		if split {
			rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{Projection: proj}, runtime.GOMAXPROCS(0))
			if err != nil || rs == nil {
				b.Fatalf("SplitScan: %d readers, %v", len(rs), err)
			}
			readers = rs
		} else {
			r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: proj})
			if err != nil {
				b.Fatal(err)
			}
			readers = []fluss.RecordReader{r}
		}
		parts := make([]map[int32]int64, len(readers))
		errs := make([]error, len(readers))
		var wg sync.WaitGroup
		for w, r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				parts[w], errs[w] = aggregate(r)
			}()
		}
		wg.Wait()
		total := map[int32]int64{} // the final merge of the partials
		var n int64
		for w, p := range parts {
			if errs[w] != nil {
				b.Fatal(errs[w])
			}
			for g, c := range p {
				total[g] += c
				n += c
			}
		}
		if len(total) != 100 || n != int64(rows) {
			b.Fatalf("%d groups, %d rows; want 100 and %d", len(total), n, rows)
		}
		rates = append(rates, float64(rows)/time.Since(t0).Seconds())
	}
	reportRates(b, rates, "rows/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(rows), "cpu-ns/row")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchScanMemory reports the peak heap in use while a consumer reads the
// log table (releasing each batch), above the heap before the scan.
func benchScanMemory(b *testing.B, tb fluss.Table, rows int) {
	ctx := context.Background()
	var ms runtime.MemStats
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base, peak := ms.HeapInuse, ms.HeapInuse
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{1, 2}})
		if err != nil {
			b.Fatal(err)
		}
		batches := 0
		for {
			rec, err := r.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if rec == nil {
				break
			}
			batches++
			if batches%8 == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
			rec.Release()
		}
		r.Close()
		b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(batches), "batches")
	}
}

// benchLookup looks up random keys of the primary-key table one at a time
// (as a prepared WHERE id = $1 does) and reports the latency percentiles:
// through Lookup (a one-row record per call) or, with row, through
// fluss.RowLookuper into builders the caller keeps (emptied every 1024
// rows, as a consumer building its own batches would).
func benchLookup(b *testing.B, tb fluss.Table, rows int, row bool) {
	ctx := context.Background()
	keySchema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	keys := make([]arrow.RecordBatch, 4096)
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	for i := range keys {
		kb.Append(int64(uint64(i)*2654435761) % int64(rows))
		col := kb.NewArray()
		keys[i] = array.NewRecordBatch(keySchema, []arrow.Array{col}, 1)
		col.Release()
	}
	defer func() {
		for _, k := range keys {
			k.Release()
		}
	}()
	// Each iteration is 50,000 lookups, so that -benchtime 3x still gives
	// percentiles.
	const per = 50_000
	lat := make([]time.Duration, 0, per*b.N)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, tb.Info().ArrowSchema())
	defer rb.Release()
	dst := rb.Fields()
	rl, _ := tb.(fluss.RowLookuper)
	if row && rl == nil {
		b.Fatal("the table is not a fluss.RowLookuper")
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N*per; i++ {
		if row {
			t0 := time.Now()
			ok, err := rl.LookupRow(ctx, keys[i%len(keys)], 0, dst)
			lat = append(lat, time.Since(t0))
			if err != nil || !ok {
				b.Fatalf("lookup: %v, %v", ok, err)
			}
			if i%1024 == 1023 {
				rb.NewRecordBatch().Release()
			}
			continue
		}
		t0 := time.Now()
		rec, err := tb.Lookup(ctx, keys[i%len(keys)], nil)
		lat = append(lat, time.Since(t0))
		if err != nil || rec.NumRows() != 1 {
			b.Fatalf("lookup: %v", err)
		}
		rec.Release()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(per*b.N), "cpu-ns/lookup")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
