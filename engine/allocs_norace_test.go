//go:build !race

// The race detector changes what allocates (sync.Pool drops a share of
// what is put back, instrumented code escapes more): allocation budgets are
// checked without it.

package engine_test

import (
	"context"
	"testing"
)

// TestPreparedPointLookupAllocations: executing a prepared primary-key
// lookup and reading its row stays within a budget of allocations (the
// execution state, the key, the store's one-row record: no relabelled
// copy of the record, no per-value context allocations).
func TestPreparedPointLookupAllocations(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (k BIGINT PRIMARY KEY, i INT, f DOUBLE PRECISION, v TEXT, ts TIMESTAMP(6))")
	mustRun(t, s, "INSERT INTO t VALUES (1, 2, 3.5, 'x', TIMESTAMP '2026-01-01 00:00:00'), (2, NULL, NULL, NULL, NULL)")
	sel := prepareOne(t, s, "SELECT * FROM t WHERE k = $1")
	ctx := context.Background()
	params := []any{int64(1)}
	lookup := func() {
		res, err := sel.Execute(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		b, err := res.Next(ctx)
		if err != nil || b == nil || b.NumRows() != 1 {
			t.Fatalf("lookup: %v, %v", b, err)
		}
		b.Release()
		res.Close()
	}
	lookup() // caches: the store's projection plan, cached iterators
	const budget = 28
	if n := testing.AllocsPerRun(200, lookup); n > budget {
		t.Errorf("%.1f allocations per prepared lookup, want at most %d", n, budget)
	}
}
