package difftest

import (
	"context"
	"testing"
	"time"
)

// TestGroupingSetsDifferential runs SQLGATE_DIFF_GROUP_QUERIES (default
// 150) random grouping-sets queries (GroupGen, seed SQLGATE_DIFF_SEED) on
// sqlgate and PostgreSQL 15 and compares their rows as multisets, column
// types and SQLSTATEs included; there is no allowance.
func TestGroupingSetsDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_GROUP_QUERIES", 150)
	seed := diffSeed(t, 1)
	multisetDifferential(t, "grouping-sets", n, seed, NewGroupGen(uint64(seed)).Query)
}

// TestLateralDifferential does the same for LateralGen's queries
// (SQLGATE_DIFF_LATERAL_QUERIES, default 100).
func TestLateralDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_LATERAL_QUERIES", 100)
	seed := diffSeed(t, 1)
	multisetDifferential(t, "LATERAL", n, seed, NewLateralGen(uint64(seed)).Query)
}

// TestOrderedSetDifferential does the same for OrderedSetGen's queries
// (SQLGATE_DIFF_ORDEREDSET_QUERIES, default 150).
func TestOrderedSetDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_ORDEREDSET_QUERIES", 150)
	seed := diffSeed(t, 1)
	multisetDifferential(t, "ordered-set", n, seed, NewOrderedSetGen(uint64(seed)).Query)
}

// multisetDifferential runs n queries of gen over GroupSchema on both
// systems and fails on any difference of rows (as multisets), column types
// or SQLSTATE.
func multisetDifferential(t *testing.T, what string, n, seed int, gen func() string) {
	ctx := context.Background()
	r := startPair(t, ctx, GroupSchema(uint64(seed)))
	start := time.Now()
	answered, diffs := 0, 0
	for i := 0; i < n; i++ {
		q := gen()
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("query %d lost its connection: %s\n%s", i, sg.Err.Message, q)
		}
		if same, why := Compare(sg, pg, false, false); !same {
			diffs++
			if diffs <= 20 {
				t.Errorf("difference:\n%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, sg.Format(3), pg.Format(3))
			}
			continue
		}
		if pg.Err == nil {
			answered++
		}
	}
	t.Logf("%d %s queries in %s (seed %d): %d answered alike, %d differences", n, what, time.Since(start).Round(time.Millisecond), seed, answered, diffs)
	if answered < n/2 {
		t.Errorf("only %d of %d queries answered on both systems: the generator fails too often", answered, n)
	}
}
