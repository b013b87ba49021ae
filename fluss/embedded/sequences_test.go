package embedded

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

func seqDef(start, inc, lo, hi int64, cycle bool) fluss.SequenceDef {
	return fluss.SequenceDef{Type: "bigint", Start: start, Increment: inc, Min: lo, Max: hi, Cache: 1, Cycle: cycle}
}

func nextN(t *testing.T, s *Store, name string, n int) []int64 {
	t.Helper()
	var out []int64
	for range n {
		v, err := s.NextValue(context.Background(), path(name))
		if err != nil {
			t.Fatalf("nextval(%s): %v", name, err)
		}
		out = append(out, v)
	}
	return out
}

// TestSequenceValues: nextval's values follow PostgreSQL's rules
// (start, increment, bounds with 2200H, CYCLE, setval, ALTER RESTART).
func TestSequenceValues(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		def  fluss.SequenceDef
		want []int64
	}{
		{"up", seqDef(1, 1, 1, math.MaxInt64, false), []int64{1, 2, 3, 4}},
		{"down", seqDef(-1, -1, math.MinInt64, -1, false), []int64{-1, -2, -3}},
		{"step", seqDef(10, 5, 1, 100, false), []int64{10, 15, 20}},
		{"cycle", seqDef(2, 1, 1, 3, true), []int64{2, 3, 1, 2, 3, 1}},
		{"cycledown", seqDef(2, -1, 1, 3, true), []int64{2, 1, 3, 2}},
	} {
		if _, err := s.CreateSequence(ctx, path(tc.name), tc.def, false); err != nil {
			t.Fatal(err)
		}
		if got := nextN(t, s, tc.name, len(tc.want)); !equalInts(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if _, err := s.CreateSequence(ctx, path("full"), seqDef(1, 1, 1, 2, false), false); err != nil {
		t.Fatal(err)
	}
	nextN(t, s, "full", 2)
	if _, err := s.NextValue(ctx, path("full")); sqlerr.CodeOf(err) != "2200H" {
		t.Errorf("past MAXVALUE: %v, want 2200H", err)
	}
	if _, err := s.CreateSequence(ctx, path("up"), seqDef(1, 1, 1, 9, false), false); sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		t.Errorf("duplicate: %v", err)
	}
	if err := s.SetValue(ctx, path("up"), 100, true); err != nil {
		t.Fatal(err)
	}
	if got := nextN(t, s, "up", 1); got[0] != 101 {
		t.Errorf("after setval(100): %v", got)
	}
	if err := s.SetValue(ctx, path("step"), 1000, true); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
		t.Errorf("setval out of bounds: %v", err)
	}
	r := int64(7)
	if err := s.AlterSequence(ctx, path("up"), seqDef(1, 1, 1, math.MaxInt64, false), &r); err != nil {
		t.Fatal(err)
	}
	if got := nextN(t, s, "up", 2); !equalInts(got, []int64{7, 8}) {
		t.Errorf("after RESTART 7: %v", got)
	}
	if err := s.DropSequence(ctx, path("up"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.NextValue(ctx, path("up")); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("dropped: %v", err)
	}
}

// TestSequenceRestartNeverRepeats: values handed out before a close (or a
// crash: the file is all that survives either way) are never handed out
// again, under concurrent callers.
func TestSequenceRestartNeverRepeats(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	ctx := context.Background()
	if _, err := s.CreateSequence(ctx, path("s"), seqDef(1, 1, 1, math.MaxInt64, false), false); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	var last int64
	for round := range 3 {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 50 {
					v, err := s.NextValue(ctx, path("s"))
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if seen[v] {
						t.Errorf("round %d: %d handed out twice", round, v)
					}
					seen[v] = true
					last = max(last, v)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		// a crash leaves the file as the last block reservation wrote
		// it: Close's exact state is replaced by that
		crashed, err := os.ReadFile(filepath.Join(dir, sequencesFile))
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := os.WriteFile(filepath.Join(dir, sequencesFile), crashed, 0o644); err != nil {
			t.Fatal(err)
		}
		s = openStore(t, dir)
		if v := nextN(t, s, "s", 1)[0]; v <= last {
			t.Errorf("round %d: after restart nextval %d <= %d", round, v, last)
		} else {
			seen[v] = true
			last = v
		}
	}
	s.Close()
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSequenceCleanCloseKeepsPlace: after a clean Close the next value
// follows the last one handed out (no block skipped).
func TestSequenceCleanCloseKeepsPlace(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	ctx := context.Background()
	if _, err := s.CreateSequence(ctx, path("s"), seqDef(1, 1, 1, math.MaxInt64, false), false); err != nil {
		t.Fatal(err)
	}
	nextN(t, s, "s", 3)
	s.Close()
	s = openStore(t, dir)
	defer s.Close()
	if v := nextN(t, s, "s", 1)[0]; v != 4 {
		t.Errorf("after a clean restart nextval = %d, want 4", v)
	}
}
