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
	pg := r.Postgres.Run(ctx, "SELECT DISTINCT proname::text FROM pg_proc WHERE provolatile = 'v' AND proname IN ("+strings.Join(quoted, ",")+")")
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
