package relop

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestGoMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		query, want int64
	}{
		{0, math.MaxInt64},
		{-1, math.MaxInt64},
		{512 << 20, 832 << 20},
		{1 << 30, 1<<30 + 512<<20 + 64<<20},
		{math.MaxInt64 / 2, math.MaxInt64/2 + math.MaxInt64/4 + 64<<20},
		{math.MaxInt64 - 1, math.MaxInt64}, // would overflow
	} {
		if got := GoMemoryLimit(c.query); got != c.want {
			t.Errorf("GoMemoryLimit(%d) = %d, want %d", c.query, got, c.want)
		}
	}
}

// TestApplyGoMemoryLimit sets the process's limit: it restores it after
// and does not run in parallel.
func TestApplyGoMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	noEnv := func(string) string { return "" }
	if got, set := ApplyGoMemoryLimit(512<<20, noEnv); !set || got != 832<<20 || debug.SetMemoryLimit(-1) != 832<<20 {
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
	if got, set := ApplyGoMemoryLimit(512<<20, env); set || got != 700<<20 || debug.SetMemoryLimit(-1) != 700<<20 {
		t.Fatalf("with GOMEMLIMIT: %d, %v; runtime %d", got, set, debug.SetMemoryLimit(-1))
	}
}
