package lower

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// TestParallelAggregation: aggregations over a table above parallelMinRows
// give the serial plan's rows (inside a transaction's runtime, which is
// never parallel) when split over the row store's buckets and over the
// columnar image, with NULLs, empty inputs and groups; over joins too,
// where the join distributes over the split (and never where it does not).
func TestParallelAggregation(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	ctx := context.Background()
	s := openStore(t)
	rows := parallelMinRows + 50_000
	f := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "f"}
	a := types.Int64Type
	a.NotNull = true
	info, err := s.CreateTable(ctx, f, fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "a", Type: a}, {Name: "b", Type: types.Int64Type}, {Name: "d", Type: types.Float64Type}, {Name: "c", Type: types.StringType}},
		PrimaryKey: []string{"a"}}, BucketCount: 4}, false)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
	for i := range rows {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%11 == 0 {
			bld.Field(1).(*array.Int64Builder).AppendNull()
			bld.Field(2).(*array.Float64Builder).AppendNull()
			bld.Field(3).(*array.StringBuilder).AppendNull()
			continue
		}
		bld.Field(1).(*array.Int64Builder).Append(int64(i * 7 % 1000))
		bld.Field(2).(*array.Float64Builder).Append(float64(i%400) / 4) // exact in any order of addition
		bld.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i%97))
	}
	rec := bld.NewRecordBatch()
	bld.Release()
	tb, err := s.Table(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	s.create(t, "dim", true, [][3]any{{int64(0), int64(1), "zero"}, {int64(1), nil, "one"}, {int64(2), int64(3), "two"}, {int64(3), int64(3), nil}})

	queries := []string{
		"SELECT count(*), sum(b), avg(d), min(c), max(d), count(c) FROM f WHERE b % 3 = 1",
		"SELECT b % 7, count(*), count(c), sum(d), avg(d), min(a), max(c) FROM f GROUP BY b % 7 ORDER BY 1",
		"SELECT count(*), sum(b), avg(d), max(c) FROM f WHERE a < 0",
		"SELECT c, count(*) FROM f WHERE a < 0 GROUP BY c",
		"SELECT avg(d) FROM f WHERE d IS NULL",
	}
	run := func(q string, untransacted bool) ([]string, string) {
		t.Helper()
		out, _, metrics := runMetered(t, s, q, untransacted)
		for _, m := range metrics {
			if m.Workers > 1 {
				return out, m.ScanPath
			}
		}
		return out, ""
	}
	seen := map[string]bool{}
	for deadline := time.Now().Add(20 * time.Second); len(seen) < 2 && time.Now().Before(deadline); {
		for _, q := range queries {
			got, path := run(q, true) // first: the first round reads the row store
			want, serial := run(q, false)
			if serial != "" {
				t.Fatalf("%s: parallel inside a transaction", q)
			}
			if path == "" {
				t.Fatalf("%s: not parallel", q)
			}
			seen[path] = true
			if !strings.Contains(q, "ORDER BY") {
				slices.Sort(want)
				slices.Sort(got)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s (%s):\n got %v\nwant %v", q, path, got, want)
			}
		}
		time.Sleep(50 * time.Millisecond) // the image is built in the background
	}
	if !seen["row store"] || !seen["columnar image"] {
		t.Fatalf("paths seen: %v (want the row store's and the image's)", seen)
	}
	// Joins: the split table's parts each join the other side, read once;
	// only where the join distributes over the split (not the nullable
	// side of an outer join, nor either side of a full one).
	const must, may, never = 1, 0, -1
	for _, c := range []struct {
		q        string
		parallel int
	}{
		{"SELECT dim.c, count(*), sum(f.b), avg(f.d) FROM f JOIN dim ON f.b % 4 = dim.a GROUP BY dim.c ORDER BY 1", must},
		// W7's shape: the other side joined on its primary key.
		{"SELECT dim.c, count(*), sum(f.b), avg(f.d) FROM f JOIN dim ON f.b = dim.a GROUP BY dim.c ORDER BY 1", must},
		{"SELECT dim.c, count(*), count(dim.a), sum(f.b) FROM f LEFT JOIN dim ON f.b % 5 = dim.a GROUP BY dim.c ORDER BY 1", must},
		{"SELECT dim.c, count(*), sum(f.b) FROM dim RIGHT JOIN f ON f.b % 5 = dim.a GROUP BY dim.c ORDER BY 1", must},
		{"SELECT count(*), sum(f.b), max(d2.c) FROM f JOIN dim ON f.b % 4 = dim.a JOIN dim d2 ON dim.b = d2.a WHERE f.a % 3 = 0", must},
		{"SELECT dim.c, count(*), count(f.b) FROM dim LEFT JOIN f ON f.b % 4 = dim.a GROUP BY dim.c ORDER BY 1", never},
		{"SELECT dim.c, count(*), sum(f.b) FROM f FULL JOIN dim ON f.b % 5 = dim.a GROUP BY dim.c ORDER BY 1", never},
		{"SELECT count(*), sum(b) FROM f WHERE EXISTS (SELECT 1 FROM dim WHERE dim.a = f.b % 6)", may},
		{"SELECT count(*), sum(b) FROM f WHERE NOT EXISTS (SELECT 1 FROM dim WHERE dim.a = f.b % 6)", may},
		{"SELECT count(*), sum(b) FROM f WHERE b % 6 NOT IN (SELECT a FROM dim)", may},
	} {
		got, path := run(c.q, true)
		want, _ := run(c.q, false)
		if !strings.Contains(c.q, "ORDER BY") {
			slices.Sort(want)
			slices.Sort(got)
		}
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Fatalf("%s (%q):\n got %v\nwant %v", c.q, path, got, want)
		}
		switch {
		case c.parallel == must && path == "":
			t.Fatalf("%s: not parallel", c.q)
		case c.parallel == never && path != "":
			t.Fatalf("%s: parallel (%s), yet the join does not distribute over a split of f", c.q, path)
		}
		t.Logf("%s: path %q", c.q, path)
	}
}

// TestExplainAnalyzeScanPath: EXPLAIN ANALYZE's scan line names the path
// the store took and the workers.
func TestExplainAnalyzeScanPath(t *testing.T) {
	s := openStore(t)
	s.create(t, "k", true, [][3]any{{int64(1), int64(2), "x"}, {int64(2), nil, nil}})
	_, root, metrics := runMetered(t, s, "SELECT b FROM k", true)
	for _, m := range metrics {
		m.Finish()
	}
	lines := Explain(root, metrics)
	if !strings.Contains(strings.Join(lines, "\n"), `(scan path="row store" workers=1)`) {
		t.Fatalf("no scan path in\n%s", strings.Join(lines, "\n"))
	}
}

// runMetered plans and runs q as EXPLAIN ANALYZE does (every node
// metered), in a transaction's runtime or not, returning its rows as text.
func runMetered(t *testing.T, s store, q string, untransacted bool) ([]string, Node, map[Node]*exec.Metrics) {
	t.Helper()
	ctx := context.Background()
	stmts, err := sql.NewParser().Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(ctx, s.Store, stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := PlanWith(st.(*binder.Query).Plan, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator},
		Untransacted: untransacted, Metrics: map[Node]*exec.Metrics{}}
	rt.EC.Env = rt
	op, err := Build(rt, root)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer op.Close()
	var out []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if b == nil {
			return out, root, rt.Metrics
		}
		out = append(out, rowsText(b)...)
		b.Release()
	}
}
