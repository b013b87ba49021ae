package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/functions"
)

// withBodies are WITH queries of columns (k, r), volatile and not; a
// recursive one is marked by its RECURSIVE prefix.
var withBodies = []string{
	"SELECT 1 AS k, random() AS r",
	"SELECT g AS k, random() AS r FROM generate_series(1, 4) g",
	"SELECT g AS k, g * 0.5 AS r FROM generate_series(1, 4) g",
	"RECURSIVE:SELECT 1, random() UNION ALL SELECT k + 1, random() FROM x WHERE k < 3",
	"RECURSIVE:SELECT 1, 0.5 UNION ALL SELECT k + 1, r * 2 FROM x WHERE k < 3",
}

var withMaterializations = []string{"", "MATERIALIZED ", "NOT MATERIALIZED "}

// withUses are statements over a WITH item x (the %s), referencing it once
// or several times: in FROM, in subqueries, from another WITH item, under
// an inner WITH that hides it.
var withUses = []string{
	"WITH %s SELECT count(*), sum(k) FROM x WHERE r = r",
	"WITH %s SELECT count(*) FROM x a JOIN x b ON a.r = b.r",
	"WITH %s SELECT count(*) FROM x a, x b, x c WHERE a.r = b.r AND b.r = c.r",
	"WITH %s SELECT count(*) FROM x a WHERE a.r IN (SELECT r FROM x)",
	"WITH %s SELECT count(*) FROM x a WHERE EXISTS (SELECT 1 FROM x b WHERE b.r = a.r AND b.k = a.k)",
	"WITH %s SELECT (SELECT count(*) FROM x) = (SELECT count(*) FROM x y JOIN x z USING (r))",
	"WITH %s, y AS (SELECT * FROM x) SELECT count(*) FROM x JOIN y USING (k, r)",
	"WITH %s, y AS (SELECT * FROM x) SELECT count(*) FROM y a JOIN y b USING (k, r)",
	"WITH %s, y AS (SELECT * FROM x) SELECT count(*) FROM x",
	"WITH %s SELECT count(*) FROM x a, (WITH x AS (SELECT 1 AS k, 2 AS r) SELECT * FROM x) b WHERE a.k = b.k",
	"WITH %s SELECT count(*) FROM (SELECT * FROM x UNION ALL SELECT * FROM x) u GROUP BY r ORDER BY 1 LIMIT 1",
	"WITH %s SELECT count(DISTINCT r) FROM (SELECT r FROM x UNION ALL SELECT r FROM x) u",
	// subqueries each run to their end before the next one starts: a
	// query evaluated once gives them the same rows still
	"WITH %s SELECT (SELECT sum(r) FROM x) = (SELECT sum(r) FROM x)",
	"WITH %s SELECT (SELECT max(r) FROM x) = (SELECT max(r) FROM x), (SELECT min(r) FROM x) = (SELECT min(r) FROM x)",
	"WITH %s SELECT ARRAY(SELECT r::float8 FROM x ORDER BY k) = ARRAY(SELECT r::float8 FROM x ORDER BY k)",
	"WITH %s SELECT ARRAY(SELECT r::float8 FROM x ORDER BY k) = (SELECT array_agg(r::float8 ORDER BY k) FROM x)",
	// a correlated subquery, run again for each row
	"WITH %s SELECT count(DISTINCT (SELECT sum(r) FROM x WHERE x.k + g.g > 0)) FROM generate_series(1, 5) g",
	"WITH %s SELECT bool_and((SELECT max(r) FROM x WHERE x.k <> g.g + 10) = (SELECT max(r) FROM x)) FROM generate_series(1, 5) g",
	"WITH %s SELECT count(*) FROM generate_series(1, 5) g WHERE EXISTS (SELECT 1 FROM x WHERE x.k = 1 AND x.r = (SELECT r FROM x WHERE k = 1 LIMIT 1) AND g.g > 0)",
	"WITH %s SELECT count(DISTINCT s.m) FROM generate_series(1, 5) g, LATERAL (SELECT max(r) + g.g * 0 AS m FROM x) s",
}

// TestWithQueryEvaluationDifferential: which WITH queries are evaluated
// once (binder/cte.go) is PostgreSQL 15's choice, seen through volatile
// functions: a query evaluated once gives every reference the same random
// values, one inlined gives each its own. Every body × materialization ×
// use runs on sqlgate and PostgreSQL and must give the same answer.
func TestWithQueryEvaluationDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	n := 0
	for _, body := range withBodies {
		for _, mat := range withMaterializations {
			item := "x(k, r) AS " + mat + "(" + body + ")"
			if rec, ok := strings.CutPrefix(body, "RECURSIVE:"); ok {
				item = "RECURSIVE x(k, r) AS " + mat + "(" + rec + ")"
			}
			for _, use := range withUses {
				q := fmt.Sprintf(use, item)
				sg := r.SQLGate.Run(ctx, q)
				pg := r.Postgres.Run(ctx, q)
				if pg.Err != nil {
					t.Fatalf("PostgreSQL refused %s: %s", q, describeAt(pg))
				}
				if sg.Err != nil {
					t.Errorf("%s\n  sqlgate: %s", q, describeAt(sg))
					continue
				}
				if same, why := Compare(sg, pg, true, false); !same {
					t.Errorf("%s\n  %s", q, why)
				}
				n++
			}
		}
	}
	if want := len(withBodies) * len(withMaterializations) * len(withUses); n != want {
		t.Errorf("%d of %d statements compared", n, want)
	}
}

// TestVolatileFunctionsAsPostgres: functions.VolatileInPostgres, which
// decides which WITH queries run once, names exactly the functions of
// sqlgate's library that PostgreSQL 15 marks volatile.
func TestVolatileFunctionsAsPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	names := functions.Names()
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "'" + strings.ReplaceAll(n, "'", "''") + "'"
	}
	// A name whose overloads PostgreSQL marks differently (ts_rewrite: its
	// query form volatile, the substitution form sqlgate has immutable)
	// counts as volatile only when every overload is.
	pg := r.Postgres.Run(ctx, "SELECT proname::text FROM pg_proc WHERE proname IN ("+strings.Join(quoted, ",")+") GROUP BY proname HAVING bool_and(provolatile = 'v')")
	if pg.Err != nil {
		t.Fatal(describeAt(pg))
	}
	volatile := map[string]bool{}
	for _, row := range pg.Rows {
		volatile[row[0].Text] = true
	}
	if len(volatile) < 10 {
		t.Fatalf("PostgreSQL marks only %d of %d functions volatile", len(volatile), len(names))
	}
	for _, n := range names {
		if got := functions.VolatileInPostgres(n); got != volatile[n] {
			t.Errorf("%s: VolatileInPostgres %v, PostgreSQL's provolatile = 'v' %v", n, got, volatile[n])
		}
	}
}

// TestWithQueryNextvalDifferential: a WITH query evaluated once calls
// nextval() once per row of it, however many subqueries read it; one
// inlined, once per reference. The sequence's next value after each
// statement shows how many calls were made, on sqlgate as on PostgreSQL.
func TestWithQueryNextvalDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, sys := range []Executor{r.SQLGate, r.Postgres} {
		if o := sys.Run(ctx, "CREATE SEQUENCE cte_seq"); o.Err != nil {
			t.Fatal(describeAt(o))
		}
	}
	queries := []string{
		"WITH x AS MATERIALIZED (SELECT nextval('cte_seq') AS v) SELECT (SELECT v FROM x) = (SELECT v FROM x)",
		"WITH x AS (SELECT nextval('cte_seq') AS v) SELECT (SELECT v FROM x) = (SELECT v FROM x), (SELECT v FROM x) = (SELECT v FROM x)",
		"WITH x AS NOT MATERIALIZED (SELECT nextval('cte_seq') AS v) SELECT (SELECT v FROM x) < (SELECT v FROM x)",
		"WITH x AS MATERIALIZED (SELECT nextval('cte_seq') AS v FROM generate_series(1, 3)) SELECT ARRAY(SELECT v FROM x ORDER BY v) = ARRAY(SELECT v FROM x ORDER BY v)",
		"WITH x AS MATERIALIZED (SELECT nextval('cte_seq') AS v) SELECT count(DISTINCT (SELECT v FROM x WHERE g > 0)) FROM generate_series(1, 4) g",
		"WITH x AS (SELECT nextval('cte_seq') AS v) SELECT count(*) FROM generate_series(1, 4) g WHERE (SELECT v FROM x) > g * 0",
		"WITH x AS MATERIALIZED (SELECT nextval('cte_seq') AS v), y AS MATERIALIZED (SELECT v FROM x) SELECT (SELECT v FROM y) = (SELECT v FROM x)",
	}
	for _, q := range queries {
		for _, stmt := range []string{q, "SELECT nextval('cte_seq')"} {
			sg := r.SQLGate.Run(ctx, stmt)
			pg := r.Postgres.Run(ctx, stmt)
			if pg.Err != nil {
				t.Fatalf("PostgreSQL refused %s: %s", stmt, describeAt(pg))
			}
			if same, why := Compare(sg, pg, true, false); !same {
				t.Errorf("%s (after %s)\n  %s", stmt, q, why)
			}
		}
	}
}
