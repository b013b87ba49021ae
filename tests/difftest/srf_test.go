package difftest

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestSetReturningDifferential runs SQLGATE_DIFF_SRF_QUERIES (default 300)
// of SrfGen's queries on sqlgate and PostgreSQL 15: the same rows (in
// order where PostgreSQL defines it), column types and names, or the same
// SQLSTATE and message.
func TestSetReturningDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_SRF_QUERIES", 300)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		if res := s.Run(ctx, "SET TimeZone = 'UTC'"); res.Err != nil {
			t.Fatalf("set TimeZone: %s", res.Err.Message)
		}
	}
	gen := NewSrfGen(uint64(seed))
	start := time.Now()
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		q := gen.Query()
		sg := r.SQLGate.Run(ctx, q.SQL)
		pg := r.Postgres.Run(ctx, q.SQL)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("query %d lost its connection: %s\n%s", i, sg.Err.Message, q.SQL)
		}
		why := ""
		switch {
		case sg.Err != nil && pg.Err != nil:
			if sg.Err.Code != pg.Err.Code || sg.Err.Message != pg.Err.Message {
				why = "different errors"
			}
		default:
			if same, w := Compare(sg, pg, q.Ordered, false); !same {
				why = w
			} else if !slices.Equal(sg.Names, pg.Names) {
				why = "column names differ"
			}
		}
		if why != "" {
			stats["different"]++
			if stats["different"] <= 20 {
				t.Errorf("difference (%s):\n%s\n  sqlgate:    %v %s\n  PostgreSQL: %v %s", why, q.SQL, sg.Names, sg.Format(4), pg.Names, pg.Format(4))
			}
			continue
		}
		if pg.Err != nil {
			stats["refused alike"]++
		} else {
			stats["same"]++
		}
	}
	t.Logf("%d set-returning queries in %s (seed %d): %v", n, time.Since(start).Round(time.Millisecond), seed, stats)
	if stats["same"] < n/2 {
		t.Errorf("only %d of %d queries answered on both systems: the generator fails too often", stats["same"], n)
	}
}
