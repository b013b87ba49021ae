package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestRenameConstraintDifferential renames a table's constraints and
// indexes at random on sqlgate and PostgreSQL 15 — ALTER TABLE ... RENAME
// CONSTRAINT, ALTER INDEX [IF EXISTS] ... RENAME TO and ALTER TABLE ...
// ADD CONSTRAINT ... UNIQUE USING INDEX over a primary key, a UNIQUE
// constraint, a unique index, a CHECK and a FOREIGN KEY constraint, from
// and to each other's names, the table's and new ones — with INSERTs
// whose violation names a constraint between them, and compares every
// outcome (the same SQLSTATE and message for a refusal) and the names
// pg_constraint and pg_index list at the end. sqlgate answered 42601 or
// 0A000 to each of these statements before.
func TestRenameConstraintDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 39)
	stats := map[string]int{}
	for k := 0; k < 8; k++ {
		tbl := fmt.Sprintf("rn%d", k)
		names := []string{tbl + "_pkey", tbl + "_a_key", tbl + "_c_check", tbl + "_fk", tbl + "_b_idx", "x1", "x2"}
		targets := append([]string{tbl, "rn_other"}, names...)
		pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
		qs := []string{
			fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, a int, b int, c int CHECK (c > 0), CONSTRAINT %s_a_key UNIQUE (a), CONSTRAINT %s_fk FOREIGN KEY (a) REFERENCES %s (id))", tbl, tbl, tbl, tbl),
			fmt.Sprintf("CREATE UNIQUE INDEX %s_b_idx ON %s (b)", tbl, tbl),
			fmt.Sprintf("INSERT INTO %s VALUES (1, 1, 1, 1), (2, 2, 2, 1)", tbl),
		}
		id := 2
		for step := 0; step < 16; step++ {
			switch rng.IntN(5) {
			case 0, 1:
				qs = append(qs, fmt.Sprintf("ALTER TABLE %s RENAME CONSTRAINT %s TO %s", tbl, pick(names), pick(targets)))
			case 2:
				ifExists := ""
				if rng.IntN(3) == 0 {
					ifExists = "IF EXISTS "
				}
				qs = append(qs, fmt.Sprintf("ALTER INDEX %s%s RENAME TO %s", ifExists, pick(names), pick(targets)))
			case 3:
				name := ""
				if rng.IntN(3) > 0 {
					name = "CONSTRAINT " + pick(targets) + " "
				}
				qs = append(qs, fmt.Sprintf("ALTER TABLE %s ADD %sUNIQUE USING INDEX %s", tbl, name, pick(names)))
			default:
				// one violation a row, which names its constraint
				id++
				row := []string{
					fmt.Sprintf("%d, 1, NULL, 1", id),    // the UNIQUE constraint on a
					fmt.Sprintf("%d, NULL, 2, 1", id),    // the unique index on b
					fmt.Sprintf("%d, NULL, NULL, 0", id), // the CHECK
					fmt.Sprintf("%d, 9, NULL, 1", id),    // the foreign key
				}[rng.IntN(4)]
				qs = append(qs, fmt.Sprintf("INSERT INTO %s VALUES (%s)", tbl, row))
			}
		}
		qs = append(qs,
			"SELECT conname, contype FROM pg_constraint WHERE conrelid = '"+tbl+"'::regclass ORDER BY conname",
			"SELECT c.relname, i.indisprimary, i.indisunique FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '"+tbl+"'::regclass ORDER BY 1",
			"DROP TABLE "+tbl)
		for _, q := range qs {
			sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
			if pg.Err != nil && pg.Err.Code == "23505" && strings.Contains(pg.Err.Message, "pg_constraint_conrelid_contypid_conname_index") {
				// UNIQUE USING INDEX of an index named as another
				// constraint: PostgreSQL fails on its catalog's unique
				// index (an internal error), sqlgate with 42710
				stats["catalog duplicate"]++
				if sg.Err == nil || sg.Err.Code != "42710" {
					t.Errorf("%s\n  sqlgate: %s, want 42710", q, describeErr(sg))
				}
				continue
			}
			kind, why := verdict(sg, pg, tallyRule{ordered: true})
			stats[kind]++
			if kind == "different" {
				t.Errorf("%s\n%s", q, why)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 40 || stats["refused alike"] < 20 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
