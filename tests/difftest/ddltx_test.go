package difftest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ddltxCatalog are the catalog queries TestDDLTransactionDifferential
// compares after each block: what a migration tool reads of the tables,
// columns, constraints, indexes, sequences, views, schemas, functions,
// types and comments the generator makes (all named dx...).
var ddltxCatalog = []string{
	"SELECT table_schema, table_name, table_type FROM information_schema.tables WHERE table_name LIKE 'dx%' ORDER BY 1, 2",
	"SELECT table_schema, table_name, column_name, ordinal_position, data_type, column_default, is_nullable FROM information_schema.columns WHERE table_name LIKE 'dx%' ORDER BY 1, 2, 4",
	"SELECT conrelid::regclass::text, conname, contype FROM pg_constraint WHERE conname LIKE 'dx%' ORDER BY 1, 2",
	"SELECT tablename, indexname FROM pg_indexes WHERE tablename LIKE 'dx%' ORDER BY 1, 2",
	"SELECT sequence_schema, sequence_name FROM information_schema.sequences WHERE sequence_name LIKE 'dx%' ORDER BY 1, 2",
	"SELECT table_name, view_definition IS NOT NULL FROM information_schema.views WHERE table_name LIKE 'dx%' ORDER BY 1",
	"SELECT nspname FROM pg_namespace WHERE nspname LIKE 'dx%' ORDER BY 1",
	"SELECT proname, pronargs FROM pg_proc WHERE proname LIKE 'dx%' ORDER BY 1",
	"SELECT typname, typtype FROM pg_type WHERE typname LIKE 'dx%' ORDER BY 1",
	"SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid WHERE c.relname LIKE 'dx%' AND d.description LIKE 'c_' ORDER BY 1, 2",
}

// ddltxState is what the generator knows of the committed and the
// block's objects, to write statements that mostly succeed and to keep to
// what sqlgate runs in a block (no DDL of a table the block wrote rows to:
// 0A000, engine/txddl.go; no name made again after the block dropped it:
// the drop then runs at once).
type ddltxState struct {
	tables  []string // dx_t0 .. : the names in use (maybe not existing)
	written map[string]bool
	dropped map[string]bool
	log     map[string]bool // made by CREATE TABLE AS (no primary key)
}

// TestDDLTransactionDifferential runs random transaction blocks of DDL
// (CREATE TABLE [AS], SEQUENCE, VIEW, SCHEMA, FUNCTION, TYPE, DOMAIN,
// UNIQUE INDEX, COMMENT ON, ALTER TABLE's ADD COLUMN / SET and DROP
// DEFAULT / SET NOT NULL / ADD CHECK / ADD UNIQUE / RENAME COLUMN /
// RENAME TO, DROP TABLE) mixed with INSERTs, SAVEPOINTs, ROLLBACK TO and
// failing statements, ended by COMMIT or ROLLBACK, on sqlgate and
// PostgreSQL 15: each statement's outcome (its SQLSTATE when refused)
// must match, and after each block the catalog (ddltxCatalog) and the
// tables' rows. SQLGATE_DIFF_DDLTX_BLOCKS sets the number of blocks
// (default 16).
func TestDDLTransactionDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 44)
	blocks := 16
	if n, err := strconv.Atoi(os.Getenv("SQLGATE_DIFF_DDLTX_BLOCKS")); err == nil && n > 0 {
		blocks = n
	}
	stats := map[string]int{}
	var logged []string
	step := func(q string) bool {
		t.Helper()
		logged = append(logged, q)
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		kind, why := verdict(sg, pg, tallyRule{codeOnly: true})
		stats[kind]++
		if kind == "different" {
			t.Errorf("%s\n%s\nblock so far:\n  %s", q, why, strings.Join(logged, ";\n  "))
		}
		if testing.Verbose() && pg.Err != nil {
			t.Logf("refused: %s: %s", q, pg.Err.Message)
		}
		return pg.Err == nil
	}
	compare := func(when string) {
		t.Helper()
		qs := slices.Clone(ddltxCatalog)
		for i := range 4 {
			qs = append(qs, fmt.Sprintf("SELECT * FROM dx_t%d ORDER BY 1, 2", i))
		}
		for i, q := range qs {
			sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
			if i < len(ddltxCatalog) && pg.Err != nil {
				t.Fatalf("PostgreSQL: %s: %s", q, describeErr(pg))
			}
			stats["compared"]++
			if kind, why := verdict(sg, pg, tallyRule{ordered: true, codeOnly: true}); kind == "different" {
				t.Errorf("%s: %s\n%s\nsqlgate: %s\nPostgreSQL: %s\nthe block:\n  %s", when, q, why, sg.Format(20), pg.Format(20), strings.Join(logged, ";\n  "))
			}
		}
	}
	st := &ddltxState{log: map[string]bool{}}
	for i := range 4 {
		st.tables = append(st.tables, fmt.Sprintf("dx_t%d", i))
	}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	runOnBoth(t, ctx, r, "CREATE TABLE dx_t0 (id int PRIMARY KEY, a int)", "CREATE TABLE dx_t1 (id int PRIMARY KEY, a int)",
		"INSERT INTO dx_t0 VALUES (-1, 1)")
	id := 0
	for b := 0; b < blocks; b++ {
		logged = nil
		st.written, st.dropped = map[string]bool{}, map[string]bool{}
		step("BEGIN")
		savepoints := 0
		for range 3 + rng.IntN(8) {
			tbl := pick(st.tables)
			ddlOK := !st.written[tbl] && !st.dropped[tbl]
			k := rng.IntN(22)
			var q string
			switch {
			case k == 0 && ddlOK:
				q = fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, a int)", tbl)
			case k == 1 && ddlOK:
				q = fmt.Sprintf("CREATE TABLE %s AS SELECT %d AS id, %d AS a", tbl, id+1000, rng.IntN(5))
				if step(q) {
					st.log[tbl], st.written[tbl] = true, true // (its rows are the block's)
				}
				continue
			case k == 2:
				q = fmt.Sprintf("CREATE SEQUENCE dx_s%d", rng.IntN(2))
			case k == 3:
				q = fmt.Sprintf("CREATE VIEW dx_v%d AS SELECT id FROM %s", rng.IntN(2), tbl) // (not a: sqlgate cannot rename a column a view names)
			case k == 4:
				q = fmt.Sprintf("CREATE OR REPLACE VIEW dx_v%d AS SELECT id, %d AS k FROM %s", rng.IntN(2), rng.IntN(9), tbl)
			case k == 5:
				q = fmt.Sprintf("CREATE SCHEMA dx_n%d", rng.IntN(2))
			case k == 6:
				q = fmt.Sprintf("CREATE TABLE dx_n%d.dx_u (id int)", rng.IntN(2))
			case k == 7:
				q = fmt.Sprintf("CREATE FUNCTION dx_f%d(x int) RETURNS int LANGUAGE sql AS 'SELECT x + %d'", rng.IntN(2), rng.IntN(9))
			case k == 8:
				q = fmt.Sprintf("CREATE TYPE dx_e%d AS ENUM ('a', 'b')", rng.IntN(2))
			case k == 9:
				q = fmt.Sprintf("CREATE DOMAIN dx_d%d AS int CHECK (VALUE > %d)", rng.IntN(2), rng.IntN(3))
			case k == 10 && ddlOK:
				q = fmt.Sprintf("COMMENT ON TABLE %s IS 'c%d'", tbl, rng.IntN(3))
			case k == 11 && ddlOK && !st.log[tbl]:
				q = fmt.Sprintf("CREATE UNIQUE INDEX %s_ua ON %s (a)", tbl, tbl)
			case k == 12 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s ADD COLUMN c%d int", tbl, rng.IntN(3))
			case k == 13 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN a SET DEFAULT %d", tbl, rng.IntN(9))
			case k == 14 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN a DROP DEFAULT", tbl)
			case k == 15 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s ALTER COLUMN a SET NOT NULL", tbl)
			case k == 16 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_chk CHECK (a > -%d)", tbl, tbl, 1+rng.IntN(9))
			case k == 17 && ddlOK && !st.log[tbl]:
				q = fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_ukey UNIQUE (a)", tbl, tbl)
			case k == 18 && ddlOK:
				to := pick(st.tables)
				if st.dropped[to] || st.written[to] {
					continue
				}
				q = fmt.Sprintf("ALTER TABLE %s RENAME TO %s", tbl, to)
				if step(q) {
					st.log[to], st.log[tbl] = st.log[tbl], false
				}
				continue
			case k == 19 && ddlOK:
				q = fmt.Sprintf("ALTER TABLE %s RENAME COLUMN a TO b", tbl)
				if rng.IntN(2) == 0 {
					q = fmt.Sprintf("ALTER TABLE %s RENAME COLUMN b TO a", tbl)
				}
			case k == 20 && !st.dropped[tbl]:
				id++
				q = fmt.Sprintf("INSERT INTO %s (id, a) VALUES (%d, %d)", tbl, id, rng.IntN(5)-1)
				st.written[tbl] = true
			case k == 21 && ddlOK && rng.IntN(3) == 0:
				q = fmt.Sprintf("DROP TABLE %s CASCADE", tbl)
				st.dropped[tbl] = true
			default:
				switch rng.IntN(4) {
				case 0:
					savepoints++
					q = fmt.Sprintf("SAVEPOINT sp%d", savepoints)
				case 1:
					if savepoints == 0 {
						continue
					}
					q = fmt.Sprintf("ROLLBACK TO SAVEPOINT sp%d", 1+rng.IntN(savepoints))
				case 2:
					if rng.IntN(3) > 0 {
						continue
					}
					q = "SELECT 1/0" // the block fails: only ROLLBACK (TO) ends it
				default:
					continue
				}
			}
			step(q)
		}
		end := "COMMIT"
		if rng.IntN(2) == 0 {
			end = "ROLLBACK"
		}
		step(end)
		stats[end]++
		compare(fmt.Sprintf("after block %d (%s)", b, end))
		st.log = map[string]bool{}
		for _, tbl := range st.tables { // which tables are log tables now
			o := r.Postgres.Run(ctx, fmt.Sprintf("SELECT 1 FROM information_schema.table_constraints WHERE table_name = '%s' AND constraint_type = 'PRIMARY KEY'", tbl))
			st.log[tbl] = o.Err == nil && len(o.Rows) == 0
		}
	}
	t.Logf("outcomes: %v", stats)
}
