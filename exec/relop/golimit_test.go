package relop

import (
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestGoMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		query, floor, want int64
	}{
		{0, 0, math.MaxInt64},
		{-1, 0, math.MaxInt64},
		{0, 64 << 20, math.MaxInt64},
		{512 << 20, 0, 832 << 20},
		{512 << 20, 64 << 20, 896 << 20},
		{512 << 20, -1, 832 << 20},
		{1 << 30, 0, 1<<30 + 512<<20 + 64<<20},
		{math.MaxInt64 / 2, 0, math.MaxInt64/2 + math.MaxInt64/4 + 64<<20},
		{math.MaxInt64 - 1, 0, math.MaxInt64}, // would overflow
		{math.MaxInt64 / 3 * 2, 64 << 20, math.MaxInt64},
	} {
		if got := GoMemoryLimit(c.query, c.floor); got != c.want {
			t.Errorf("GoMemoryLimit(%d, %d) = %d, want %d", c.query, c.floor, got, c.want)
		}
	}
}

// TestApplyGoMemoryLimit sets the process's limit: it restores it after
// and does not run in parallel.
func TestApplyGoMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	noEnv := func(string) string { return "" }
	if got, set := ApplyGoMemoryLimit(512<<20, 64<<20, noEnv); !set || got != 896<<20 || debug.SetMemoryLimit(-1) != 896<<20 {
		t.Fatalf("without GOMEMLIMIT: %d, %v; runtime %d", got, set, debug.SetMemoryLimit(-1))
	}
	// an explicit GOMEMLIMIT (already applied by the runtime) wins
	debug.SetMemoryLimit(700 << 20)
	env := func(k string) string {
		if k == "GOMEMLIMIT" {
			return "700MiB"
		}
		return ""
	}
	if got, set := ApplyGoMemoryLimit(512<<20, 64<<20, env); set || got != 700<<20 || debug.SetMemoryLimit(-1) != 700<<20 {
		t.Fatalf("with GOMEMLIMIT: %d, %v; runtime %d", got, set, debug.SetMemoryLimit(-1))
	}
}

// TestHeapFloor checks that the floor raises the collector's goal: with it
// held, allocating a fraction of its size starts no collection, and its
// pages are not made resident. It measures in a process of its own, as a
// server allocates its floor first thing: in this one, the heap may hand
// the floor spans that earlier tests freed, which it zeroes.
func TestHeapFloor(t *testing.T) {
	if f := NewHeapFloor(0); f.Size() != 0 {
		t.Fatalf("NewHeapFloor(0).Size() = %d", f.Size())
	}
	if os.Getenv(heapFloorChild) != "" {
		heapFloorMeasure(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHeapFloor$", "-test.v")
	cmd.Env = append(os.Environ(), heapFloorChild+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the measuring process: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestHeapFloor") {
		t.Fatalf("the measuring process did not pass:\n%s", out)
	}
}

// heapFloorChild marks TestHeapFloor's measuring process.
const heapFloorChild = "RELOP_HEAP_FLOOR_CHILD"

func heapFloorMeasure(t *testing.T) {
	const size = 64 << 20
	// Package initialisation (the SQL grammar's tables among it) frees
	// spans that the heap would zero when it hands them to the floor:
	// return them to the system first, as they are by the time a server
	// that has run a while allocates anything this large.
	debug.FreeOSMemory()
	rss := residentBytes(t)
	f := NewHeapFloor(size)
	if f.Size() != size {
		t.Fatalf("Size() = %d, want %d", f.Size(), size)
	}
	if grown := residentBytes(t) - rss; grown > size/4 {
		t.Errorf("RSS grew by %d bytes with a %d-byte floor", grown, size)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var keep [][]byte
	for range 1000 {
		keep = append(keep, make([]byte, 8<<10)) // 8 MiB in all
		keep = keep[len(keep)-1:]
	}
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	runtime.KeepAlive(f)
	if n := after.NumGC - before.NumGC; n != 0 {
		t.Errorf("%d collections while allocating 8 MiB above a 64 MiB floor", n)
	}
}

// residentBytes is the process's resident set size (VmRSS).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatalf("reading the RSS: %v", err)
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS %q: %v", rest, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}
