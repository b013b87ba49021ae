// Command fluss runs issue 26's acceptance 6 benchmarks: sqlgate in front of
// a real Fluss cluster side by side with pyfluss, Fluss's own Python client,
// on the same tables in one run (run.sh starts the cluster and sqlgate):
//
//   - point lookups: a prepared SELECT by primary key through sqlgate (pgx,
//     1 and 8 connections) against pyfluss's Lookuper (1 and 8 concurrent
//     lookups) on the same primary-key table;
//   - a full scan of the same log table: SELECT * through sqlgate (every
//     value decoded by pgx) against pyfluss's Arrow scan;
//   - loading N rows: COPY through sqlgate against pyfluss's Arrow append,
//     each into a log table of its own.
//
// Every side's answer is checked (row counts and sum(id), lookups finding
// their row); a difference exits non-zero. Figures are printed as a Markdown
// table for bench/LEDGER.md; they are never asserted.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

type config struct {
	url, bootstrap, python, script, db string
	rows, keys, runs                   int
	seconds                            time.Duration
}

func main() {
	var c config
	flag.StringVar(&c.url, "url", "", "sqlgate's PostgreSQL URL")
	flag.StringVar(&c.bootstrap, "bootstrap", "", "the Fluss cluster's bootstrap HOST:PORT")
	flag.StringVar(&c.python, "python", os.ExpandEnv("$HOME/.cache/sqlgate/pyfluss-1.0.0/bin/python"), "python with pyfluss 1.0.0")
	flag.StringVar(&c.script, "script", "pyfluss_side.py", "pyfluss's side")
	flag.StringVar(&c.db, "db", "public", "Fluss database (sqlgate's schema public)")
	flag.IntVar(&c.rows, "rows", 200_000, "rows loaded and scanned")
	flag.IntVar(&c.keys, "keys", 100_000, "rows of the primary-key table looked up")
	flag.IntVar(&c.runs, "runs", 3, "measured runs of the scan (median reported)")
	flag.DurationVar(&c.seconds, "duration", 10*time.Second, "duration of each lookup measurement")
	flag.Parse()
	if err := run(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, "bench/fluss:", err)
		os.Exit(1)
	}
}

type result struct{ what, metric, sqlgate, pyfluss, ratio string }

func run(ctx context.Context, c config) error {
	conn, err := pgx.Connect(ctx, c.url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	exec := func(sql string) error {
		_, err := conn.Exec(ctx, sql)
		if err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		return nil
	}
	const cols = "(id bigint%s, name text, amount double precision, qty int)"
	for _, t := range []string{"fb_log", "fb_log_py", "fb_pk"} {
		if err := exec("DROP TABLE IF EXISTS " + t); err != nil {
			return err
		}
	}
	for t, pk := range map[string]string{"fb_log": "", "fb_log_py": "", "fb_pk": " PRIMARY KEY"} {
		if err := exec("CREATE TABLE " + t + fmt.Sprintf(cols, pk)); err != nil {
			return err
		}
	}
	var out []result
	wantSum := int64(c.rows) * int64(c.rows-1) / 2

	// Load: COPY through sqlgate, Arrow append through pyfluss.
	sgCopy, err := copyRows(ctx, conn, "fb_log", c.rows)
	if err != nil {
		return err
	}
	var py struct {
		Rows    int     `json:"rows"`
		Seconds float64 `json:"seconds"`
	}
	if err := pyfluss(ctx, c, &py, "append", "fb_log_py", c.rows); err != nil {
		return err
	}
	for _, t := range []string{"fb_log", "fb_log_py"} {
		var n, sum int64
		if err := conn.QueryRow(ctx, "SELECT count(*), sum(id) FROM "+t).Scan(&n, &sum); err != nil {
			return err
		}
		if n != int64(c.rows) || sum != wantSum {
			return fmt.Errorf("MISMATCH: %s has %d rows, sum(id) %d; want %d, %d", t, n, sum, c.rows, wantSum)
		}
	}
	out = append(out, rate(fmt.Sprintf("load %d rows into a log table (COPY vs Arrow append)", c.rows), float64(c.rows), sgCopy.Seconds(), py.Seconds))

	// Full scan of fb_log, both sides, alternating.
	var sgScan, pyScan []float64
	for i := 0; i < c.runs; i++ {
		start := time.Now()
		n, sum, err := scanRows(ctx, conn, "fb_log")
		if err != nil {
			return err
		}
		sgScan = append(sgScan, time.Since(start).Seconds())
		if n != int64(c.rows) || sum != wantSum {
			return fmt.Errorf("MISMATCH: sqlgate's scan gave %d rows, sum %d", n, sum)
		}
		var ps struct {
			Rows    int64   `json:"rows"`
			SumID   int64   `json:"sum_id"`
			Seconds float64 `json:"seconds"`
		}
		if err := pyfluss(ctx, c, &ps, "scan", "fb_log"); err != nil {
			return err
		}
		if ps.Rows != int64(c.rows) || ps.SumID != wantSum {
			return fmt.Errorf("MISMATCH: pyfluss's scan gave %d rows, sum %d", ps.Rows, ps.SumID)
		}
		pyScan = append(pyScan, ps.Seconds)
	}
	out = append(out, rate(fmt.Sprintf("full scan of %d rows (SELECT * decoded vs Arrow scan), median of %d", c.rows, c.runs),
		float64(c.rows), median(sgScan), median(pyScan)))

	// Point lookups on fb_pk.
	pkLoad, err := copyRows(ctx, conn, "fb_pk", c.keys)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "COPY of %d rows into the primary-key table: %.2fs\n", c.keys, pkLoad.Seconds())
	dQPS, dP50, err := directLookups(ctx, c)
	if err != nil {
		return err
	}
	out = append(out, result{"point lookup, sqlgate's Go client (fluss/remote) alone, 1 goroutine, no SQL", "QPS / p50 (ms)",
		fmt.Sprintf("%.0f / %.2f", dQPS, dP50), "", ""})
	tQPS, tP50, err := directTableInfo(ctx, c, c.seconds/2)
	if err != nil {
		return err
	}
	out = append(out, result{"Store.Table (GetTableInfo to the coordinator; once per statement), sqlgate's Go client alone", "calls/s / p50 (ms)",
		fmt.Sprintf("%.0f / %.2f", tQPS, tP50), "", ""})
	for _, clients := range []int{1, 8} {
		sgQPS, sgP50, err := lookups(ctx, c, clients)
		if err != nil {
			return err
		}
		var pl struct {
			Lookups, Found int64
			QPS            float64 `json:"qps"`
			P50            float64 `json:"p50_ms"`
		}
		if err := pyfluss(ctx, c, &pl, "lookup", "fb_pk", c.keys, int(c.seconds.Seconds()), clients); err != nil {
			return err
		}
		if pl.Found != pl.Lookups {
			return fmt.Errorf("MISMATCH: pyfluss found %d of %d keys", pl.Found, pl.Lookups)
		}
		out = append(out, result{fmt.Sprintf("point lookup by primary key, %d client(s)", clients), "QPS",
			fmt.Sprintf("%.0f", sgQPS), fmt.Sprintf("%.0f", pl.QPS), fmt.Sprintf("%.2fx", sgQPS/pl.QPS)},
			result{fmt.Sprintf("point lookup by primary key, %d client(s)", clients), "p50 latency (ms)",
				fmt.Sprintf("%.2f", sgP50), fmt.Sprintf("%.2f", pl.P50), fmt.Sprintf("%.2fx", pl.P50/sgP50)})
	}

	fmt.Println("| workload | metric | sqlgate | pyfluss | sqlgate / pyfluss |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range out {
		fmt.Printf("| %s | %s | %s | %s | %s |\n", r.what, r.metric, r.sqlgate, r.pyfluss, r.ratio)
	}
	return nil
}

// row is the data set: a pure function of the id (pyfluss_side.py's batch()
// makes the same rows).
func row(i int64) []any {
	return []any{i, fmt.Sprint("name-", i%1000), float64(i%10000) / 100, int32(i % 50)}
}

func copyRows(ctx context.Context, conn *pgx.Conn, table string, n int) (time.Duration, error) {
	start := time.Now()
	i := int64(0)
	got, err := conn.CopyFrom(ctx, pgx.Identifier{table}, []string{"id", "name", "amount", "qty"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if i == int64(n) {
				return nil, nil
			}
			i++
			return row(i - 1), nil
		}))
	if err == nil && got != int64(n) {
		err = fmt.Errorf("COPY into %s: %d rows, want %d", table, got, n)
	}
	return time.Since(start), err
}

func scanRows(ctx context.Context, conn *pgx.Conn, table string) (n, sum int64, err error) {
	rows, err := conn.Query(ctx, "SELECT * FROM "+table)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	var id int64
	var name string
	var amount float64
	var qty int32
	for rows.Next() {
		if err := rows.Scan(&id, &name, &amount, &qty); err != nil {
			return 0, 0, err
		}
		n++
		sum += id
	}
	return n, sum, rows.Err()
}

// lookups runs `clients` connections, each a prepared SELECT by primary key
// in a loop over the keys, for c.seconds after a warm-up; it returns QPS
// and the median latency in milliseconds.
func lookups(ctx context.Context, c config, clients int) (float64, float64, error) {
	conns := make([]*pgx.Conn, clients)
	for i := range conns {
		cn, err := pgx.Connect(ctx, c.url)
		if err != nil {
			return 0, 0, err
		}
		defer cn.Close(ctx)
		if _, err := cn.Prepare(ctx, "lk", "SELECT * FROM fb_pk WHERE id = $1"); err != nil {
			return 0, 0, err
		}
		conns[i] = cn
	}
	one := func(cn *pgx.Conn, k int64) error {
		var id int64
		var name string
		var amount float64
		var qty int32
		if err := cn.QueryRow(ctx, "lk", k).Scan(&id, &name, &amount, &qty); err != nil {
			return fmt.Errorf("lookup of %d: %w", k, err)
		}
		if id != k || name != fmt.Sprint("name-", k%1000) {
			return fmt.Errorf("MISMATCH: lookup of %d gave %d %q", k, id, name)
		}
		return nil
	}
	for k := 0; k < 200; k++ { // warm-up
		if err := one(conns[0], int64(k%c.keys)); err != nil {
			return 0, 0, err
		}
	}
	var done atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, clients)
	lat := make([][]float64, clients)
	start := time.Now()
	stop := start.Add(c.seconds)
	for w, cn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := int64(w * 7919); time.Now().Before(stop); k++ {
				t0 := time.Now()
				if err := one(cn, k%int64(c.keys)); err != nil {
					errs[w] = err
					return
				}
				lat[w] = append(lat[w], float64(time.Since(t0).Microseconds())/1000)
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	el := time.Since(start).Seconds()
	var all []float64
	for w, err := range errs {
		if err != nil {
			return 0, 0, err
		}
		all = append(all, lat[w]...)
	}
	return float64(done.Load()) / el, median(all), nil
}

func pyfluss(ctx context.Context, c config, out any, mode, table string, args ...int) error {
	argv := []string{c.script, mode, c.bootstrap, c.db, table}
	for _, a := range args {
		argv = append(argv, fmt.Sprint(a))
	}
	cmd := exec.CommandContext(ctx, c.python, argv...)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("pyfluss %s %s: %w", mode, table, err)
	}
	return json.Unmarshal(b, out)
}

func rate(what string, rows, sg, py float64) result {
	return result{what, "rows/s", fmt.Sprintf("%.0f (%.2fs)", rows/sg, sg), fmt.Sprintf("%.0f (%.2fs)", rows/py, py),
		fmt.Sprintf("%.2fx", py/sg)}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
