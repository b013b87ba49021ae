package relop

import (
	"math"
	"runtime/debug"
)

// GoMemoryLimit is the Go runtime soft memory limit for a process whose
// queries may each hold queryLimit bytes in operators: the limit plus half
// of it plus 64 MiB for everything else (sessions, kernel outputs, the
// store's buffers). Without a soft limit the Go heap grows to twice its
// live size between collections (GOGC=100), so a query spilling at its
// limit would need twice that limit of RSS; with it the collector runs
// harder as the heap nears the figure instead. queryLimit <= 0 means
// unlimited: no soft limit (math.MaxInt64, the runtime's default). floor
// is the size of the process's HeapFloor, which the runtime counts as heap
// and which is added on top.
func GoMemoryLimit(queryLimit, floor int64) int64 {
	floor = max(floor, 0)
	if queryLimit <= 0 || queryLimit > (math.MaxInt64-goLimitHeadroom-floor)/3*2 {
		return math.MaxInt64
	}
	return queryLimit + queryLimit/2 + goLimitHeadroom + floor
}

const goLimitHeadroom = 64 << 20

// ApplyGoMemoryLimit sets the runtime's soft memory limit to
// GoMemoryLimit(queryLimit, floor), unless the user set one with the GOMEMLIMIT
// environment variable (getenv reads the environment; os.Getenv), which
// the runtime has already applied and which wins. It returns the limit in
// force and whether it set it. A server calls it once at start; the soak
// benchmark calls it the same way.
func ApplyGoMemoryLimit(queryLimit, floor int64, getenv func(string) string) (int64, bool) {
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1), false
	}
	limit := GoMemoryLimit(queryLimit, floor)
	debug.SetMemoryLimit(limit)
	return limit, true
}

// HeapFloor keeps the Go heap's collection goal from falling below about
// twice its size. The collector runs whenever the heap has grown by GOGC
// percent (100) of what the last collection found live; a server at rest
// holds a few MiB live, so a stream of small queries (prepared point
// lookups, a few KiB each) starts a collection every thousand queries or
// so, each costing a few milliseconds of CPU. On W1 the floor took the
// server's CPU per lookup from 32 to 27 µs at one client and the 8-client
// p99 latency from 1.3 ms to 0.6–0.75 ms (bench/LEDGER.md, 2026-12-01). The floor is one large
// allocation without pointers that the collector counts as live but never
// scans and that the program never touches, so its pages are never made
// resident: it raises the goal, not the RSS. Real garbage may then grow
// to about the floor's size between collections, which is the memory the
// floor trades for CPU. Heaps far larger than the floor are collected as
// before. (The runtime offers no minimum heap goal; a soft memory limit
// with GOGC=off would collect only near the limit, after the RSS grew.)
type HeapFloor struct{ ballast []byte }

// DefaultHeapFloor is the floor a server keeps unless told otherwise.
const DefaultHeapFloor = 64 << 20

// NewHeapFloor allocates a floor of size bytes (none when size <= 0). The
// caller keeps it reachable for as long as it should hold (runtime.KeepAlive
// at the end of main).
func NewHeapFloor(size int64) *HeapFloor {
	if size <= 0 {
		return &HeapFloor{}
	}
	return &HeapFloor{ballast: make([]byte, size)}
}

// Size is the floor's size in bytes.
func (f *HeapFloor) Size() int64 { return int64(len(f.ballast)) }
