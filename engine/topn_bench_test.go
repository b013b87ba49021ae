package engine_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkOrderByLimit runs the ORDER BY ... LIMIT shapes that ORMs, BI
// tools and keyset pagination send over a primary-key table of
// SQLGATE_BENCH_ROWS rows (default 1M), read from its columnar image (it
// waits for the image, as bench/ does): the LIMIT written in the text, and
// the LIMIT as a parameter ($1), which before lower's runtime top-N sorted
// every row. bench/LEDGER.md has the results.
func BenchmarkOrderByLimit(b *testing.B) {
	rows := 1_000_000
	if v := os.Getenv("SQLGATE_BENCH_ROWS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100_000 {
			b.Fatalf("SQLGATE_BENCH_ROWS=%q: want a number >= 100000", v)
		}
		rows = n
	}
	ctx := context.Background()
	store, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s, err := engine.New(store, engine.Options{}).NewSession(ctx, pgwire.SessionInfo{User: "u"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	for _, q := range []string{
		"CREATE TABLE t (id BIGINT PRIMARY KEY, x INT, s VARCHAR)",
		// x: a permutation of the ids, in no order
		fmt.Sprintf(`INSERT INTO t SELECT g, ((g * 7919) %% 1000003)::int, 'v' || g FROM generate_series(1::bigint, %d) AS g`, rows),
	} {
		if err := runQuery(ctx, s, q, nil); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	b.Logf("loaded %d rows in %v", rows, time.Since(start))
	waitImage(b, ctx, s, "SELECT id, x, s FROM t")
	for _, w := range []struct {
		name, sql string
		params    []any
	}{
		{"pk_literal", `SELECT id, x, s FROM t ORDER BY id LIMIT 10`, nil},
		{"pk_param", `SELECT id, x, s FROM t ORDER BY id LIMIT $1`, []any{int64(10)}},
		{"keyset_param", `SELECT id, x, s FROM t WHERE id > $1 ORDER BY id LIMIT $2`, []any{int64(rows / 2), int64(100)}},
		{"x_param_offset", `SELECT id, x, s FROM t ORDER BY x DESC LIMIT $1 OFFSET $2`, []any{int64(10), int64(20)}},
	} {
		b.Run(w.name, func(b *testing.B) {
			st, err := s.Prepare(ctx, w.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuNow()
			b.ResetTimer()
			for range b.N {
				if err := runStatement(ctx, st[0], w.params, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// the process's CPU per statement, which a shared machine
			// disturbs less than the wall time
			b.ReportMetric(float64((cpuNow()-cpu0).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
		})
	}
}
