// Command bench runs sqlgate, PostgreSQL 15 and DuckDB side by side on the
// same deterministic data set and the same query text, checks that they
// agree on every answer, and reports each workload's figure per system and
// the ratio to PostgreSQL (issue 11). `make bench` and `make bench-quick`
// run it; the figures go to stdout (a Markdown table), to
// results/<date>.json, and by hand to LEDGER.md.
//
// sqlgate runs as a child process (cmd/benchserver: server.Start plus
// profiling) with a fresh data directory; PostgreSQL is a throwaway cluster
// (internal/pgtest); DuckDB runs in this process. All on loopback. The
// client is this process for every system.
//
// It must not tune one system's query text or data for another: a workload
// a system cannot run is reported as "unsupported: <error>", never skipped.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

func main() {
	os.Exit(run())
}

func run() int {
	quick := flag.Bool("quick", false, "200k rows, short runs: about two minutes")
	rows := flag.Int64("rows", 0, "rows in events (default 10M, or 200k with --quick)")
	runs := flag.Int("runs", 0, "measured runs per figure (default 5, or 3 with --quick)")
	warmups := flag.Int("warmups", 1, "unmeasured warm-up runs per figure")
	w1Dur := flag.Duration("w1-duration", 0, "length of one W1 run (default 3s, or 1s with --quick)")
	w1Clients := flag.String("w1-clients", "1,8", "comma-separated client counts of W1 (a profile of one count alone)")
	copyRows := flag.Int64("copy-rows", 0, "rows per W8 COPY run (default min(rows, 1M), or 50k with --quick)")
	insertRows := flag.Int64("insert-rows", 0, "rows per W8 INSERT run (default 100k, or 20k with --quick)")
	insertConns := flag.Int("load-conns", 2, "connections for loading sqlgate when it has no COPY")
	workloads := flag.String("workloads", "", "comma-separated subset, e.g. W2,W5 (default all)")
	serverBin := flag.String("server-bin", "", "prebuilt cmd/benchserver (default: go build it)")
	cpuProfile := flag.String("cpuprofile", "", "write sqlgate's CPU profile over the workloads (not the load) to this file")
	memProfile := flag.String("memprofile", "", "write sqlgate's allocation profile to this file (FILE.base is taken after the load: use pprof -base)")
	mutexProfile := flag.String("mutexprofile", "", "write sqlgate's mutex contention profile over the workloads to this file")
	blockProfile := flag.String("blockprofile", "", "write sqlgate's blocking profile (where goroutines wait: channels, selects, locks) over the workloads to this file")
	resultsDir := flag.String("results", "results", "directory for the JSON report")
	noDuck := flag.Bool("no-duckdb", false, "leave DuckDB out")
	pgDurable := flag.Bool("pg-durable", false, "run PostgreSQL with fsync, synchronous_commit and full_page_writes on (as sqlgate always syncs its commits)")
	syncOff := flag.Bool("synchronous-commit-off", false, "connect to both PostgreSQL and sqlgate with synchronous_commit=off (commits acknowledged before their sync; with --pg-durable PostgreSQL keeps fsync on)")
	w10Clients := flag.String("w10-clients", "1,8,32", "comma-separated client counts of W10")
	w10Hot := flag.Bool("w10-hot", true, "also run W10 on a hot set of keys")
	w10Client := flag.String("w10-client", "pgbench", "W10's client program: pgbench (PostgreSQL's, from PGTEST_BIN_DIR) or pgx (this process)")
	importRows := flag.Int64("import-rows", 10_000_000, "rows of W11's Parquet file (importw.go)")
	flag.Parse()

	cfg := config{Rows: 10_000_000, Quick: *quick, Warmups: *warmups, Runs: 5, W1Duration: 3 * time.Second,
		InsertRows: 100_000, InsertConns: *insertConns, Workloads: map[string]bool{}}
	if *quick {
		cfg.Rows, cfg.Runs, cfg.W1Duration = 200_000, 3, time.Second
	}
	if *rows > 0 {
		cfg.Rows = *rows
	}
	if *runs > 0 {
		cfg.Runs = *runs
	}
	if *w1Dur > 0 {
		cfg.W1Duration = *w1Dur
	}
	cfg.W1Clients = clientCounts("--w1-clients", *w1Clients)
	cfg.W10Clients = clientCounts("--w10-clients", *w10Clients)
	cfg.W10Hot, cfg.PGDurable, cfg.SyncCommitOff = *w10Hot, *pgDurable, *syncOff
	if cfg.W10Client = *w10Client; cfg.W10Client != "pgbench" && cfg.W10Client != "pgx" {
		fmt.Fprintf(os.Stderr, "bench: --w10-client %q: want pgbench or pgx\n", cfg.W10Client)
		return 2
	}
	cfg.ImportRows = *importRows
	cfg.CopyRows = min(cfg.Rows, 1_000_000)
	if *quick {
		// The quick mode's two-minute budget; the row counts are in the table.
		cfg.CopyRows, cfg.InsertRows = min(cfg.Rows, 50_000), 20_000
	}
	if *insertRows > 0 {
		cfg.InsertRows = *insertRows
	}
	if *copyRows > 0 {
		cfg.CopyRows = *copyRows
	}
	for _, w := range strings.Split(*workloads, ",") {
		if w = strings.ToUpper(strings.TrimSpace(w)); w != "" {
			cfg.Workloads[w] = true
		}
	}
	for _, p := range []*string{cpuProfile, memProfile, mutexProfile, blockProfile} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bench: %v\n", err)
				return 2
			}
			*p = abs
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prof := profiles{CPU: *cpuProfile, Mem: *memProfile, Mutex: *mutexProfile, Block: *blockProfile}
	rep, err := benchmark(ctx, cfg, *serverBin, prof, !*noDuck)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: %v\n", err)
		return 1
	}
	rep.Command = "bench " + strings.Join(os.Args[1:], " ")
	printTable(os.Stdout, rep)
	path, err := writeJSON(*resultsDir, rep)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: write results: %v\n", err)
		return 1
	}
	fmt.Printf("\nJSON: %s\n", path)
	if prof.any() {
		fmt.Printf("Profiles of sqlgate's side: %s %s %s %s (go tool pprof -top FILE; for memory add -sample_index=alloc_space -base FILE.base)\n", *cpuProfile, *memProfile, *mutexProfile, *blockProfile)
	}
	if len(rep.Mismatches) > 0 {
		fmt.Fprintf(os.Stderr, "bench: %d answers disagree; see above\n", len(rep.Mismatches))
		return 3
	}
	return 0
}

// benchmark starts the systems, loads them, runs the workloads and stops
// everything it started.
func benchmark(ctx context.Context, cfg config, serverBin string, prof profiles, withDuck bool) (*report, error) {
	began := time.Now()
	rep := &report{Date: began.UTC().Format(time.RFC3339), Commit: gitCommit(), Machine: describeMachine(), Config: cfg, Loads: map[string]loadResult{},
		LoadAvgStart: loadAverage()}
	h := &harness{cfg: cfg, log: os.Stderr}

	dir, err := os.MkdirTemp("", "sqlgate-bench-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	if serverBin == "" {
		h.logf("building cmd/benchserver")
		if serverBin, err = buildServer(ctx, dir); err != nil {
			return nil, err
		}
	}
	h.logf("starting PostgreSQL 15")
	pg, err := startPostgres(ctx, dir, h.cfg.PGDurable)
	if err != nil {
		return nil, err
	}
	defer pg.Stop()
	h.logf("starting sqlgate")
	sg, err := startSqlgate(ctx, serverBin, dir, prof, os.Stderr)
	if err != nil {
		return nil, err
	}
	defer sg.stop()
	h.sqlgate = sg
	h.targets = []target{{sysPostgres, pg.ConnString(), pg.PID()}, {sysSqlgate, sg.connString(), sg.pid()}}
	if h.cfg.SyncCommitOff {
		// A startup parameter: every session of the workloads has it on
		// both systems, as SET would.
		for i := range h.targets {
			h.targets[i].connString += "&synchronous_commit=off"
		}
	}
	if withDuck {
		if h.duck, err = openDuckDB(); err != nil {
			return nil, fmt.Errorf("open duckdb: %w", err)
		}
		defer h.duck.close()
	}

	// Loading is not measured (W8 is), so the systems load concurrently.
	h.logf("loading %d rows into each system, and computing the expected checksums", cfg.Rows)
	type loaded struct {
		system string
		res    loadResult
		err    error
	}
	done := make(chan loaded, 4)
	go func() {
		r, err := loadPG(ctx, pg.ConnString(), cfg.Rows, 1)
		if err == nil {
			conn, cerr := pgx.Connect(ctx, pg.ConnString())
			if cerr == nil {
				// What any PostgreSQL user does after a bulk load.
				_, err = conn.Exec(ctx, "VACUUM ANALYZE")
				conn.Close(context.Background())
			} else {
				err = cerr
			}
		}
		done <- loaded{sysPostgres, r, err}
	}()
	go func() {
		r, err := loadPG(ctx, sg.connString(), cfg.Rows, cfg.InsertConns)
		done <- loaded{sysSqlgate, r, err}
	}()
	go func() {
		h.expectAll, h.expectProj = expectedSums(cfg.Rows)
		done <- loaded{system: "generator"}
	}()
	waiting := 3
	if h.duck != nil {
		waiting++
		go func() {
			r, err := h.duck.load(ctx, cfg.Rows)
			done <- loaded{sysDuckDB, r, err}
		}()
	}
	for range waiting {
		var l loaded
		select {
		case l = <-done:
		case <-ctx.Done():
			// Interrupted: the deferred stops end the systems, and with
			// them any load still running.
			return nil, ctx.Err()
		}
		if l.err != nil {
			return nil, fmt.Errorf("load %s: %w", l.system, l.err)
		}
		if l.system != "generator" {
			rep.Loads[l.system] = l.res
			h.logf("loaded %s in %.1fs by %s %s", l.system, l.res.Seconds, l.res.Method, l.res.Note)
		}
	}
	if prof.any() {
		if err := sg.startProfile(); err != nil {
			return nil, fmt.Errorf("start sqlgate's profile: %w", err)
		}
	}

	peakW2 := &figure{Workload: "W9 sqlgate peak RSS during W2", Metric: "RSS", Unit: "MiB", Systems: map[string]*stat{}}
	peakW5 := &figure{Workload: "W9 sqlgate peak RSS during W5", Metric: "RSS", Unit: "MiB", Systems: map[string]*stat{}}
	// Issue 27's figure: the peak over the analytic workloads together.
	peakW47 := &figure{Workload: "W9 sqlgate peak RSS during W4-W7", Metric: "RSS", Unit: "MiB", Systems: map[string]*stat{}}
	if h.enabled("W1") {
		h.runW1(ctx)
	}
	if h.enabled("W2") {
		h.runStream(ctx, "W2 SELECT * streamed", h.expectAll, streamAll, peakW2)
		h.runFlightW2(ctx) // flight.go
	}
	if h.enabled("W3") {
		h.runStream(ctx, "W3 SELECT id, amount * 2 + qty WHERE qty >= 20", h.expectProj, streamProjected, nil)
	}
	analytic := []struct{ w, name, query string }{
		{"W4", "W4 filtered aggregate", queryW4},
		{"W5", "W5 GROUP BY qty", queryW5},
		{"W6", "W6 ORDER BY amount DESC LIMIT 100", queryW6},
		{"W7", "W7 join users, GROUP BY country", queryW7},
	}
	for _, a := range analytic {
		if h.enabled(a.w) {
			peaks := []*figure{peakW47}
			if a.w == "W5" {
				peaks = append(peaks, peakW5)
			}
			h.runAnalytic(ctx, a.name, a.query, peaks...)
		}
	}
	if h.enabled("W8") {
		h.runW8(ctx)
		h.runFlightIngest(ctx) // flight.go
	}
	if h.cfg.Workloads["W10"] { // writes: only when asked for (--workloads W10)
		h.runW10(ctx)
	}
	if h.cfg.Workloads["W11"] { // a 10M-row file: only when asked for (importw.go)
		h.runW11(ctx)
	}
	if h.enabled("W2") {
		h.figures = append(h.figures, peakW2)
	}
	if h.enabled("W5") {
		h.figures = append(h.figures, peakW5)
	}
	if len(peakW47.Systems) > 0 {
		h.figures = append(h.figures, peakW47)
	}
	for _, f := range h.figures {
		f.computeRatios()
	}
	if err := sg.stop(); err != nil {
		h.logf("sqlgate stop: %v", err)
	}
	rep.Figures, rep.Mismatches = h.figures, h.mismatches
	rep.Seconds = time.Since(began).Seconds()
	rep.LoadAvgEnd = loadAverage()
	return rep, nil
}

// clientCounts parses a comma-separated list of client counts (flag name
// for the error), exiting on a bad one.
func clientCounts(name, list string) []int {
	var out []int
	for _, c := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "bench: %s %q: want client counts of at least 1\n", name, list)
			os.Exit(2)
		}
		out = append(out, n)
	}
	return out
}
