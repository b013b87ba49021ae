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
// unlimited: no soft limit (math.MaxInt64, the runtime's default).
func GoMemoryLimit(queryLimit int64) int64 {
	if queryLimit <= 0 || queryLimit > (math.MaxInt64-goLimitHeadroom)/3*2 {
		return math.MaxInt64
	}
	return queryLimit + queryLimit/2 + goLimitHeadroom
}

const goLimitHeadroom = 64 << 20

// ApplyGoMemoryLimit sets the runtime's soft memory limit to
// GoMemoryLimit(queryLimit), unless the user set one with the GOMEMLIMIT
// environment variable (getenv reads the environment; os.Getenv), which
// the runtime has already applied and which wins. It returns the limit in
// force and whether it set it. A server calls it once at start; the soak
// benchmark calls it the same way.
func ApplyGoMemoryLimit(queryLimit int64, getenv func(string) string) (int64, bool) {
	if getenv("GOMEMLIMIT") != "" {
		return debug.SetMemoryLimit(-1), false
	}
	limit := GoMemoryLimit(queryLimit)
	debug.SetMemoryLimit(limit)
	return limit, true
}
