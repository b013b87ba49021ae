package engine_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkAnalytic runs bench/'s W4 and W7 statements through the engine
// in process (no wire): the statement's whole plan as the server runs it
// (the columnar image's split scan, the filter or join, the parallel
// partial aggregations and their merge) over an events table of
// SQLGATE_BENCH_ROWS rows (default 1M) shaped as bench/'s: user_id uniform
// in 1..100000 (W4's filter keeps half), qty 1..50, amount with 1% NULLs,
// and W7's 100k users. It waits for the image before timing, as bench/
// does. Besides ms/op it reports the process's CPU per input row, which a
// shared machine disturbs less; `-cpuprofile` profiles the plan.
func BenchmarkAnalytic(b *testing.B) {
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
		"CREATE TABLE events (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))",
		"CREATE TABLE users (user_id INT PRIMARY KEY, country VARCHAR, tier INT)",
		// a multiplicative hash's high bits: user ids in no order
		fmt.Sprintf(`INSERT INTO events SELECT g, ((g * 2654435761) / 65536 %% 100000)::int + 1,
			CASE WHEN g %% 100 = 7 THEN NULL ELSE ((g * 48271) %% 1000000)::double precision / 100 END,
			((g * 40503) / 4096 %% 50)::int + 1, 'n' || g, TIMESTAMP '2024-01-01' + g * INTERVAL '1 second'
			FROM generate_series(1::bigint, %d) AS g`, rows),
		`INSERT INTO users SELECT g, chr(65 + g % 20) || chr(65 + g % 7), g % 3 FROM generate_series(1, 100000) AS g`,
	} {
		if err := runQuery(ctx, s, q, nil); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	b.Logf("loaded %d events in %v", rows, time.Since(start))
	for _, w := range []struct{ name, sql string }{
		{"W4", `SELECT count(*), sum(qty), avg(amount) FROM events WHERE user_id < 50000`},
		{"W7", `SELECT u.country, count(*), sum(e.qty), avg(e.amount) FROM events e JOIN users u ON e.user_id = u.user_id GROUP BY u.country ORDER BY u.country`},
	} {
		waitImage(b, ctx, s, w.sql)
		b.Run(w.name, func(b *testing.B) {
			st, err := s.Prepare(ctx, w.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cpuNow()
			b.ResetTimer()
			for range b.N {
				if err := runStatement(ctx, st[0], nil, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuNow()-cpu0).Nanoseconds())/float64(b.N)/float64(rows), "cpu-ns/row")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
		})
	}
}

// waitImage runs EXPLAIN ANALYZE of sql until no scan of it reads the row
// store (the image is built in the background from the first full scan).
func waitImage(b *testing.B, ctx context.Context, s pgwire.Session, sql string) {
	start := time.Now()
	for {
		var plan strings.Builder
		if err := runQuery(ctx, s, "EXPLAIN ANALYZE "+sql, &plan); err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(plan.String(), `"row store"`) {
			b.Logf("image ready after %v:\n%s", time.Since(start), plan.String())
			return
		}
		if time.Since(start) > 5*time.Minute {
			b.Fatalf("still on the row store after %v:\n%s", time.Since(start), plan.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// runQuery prepares and runs one statement, writing its text column's
// values into out when set.
func runQuery(ctx context.Context, s pgwire.Session, sql string, out *strings.Builder) error {
	st, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		return err
	}
	return runStatement(ctx, st[0], nil, out)
}

// runStatement executes a prepared statement with params and drains its
// result, writing its text column's values into out when set.
func runStatement(ctx context.Context, st pgwire.Statement, params []any, out *strings.Builder) error {
	res, err := st.Execute(ctx, params)
	if err != nil {
		return err
	}
	defer res.Close()
	for {
		rec, err := res.Next(ctx)
		if err != nil || rec == nil {
			return err
		}
		if out != nil && rec.NumCols() > 0 {
			if c, ok := rec.Column(0).(*array.String); ok {
				for i := range c.Len() {
					out.WriteString(c.Value(i))
					out.WriteByte('\n')
				}
			}
		}
		rec.Release()
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
