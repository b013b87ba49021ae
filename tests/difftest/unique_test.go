package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestUniqueConstraintsDifferential declares random tables with UNIQUE
// constraints beyond their primary key on sqlgate and PostgreSQL 15 — a
// column's UNIQUE, a table's UNIQUE (b, c), a named one, or CREATE UNIQUE
// INDEX / ALTER TABLE ... ADD UNIQUE over the rows already there — then
// runs random INSERTs (of one row and of several), ON CONFLICT DO
// NOTHING (with and without a target) and DO UPDATE (also of rows taking
// an existing primary key under a unique constraint's arbiter), UPDATEs, DELETEs, TRUNCATEs and
// DROP CONSTRAINTs, and compares every outcome (the same SQLSTATE,
// message and DETAIL, or success) and the rows left. Values are drawn
// from a few so that they collide, with NULLs (which never do). The
// statements are those whose PostgreSQL outcome does not depend on the
// order a statement visits its rows in: new rows take new primary keys
// (sqlgate's INSERT of an existing key is an upsert by design), and an
// UPDATE of several rows sets one column to a constant (which fails
// whatever the order when two rows match, and names the same constraint).
// sqlgate refused the declarations before.
func TestUniqueConstraintsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 11)
	stats := map[string]int{}
	val := func() string {
		if rng.IntN(7) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.IntN(5))
	}
	text := func() string {
		if rng.IntN(7) == 0 {
			return "NULL"
		}
		return fmt.Sprintf("'%c'", 'a'+rng.IntN(4))
	}
	decls := []string{
		"a int UNIQUE, b text, c int",
		"a int, b text, c int, UNIQUE (b, c)",
		"a int UNIQUE, b text, c int, CONSTRAINT uq_bc UNIQUE (c, b)",
		"a int CONSTRAINT uq_a UNIQUE, b text UNIQUE, c int",
		"a int, b text, c int",
	}
	for k := 0; k < 10; k++ {
		tbl := fmt.Sprintf("uqd%d", k)
		qs := []string{fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, %s)", tbl, decls[rng.IntN(len(decls))])}
		id := 0
		row := func() string {
			id++
			return fmt.Sprintf("(%d, %s, %s, %s)", id, val(), text(), val())
		}
		where := func() string {
			switch rng.IntN(4) {
			case 0:
				return fmt.Sprintf("a = %s", val())
			case 1:
				return fmt.Sprintf("b = %s", text())
			default:
				return fmt.Sprintf("id = %d", 1+rng.IntN(id+1))
			}
		}
		for step := 0; step < 30; step++ {
			switch rng.IntN(15) {
			case 0, 1, 2:
				qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, row()))
			case 3:
				qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s, %s", tbl, row(), row()))
			case 4:
				target := []string{"", " (a)", " (b, c)", " (c, b)"}[rng.IntN(4)]
				if target != "" && rng.IntN(2) == 0 { // the row holding the value is updated
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s, %s ON CONFLICT%s DO UPDATE SET c = EXCLUDED.c + %s.c", tbl, row(), row(), target, tbl))
				} else {
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s, %s ON CONFLICT%s DO NOTHING", tbl, row(), row(), target))
				}
			case 5, 6:
				qs = append(qs, fmt.Sprintf("UPDATE %s SET a = %s WHERE id = %d", tbl, val(), 1+rng.IntN(id+1)))
			case 7:
				if rng.IntN(2) == 0 { // several rows: only a's constraints see the value
					qs = append(qs, fmt.Sprintf("UPDATE %s SET a = %s WHERE %s", tbl, val(), where()))
				} else {
					qs = append(qs, fmt.Sprintf("UPDATE %s SET b = %s, c = %s WHERE id = %d", tbl, text(), val(), 1+rng.IntN(id+1)))
				}
			case 8:
				qs = append(qs, fmt.Sprintf("UPDATE %s SET a = a + 1 WHERE id = %d", tbl, 1+rng.IntN(id+1)))
			case 9, 10:
				qs = append(qs, fmt.Sprintf("DELETE FROM %s WHERE %s", tbl, where()))
			case 11:
				switch rng.IntN(3) {
				case 0:
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s ADD UNIQUE (a)", tbl))
				case 1:
					qs = append(qs, fmt.Sprintf("CREATE UNIQUE INDEX %s_c_ix ON %s (c)", tbl, tbl))
				default:
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_bc UNIQUE (b, c)", tbl, tbl))
				}
			case 12:
				switch rng.IntN(3) {
				case 0:
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s_a_key", tbl, tbl))
				case 1:
					qs = append(qs, fmt.Sprintf("DROP INDEX %s_c_ix", tbl))
				default:
					qs = append(qs, fmt.Sprintf("TRUNCATE %s", tbl))
				}
			case 13:
				// A row taking an existing primary key under an arbiter that
				// is a unique constraint: the arbiter refuses it only when a
				// row holds its value; else it is a plain insert, and the
				// key refuses it (23505 on the pkey).
				if id == 0 {
					continue // no key taken yet (a new one would be taken again by row)
				}
				target := []string{" (a)", " (b, c)"}[rng.IntN(2)]
				old := fmt.Sprintf("(%d, %s, %s, %s)", 1+rng.IntN(id), val(), text(), val())
				if rng.IntN(2) == 0 {
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s ON CONFLICT%s DO UPDATE SET c = EXCLUDED.c + %s.c", tbl, old, target, tbl))
				} else {
					qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s ON CONFLICT%s DO NOTHING", tbl, old, target))
				}
			default:
				qs = append(qs, fmt.Sprintf("SELECT id, a, b, c FROM %s ORDER BY id", tbl))
			}
		}
		qs = append(qs,
			fmt.Sprintf("SELECT id, a, b, c FROM %s ORDER BY id", tbl),
			fmt.Sprintf("SELECT conname, contype, conkey::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '%s'::regclass ORDER BY conname", tbl),
			fmt.Sprintf("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = '%s' ORDER BY indexname", tbl),
			fmt.Sprintf("DROP TABLE %s", tbl))
		for _, q := range qs {
			if strings.HasPrefix(q, "DROP INDEX") {
				q = strings.Replace(q, "DROP INDEX", "DROP INDEX IF EXISTS", 1) // (sqlgate's NOTICE for a name it lacks differs)
			}
			// An index build's DETAIL names the duplicate PostgreSQL's
			// sort met first, which depends on its sort's comparisons:
			// its message and code are compared, not which value.
			build := strings.Contains(q, " ADD ") || strings.HasPrefix(q, "CREATE UNIQUE")
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY"), detail: !build})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 100 || stats["refused alike"] < 20 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestUniqueDoNothingReturningDifferential runs random INSERT ... ON
// CONFLICT [target] DO NOTHING RETURNING statements on tables with
// several UNIQUE constraints beyond the primary key, on sqlgate and
// PostgreSQL 15, and compares the rows each returns, its error, and the
// rows left. Values are drawn from a few so that a proposed row conflicts
// on each constraint, with a stored row or with an earlier row of the
// same statement, and keys are taken again now and then. RETURNING listed
// a row a unique constraint's conflict skipped (only a key's conflict
// took a row out of its list).
func TestUniqueDoNothingReturningDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 12)
	stats := map[string]int{}
	val := func() string {
		if rng.IntN(8) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.IntN(6))
	}
	decls := []string{
		"a int UNIQUE, b int UNIQUE, c int, d int",
		"a int UNIQUE, b int, c int, d int, UNIQUE (c, d)",
		"a int, b int UNIQUE, c int, d int, CONSTRAINT uq_cd UNIQUE (c, d), CONSTRAINT uq_a UNIQUE (a)",
	}
	for k := 0; k < 8; k++ {
		tbl := fmt.Sprintf("uqr%d", k)
		qs := []string{fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, %s)", tbl, decls[k%len(decls)])}
		id := 0
		row := func() string {
			key := id + 1
			if id > 0 && rng.IntN(6) == 0 {
				key = 1 + rng.IntN(id) // a key taken: skipped, or the key's 23505 under another arbiter
			} else {
				id++
			}
			return fmt.Sprintf("(%d, %s, %s, %s, %s)", key, val(), val(), val(), val())
		}
		for step := 0; step < 25; step++ {
			n := 1 + rng.IntN(4)
			rows := make([]string, n)
			for i := range rows {
				rows[i] = row()
			}
			target := []string{"", "", " (a)", " (b)", " (c, d)", " (id)"}[rng.IntN(6)]
			qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES %s ON CONFLICT%s DO NOTHING RETURNING id, a, b, c, d", tbl, strings.Join(rows, ", "), target))
			if rng.IntN(5) == 0 {
				qs = append(qs, fmt.Sprintf("DELETE FROM %s WHERE a = %s RETURNING id", tbl, val()))
			}
		}
		qs = append(qs, fmt.Sprintf("SELECT id, a, b, c, d FROM %s ORDER BY id", tbl), fmt.Sprintf("DROP TABLE %s", tbl))
		for _, q := range qs {
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY"), detail: true})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 120 || stats["refused alike"] < 5 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
