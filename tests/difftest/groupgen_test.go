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
	seed := envInt(t, "SQLGATE_DIFF_SEED", 1)
	ctx := context.Background()
	r := startPair(t, ctx, GroupSchema(uint64(seed)))
	g := NewGroupGen(uint64(seed))
	start := time.Now()
	answered, diffs := 0, 0
	for i := 0; i < n; i++ {
		q := g.Query()
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
	t.Logf("%d grouping-sets queries in %s (seed %d): %d answered alike, %d differences", n, time.Since(start).Round(time.Millisecond), seed, answered, diffs)
	if answered < n/2 {
		t.Errorf("only %d of %d queries answered on both systems: the generator fails too often", answered, n)
	}
}
