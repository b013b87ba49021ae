// Command benchserver is sqlgate's server (server.Start, the same code as
// `sqlgate serve`) wrapped for the benchmark harness: it runs as a child
// process so that the harness can read its peak RSS from /proc, and it can
// profile itself without the profile covering the data load.
//
//	benchserver --data DIR [--cpuprofile FILE] [--memprofile FILE] [--mutexprofile FILE] [--blockprofile FILE] [--trace FILE]
//
// It listens on a free 127.0.0.1 port, and serves Arrow Flight SQL on
// another, and prints "listening HOST:PORT flight HOST:PORT" as its first
// stdout line. SIGUSR1 starts the CPU profile and writes a heap profile
// to MEMPROFILE.base (so `go tool pprof -base` leaves the load out), and
// starts the mutex and block profiles and an execution trace (`go tool
// trace`: scheduler latency, network and sync waits per goroutine);
// SIGUSR2 stops them and writes every profile asked for while serving on,
// so that one process can profile a run and then serve the next;
// SIGTERM or SIGINT does the same and exits.
//
// It must not hold benchmark logic: everything it serves is sqlgate's own.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
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
	traceFile := flag.String("trace", "", "write an execution trace, from SIGUSR1 to SIGUSR2 or exit, to this file")
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
	usr2 := make(chan os.Signal, 1)
	signal.Notify(usr2, syscall.SIGUSR2)
	p := profiles{cpu: *cpuProfile, mem: *memProfile, mutex: *mutexProfile, block: *blockProfile, trace: *traceFile}
	for done := false; !done; {
		select {
		case <-usr1:
			p.start()
		case <-usr2:
			p.stop()
		case <-ctx.Done():
			done = true
		case err := <-srv.Done():
			fmt.Fprintf(os.Stderr, "benchserver: serving stopped: %v\n", err)
			done = true
		}
	}
	p.stop()
	stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Stop(stopCtx); err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: stop: %v\n", err)
		return 1
	}
	return 0
}

// profiles are the files asked for on the command line and the ones
// running between a SIGUSR1 and the next SIGUSR2 (or exit).
type profiles struct {
	cpu, mem, mutex, block, trace string

	running            bool
	cpuFile, traceFile *os.File
}

func (p *profiles) start() {
	if p.running {
		return
	}
	p.running = true
	if p.mem != "" {
		writeHeap(p.mem + ".base")
	}
	if p.mutex != "" {
		// Every 5th contention event: enough to see a hot lock cheaply.
		runtime.SetMutexProfileFraction(5)
	}
	if p.block != "" {
		// One sample per 10 µs blocked on average: every wait of a
		// commit or a client round trip shows, at a small cost.
		runtime.SetBlockProfileRate(10_000)
	}
	p.cpuFile = startFile("cpu", p.cpu, pprof.StartCPUProfile)
	p.traceFile = startFile("trace", p.trace, trace.Start)
}

// startFile creates path and starts a profile writing to it; nil when path
// is empty or either fails.
func startFile(name, path string, start func(io.Writer) error) *os.File {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err == nil {
		if err = start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchserver: %s: %v\n", name, err)
		return nil
	}
	return f
}

func (p *profiles) stop() {
	if !p.running {
		if p.mem != "" {
			writeHeap(p.mem)
		}
		return
	}
	p.running = false
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		p.cpuFile.Close()
		p.cpuFile = nil
	}
	if p.traceFile != nil {
		trace.Stop()
		p.traceFile.Close()
		p.traceFile = nil
	}
	if p.mem != "" {
		writeHeap(p.mem)
	}
	if p.mutex != "" {
		writeProfile("mutex", p.mutex)
		runtime.SetMutexProfileFraction(0)
	}
	if p.block != "" {
		writeProfile("block", p.block)
		runtime.SetBlockProfileRate(0)
	}
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
