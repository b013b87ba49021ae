package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestConstraintCarryDifferential loads two tables without constraints
// in a transaction block on sqlgate and PostgreSQL 15, as pg_restore
// --single-transaction does, then adds a random sequence of ADD PRIMARY
// KEY, UNIQUE, FOREIGN KEY, CHECK, SET NOT NULL and CREATE UNIQUE INDEX
// in the same block (engine/uniquecarry.go: each statement carries the
// block's rows, also after ADD PRIMARY KEY rewrote the table into a
// primary-key table), and compares every outcome: the statement that
// fails (23505, 23503, 23502, 23514, 42P16, 42830) and its message, or,
// when the block commits, the rows, the constraints and what the
// constraints then refuse. The rows' values are drawn from a few so that
// they collide, with NULLs and negatives. The tables are made outside the
// block and dropped after it: sqlgate applies DDL at once (a ROLLBACK
// keeps it), so nothing is compared after a failed block's ROLLBACK.
func TestConstraintCarryDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 32)
	stats := map[string]int{}
	val := func(nulls, n int) string {
		if rng.IntN(nulls) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.IntN(n) - 1)
	}
	for k := 0; k < 40; k++ {
		p, c := fmt.Sprintf("cp%d", k), fmt.Sprintf("cc%d", k)
		qs := []string{
			fmt.Sprintf("CREATE TABLE %s (id int, code text, n int)", p),
			fmt.Sprintf("CREATE TABLE %s (id int, pid int, note text)", c),
			"BEGIN",
		}
		// mostly distinct keys; sometimes a duplicate or a NULL one. Half
		// the blocks have rows every constraint admits (a dump's), so
		// that long sequences commit.
		clean := rng.IntN(2) == 0
		var prow, crow []string
		np, nc := 2+rng.IntN(5), 1+rng.IntN(5)
		for i := 1; i <= np; i++ {
			id, code, n := fmt.Sprint(i), fmt.Sprintf("'%c'", 'a'+i), fmt.Sprint(10*i)
			if !clean {
				if rng.IntN(12) == 0 {
					id = val(3, np)
				}
				code = "NULL"
				if rng.IntN(5) > 0 {
					code = fmt.Sprintf("'%c'", 'a'+rng.IntN(np+2))
				}
				n = val(8, 30)
			}
			prow = append(prow, fmt.Sprintf("(%s, %s, %s)", id, code, n))
		}
		for i := 1; i <= nc; i++ {
			pid, note := fmt.Sprint(1+rng.IntN(np)), "'x'"
			if !clean {
				pid, note = val(5, np+2), []string{"NULL", "'x'", "''", "'y'"}[rng.IntN(4)]
			}
			crow = append(crow, fmt.Sprintf("(%d, %s, %s)", i, pid, note))
		}
		qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s", p, strings.Join(prow, ", ")),
			fmt.Sprintf("INSERT INTO %s VALUES %s", c, strings.Join(crow, ", ")))
		actions := []string{
			fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_pkey PRIMARY KEY (id)", p, p),
			fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_code_key UNIQUE (code)", p, p),
			fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_n_check CHECK (n > 0)", p, p),
			fmt.Sprintf("ALTER TABLE %s ALTER COLUMN n SET NOT NULL", p),
			fmt.Sprintf("CREATE UNIQUE INDEX %s_n_idx ON %s (n)", p, p),
			fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_pkey PRIMARY KEY (id)", c, c),
			fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_pid_fkey FOREIGN KEY (pid) REFERENCES %s(id)", c, c, p),
			fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_note_check CHECK (note <> '')", c, c),
			fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (id, code)", p), // a second key once the first is there: 42P16 (a probe below never meets a key: an INSERT of a key is an upsert in sqlgate)
		}
		// each action once, in a random order (a repeated one is 42710 or
		// 42P16 at once). A clean block is a dump's: one key per table,
		// and a foreign key after the key it references (pg_dump puts FK
		// constraints last); otherwise only about 44% of clean blocks
		// commit (two keys, or a foreign key without its key, refuse), and
		// over 40 blocks the committed ones fell below the bar at seeds
		// 2718 and 7331. The dirty blocks keep any order (42P16, 42830).
		steps := 2 + rng.IntN(6)
		chosen := rng.Perm(len(actions))[:steps]
		if clean {
			chosen = dumpOrder(chosen)
		}
		for _, i := range chosen {
			qs = append(qs, actions[i])
		}
		// the constraints as they hold, then what they refuse
		qs = append(qs,
			fmt.Sprintf("SELECT id, code, n FROM %s ORDER BY id, code, n", p),
			fmt.Sprintf("SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid IN ('%s'::regclass, '%s'::regclass) ORDER BY conname", p, c),
			"SAVEPOINT probe",
			fmt.Sprintf("INSERT INTO %s VALUES (100, 'a', 5)", p), "ROLLBACK TO SAVEPOINT probe",
			fmt.Sprintf("INSERT INTO %s VALUES (101, 'zz', -5)", p), "ROLLBACK TO SAVEPOINT probe",
			fmt.Sprintf("INSERT INTO %s VALUES (102, 'zy', NULL)", p), "ROLLBACK TO SAVEPOINT probe",
			fmt.Sprintf("INSERT INTO %s VALUES (100, 99, 'q')", c), "ROLLBACK TO SAVEPOINT probe",
			"COMMIT")
		for _, q := range qs {
			if q == "COMMIT" && r.SQLGate.Run(ctx, "SELECT 1").Err == nil {
				stats["blocks committed"]++ // (the count asserted below)
			}
			// An index build's DETAIL names the duplicate PostgreSQL's
			// sort met first: its message and code are compared, not
			// which value.
			build := strings.Contains(q, " ADD ") || strings.Contains(q, " INDEX ")
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY"), detail: !build})
		}
		for _, q := range []string{fmt.Sprintf("DROP TABLE IF EXISTS %s", c), fmt.Sprintf("DROP TABLE IF EXISTS %s", p)} {
			r.SQLGate.Run(ctx, q)
			r.Postgres.Run(ctx, q)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 100 || stats["refused alike"] < 60 || stats["blocks committed"] < 10 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// dumpOrder makes the constraint carry test's action indexes a dump's
// sequence: without the second primary key (8), with the parent's key (0)
// when the foreign key (6) is there, and the foreign key last.
func dumpOrder(chosen []int) []int {
	var out []int
	fk, pk := false, false
	for _, i := range chosen {
		switch i {
		case 8:
		case 6:
			fk = true
		default:
			pk = pk || i == 0
			out = append(out, i)
		}
	}
	if fk {
		if !pk {
			out = append(out, 0)
		}
		out = append(out, 6)
	}
	return out
}
