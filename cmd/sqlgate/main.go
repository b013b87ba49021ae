// Command sqlgate serves Apache Fluss tables to PostgreSQL clients.
//
//	sqlgate serve [--listen HOST:PORT] [--data DIR] [--fluss HOST:PORT[,...]]
//	sqlgate import [--url URL] [--table T] [--create] [--format F] FILE...
//	sqlgate export [--url URL] (--table T | --query Q) [--format F] FILE
//	sqlgate slt [--label NAME] [--postgres URL [--complete] | --fluss HOST:PORT[,...]] [--skips FILE] FILE...
//	sqlgate version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
	// Zone names must load on hosts without /usr/share/zoneinfo.
	_ "time/tzdata"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/pyudf"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/sqllogictest"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "slt":
		return slt(args[1:], stdout, stderr)
	case "user":
		return userCommand(args[1:], os.Stdin, stdout, stderr)
	case "import":
		return importCommand(args[1:], stdout, stderr) // transfer.go
	case "export":
		return exportCommand(args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "sqlgate %s (PostgreSQL %s protocol)\n", engine.Version, engine.ServerVersion)
		return 0
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "sqlgate: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  sqlgate serve [--listen HOST:PORT] [--data DIR]   serve the tables in DIR to PostgreSQL clients
  sqlgate serve ... --flight-listen HOST:PORT        also serve Arrow Flight SQL (README: Arrow Flight SQL)
  sqlgate serve ... --metrics-listen HOST:PORT       also serve Prometheus metrics, /healthz and /readyz (README: Operations)
  sqlgate serve ... --log-format json|text --log-min-duration-statement 250ms [--log-parameters]
                                                   structured logs and the slow-query log
  sqlgate serve --fluss HOST:PORT[,...] [--fluss-user U]
                                                   serve the tables of a Fluss cluster (README: what works)
  sqlgate slt [--label NAME] [--postgres URL [--complete]] FILE...
                                                   run sqllogictest files against a fresh in-process server per file
                                                   (or PostgreSQL; --complete rewrites their expected results from it)
  sqlgate slt --fluss HOST:PORT[,...] [--skips FILE] FILE...
                                                   the same on a Fluss cluster, each file in a Fluss database of its own;
                                                   the records FILE lists are skipped, each for its reason
  sqlgate user add|remove|list [--data DIR] NAME    manage the users file (passwords are read from stdin)
  sqlgate import [--url URL] [--table T] [--create] FILE...
                                                   load Parquet, Arrow, CSV or text files into a running server
                                                   (COPY binary, a progress bar, files already loaded skipped)
  sqlgate export [--url URL] (--table T | --query Q) FILE
                                                   write a table's or a query's rows to a Parquet, Arrow, CSV or text file
  sqlgate version                                   print the version
`)
}

func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", "127.0.0.1:5433", "address to listen on")
	data := fs.String("data", "./sqlgate-data", "data directory of the embedded store (with --fluss: of spill files, views and privileges)")
	flussAddrs := fs.String("fluss", "", "serve the tables of the Fluss cluster at HOST:PORT[,HOST:PORT...] instead of the embedded store")
	flussUser := fs.String("fluss-user", "", "SASL/PLAIN user for the Fluss cluster (its password from $SQLGATE_FLUSS_PASSWORD)")
	maxConns := fs.Int("max-connections", 100, "concurrent sessions (53300 beyond)")
	maxPerUser := fs.Int("max-connections-per-user", 0, "concurrent sessions of one user (0 = no limit)")
	maxRow := fs.Int("max-row-size", 0, "largest result row in bytes (54000 beyond; 0 = 1 GiB)")
	queryMem := fs.Int64("query-memory-mib", 1024, "MiB one query's operators hold before they spill to the data directory; "+
		"the Go soft memory limit follows it unless GOMEMLIMIT is set")
	heapFloor := fs.Int64("gc-heap-floor-mib", relop.DefaultHeapFloor>>20, "MiB below which the Go heap is not collected "+
		"(trades that much memory for less collector CPU on small queries; 0 = none)")
	python := fs.String("python", "", "the Python interpreter (with pyarrow) of LANGUAGE python functions' workers (default $SQLGATE_PYTHON, else python3)")
	pythonWorkers := fs.Int("python-workers", 2, "how many LANGUAGE python worker processes may run at once")
	pythonMem := fs.Int64("python-memory", 4096, "each LANGUAGE python worker's address-space limit in MiB (RLIMIT_AS; 0 = none)")
	flightListen := fs.String("flight-listen", "", "also serve Arrow Flight SQL on HOST:PORT (off by default; same users, TLS and limits; README: Flight SQL)")
	fileDir := fs.String("file-dir", "", "the one directory superusers' COPY ... FROM/TO 'file' and read_parquet/read_csv may use (off by default)")
	sec := registerSecurityFlags(fs)
	ops := registerOpsFlags(fs) // opsflags.go
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := ops.check(); err != nil {
		fmt.Fprintf(stderr, "sqlgate: %v\n", err)
		return 2
	}
	if *queryMem <= 0 || *queryMem > 1<<40 {
		fmt.Fprintf(stderr, "sqlgate: --query-memory-mib %d: want 1 to %d\n", *queryMem, int64(1)<<40)
		return 2
	}
	if *heapFloor < 0 || *heapFloor > 1<<20 {
		fmt.Fprintf(stderr, "sqlgate: --gc-heap-floor-mib %d: want 0 to %d\n", *heapFloor, 1<<20)
		return 2
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		fmt.Fprintf(stderr, "sqlgate: --listen %q: %v\n", *listen, err)
		return 2
	}
	security, err := sec.resolve(*listen, *data)
	if err == nil && *flightListen != "" {
		err = sec.checkFlight(*flightListen, security)
	}
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate: %v\n", err)
		return 2
	}
	log := ops.logger(stderr)
	// the Go heap runs at up to twice its live size without a soft limit:
	// a query spilling at its limit would take twice the memory it counts
	floor := relop.NewHeapFloor(*heapFloor << 20)
	defer runtime.KeepAlive(floor)
	if limit, set := relop.ApplyGoMemoryLimit(*queryMem<<20, floor.Size(), os.Getenv); set {
		log.Info("go soft memory limit", "bytes", limit)
	} else {
		log.Info("go soft memory limit from GOMEMLIMIT", "bytes", limit)
	}
	var flussCfg *remote.Config
	if *flussAddrs != "" {
		flussCfg = &remote.Config{Bootstrap: strings.Split(*flussAddrs, ","), Username: *flussUser,
			Password: os.Getenv("SQLGATE_FLUSS_PASSWORD")}
		for _, a := range flussCfg.Bootstrap {
			if _, _, err := net.SplitHostPort(a); err != nil {
				fmt.Fprintf(stderr, "sqlgate: --fluss %q: %v\n", a, err)
				return 2
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := server.Config{Listen: *listen, DataDir: *data, Logger: log, Fluss: flussCfg,
		Auth: security.Auth, TLS: security.TLS, RequireTLS: security.RequireTLS,
		MaxConnections: *maxConns, MaxConnectionsPerUser: *maxPerUser, MaxRowSize: *maxRow,
		QueryMemoryLimit: *queryMem << 20, FlightListen: *flightListen, FileDir: *fileDir,
		Python: pythonConfig(*python, *pythonWorkers, *pythonMem)}
	ops.apply(&cfg)
	srv, err := server.Start(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate: %v\n", err)
		return 1
	}
	h, p, _ := net.SplitHostPort(srv.Addr().String())
	abs, _ := filepath.Abs(*data)
	fmt.Fprintf(stdout, "sqlgate %s listening on %s (data in %s); connect with: psql -h %s -p %s -U sqlgate sqlgate\n", engine.Version, srv.Addr(), abs, h, p)
	if fa := srv.FlightAddr(); fa != nil {
		fmt.Fprintf(stdout, "Arrow Flight SQL on %s (grpc%s://%s)\n", fa, map[bool]string{true: "+tls", false: ""}[security.TLS != nil], fa)
	}
	if ma := srv.MetricsAddr(); ma != "" {
		fmt.Fprintf(stdout, "metrics on http://%s/metrics (/healthz, /readyz)\n", ma)
	}
	select {
	case <-ctx.Done():
	case err := <-srv.Done():
		if err != nil && !errors.Is(err, net.ErrClosed) {
			fmt.Fprintf(stderr, "sqlgate: %v\n", err)
		}
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Stop(stopCtx); err != nil {
		fmt.Fprintf(stderr, "sqlgate: shutdown: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "sqlgate stopped")
	return 0
}

func slt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("slt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	label := fs.String("label", "sqlgate", "engine name for skipif/onlyif")
	postgres := fs.String("postgres", "", "run against this PostgreSQL connection string instead of an in-process sqlgate")
	parallel := fs.Int("parallel", 1, "files run at once")
	complete := fs.Bool("complete", false, "rewrite the files' expected results with what the target answers (use with --postgres)")
	flussAddrs := fs.String("fluss", "", "serve each file from the Fluss cluster at HOST:PORT[,...], in a database of its own, instead of the embedded store")
	skips := fs.String("skips", "", "skip the records this file lists (FILE:LINE[,LINE...] REASON a line)")
	columnarMinRows := fs.Int64("columnar-min-rows", 0, "the embedded store's table size from which full scans use the columnar image (1: every primary-key table; 0: the default)")
	restartCheck := fs.Bool("restart-check", false, "after each file, restart its server on the same data directory and compare the catalogs before and after (the embedded store only)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *postgres != "" && *flussAddrs != "" {
		fmt.Fprintln(stderr, "sqlgate slt: --postgres and --fluss exclude each other")
		return 2
	}
	if *restartCheck && (*postgres != "" || *flussAddrs != "") {
		fmt.Fprintln(stderr, "sqlgate slt: --restart-check restarts in-process servers on the embedded store: not with --postgres or --fluss")
		return 2
	}
	files := fs.Args()
	if len(files) == 0 {
		fmt.Fprintln(stderr, "sqlgate slt: no files given")
		return 2
	}
	opts := sqllogictest.Options{Label: *label, Out: stdout, Parallel: *parallel, Complete: *complete}
	if *postgres != "" {
		if *label == "sqlgate" {
			opts.Label = "postgresql"
		}
		opts.Connect = func(ctx context.Context, file string) (string, func(), error) {
			return *postgres, func() {}, nil
		}
	} else if *flussAddrs != "" {
		cfg := remote.Config{Bootstrap: strings.Split(*flussAddrs, ",")}
		for _, a := range cfg.Bootstrap {
			if _, _, err := net.SplitHostPort(a); err != nil {
				fmt.Fprintf(stderr, "sqlgate slt: --fluss %q: %v\n", a, err)
				return 2
			}
		}
		connect, drop := server.InProcessFluss(cfg)
		opts.Connect = connect
		defer func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := drop(ctx); err != nil {
				fmt.Fprintf(stderr, "sqlgate slt: %v\n", err)
			}
		}()
	} else if *restartCheck {
		opts.Connect, opts.Restart = server.InProcessRestartable(*columnarMinRows)
	} else if *columnarMinRows != 0 {
		opts.Connect = server.InProcessColumnar(*columnarMinRows)
	} else {
		opts.Connect = server.InProcess
	}
	if *skips != "" {
		list, err := sqllogictest.ReadSkipList(*skips)
		if err != nil {
			fmt.Fprintf(stderr, "sqlgate slt: --skips: %v\n", err)
			return 2
		}
		opts.Skips = list
	}
	sum, err := sqllogictest.Run(context.Background(), files, opts)
	if err != nil {
		fmt.Fprintf(stderr, "sqlgate slt: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, sum.String())
	if sum.Failed > 0 {
		return 1
	}
	return 0
}

// pythonConfig is the Python UDF workers' configuration from the flags
// (a memory limit of 0 MiB means none).
func pythonConfig(python string, workers int, memMiB int64) pyudf.Config {
	limit := memMiB << 20
	if memMiB <= 0 {
		limit = -1
	}
	return pyudf.Config{Python: python, Workers: workers, MemoryLimit: limit}
}
