package difftest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// partValues are the partition-key values TestPartitionDefaultDifferential
// writes and makes partitions of.
var partValues = []string{"a", "b", "c", "d", "e", "f"}

// partitionCatalogQuery lists the partitions of table as the catalogs
// show them: name, bound and partition constraint.
func partitionCatalogQuery(table string) string {
	return "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid), pg_get_partition_constraintdef(c.oid), c.relispartition " +
		"FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '" + table + "'::regclass ORDER BY 1"
}

// TestPartitionDefaultDifferential runs random steps over LIST-partitioned
// tables on sqlgate and PostgreSQL 15: INSERTs into the table and into its
// partitions, UPDATEs that move rows between partitions and the DEFAULT
// partition (or to a value no partition takes), DELETEs, CREATE TABLE ...
// PARTITION OF for values and DEFAULT (which the default's rows of the
// value make fail, 23514), ATTACH PARTITION of values and DEFAULT, DETACH
// PARTITION of partitions and of the default. After each step it compares
// the outcome (the same rows, or the same SQLSTATE, message and DETAIL),
// then every row with the partition it is in (tableoid), the partitions
// the catalogs list with their bounds and constraints, and the detached
// tables' rows. sqlgate refused DEFAULT partitions and DETACH PARTITION
// (0A000) before.
func TestPartitionDefaultDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 37)
	stats := map[string]int{}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for round := 0; round < 4; round++ {
		tbl := fmt.Sprintf("pt%d", round)
		runOnBoth(t, ctx, r, fmt.Sprintf("CREATE TABLE %s (id int, k text, v int, PRIMARY KEY (id, k)) PARTITION BY LIST (k)", tbl))
		parts := []string{}    // partition relations (names) now
		detached := []string{} // tables detached
		id := 0
		part := func(v string) string { return tbl + "_" + v }
		step := func(q string) {
			t.Helper()
			tallyBy(t, ctx, r, q, stats, tallyRule{detail: true, ordered: strings.Contains(q, "ORDER BY")})
		}
		check := func() {
			step("SELECT tableoid::regclass::text, id, k, v FROM " + tbl + " ORDER BY id")
			step(partitionCatalogQuery(tbl))
			// the round's tables, partitions or not (a failed ATTACH keeps
			// its table, a DETACH makes one)
			step("SELECT relname, relkind::text, relispartition FROM pg_class WHERE relname LIKE '" + tbl + "\\_%' AND relkind IN ('r', 'p') ORDER BY 1")
		}
		for range 2 + rng.IntN(2) {
			v := pick(partValues)
			q := fmt.Sprintf("CREATE TABLE %s PARTITION OF %s FOR VALUES IN ('%s')", part(v), tbl, v)
			step(q)
			if !slices.Contains(parts, part(v)) && !slices.Contains(detached, part(v)) {
				parts = append(parts, part(v))
			}
		}
		for s := 0; s < 30; s++ {
			switch n := rng.IntN(12); {
			case n < 4: // INSERT, into the table or one of its partitions
				id++
				into := tbl
				if len(parts) > 0 && rng.IntN(3) == 0 {
					into = pick(parts)
				}
				step(fmt.Sprintf("INSERT INTO %s VALUES (%d, '%s', %d)", into, id, pick(partValues), rng.IntN(100)))
			case n < 7: // UPDATE that may move the row
				if id == 0 {
					continue
				}
				into := tbl
				if len(parts) > 0 && rng.IntN(4) == 0 {
					into = pick(parts)
				}
				step(fmt.Sprintf("UPDATE %s SET k = '%s' WHERE id = %d", into, pick(partValues), 1+rng.IntN(id)))
			case n == 7:
				if id > 0 {
					step(fmt.Sprintf("DELETE FROM %s WHERE id = %d", tbl, 1+rng.IntN(id)))
				}
			case n == 8: // a partition of a value, maybe held by the default
				v := pick(partValues)
				name := part(v)
				if slices.Contains(detached, name) {
					continue
				}
				if rng.IntN(2) == 0 {
					step(fmt.Sprintf("CREATE TABLE %s PARTITION OF %s FOR VALUES IN ('%s')", name, tbl, v))
				} else { // an empty table attached (kept where the ATTACH fails)
					step(fmt.Sprintf("CREATE TABLE %s (id int NOT NULL, k text NOT NULL, v int)", name))
					step(fmt.Sprintf("ALTER TABLE %s ATTACH PARTITION %s FOR VALUES IN ('%s')", tbl, name, v))
				}
			case n == 9: // the DEFAULT partition, created or attached
				name := tbl + "_def" + fmt.Sprint(s)
				if rng.IntN(2) == 0 {
					step(fmt.Sprintf("CREATE TABLE %s PARTITION OF %s DEFAULT", name, tbl))
				} else {
					step(fmt.Sprintf("CREATE TABLE %s (id int NOT NULL, k text NOT NULL, v int)", name))
					step(fmt.Sprintf("ALTER TABLE %s ATTACH PARTITION %s DEFAULT", tbl, name))
				}
			default: // DETACH PARTITION of a partition or the default
				var names []string
				for _, p := range parts {
					if !slices.Contains(detached, p) {
						names = append(names, p)
					}
				}
				for k := 0; k < s; k++ {
					names = append(names, tbl+"_def"+fmt.Sprint(k))
				}
				if len(names) == 0 {
					continue
				}
				name := pick(names)
				step(fmt.Sprintf("ALTER TABLE %s DETACH PARTITION %s", tbl, name))
				detached = append(detached, name)
			}
			// the partitions as they are now (either server's list: the
			// steps agree or the test already failed)
			parts = parts[:0]
			o := r.Postgres.Run(ctx, "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"+tbl+"'::regclass ORDER BY 1")
			for _, row := range o.Rows {
				parts = append(parts, row[0].Text)
			}
			check()
		}
		for _, d := range detached {
			step("SELECT id, k, v FROM " + d + " ORDER BY id")
			step("SELECT relkind::text, relispartition FROM pg_class WHERE relname = '" + d + "'")
		}
		step("DROP TABLE " + tbl)
		for _, d := range detached {
			step("DROP TABLE IF EXISTS " + d)
		}
	}
	t.Logf("%v", stats)
	if stats["same"] < 200 || stats["refused alike"] < 10 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
