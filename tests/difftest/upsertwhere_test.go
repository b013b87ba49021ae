package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUpsertWhereDifferential runs SQLGATE_DIFF_UPSERTWHERE_STATEMENTS
// (default 300) generated INSERT ... ON CONFLICT DO UPDATE [... WHERE]
// statements into tables with a primary key and one or two UNIQUE
// columns, the arbiter on any of them, whose proposed rows repeat and
// swap values (held by existing rows, by rows the command wrote, or by
// none), DO UPDATE moving UNIQUE values onto and off rows, EXCLUDED of
// every column (the primary key too) in SET and WHERE, the target's
// columns qualified by its name or alias, bare (ambiguous with EXCLUDED's:
// both are in DO UPDATE's namespace), by the table's name under an alias
// (no reference), from a subquery whose own column hides them, and its
// system column bare (EXCLUDED has none): PostgreSQL refuses
// a proposal (21000) only when the row it conflicts with was inserted or
// updated by the same command, not when an earlier proposal's WHERE
// skipped it or moved its value away (ExecOnConflictUpdate), and EXCLUDED
// is the row as proposed. Each statement runs in a rolled-back
// transaction over the same rows; outcomes (RETURNING rows in order,
// SQLSTATE and message, then the table's rows) must be equal, no
// allowance.
func TestUpsertWhereDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_UPSERTWHERE_STATEMENTS", 300)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	setup := []string{
		`CREATE TABLE uw (id int PRIMARY KEY, c0 text UNIQUE, v int)`,
		`INSERT INTO uw VALUES (1, 'a', 0), (2, 'b', 10), (3, NULL, 20)`,
		`CREATE TABLE uw2 (id int PRIMARY KEY, c0 text UNIQUE, c1 int UNIQUE, v int)`,
		`INSERT INTO uw2 VALUES (1, 'a', 10, 0), (2, 'b', 20, 10), (3, NULL, 30, 20), (4, 'd', NULL, 30)`,
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
		table, q := genUpsertWhere(rng)
		var outs, after [2]Outcome
		for s, sess := range []Executor{r.SQLGate, r.Postgres} {
			if o := sess.Run(ctx, "BEGIN"); o.Err != nil {
				t.Fatalf("BEGIN: %s", describeErr(o))
			}
			outs[s] = sess.Run(ctx, q)
			if outs[s].Err == nil {
				after[s] = sess.Run(ctx, "SELECT * FROM "+table+" ORDER BY id")
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
		case sg.Err == nil && pg.Err == nil && sg.Format(1<<20) == pg.Format(1<<20) && after[0].Format(1<<20) == after[1].Format(1<<20):
			stats[fmt.Sprintf("%d rows", len(pg.Rows))]++
		case sg.Err == nil && pg.Err == nil && sg.Format(1<<20) == pg.Format(1<<20):
			diffs = append(diffs, q+"\n  table after, sqlgate:    "+describeErr(after[0])+"\n  table after, PostgreSQL: "+describeErr(after[1]))
		default:
			diffs = append(diffs, q+"\n  sqlgate:    "+describeErr(sg)+"\n  PostgreSQL: "+describeErr(pg))
		}
	}
	t.Logf("%d statements (seed %d): %v", n, seed, stats)
	if stats["refused 21000"] < n/20 || stats["refused 23505"] < n/40 || stats["0 rows"] < n/40 || len(stats) < 5 ||
		stats["refused 42702"] < n/100 || stats["refused 42P01"] < n/100 {
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

// upsertColumn is a UNIQUE column of an upsert table: its values' pool
// (existing ones, new ones, NULL) and its DO UPDATE assignments (T.: the
// target's name or alias).
type upsertColumn struct {
	name string
	pool []string
	sets []string
}

// genUpsertWhere writes one INSERT ... ON CONFLICT DO UPDATE into uw or
// uw2 (the table it returns) of 1 to 4 rows whose ids and UNIQUE values
// come from small pools of existing and new ones, a later row often
// repeating an earlier row's value or taking another row's (swapped),
// with an arbiter, SET list and WHERE drawn so that proposals of one value
// are skipped, updated and moved in every order.
func genUpsertWhere(rng *rand.Rand) (table, stmt string) {
	c0 := upsertColumn{"c0", []string{"'a'", "'b'", "'c'", "'d'", "NULL"}, []string{
		"c0 = excluded.c0", "c0 = T.c0 || 'x'", "c0 = 'z'", "c0 = 'b'",
		"c0 = CASE WHEN T.c0 = 'a' THEN 'b' ELSE 'a' END", "c0 = excluded.c0 || excluded.id",
	}}
	c1 := upsertColumn{"c1", []string{"10", "20", "30", "40", "NULL"}, []string{
		"c1 = excluded.c1", "c1 = T.c1 + 10", "c1 = excluded.id * 10", "c1 = NULL", "c1 = excluded.v - 80",
	}}
	// ids: existing ones, then new ones
	table, uniq, ids := "uw", []upsertColumn{c0}, []string{"1", "2", "4", "5"}
	if rng.IntN(3) > 0 {
		table, uniq, ids = "uw2", []upsertColumn{c0, c1}, []string{"1", "2", "5", "6", "7"}
	}
	arbiters := []string{"(id)"}
	for _, c := range uniq {
		arbiters = append(arbiters, "("+c.name+")", "ON CONSTRAINT "+table+"_"+c.name+"_key")
	}
	arbiter := arbiters[rng.IntN(len(arbiters))]
	id := func() string {
		if arbiter != "(id)" && rng.IntN(4) > 0 {
			// a new id mostly: an existing one is a 23505 unless
			// its row is the one holding the value
			return ids[2+rng.IntN(len(ids)-2)]
		}
		return ids[rng.IntN(len(ids))]
	}
	// each row: id, the UNIQUE columns, v
	var rows [][]string
	for i, k := 0, 1+rng.IntN(4); i < k; i++ {
		row := []string{id()}
		for _, c := range uniq {
			row = append(row, c.pool[rng.IntN(len(c.pool))])
		}
		if i > 0 && rng.IntN(2) == 0 {
			// an earlier row's value again
			c := rng.IntN(len(row))
			row[c] = rows[rng.IntN(i)][c]
			if len(uniq) == 2 && rng.IntN(3) == 0 {
				// c0 of one earlier row, c1 of another: a row that
				// conflicts with two
				row[1], row[2] = rows[rng.IntN(i)][1], rows[rng.IntN(i)][2]
			}
		}
		row = append(row, fmt.Sprint(100+i))
		rows = append(rows, row)
	}
	values := make([]string, len(rows))
	for i, row := range rows {
		values[i] = "(" + strings.Join(row, ", ") + ")"
	}
	alias, q := "", table
	if rng.IntN(2) == 0 {
		alias, q = " AS t", "t"
	}
	// (not id: sqlgate refuses to change a primary key here, 0A000)
	vsets := []string{"v = excluded.v", "v = T.v + excluded.v", "v = excluded.id", "v = excluded.id * 1000 + T.id",
		// a subquery's own column hides both rows' (not ambiguous);
		// the rows' columns seen from it, bare, are (42702)
		"v = (SELECT v FROM (SELECT 7 AS v) s)", "v = (SELECT x + T.v FROM (SELECT 1 AS x) s)",
		"v = (SELECT x + excluded.v FROM (SELECT 1 AS x) s)"}
	if len(uniq) == 2 {
		vsets = append(vsets, "v = coalesce(excluded.c1, -1) * 1000 + excluded.id")
	}
	// T. is the target's reference, drawn per occurrence: mostly
	// qualified by the name the statement gives the target, sometimes
	// bare (ambiguous with EXCLUDED's column, 42702) or, under an
	// alias, by the table's own name (42P01: the alias hides it)
	target := func(s string) string {
		parts := strings.Split(s, "T.")
		for i := 1; i < len(parts); i++ {
			ref := q + "."
			switch k := rng.IntN(16); {
			case k == 0:
				ref = ""
			case k == 1 && alias != "":
				ref = table + "."
			}
			parts[i] = ref + parts[i]
		}
		return strings.Join(parts, "")
	}
	var sets []string
	for _, c := range uniq {
		if rng.IntN(2) == 0 {
			sets = append(sets, target(c.sets[rng.IntN(len(c.sets))]))
		}
	}
	if len(sets) == 0 || rng.IntN(2) == 0 {
		sets = append(sets, target(vsets[rng.IntN(len(vsets))]))
	}
	rng.Shuffle(len(sets), func(i, j int) { sets[i], sets[j] = sets[j], sets[i] })
	wheres := []string{
		"T.v = 0", "excluded.v = 101", "excluded.v > 100", "excluded.v % 2 = 0", "false", "true",
		"T.c0 IS DISTINCT FROM excluded.c0", "excluded.id = 4", "excluded.id > T.id",
		"excluded.id IS DISTINCT FROM T.id", "excluded.c0 IS NULL",
		// the target's system column: EXCLUDED, a composite type's
		// row, has none, so bare it is not ambiguous
		"tableoid IS NOT NULL",
	}
	if len(uniq) == 2 {
		wheres = append(wheres, "excluded.c1 IS NOT NULL", "T.c1 < excluded.c1")
	}
	where := ""
	if rng.IntN(4) > 0 {
		where = " WHERE " + target(wheres[rng.IntN(len(wheres))])
	}
	returning := []string{"*", "id, v", "*, v - 100 AS d"}
	return table, fmt.Sprintf("INSERT INTO %s%s VALUES %s ON CONFLICT %s DO UPDATE SET %s%s RETURNING %s",
		table, alias, strings.Join(values, ", "), arbiter, strings.Join(sets, ", "), where, returning[rng.IntN(len(returning))])
}
