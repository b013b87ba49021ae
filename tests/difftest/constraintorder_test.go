package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// coFaults are the ways a drawn row breaks a constraint of co_c: its
// foreign key (checked at the statement's end, an AFTER trigger in
// PostgreSQL), its UNIQUE column (at the row's index insertion), its NOT
// NULL column or its CHECK (ExecConstraints, before the indexes).
var coFaults = []string{"", "", "fk", "unique", "notnull", "check"}

// coRow is one drawn row of co_c with its fault.
type coRow struct {
	id    int
	fault string
}

// values are the row's pid, u, n and k.
func (r coRow) values() (pid, u, n, k string) {
	pid, u, n, k = "1", fmt.Sprint(200+r.id), "1", "1"
	switch r.fault {
	case "fk":
		pid = "99"
	case "unique":
		u = "50" // row 50's, which no statement here writes
	case "notnull":
		n = "NULL::int" // typed: a CASE of NULLs alone is text
	case "check":
		k = "-1"
	}
	return pid, u, n, k
}

// constraintOrderStatement draws a statement over co_c (or co_p) whose
// rows break constraints of several kinds, in an order both systems
// visit alike (a VALUES list's, or the key order of rows inserted in it).
// fkFirst reports whether a row breaking the foreign key comes before
// one breaking another constraint: the statements whose error tells the
// order apart.
func constraintOrderStatement(rng *rand.Rand) (q string, fkFirst bool) {
	n := 2 + rng.IntN(4)
	rows := make([]coRow, n)
	fresh := 100
	for i := range rows {
		rows[i].fault = coFaults[rng.IntN(len(coFaults))]
		rows[i].id = fresh + i
	}
	sawFK := false
	for _, r := range rows {
		switch {
		case r.fault == "fk":
			sawFK = true
		case r.fault != "" && sawFK:
			fkFirst = true
		}
	}
	tuple := func(r coRow) string {
		pid, u, nn, k := r.values()
		return fmt.Sprintf("(%d, %s, %s, %s, %s)", r.id, pid, u, nn, k)
	}
	switch rng.IntN(5) {
	case 0: // INSERT of fresh keys
		var vs []string
		for _, r := range rows {
			vs = append(vs, tuple(r))
		}
		return "INSERT INTO co_c VALUES " + strings.Join(vs, ", "), fkFirst
	case 1: // UPDATE of rows 1..n in place
		var pids, us, ns, ks []string
		for i := range rows {
			rows[i].id = i + 1
			pid, u, nn, k := rows[i].values()
			pids = append(pids, fmt.Sprintf("WHEN %d THEN %s", i+1, pid))
			us = append(us, fmt.Sprintf("WHEN %d THEN %s", i+1, u))
			ns = append(ns, fmt.Sprintf("WHEN %d THEN %s", i+1, nn))
			ks = append(ks, fmt.Sprintf("WHEN %d THEN %s", i+1, k))
		}
		return fmt.Sprintf("UPDATE co_c SET pid = CASE id %s END, u = CASE id %s END, n = CASE id %s END, k = CASE id %s END WHERE id <= %d",
			strings.Join(pids, " "), strings.Join(us, " "), strings.Join(ns, " "), strings.Join(ks, " "), n), fkFirst
	case 2, 3: // ON CONFLICT on the key, existing rows and fresh ones
		var vs []string
		for i := range rows {
			if rng.IntN(2) == 0 {
				rows[i].id = 1 + i
			}
			vs = append(vs, tuple(rows[i]))
		}
		q := "INSERT INTO co_c VALUES " + strings.Join(vs, ", ") + " ON CONFLICT (id) DO "
		if rng.IntN(3) == 0 {
			return q + "NOTHING", fkFirst
		}
		return q + "UPDATE SET pid = excluded.pid, u = excluded.u, n = excluded.n, k = excluded.k", fkFirst
	default: // the referenced side: keys moved (still referenced) and a UNIQUE broken
		var us []string
		for i := 1; i <= n; i++ {
			u := fmt.Sprint(300 + i)
			if rng.IntN(3) == 0 {
				u = "6" // row 6's, which no statement here writes
			}
			us = append(us, fmt.Sprintf("WHEN %d THEN %s", i, u))
		}
		move := ""
		if rng.IntN(2) == 0 {
			move = "id = id + 1000, "
		}
		fkFirst = move != "" && strings.Contains(strings.Join(us, " "), "THEN 6")
		return fmt.Sprintf("UPDATE co_p SET %su = CASE id %s END WHERE id <= %d", move, strings.Join(us, " "), n), fkFirst
	}
}

// TestConstraintOrderDifferential draws statements whose rows break a
// foreign key, a UNIQUE constraint, NOT NULL or a CHECK, several kinds
// in one statement (INSERT, UPDATE, INSERT ... ON CONFLICT DO UPDATE and
// DO NOTHING, a referenced table's UPDATE moving referenced keys), each
// in a block rolled back after it, and compares the outcome with
// PostgreSQL's: every NOT NULL, CHECK and unique violation of any row
// comes before a foreign key's, whose checks and NO ACTION / RESTRICT
// run at the statement's end. SQLGATE_DIFF_CO_STATEMENTS sets how many.
func TestConstraintOrderDifferential(t *testing.T) {
	t.Parallel()
	steps := envInt(t, "SQLGATE_DIFF_CO_STATEMENTS", 150)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	sgs, pgs := r.SQLGate.(*Session), r.Postgres.(*Session)
	rng := rand.New(rand.NewPCG(uint64(seed), 38))
	actions := []string{"", " ON DELETE NO ACTION ON UPDATE NO ACTION", " ON UPDATE RESTRICT"}
	stats := map[string]int{}
	diffs := 0
	for round := 0; round*30 < steps; round++ {
		runOnBoth(t, ctx, r,
			"DROP TABLE IF EXISTS co_c, co_p",
			"CREATE TABLE co_p (id int PRIMARY KEY, u int UNIQUE)",
			"INSERT INTO co_p SELECT g, g FROM generate_series(1, 6) g",
			"CREATE TABLE co_c (id int PRIMARY KEY, pid int REFERENCES co_p"+actions[rng.IntN(len(actions))]+
				", u int UNIQUE, n int NOT NULL, k int CHECK (k > 0))",
			"INSERT INTO co_c SELECT g, g, g, 1, 1 FROM generate_series(1, 5) g",
			"INSERT INTO co_c VALUES (50, 1, 50, 1, 1)")
		for s := 0; s < 30 && round*30+s < steps; s++ {
			q, fkFirst := constraintOrderStatement(rng)
			runOnBoth(t, ctx, r, "BEGIN")
			sg, pg := runTagged(ctx, sgs, q), runTagged(ctx, pgs, q)
			runOnBoth(t, ctx, r, "ROLLBACK")
			if why := dmlDiff(sg, pg); why != "" {
				diffs++
				if diffs <= 10 {
					t.Errorf("%s\n  %s", q, why)
				}
				continue
			}
			if fkFirst && pg.Err != nil && pg.Err.Code != "23503" {
				stats["a foreign key's row first, another error"]++
			}
			if pg.Err != nil {
				stats["refused "+pg.Err.Code]++
			} else {
				stats["same"]++
			}
		}
	}
	t.Logf("%d statements (seed %d): %d differ; %v", steps, seed, diffs, stats)
	for _, code := range []string{"23503", "23505", "23502", "23514"} {
		if stats["refused "+code] == 0 || stats["a foreign key's row first, another error"] == 0 {
			t.Errorf("no statement was refused with %s alike: %v", code, stats)
		}
	}
}
