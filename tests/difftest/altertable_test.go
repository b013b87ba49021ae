package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// alterChecks are the CHECK expressions TestAlterTableConstraintsDifferential
// adds over tables of columns n int and s text.
var alterChecks = []string{"n > 0", "n < 50", "n <> 7", "n IS NOT NULL", "length(s) < 4", "n > 0 OR s IS NULL", "upper(s) = s",
	"s IS NULL OR length(s) > 1", "n >= 2 AND s IS NOT NULL"}
var alterValues = []string{"1, 'a'", "-3, 'abc'", "7, 'BAD'", "8, 'bad'", "NULL, 'x'", "60, NULL", "2, 'abcd'", "49, 'AB'", "0, ''", "NULL, NULL"}

// alterDefaults are the defaults it sets on n and s. (The expressions of
// both lists are ones PostgreSQL's deparser prints as written: sqlgate
// shows a constraint's or a default's text as written, where PostgreSQL
// prints 'q' inside a call as 'q'::text and brackets a nested operator.)
var alterDefaults = map[string][]string{"n": {"42", "-1", "'5'", "2 + 3", "NULL", "'x'", "length(NULL::text)"}, "s": {"'d'", "NULL", "'bad'", "7", "NULL::text"}}

// TestAlterTableConstraintsDifferential alters random tables on sqlgate and
// PostgreSQL 15 with ALTER TABLE ... ADD [CONSTRAINT name] CHECK (...)
// [NOT VALID] (which checks the stored rows unless NOT VALID), VALIDATE
// CONSTRAINT, DROP CONSTRAINT [IF EXISTS] and ALTER COLUMN SET / DROP
// DEFAULT between random INSERTs, and compares every outcome (the rows, or
// the same SQLSTATE and message), the constraints pg_constraint lists and
// the defaults information_schema shows. sqlgate refused every one of
// these actions before.
func TestAlterTableConstraintsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 2)
	stats := map[string]int{}
	run := func(s string) { t.Helper(); runOnBoth(t, ctx, r, s) }
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for k := 0; k < 6; k++ {
		tbl := fmt.Sprintf("alt%d", k)
		run(fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, n int, s text)", tbl))
		id := 0
		insert := func() string {
			id++
			return fmt.Sprintf("INSERT INTO %s VALUES (%d, %s)", tbl, id, pick(alterValues))
		}
		var qs []string
		for range 4 {
			qs = append(qs, insert())
		}
		names := []string{}
		for step := 0; step < 14; step++ {
			switch rng.IntN(7) {
			case 0, 1:
				q := fmt.Sprintf("ALTER TABLE %s ADD", tbl)
				if rng.IntN(2) == 0 {
					name := fmt.Sprintf("%s_c%d", tbl, step)
					names = append(names, name)
					q += " CONSTRAINT " + name
				}
				q += " CHECK (" + pick(alterChecks) + ")"
				if rng.IntN(3) == 0 {
					q += " NOT VALID"
				}
				if rng.IntN(4) == 0 { // two in one statement
					q += ", ADD CHECK (" + pick(alterChecks) + ")"
				}
				qs = append(qs, q)
			case 2:
				if len(names) > 0 && rng.IntN(3) > 0 {
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s VALIDATE CONSTRAINT %s", tbl, pick(names)))
				} else {
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s VALIDATE CONSTRAINT %s_n_check", tbl, tbl))
				}
			case 3:
				target := fmt.Sprintf("%s_n_check", tbl)
				if len(names) > 0 && rng.IntN(2) == 0 {
					target = pick(names)
				}
				ifExists := ""
				if rng.IntN(2) == 0 {
					ifExists = "IF EXISTS "
				}
				qs = append(qs, fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT %s%s", tbl, ifExists, target))
			case 4:
				col := pick([]string{"n", "s"})
				if rng.IntN(3) == 0 {
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP DEFAULT", tbl, col))
				} else {
					qs = append(qs, fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DEFAULT %s", tbl, col, pick(alterDefaults[col])))
				}
				id++
				qs = append(qs, fmt.Sprintf("INSERT INTO %s (id) VALUES (%d)", tbl, id))
			default:
				// (no UPDATE: PostgreSQL moves an updated row to the end of
				// its heap, which a primary-key table's scan order is not,
				// and the first failing row names the constraint reported)
				qs = append(qs, insert())
			}
		}
		qs = append(qs,
			"SELECT id, n, s FROM "+tbl+" ORDER BY id",
			"SELECT conname, contype, convalidated, pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = '"+tbl+"'::regclass ORDER BY conname",
			"SELECT column_name, column_default FROM information_schema.columns WHERE table_name = '"+tbl+"' ORDER BY ordinal_position",
			"DROP TABLE "+tbl)
		for _, q := range qs {
			tallyBy(t, ctx, r, q, stats, tallyRule{ordered: strings.Contains(q, "ORDER BY")})
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 40 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
