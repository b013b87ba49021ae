package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestAlterStorageDifferential runs random ALTER TABLE actions that change
// only PostgreSQL's catalog (REPLICA IDENTITY, CLUSTER ON / SET WITHOUT
// CLUSTER, ALTER COLUMN SET STATISTICS / STORAGE / COMPRESSION, SET /
// RESET (fillfactor)), valid and not (unknown columns and indexes, a
// nullable unique index as replica identity, out-of-range targets, storage
// a fixed-length type cannot have), one or two per statement, on sqlgate
// and PostgreSQL 15, and compares every outcome (the same SQLSTATE and
// message) and what pg_class, pg_index and pg_attribute show after. sqlgate
// refused every one of these actions before.
func TestAlterStorageDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 7)
	stats := map[string]int{}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	columns := []string{"n", "s", "v", "d", "nosuch"}
	action := func(tbl string) string {
		switch rng.IntN(8) {
		case 0:
			return "REPLICA IDENTITY " + pick([]string{"DEFAULT", "FULL", "NOTHING"})
		case 1:
			return "REPLICA IDENTITY USING INDEX " + pick([]string{tbl + "_pkey", tbl + "_d", tbl + "_s", "nosuch", tbl})
		case 2:
			return "CLUSTER ON " + pick([]string{tbl + "_pkey", tbl + "_d", tbl + "_s", "nosuch", tbl})
		case 3:
			return "SET WITHOUT CLUSTER"
		case 4:
			return fmt.Sprintf("ALTER COLUMN %s SET STATISTICS %s", pick(columns), pick([]string{"-2", "-1", "0", "100", "10000", "20000"}))
		case 5:
			return fmt.Sprintf("ALTER COLUMN %s SET STORAGE %s", pick(columns), pick([]string{"PLAIN", "EXTERNAL", "EXTENDED", "MAIN", "foo"}))
		case 6:
			return fmt.Sprintf("ALTER COLUMN %s SET COMPRESSION %s", pick(columns), pick([]string{"pglz", "lz4", "default", "foo"}))
		}
		if rng.IntN(3) == 0 {
			return "RESET (fillfactor)"
		}
		return "SET (fillfactor = " + pick([]string{"5", "10", "70", "100", "101"}) + ")"
	}
	for k := 0; k < 5; k++ {
		tbl := fmt.Sprintf("ast%d", k)
		qs := []string{
			fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, n int, s text, v varchar(5), d text NOT NULL)", tbl),
			fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_d UNIQUE (d)", tbl, tbl),
			fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_s UNIQUE (s)", tbl, tbl),
		}
		for step := 0; step < 16; step++ {
			q := "ALTER TABLE " + tbl + " " + action(tbl)
			if rng.IntN(4) == 0 {
				q += ", " + action(tbl)
			}
			qs = append(qs, q)
		}
		qs = append(qs,
			"SELECT relreplident, reloptions FROM pg_class WHERE relname = '"+tbl+"'",
			"SELECT c.relname, i.indisreplident, i.indisclustered FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '"+tbl+"'::regclass ORDER BY 1",
			"SELECT attname, attstattarget, attstorage, attcompression FROM pg_attribute WHERE attrelid = '"+tbl+"'::regclass AND attnum > 0 ORDER BY attnum",
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
