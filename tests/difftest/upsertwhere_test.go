package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUpsertWhereDifferential runs SQLGATE_DIFF_UPSERTWHERE_STATEMENTS
// (default 200) generated INSERT ... ON CONFLICT DO UPDATE ... WHERE
// statements whose proposed rows repeat keys (of the primary key and of a
// UNIQUE constraint), some held by existing rows and some not, under
// WHERE conditions true for some proposals only: PostgreSQL refuses a
// proposal (21000) only when the row it conflicts with was inserted or
// updated by the same command, not when an earlier proposal's WHERE
// skipped it (ExecOnConflictUpdate). Each statement runs in a rolled-back
// transaction over the same rows; outcomes (RETURNING rows in order,
// SQLSTATE and message) must be equal, no allowance.
func TestUpsertWhereDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_UPSERTWHERE_STATEMENTS", 200)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	setup := []string{
		`CREATE TABLE uw (id int PRIMARY KEY, c0 text UNIQUE, v int)`,
		`INSERT INTO uw VALUES (1, 'a', 0), (2, 'b', 10), (3, NULL, 20)`,
	}
	r := startPair(t, ctx, &Schema{})
	if err := r.SQLGate.(*Session).Exec(ctx, setup); err != nil {
		t.Fatal(err)
	}
	if err := r.Postgres.(*Session).Exec(ctx, setup); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 71))
	stats := map[string]int{}
	var diffs []string
	for i := 0; i < n; i++ {
		q := genUpsertWhere(rng)
		var outs [2]Outcome
		for s, sess := range []Executor{r.SQLGate, r.Postgres} {
			if o := sess.Run(ctx, "BEGIN"); o.Err != nil {
				t.Fatalf("BEGIN: %s", describeErr(o))
			}
			outs[s] = sess.Run(ctx, q)
			if outs[s].Err == nil {
				outs[s] = sess.Run(ctx, q+" RETURNING id, c0, v")
			}
			if o := sess.Run(ctx, "ROLLBACK"); o.Err != nil {
				t.Fatalf("ROLLBACK: %s", describeErr(o))
			}
		}
		sg, pg := outs[0], outs[1]
		switch {
		case sg.Err != nil && sg.Err.Code == connErrorCode:
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		case sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code && sg.Err.Message == pg.Err.Message:
			stats["refused "+pg.Err.Code]++
		case sg.Err == nil && pg.Err == nil && sg.Format(1<<20) == pg.Format(1<<20):
			stats[fmt.Sprintf("%d rows", len(pg.Rows))]++
		default:
			diffs = append(diffs, q+"\n  sqlgate:    "+describeErr(sg)+"\n  PostgreSQL: "+describeErr(pg))
		}
	}
	t.Logf("%d statements (seed %d): %v", n, seed, stats)
	if stats["refused 21000"] < n/20 || stats["0 rows"] < n/40 || len(stats) < 4 {
		t.Errorf("the generator reached too few outcomes of one kind: %v", stats)
	}
	for i, d := range diffs {
		if i == 20 {
			t.Errorf("... and %d more", len(diffs)-20)
			break
		}
		t.Error(d)
	}
}

// genUpsertWhere writes one INSERT into uw of 2 to 4 rows whose ids and
// c0 values come from small pools (existing and new ones), with an
// arbiter and a WHERE drawn so that proposals of one key are skipped and
// updated in every order.
func genUpsertWhere(rng *rand.Rand) string {
	ids := []string{"1", "2", "4", "5"}
	vals := []string{"'a'", "'b'", "'c'", "NULL"}
	var rows []string
	for i, k := 0, 2+rng.IntN(3); i < k; i++ {
		rows = append(rows, fmt.Sprintf("(%s, %s, %d)", ids[rng.IntN(len(ids))], vals[rng.IntN(len(vals))], 100+i))
	}
	arbiter := "(id)"
	if rng.IntN(2) == 0 {
		arbiter = "(c0)"
	}
	wheres := []string{
		"uw.v = 0", "excluded.v = 101", "excluded.v > 100", "excluded.v % 2 = 0", "false", "true",
		"uw.c0 IS DISTINCT FROM excluded.c0",
		// (not excluded.id under ON CONFLICT (c0): sqlgate's excluded
		// row has the conflicting row's key, not the proposed one)
	}
	// (not id: sqlgate refuses to change a primary key here, 0A000)
	sets := []string{"v = excluded.v", "v = uw.v + excluded.v", "c0 = excluded.c0, v = excluded.v"}
	return fmt.Sprintf("INSERT INTO uw VALUES %s ON CONFLICT %s DO UPDATE SET %s WHERE %s",
		strings.Join(rows, ", "), arbiter, sets[rng.IntN(len(sets))], wheres[rng.IntN(len(wheres))])
}
