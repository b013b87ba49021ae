package lower

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Benchmarks of issue 7's acceptance (recorded in bench/LEDGER.md):
//
//	go test ./lower -run '^$' -bench 'ChainJoin64|InListJoin8|TopN10M|AggPushdown' -benchtime 3x -count 3

// storeStats answers Stats from the embedded store's row estimates.
type storeStats struct{ store }

func (s storeStats) EstimateRows(ctx context.Context, p fluss.TablePath) (int64, bool) {
	tb, err := s.Table(ctx, p)
	if err != nil {
		return 0, false
	}
	e, ok := tb.(fluss.RowEstimator)
	if !ok {
		return 0, false
	}
	return e.EstimateRows(), true
}

// EstimateDistinct answers DistinctStats from the store's sketches.
func (s storeStats) EstimateDistinct(ctx context.Context, p fluss.TablePath, col int) (int64, bool) {
	tb, err := s.Table(ctx, p)
	if err != nil {
		return 0, false
	}
	e, ok := tb.(fluss.DistinctEstimator)
	if !ok {
		return 0, false
	}
	return e.EstimateDistinct(col)
}

// chainTables makes n tables t0..t{n-1} of rows rows each, whose a and b
// are 0..rows-1, so that t{i}.b = t{i+1}.a matches each row once.
func chainTables(b testing.TB, s store, n, rows int) {
	for i := range n {
		r := make([][3]any, rows)
		for k := range r {
			r[k] = [3]any{int64(k), int64(k), fmt.Sprintf("k%d", k%7)}
		}
		s.createTable(b, fmt.Sprintf("t%d", i), r)
	}
}

// chainQuery joins t0..t{n-1} through t{i}.b = t{i+1}.a, the FROM list
// shuffled so that written order is no help.
func chainQuery(n int, where ...string) string {
	from := make([]string, n)
	conds := append([]string(nil), where...)
	for i := range n {
		from[i] = fmt.Sprintf("t%d", i)
		if i > 0 {
			conds = append(conds, fmt.Sprintf("t%d.b = t%d.a", i-1, i))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(n, func(i, j int) { from[i], from[j] = from[j], from[i] })
	return "SELECT * FROM " + strings.Join(from, ", ") + " WHERE " + strings.Join(conds, " AND ")
}

// runQuery is parse to last row: parse, bind, plan (with the store's
// estimates), build and drain. It returns the rows.
func runQuery(b testing.TB, s store, q string, tables Tables, mem *relop.MemoryAccount) int64 {
	return runQueryWithout(b, s, q, tables, mem, nil)
}

// runQueryWithout is runQuery with some rules disabled.
func runQueryWithout(b testing.TB, s store, q string, tables Tables, mem *relop.MemoryAccount, disabled map[string]bool) int64 {
	ctx := context.Background()
	stmts, err := sql.NewParser().Parse(q)
	if err != nil {
		b.Fatal(err)
	}
	st, err := binder.Bind(ctx, s.Store, stmts[0], nil)
	if err != nil {
		b.Fatal(err)
	}
	root, err := PlanWith(st.(*binder.Query).Plan, Options{Ctx: ctx, Stats: storeStats{s}, Disabled: disabled})
	if err != nil {
		b.Fatal(err)
	}
	rt := &Runtime{Ctx: ctx, Tables: tables, EC: &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}, Mem: mem}
	rt.EC.Env = rt
	op, err := Build(rt, root)
	if err != nil {
		b.Fatal(err)
	}
	defer op.Close()
	var n int64
	for {
		batch, err := op.Next(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if batch == nil {
			return n
		}
		n += batch.NumRows()
		batch.Release()
	}
}

// BenchmarkChainJoin64: 64 tables of 10 rows joined in a chain through
// equalities. Target: under 100 ms from parse to last row.
func BenchmarkChainJoin64(b *testing.B) {
	s := openStore(b)
	chainTables(b, s, 64, 10)
	q := chainQuery(64)
	b.ResetTimer()
	for range b.N {
		if n := runQuery(b, s, q, s.Store, nil); n != 10 {
			b.Fatalf("%d rows, want 10", n)
		}
	}
}

// BenchmarkInListJoin8: 8 tables of 1,000 rows joined in a chain, IN lists
// on two of them. Target: under 1 s.
func BenchmarkInListJoin8(b *testing.B) {
	s := openStore(b)
	chainTables(b, s, 8, 1000)
	in := make([]string, 100)
	for i := range in {
		in[i] = fmt.Sprint(i * 3)
	}
	q := chainQuery(8, "t2.a IN ("+strings.Join(in, ", ")+")", "t6.c IN ('k1', 'k2', 'k3')")
	b.ResetTimer()
	for range b.N {
		if n := runQuery(b, s, q, s.Store, nil); n == 0 {
			b.Fatal("no rows")
		}
	}
}

// BenchmarkAggPushdown: 1,000,000 orders (a = customer 0..999, b =
// amount) joined with 1,000 customers keyed by a (c = one of 10 regions),
// summed and counted by region, with and without aggregation_pushdown (the
// store's distinct counts say grouping orders by customer leaves 1,000 rows).
func BenchmarkAggPushdown(b *testing.B) {
	s := openStore(b)
	orders := make([][3]any, 1_000_000)
	for i := range orders {
		orders[i] = [3]any{int64(i % 1000), int64(i % 97), nil}
	}
	s.create(b, "orders", false, orders)
	customers := make([][3]any, 1000)
	for i := range customers {
		customers[i] = [3]any{int64(i), nil, fmt.Sprintf("region%d", i%10)}
	}
	s.create(b, "customers", true, customers)
	q := "SELECT c.c, sum(o.b), count(*) FROM orders o JOIN customers c ON o.a = c.a GROUP BY c.c"
	for _, bc := range []struct {
		name string
		off  map[string]bool
	}{{"pushed", nil}, {"not_pushed", map[string]bool{"aggregation_pushdown": true}}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				if n := runQueryWithout(b, s, q, s.Store, nil, bc.off); n != 10 {
					b.Fatalf("%d rows, want 10", n)
				}
			}
		})
	}
}

// BenchmarkTopN10M: ORDER BY x LIMIT 10 over 10,000,000 generated rows.
// Reports the rows the scan produced (each once) and the peak memory the
// query's operators held.
func BenchmarkTopN10M(b *testing.B) {
	const rows = 10_000_000
	s := openStore(b)
	s.createTable(b, "gen", nil) // for the binder: (a, b, c)
	info, err := s.GetTable(context.Background(), fluss.TablePath{Database: fluss.DefaultDatabase, Table: "gen"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		g := &genTable{info: info, rows: rows}
		mem := relop.NewMemoryAccount(0)
		if n := runQuery(b, s, "SELECT a, c FROM gen ORDER BY b LIMIT 10", genTables{g}, mem); n != 10 {
			b.Fatalf("%d rows, want 10", n)
		}
		if g.read.Load() != rows {
			b.Fatalf("the scan produced %d rows, want %d", g.read.Load(), rows)
		}
		b.ReportMetric(float64(g.read.Load()), "rows_read/op")
		b.ReportMetric(float64(mem.Peak()), "peak_bytes/op")
	}
}

// genTable is a log table of generated rows (a = i, b = a hash of i, c =
// NULL), counting the rows its scans produce.
type genTable struct {
	fluss.Table
	info fluss.TableInfo
	rows int64
	read atomic.Int64
}

func (g *genTable) Info() fluss.TableInfo { return g.info }

func (g *genTable) Scan(_ context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	proj := opts.Projection
	if proj == nil {
		proj = []int{0, 1, 2}
	}
	full := g.info.ArrowSchema()
	fields := make([]arrow.Field, len(proj))
	for i, p := range proj {
		fields[i] = full.Field(p)
	}
	return &genReader{g: g, proj: proj, schema: arrow.NewSchema(fields, nil)}, nil
}

type genReader struct {
	g      *genTable
	proj   []int
	schema *arrow.Schema
	next   int64
}

func (r *genReader) Schema() *arrow.Schema { return r.schema }
func (r *genReader) Close()                {}
func (r *genReader) Next(context.Context) (arrow.RecordBatch, error) {
	const batch = 8192
	n := min(batch, r.g.rows-r.next)
	if n <= 0 {
		return nil, nil
	}
	cols := make([]arrow.Array, len(r.proj))
	for i, p := range r.proj {
		switch p {
		case 0, 1:
			bld := array.NewInt64Builder(memory.DefaultAllocator)
			bld.Reserve(int(n))
			for k := range n {
				v := r.next + k
				if p == 1 {
					v = int64(uint64(v) * 0x9E3779B97F4A7C15 >> 1)
				}
				bld.UnsafeAppend(v)
			}
			cols[i] = bld.NewArray()
			bld.Release()
		default:
			bld := array.NewStringBuilder(memory.DefaultAllocator)
			bld.AppendNulls(int(n))
			cols[i] = bld.NewArray()
			bld.Release()
		}
	}
	r.next += n
	r.g.read.Add(n)
	out := array.NewRecordBatch(r.schema, cols, n)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// genTables opens the generated table for the executor.
type genTables struct{ g *genTable }

func (t genTables) Table(_ context.Context, p fluss.TablePath) (fluss.Table, error) {
	if p.Table != "gen" {
		return nil, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
	}
	return t.g, nil
}
