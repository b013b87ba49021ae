package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// returningWithBodies are the WITH lists the writes are tried with: one
// item, two where the second reads the first, a recursive one.
var returningWithBodies = []string{
	"WITH w AS (SELECT %d AS x)",
	"WITH v AS (SELECT %d AS y), w AS (SELECT y AS x FROM v)",
	"WITH RECURSIVE w(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM w WHERE x < %d)",
}

// returningWithWrites are writes to rw(id, v) whose RETURNING (and other
// clauses) read the WITH item w; %d is a key (for INSERT, 100 more: a
// new one, or an old one less 100).
var returningWithWrites = []string{
	"INSERT INTO rw SELECT %d, max(x) FROM w RETURNING id, v, (SELECT max(x) FROM w)",
	"INSERT INTO rw (id, v) SELECT %d, count(*) FROM w RETURNING v + (SELECT min(x) FROM w), (SELECT count(*) FROM w) AS n",
	"INSERT INTO rw SELECT %d, x FROM w ORDER BY x DESC LIMIT 1 RETURNING *, (SELECT min(x) FROM w)",
	"INSERT INTO rw AS r SELECT %d - 100, max(x) FROM w ON CONFLICT (id) DO UPDATE SET v = r.v + excluded.v RETURNING r.id, r.v, (SELECT max(x) FROM w)",
	"INSERT INTO rw SELECT %d - 100 + x - x, x FROM w ON CONFLICT DO NOTHING RETURNING id, (SELECT count(*) FROM w)",
	"INSERT INTO rw SELECT %d + x, x FROM w ON CONFLICT DO NOTHING RETURNING id, (SELECT count(*) FROM w)",
	"UPDATE rw SET v = v + (SELECT max(x) FROM w) WHERE id = %d RETURNING id, v, (SELECT sum(x) FROM w)",
	"UPDATE rw SET v = 0 WHERE id < %d AND v IN (SELECT x FROM w) RETURNING id, (SELECT max(x) FROM w) - v",
	"DELETE FROM rw WHERE id = %d RETURNING id, v, (SELECT array_agg(x ORDER BY x) FROM w)",
	"DELETE FROM rw USING w WHERE rw.v = w.x AND rw.id > %d RETURNING rw.id, w.x, (SELECT count(*) FROM w)",
}

// TestReturningWithDifferential runs every WITH list × write on sqlgate
// and PostgreSQL 15 over the same table, each write then a read of the
// whole table: the same rows, or the same error (SQLSTATE and message).
// The WITH queries are the whole statement's, RETURNING included.
func TestReturningWithDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{"CREATE TABLE rw (id int PRIMARY KEY, v int)", "INSERT INTO rw SELECT g, g % 4 FROM generate_series(1, 30) g"}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	stats := map[string]int{}
	key := 0
	for wi, with := range returningWithBodies {
		for _, write := range returningWithWrites {
			key++
			k := key
			if strings.Contains(write, "INSERT") {
				k += 100 // a new key: the table holds 1 to 30
			}
			q := fmt.Sprintf(with, wi+2) + " " + fmt.Sprintf(write, k)
			for _, stmt := range []string{q, "SELECT id, v FROM rw"} {
				sg := r.SQLGate.Run(ctx, stmt)
				pg := r.Postgres.Run(ctx, stmt)
				switch {
				case sg.Err != nil && sg.Err.Code == connErrorCode:
					t.Fatalf("%s lost its connection: %s", stmt, sg.Err.Message)
				case sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code && sg.Err.Message == pg.Err.Message:
					stats["refused alike"]++
				case sg.Err != nil || pg.Err != nil:
					stats["different"]++
					t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", stmt, describe(sg), describe(pg))
				default:
					if same, why := Compare(sg, pg, false, false); !same {
						stats["different"]++
						t.Errorf("%s\n  %s", stmt, why)
						continue
					}
					stats["same"]++
				}
			}
			if t.Failed() {
				return // the tables may differ from here on
			}
		}
	}
	t.Logf("%d WITH lists × %d writes: %v", len(returningWithBodies), len(returningWithWrites), stats)
	if stats["same"] != 2*len(returningWithBodies)*len(returningWithWrites) {
		t.Errorf("outcomes: %v", stats)
	}
}
