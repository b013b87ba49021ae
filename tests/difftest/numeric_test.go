package difftest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestNumericDifferential runs SQLGATE_DIFF_NUMERIC_QUERIES (default 300,
// 150 under -race)
// numeric queries (NumGen, seed SQLGATE_DIFF_SEED) on sqlgate and
// PostgreSQL 15 and compares their text output exactly, column types and
// SQLSTATEs included. The one allowance: when both fail on a query that
// reads table rows, with two expressions that can fail on different rows,
// the SQLSTATEs may differ (PostgreSQL evaluates row by row, sqlgate column
// by column: the evaluation-order rule of SemanticDifferences).
func TestNumericDifferential(t *testing.T) {
	t.Parallel()
	def := 300
	if raceEnabled {
		def = 150
	}
	n := envInt(t, "SQLGATE_DIFF_NUMERIC_QUERIES", def)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, NumericSchema(uint64(seed)))
	g := NewNumGen(uint64(seed))
	start := time.Now()
	var diffs []string
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		q := g.Query()
		sg := r.SQLGate.Run(ctx, q.SQL)
		pg := r.Postgres.Run(ctx, q.SQL)
		for _, o := range []Outcome{sg, pg} {
			if o.Err != nil && o.Err.Code == connErrorCode {
				t.Fatalf("query %d lost its connection: %s\n%s", i, o.Err.Message, q.SQL)
			}
		}
		same, why := Compare(sg, pg, q.Ordered, false)
		switch {
		case same && pg.Err != nil:
			stats["both failed alike"]++
		case same:
			stats["same answer"]++
		case runtimeError(sg) && runtimeError(pg) && strings.Contains(q.SQL, " FROM tn") && numHazards(q.SQL) >= 2:
			stats["both failed, evaluation order"]++
		case sg.Err != nil && sg.Err.Code == "0A000" && (pg.Err == nil || runtimeError(pg)) && strings.Contains(sg.Err.Message, "NaN to numeric("):
			// documented: numeric(p,s) is a Fluss DECIMAL, without NaN
			stats["NaN as numeric(p,s): not supported"]++
		case pg.Err != nil && strings.HasPrefix(pg.Err.Code, "22") && sg.Err == nil && len(sg.Rows) == 0:
			// PostgreSQL folds constant subexpressions at plan time, so an
			// error in one fires even when no row reaches it
			stats["PostgreSQL failed folding a constant over no rows"]++
		default:
			diffs = append(diffs, q.SQL+"\n  "+why+"\n  sqlgate:    "+sg.Format(3)+"\n  PostgreSQL: "+pg.Format(3))
		}
	}
	t.Logf("%d numeric queries in %s (seed %d): %v", n, time.Since(start).Round(time.Millisecond), seed, stats)
	if stats["same answer"] < n/3 {
		t.Errorf("only %d of %d queries answered on both systems: the generator fails too often", stats["same answer"], n)
	}
	for k, d := range diffs {
		if k == 50 {
			t.Errorf("... and %d more", len(diffs)-50)
			break
		}
		t.Errorf("difference:\n%s", d)
	}
	if len(diffs) > 0 {
		t.Errorf("%d differences in %d numeric queries", len(diffs), n)
	}
}

// numHazards counts the operators and functions of a query's text that can
// raise a data exception.
func numHazards(sql string) int {
	n := 0
	for _, op := range []string{" / ", " % ", " * ", " ^ ", "(", "::"} {
		n += strings.Count(sql, op)
	}
	return n
}
