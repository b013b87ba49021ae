package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIndexCatalogDifferential (SQLGATE_DIFF_INDEX_STATEMENTS, default
// 120) draws sequences of CREATE INDEX (named and unnamed, every access
// method, columns and expressions with operator classes, ordering,
// INCLUDE, WITH and WHERE, CONCURRENTLY, IF NOT EXISTS, on tables,
// missing tables and columns), DROP INDEX (several names, IF
// EXISTS, CASCADE, CONCURRENTLY, a primary key's index, a table's name),
// ALTER INDEX (RENAME TO, SET / RESET storage parameters, IF EXISTS),
// REINDEX, column renames and drops of the indexed tables, and blocks
// rolled back after an index statement, over a few tables in two schemas.
// Each statement's outcome (tag, SQLSTATE and message, notices,
// transaction status) must be PostgreSQL 15's, and after each one the
// indexes as pg_indexes, pg_index and pg_get_indexdef list them.
func TestIndexCatalogDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r,
		"CREATE SCHEMA isch",
		"CREATE VIEW iview AS SELECT 1 AS one",
	)
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	rng := seededRand(t, 45)
	n := envInt(t, "SQLGATE_DIFF_INDEX_STATEMENTS", 120)
	const snapshot = `SELECT i.schemaname, i.tablename, i.indexname, i.indexdef,
	x.indnatts, x.indnkeyatts, x.indisunique, x.indkey::text, x.indoption::text,
	pg_get_expr(x.indpred, x.indrelid), pg_get_indexdef(x.indexrelid, 1, true), c.relkind, c.reloptions::text
	FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname
	JOIN pg_namespace s ON s.oid = c.relnamespace AND s.nspname = i.schemaname
	JOIN pg_index x ON x.indexrelid = c.oid
	WHERE i.schemaname IN ('public', 'isch') ORDER BY 1, 2, 3`
	differed := 0
	report := func(what, a, b string) {
		differed++
		if differed <= 10 {
			t.Errorf("%s\nsqlgate:    %s\npostgresql: %s", what, a, b)
		}
	}
	var history []string
	for k := range n {
		if k%40 == 0 { // fresh tables now and then: the sequences stay short
			for _, s := range indexTables {
				sg.run(ctx, s)
				pg.run(ctx, s)
			}
			history = history[:0]
		}
		stmts := []string{indexStatement45(rng)}
		if rng.IntN(8) == 0 { // index statements only: a block's DROP COLUMN is not undone (README)
			stmts = []string{"BEGIN", createIndex45(rng, pick45(rng)), createIndex45(rng, pick45(rng)), "ROLLBACK"}
		}
		for _, stmt := range stmts {
			history = append(history, stmt)
			a, b := sg.run(ctx, stmt), pg.run(ctx, stmt)
			if a != b {
				report(stmt, a, b)
				if pg.conn.TxStatus() != sg.conn.TxStatus() {
					sg.run(ctx, "ROLLBACK")
					pg.run(ctx, "ROLLBACK")
				}
			}
		}
		if a, b := sg.run(ctx, snapshot), pg.run(ctx, snapshot); a != b {
			report("catalog after:\n"+strings.Join(history, ";\n"), a, b)
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d statements or catalogs differed", differed, n)
	}
}

// indexTables (re)make the tables the statements index.
var indexTables = []string{
	"DROP TABLE IF EXISTS it1, it2, isch.it3 CASCADE",
	`CREATE TABLE it1 (id int PRIMARY KEY, a int, b text, c numeric, d timestamp, "Mixed" int)`,
	"CREATE TABLE it2 (x int, y text, z boolean)",
	"CREATE TABLE isch.it3 (p int PRIMARY KEY, q text)",
}

func pick45(rng *rand.Rand) func(...string) string {
	return func(xs ...string) string { return xs[rng.IntN(len(xs))] }
}

// indexStatement45 draws one index statement.
func indexStatement45(rng *rand.Rand) string {
	pick := pick45(rng)
	name := func() string {
		return pick("ix1", "ix2", "it1_a_idx", "it1_a_idx1", "it1_b_idx", "it1_expr_idx", "it1_lower_idx", "it2_x_idx", "it2_y_idx",
			"isch.ix3", "isch.it3_q_idx", "it1_pkey", "it1", "nope_idx", "Ix1")
	}
	switch rng.IntN(10) {
	case 0, 1, 2, 3:
		return createIndex45(rng, pick)
	case 4, 5:
		var names []string
		for range 1 + rng.IntN(2) {
			names = append(names, name())
		}
		return "DROP INDEX " + pick("", "", "CONCURRENTLY ") + pick("", "IF EXISTS ") + strings.Join(names, ", ") + pick("", "", " CASCADE", " RESTRICT")
	case 6:
		return "ALTER INDEX " + pick("", "IF EXISTS ") + name() + " RENAME TO " + pick("ix1", "ix2", "ix9", "it1_a_idx", "it2", "it1_pkey")
	case 7:
		return "ALTER INDEX " + name() + pick(" SET (fillfactor = 50)", " RESET (fillfactor)", " SET (foo = 1)", " SET (fillfactor = 5)",
			" SET TABLESPACE pg_default", " SET (deduplicate_items = off)")
	case 8:
		return pick("REINDEX INDEX "+name(), "REINDEX TABLE it1", "REINDEX TABLE nope", "REINDEX INDEX it1")
	}
	return pick("ALTER TABLE it1 RENAME COLUMN a TO a2", "ALTER TABLE it1 RENAME COLUMN a2 TO a", "ALTER TABLE it1 RENAME COLUMN b TO bb",
		"ALTER TABLE it1 RENAME COLUMN bb TO b", "ALTER TABLE it2 DROP COLUMN y", "ALTER TABLE it1 DROP COLUMN c",
		"ALTER TABLE it1 ADD COLUMN c numeric", "ALTER TABLE it2 ADD COLUMN y text")
}

// createIndex45 draws a CREATE INDEX.
func createIndex45(rng *rand.Rand, pick func(...string) string) string {
	table := pick("it1", "it1", "it1", "it2", "isch.it3", "nope")
	var cols, exprs []string
	switch table {
	case "it1":
		cols = []string{"a", "b", "c", "d", `"Mixed"`, "id", "nope"}
		exprs = []string{"lower(b)", "(a + 1)", "(a * 2 + c)", "upper(b)", "coalesce(a, 0)", "(b || 'x')", "abs(a)", "((a))",
			"(a::text)", "(d::date)", "length(b)"}
	case "it2":
		cols = []string{"x", "y", "z"}
		exprs = []string{"lower(y)", "(x - 1)", "(NOT z)"}
	default:
		cols = []string{"p", "q"}
		exprs = []string{"lower(q)", "(p % 7)"}
	}
	method := pick("", "", "", "", " USING btree", " USING hash", " USING gin", " USING brin", " USING gist", " USING nope")
	var elems []string
	for range 1 + rng.IntN(3) {
		e := pick(cols...)
		if rng.IntN(3) == 0 {
			e = pick(exprs...)
		}
		if rng.IntN(4) == 0 {
			e += pick(" DESC", " ASC", " DESC NULLS LAST", " NULLS FIRST", " text_pattern_ops", " int4_ops")
		}
		elems = append(elems, e)
	}
	s := "CREATE INDEX " + pick("", "", "CONCURRENTLY ")
	switch rng.IntN(4) {
	case 0:
	case 1:
		s += pick("", "IF NOT EXISTS ") + pick("ix1", "ix2", "it1_a_idx", "it1", "it1_pkey", `"Ix1"`) + " "
	default:
		s += pick("", "IF NOT EXISTS ") + pick("ix1", "ix2") + " "
	}
	s += "ON " + table + method + " (" + strings.Join(elems, ", ") + ")"
	if rng.IntN(5) == 0 {
		s += " INCLUDE (" + pick(cols...) + ")"
	}
	if rng.IntN(5) == 0 {
		s += pick(" WITH (fillfactor = 70)", " WITH (fillfactor = 5)", " WITH (foo = 1)", " WITH (deduplicate_items = off)", " WITH (fastupdate)")
	}
	if rng.IntN(4) == 0 {
		s += fmt.Sprintf(" WHERE %s", pick(cols[0]+" > 0", cols[1]+" IS NOT NULL", cols[0]+" > 0 AND "+cols[0]+" < 100"))
	}
	return s
}
