package lower

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

// BenchmarkParseBindPlan measures the whole front end for a 200-character
// SELECT: rewrite + parse (sql), bind (binder) and plan (lower). Target
// (issue "PostgreSQL-compatible SQL surface"): at most 50 µs.
func BenchmarkParseBindPlan(b *testing.B) {
	const q = `SELECT id, region, v || '!' AS tagged, n * 2 + 1 AS score FROM kv WHERE id IN (1, 2, 3, 4, 5) AND region = 'eu' AND n BETWEEN 10 AND 20 AND v LIKE 'a%' AND n <> 15 ORDER BY score DESC, id LIMIT 10 OFFSET 0`
	if len(q) < 190 || len(q) > 210 {
		b.Fatalf("query is %d characters", len(q))
	}
	cat := testCatalog()
	p := sql.NewParser()
	ctx := context.Background()
	b.ReportAllocs()
	before := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stmts, err := p.Parse(q)
		if err != nil {
			b.Fatal(err)
		}
		st, err := binder.Bind(ctx, cat, stmts[0], nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Plan(st.(*binder.Query).Plan); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// the process's CPU time per statement: on a shared machine a steadier
	// figure than the wall time
	b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchQuery is the 200-character SELECT of the front-end benchmarks.
const benchQuery = `SELECT id, region, v || '!' AS tagged, n * 2 + 1 AS score FROM kv WHERE id IN (1, 2, 3, 4, 5) AND region = 'eu' AND n BETWEEN 10 AND 20 AND v LIKE 'a%' AND n <> 15 ORDER BY score DESC, id LIMIT 10 OFFSET 0`

// BenchmarkBindPlan measures bind + plan alone on a statement parsed once:
// binding reads the syntax tree and never changes it (TestBindKeepsAST), so
// one parse serves every iteration. The front end's share outside sql/.
func BenchmarkBindPlan(b *testing.B) {
	cat := testCatalog()
	stmts, err := sql.NewParser().Parse(benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		st, err := binder.Bind(ctx, cat, stmts[0], nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Plan(st.(*binder.Query).Plan); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBind measures binding alone, and BenchmarkPlan planning alone
// (the rules and lowering of a plan bound once: the rules copy what they
// change, so the bound plan serves every iteration).
func BenchmarkBind(b *testing.B) {
	cat := testCatalog()
	stmts, err := sql.NewParser().Parse(benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := binder.Bind(ctx, cat, stmts[0], nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlan(b *testing.B) {
	stmts, err := sql.NewParser().Parse(benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		b.Fatal(err)
	}
	plan := st.(*binder.Query).Plan
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Plan(plan); err != nil {
			b.Fatal(err)
		}
	}
}
