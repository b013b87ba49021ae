package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestUniqueLogTableDifferential declares random tables without a primary
// key (Fluss log tables) with UNIQUE constraints on sqlgate and
// PostgreSQL 15 — a column's UNIQUE, a table's UNIQUE (b, c), or ALTER
// TABLE ... ADD UNIQUE over the rows already there, as pg_dump adds them
// before the primary key — then runs random INSERTs of one row and of
// several (with ON CONFLICT DO NOTHING and RETURNING too), transaction blocks that commit or roll back (some adding a
// constraint after their rows: engine/uniquecarry.go), TRUNCATEs (in a
// block too), DROP CONSTRAINTs and, at a random point, ALTER TABLE ...
// ADD PRIMARY KEY (id), which rewrites the table with its constraints;
// from then on UPDATEs and DELETEs too (a log table refuses them in
// sqlgate). Every outcome (SQLSTATE, message and DETAIL, or success) and
// the rows left are compared. Values are drawn from a few so that they
// collide, with NULLs (which never do). New rows take new ids, so the
// primary key is never refused (sqlgate's INSERT of an existing key is an
// upsert by design), and a block is never rolled back after a DDL
// statement (sqlgate's DDL takes effect at once).
func TestUniqueLogTableDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 31)
	stats := map[string]int{}
	val := func() string {
		if rng.IntN(6) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.IntN(6))
	}
	text := func() string {
		if rng.IntN(6) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("'%c'", 'a'+rng.IntN(4))
	}
	decls := []string{
		"a int UNIQUE, b text, c int",
		"a int, b text, c int, UNIQUE (b, c)",
		"a int CONSTRAINT uq_a UNIQUE, b text UNIQUE, c int",
		"a int, b text, c int",
	}
	for k := 0; k < 12; k++ {
		tbl := fmt.Sprintf("uql%d", k)
		qs := []string{fmt.Sprintf("CREATE TABLE %s (id int, %s)", tbl, decls[rng.IntN(len(decls))])}
		id := 0
		row := func() string {
			id++
			return fmt.Sprintf("(%d, %s, %s, %s)", id, val(), text(), val())
		}
		rows := func() string {
			n := 1 + rng.IntN(3)
			out := make([]string, n)
			for i := range out {
				out[i] = row()
			}
			return strings.Join(out, ", ")
		}
		hasKey := false
		addUnique := func() string {
			switch rng.IntN(3) {
			case 0:
				return fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_a_key UNIQUE (a)", tbl, tbl)
			case 1:
				return fmt.Sprintf("ALTER TABLE %s ADD UNIQUE (c)", tbl)
			}
			return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_bc UNIQUE (b, c)", tbl, tbl)
		}
		for step := 0; step < 30; step++ {
			switch n := rng.IntN(15); {
			case n < 4:
				qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()))
			case n == 4 || n == 14:
				target := []string{"", " (a)", " (b, c)", " (c)"}[rng.IntN(4)]
				qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s ON CONFLICT%s DO NOTHING RETURNING id", tbl, rows(), target))
			case n == 5:
				qs = append(qs, addUnique())
			case n == 6:
				qs = append(qs, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT IF EXISTS %s_a_key", tbl, tbl))
			case n == 7:
				if rng.IntN(2) == 0 {
					qs = append(qs, fmt.Sprintf("TRUNCATE %s", tbl))
				} else {
					qs = append(qs, "BEGIN", fmt.Sprintf("TRUNCATE %s", tbl), fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()),
						[]string{"COMMIT", "ROLLBACK"}[rng.IntN(2)])
				}
			case n == 8:
				// a block's rows, kept or not
				qs = append(qs, "BEGIN", fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()), fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()),
					[]string{"COMMIT", "ROLLBACK"}[rng.IntN(2)])
			case n == 9:
				// pg_restore --single-transaction: rows, then a constraint,
				// the block's last statement (a block that failed ends in
				// ROLLBACK whatever COMMIT says, which undoes the DDL in
				// PostgreSQL alone). The primary key's block has rows no
				// unique constraint refuses: the key is surely added.
				if !hasKey && rng.IntN(2) == 0 {
					id++
					qs = append(qs, "BEGIN", fmt.Sprintf("INSERT INTO %s VALUES (%d, NULL, NULL, NULL), (%d, NULL, NULL, NULL)", tbl, id, id+1),
						fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_pkey PRIMARY KEY (id)", tbl, tbl))
					id++
					hasKey = true
				} else if !hasKey { // (a primary-key table's block rows are not carried: 0A000)
					qs = append(qs, "BEGIN", fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()), addUnique())
				} else {
					qs = append(qs, "BEGIN", fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, rows()))
				}
				qs = append(qs, "COMMIT")
			case n == 10 && !hasKey:
				qs = append(qs, fmt.Sprintf("ALTER TABLE ONLY %s ADD CONSTRAINT %s_pkey PRIMARY KEY (id)", tbl, tbl))
				hasKey = true
			case n >= 10 && hasKey:
				if rng.IntN(3) == 0 {
					qs = append(qs, fmt.Sprintf("DELETE FROM %s WHERE a = %s", tbl, val()))
				} else {
					qs = append(qs, fmt.Sprintf("UPDATE %s SET a = %s, b = %s WHERE id = %d", tbl, val(), text(), 1+rng.IntN(id+1)))
				}
			default:
				qs = append(qs, fmt.Sprintf("SELECT id, a, b, c FROM %s ORDER BY id", tbl))
			}
		}
		qs = append(qs,
			fmt.Sprintf("SELECT id, a, b, c FROM %s ORDER BY id", tbl),
			fmt.Sprintf("SELECT conname, contype, conkey::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '%s'::regclass ORDER BY conname", tbl),
			fmt.Sprintf("DROP TABLE %s", tbl))
		for _, q := range qs {
			// An index build's DETAIL names the duplicate PostgreSQL's
			// sort met first: its message and code are compared, not
			// which value.
			build := strings.Contains(q, " ADD ")
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY"), detail: !build})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 150 || stats["refused alike"] < 30 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
