// Command benchserver is sqlgate's server (server.Start, the same code as
// `sqlgate serve`) wrapped for the benchmark harness: it runs as a child
// process so that the harness can read its peak RSS from /proc, and it can
// profile itself without the profile covering the data load.
//
//	benchserver --data DIR [--cpuprofile FILE] [--memprofile FILE] [--mutexprofile FILE] [--blockprofile FILE]
//
// It listens on a free 127.0.0.1 port, and serves Arrow Flight SQL on
// another, and prints "listening HOST:PORT flight HOST:PORT" as its first
// stdout line. SIGUSR1 starts the CPU profile and writes a heap profile
// to MEMPROFILE.base (so `go tool pprof -base` leaves the load out);
// SIGTERM or SIGINT stops the CPU profile, writes MEMPROFILE and exits.
//
// It must not hold benchmark logic: everything it serves is sqlgate's own.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
)

func main() {
	os.Exit(run())
}

func run() int {
	data := flag.String("data", "", "data directory of the embedded store (required; with --fluss: of spill files, views and privileges)")
	flussAddr := flag.String("fluss", "", "serve the Fluss cluster at HOST:PORT[,HOST:PORT...] instead of the embedded store (bench/fluss)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile, from SIGUSR1 to exit, to this file")
	memProfile := flag.String("memprofile", "", "write heap profiles (at SIGUSR1 to FILE.base, at exit to FILE)")
	mutexProfile := flag.String("mutexprofile", "", "write a mutex contention profile, from SIGUSR1 to exit, to this file")
	blockProfile := flag.String("blockprofile", "", "write a blocking profile (time goroutines waited on channels, selects and locks), from SIGUSR1 to exit, to this file")
	flag.Parse()
	if *data == "" {
		fmt.Fprintln(os.Stderr, "benchserver: --data is required")
		return 2
	}
	// The process-wide memory settings of `sqlgate serve` at its defaults.
	const queryMemory = 1 << 30
	floor := relop.NewHeapFloor(relop.DefaultHeapFloor)
	defer runtime.KeepAlive(floor)
	relop.ApplyGoMemoryLimit(queryMemory, floor.Size(), os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := server.Config{Listen: "127.0.0.1:0", FlightListen: "127.0.0.1:0", DataDir: *data, MaxConnections: 200, QueryMemoryLimit: queryMemory}
	if *flussAddr != "" {
		cfg.Fluss = &remote.Config{Bootstrap: strings.Split(*flussAddr, ",")}
	}
	srv, err := server.Start(ctx, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: %v\n", err)
		return 1
	}
	fmt.Printf("listening %s flight %s\n", srv.Addr(), srv.FlightAddr())

	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	var cpuFile *os.File
	for done := false; !done; {
		select {
		case <-usr1:
			if *memProfile != "" {
				writeHeap(*memProfile + ".base")
			}
			if *mutexProfile != "" {
				// Every 5th contention event: enough to see a hot lock cheaply.
				runtime.SetMutexProfileFraction(5)
			}
			if *blockProfile != "" {
				// One sample per 10 µs blocked on average: every wait of a
				// commit or a client round trip shows, at a small cost.
				runtime.SetBlockProfileRate(10_000)
			}
			if *cpuProfile != "" && cpuFile == nil {
				cpuFile, err = os.Create(*cpuProfile)
				if err == nil {
					err = pprof.StartCPUProfile(cpuFile)
				}
				if err != nil {
					fmt.Fprintf(os.Stderr, "benchserver: cpu profile: %v\n", err)
				}
			}
		case <-ctx.Done():
			done = true
		case err := <-srv.Done():
			fmt.Fprintf(os.Stderr, "benchserver: serving stopped: %v\n", err)
			done = true
		}
	}
	if cpuFile != nil {
		pprof.StopCPUProfile()
		cpuFile.Close()
	}
	if *memProfile != "" {
		writeHeap(*memProfile)
	}
	if *mutexProfile != "" {
		writeProfile("mutex", *mutexProfile)
	}
	if *blockProfile != "" {
		writeProfile("block", *blockProfile)
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Stop(stopCtx); err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: stop: %v\n", err)
		return 1
	}
	return 0
}

func writeProfile(name, path string) {
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: %s profile: %v\n", name, err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: %s profile: %v\n", name, err)
	}
}

// writeHeap writes the allocation profile (alloc_space/alloc_objects are
// cumulative since start, hence the .base snapshot; inuse_* are current).
func writeHeap(path string) {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: mem profile: %v\n", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: mem profile: %v\n", err)
	}
}
