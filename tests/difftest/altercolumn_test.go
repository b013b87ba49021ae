package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// alterColumnTypes are the types TestAlterColumnDifferential adds columns
// of, each with the values (and defaults) it writes.
var alterColumnTypes = map[string][]string{
	"int":     {"0", "5", "-3", "'7'", "2 + 3"},
	"text":    {"'a'", "'b c'", "''", "'{x}'"},
	"boolean": {"true", "false"},
	"date":    {"'2024-01-02'", "'1999-12-31'"},
	"bigint":  {"9000000000", "-1"},
}

// alterColumnType is a column of the table under test: its name and type.
type alterColumnType struct{ name, typ string }

// TestAlterColumnDifferential runs random sequences of ALTER TABLE ... ADD
// COLUMN [DEFAULT v] [NOT NULL], ALTER COLUMN SET / DROP DEFAULT, SET / DROP
// NOT NULL, INSERT (of some of the columns: the others take their
// defaults), UPDATE and DELETE over random tables with rows, on sqlgate and
// PostgreSQL 15, and compares each statement's outcome (the same SQLSTATE
// and message when refused) and the table's rows after each, then the
// columns' nullability and defaults (information_schema) and missing
// values (pg_attribute). The rows stored before an ADD COLUMN ... DEFAULT
// read the default's value; main refused the DEFAULT and the NOT NULLs.
func TestAlterColumnDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 36)
	stats := map[string]int{}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	types := []string{"int", "text", "boolean", "date", "bigint"}
	// step runs q on both and reports whether PostgreSQL took it.
	step := func(q string, ordered bool) bool {
		t.Helper()
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		kind, why := verdict(sg, pg, tallyRule{ordered: ordered})
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s", q, why)
		}
		return pg.Err == nil && sg.Err == nil
	}
	for k := 0; k < 8; k++ {
		tbl := fmt.Sprintf("acd%d", k)
		pk := k%4 != 3 // every fourth a log table (no UPDATE, DELETE)
		if pk {
			runOnBoth(t, ctx, r, fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, n int)", tbl))
		} else {
			runOnBoth(t, ctx, r, fmt.Sprintf("CREATE TABLE %s (id int, n int)", tbl))
		}
		cols := []alterColumnType{{"n", "int"}}
		id := 0
		value := func(c alterColumnType) string {
			if rng.IntN(4) == 0 {
				return "NULL"
			}
			return pick(alterColumnTypes[c.typ])
		}
		insert := func() string {
			id++
			names, vals := []string{"id"}, []string{fmt.Sprint(id)}
			for _, c := range cols {
				if rng.IntN(3) > 0 {
					names, vals = append(names, c.name), append(vals, value(c))
				}
			}
			return fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", tbl, strings.Join(names, ", "), strings.Join(vals, ", "))
		}
		for range rng.IntN(5) { // an empty table now and then
			step(insert(), false)
		}
		added := 0
		for s := 0; s < 18; s++ {
			var q string
			c := cols[rng.IntN(len(cols))]
			switch rng.IntN(10) {
			case 0, 1, 2:
				added++
				nc := alterColumnType{fmt.Sprintf("c%d", added), pick(types)}
				q = fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s %s", tbl, nc.name, nc.typ)
				if rng.IntN(4) > 0 {
					d := pick(alterColumnTypes[nc.typ])
					if rng.IntN(6) == 0 {
						d = "NULL"
					}
					q += " DEFAULT " + d
				}
				switch rng.IntN(5) {
				case 0, 1:
					q += " NOT NULL"
				case 2:
					// with another action. (Not with both NOT NULL: the
					// first stored row holding a NULL names its column, and
					// PostgreSQL's heap keeps updated rows at its end where
					// a primary-key table's scan has them in key order.)
					q += fmt.Sprintf(", ALTER COLUMN %s SET NOT NULL", c.name)
				}
				if step(q, false) {
					cols = append(cols, nc)
				}
				continue
			case 3:
				if rng.IntN(3) == 0 {
					q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP DEFAULT", tbl, c.name)
				} else {
					q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DEFAULT %s", tbl, c.name, pick(alterColumnTypes[c.typ]))
				}
			case 4:
				q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET NOT NULL", tbl, c.name)
			case 5:
				name := c.name
				if pk && rng.IntN(5) == 0 {
					name = "id" // 42P16
				}
				q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP NOT NULL", tbl, name)
			case 6:
				if pk && id > 0 {
					q = fmt.Sprintf("UPDATE %s SET %s = %s WHERE id = %d", tbl, c.name, value(c), 1+rng.IntN(id))
					break
				}
				q = insert()
			case 7:
				if pk && id > 0 {
					q = fmt.Sprintf("DELETE FROM %s WHERE id = %d", tbl, 1+rng.IntN(id))
					break
				}
				q = insert()
			default:
				q = insert()
			}
			step(q, false)
			step("SELECT * FROM "+tbl+" ORDER BY id", true)
		}
		step("SELECT * FROM "+tbl+" ORDER BY id", true)
		step("SELECT column_name, is_nullable, column_default FROM information_schema.columns WHERE table_name = '"+tbl+"' ORDER BY ordinal_position", true)
		step("SELECT attname, attnotnull, atthasmissing, attmissingval::text FROM pg_attribute WHERE attrelid = '"+tbl+"'::regclass AND attnum > 0 ORDER BY attnum", true)
		runOnBoth(t, ctx, r, "DROP TABLE "+tbl)
	}
	t.Logf("%v", stats)
	if stats["same"] < 60 || stats["refused alike"] < 5 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
