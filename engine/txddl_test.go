package engine_test

import (
	"cmp"
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// runNotices executes sql, one statement after another, and returns the
// last statement's tag and the notices of every statement.
func runNotices(t *testing.T, s pgwire.Session, sql string) (string, []*sqlerr.Error, error) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		return "", nil, err
	}
	var tag string
	var notices []*sqlerr.Error
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			return "", notices, err
		}
		for {
			b, err := res.Next(ctx)
			if err != nil {
				res.Close()
				return "", notices, err
			}
			if b == nil {
				break
			}
			b.Release()
		}
		if n, ok := res.(pgwire.Noticer); ok {
			notices = append(notices, n.Notices()...)
		}
		tag = res.Tag()
		res.Close()
	}
	return tag, notices, nil
}

// warnings returns the WARNING notices among ns.
func warnings(ns []*sqlerr.Error) []*sqlerr.Error {
	var out []*sqlerr.Error
	for _, n := range ns {
		if n.Severity == "WARNING" {
			out = append(out, n)
		}
	}
	return out
}

// TestDDLInTransactionBlock runs each kind of DDL inside BEGIN ... COMMIT
// (where the block's own later statement sees it, and it stays after
// COMMIT), and inside BEGIN ... ROLLBACK, which undoes it: the catalog
// (catalogState) is as before the block, without a warning; and the DDL
// that has no inverse (keep), which the ROLLBACK warns of, naming it, and
// leaves in effect. (DROP TABLE and TRUNCATE are the block's own, undone
// by a ROLLBACK: droptable_test.go, truncate_test.go.)
func TestDDLInTransactionBlock(t *testing.T) {
	cases := []struct {
		name  string
		setup string // outside the block
		ddl   string
		check string // must succeed after the DDL, in the block and after it,
		want  string // with this in its output
		gone  string // must fail with 42P01 or 42704 after the DDL
		keep  bool   // a ROLLBACK cannot undo it
		// probe's outcome (rows or SQLSTATE, in a savepoint rolled back)
		// shows the change: it differs after the DDL, and the ROLLBACK
		// gives back the outcome it had before (check or gone when "")
		probe string
	}{
		{name: "create table", ddl: "CREATE TABLE t2 (a INT)", check: "SELECT count(*) FROM t2"},
		{name: "create table as", ddl: "CREATE TABLE t2 AS SELECT id FROM t", check: "SELECT count(*) FROM t2"},
		{name: "alter table add column", ddl: "ALTER TABLE t ADD COLUMN c INT", check: "SELECT c FROM t"},
		{name: "create view", ddl: "CREATE VIEW w AS SELECT id FROM t", check: "SELECT * FROM w"},
		{name: "drop view", setup: "CREATE VIEW w AS SELECT id FROM t", ddl: "DROP VIEW w", gone: "SELECT * FROM w", keep: true},
		{name: "create schema", ddl: "CREATE SCHEMA s1", check: "SHOW DATABASES", want: "s1"},
		{name: "drop schema", setup: "CREATE SCHEMA s1; CREATE TABLE s1.x (a INT)", ddl: "DROP SCHEMA s1 CASCADE", gone: "SELECT * FROM s1.x", keep: true},
		{name: "create sequence", ddl: "CREATE SEQUENCE q", check: "ALTER SEQUENCE q RESTART"},
		{name: "drop sequence", setup: "CREATE SEQUENCE q", ddl: "DROP SEQUENCE q", gone: "ALTER SEQUENCE q RESTART", keep: true},
		{name: "comment on table", ddl: "COMMENT ON TABLE t IS 'things'", check: "SHOW CREATE TABLE t", want: "'things'"},
		{name: "comment on column", ddl: "COMMENT ON COLUMN t.v IS 'value'", check: "SHOW CREATE TABLE t", want: "'value'"},
		{name: "grant", ddl: "GRANT SELECT ON t TO PUBLIC", check: "SELECT * FROM t", keep: true},
		{name: "revoke", setup: "GRANT SELECT ON t TO PUBLIC", ddl: "REVOKE SELECT ON t FROM PUBLIC", check: "SELECT * FROM t", keep: true},
		{name: "create table serial", ddl: "CREATE TABLE t2 (a SERIAL PRIMARY KEY, b TEXT DEFAULT 'x')", check: "SELECT count(*) FROM t2"},
		{name: "create unique index", ddl: "CREATE UNIQUE INDEX t_v ON t (v)", probe: "INSERT INTO t VALUES (2, 'a')"},
		{name: "create materialized view", ddl: "CREATE MATERIALIZED VIEW mv AS SELECT id FROM t", check: "SELECT * FROM mv"},
		{name: "create or replace view", setup: "CREATE VIEW w AS SELECT id FROM t", ddl: "CREATE OR REPLACE VIEW w AS SELECT id, v FROM t", check: "SELECT v FROM w"},
		{name: "create function", ddl: "CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql AS 'SELECT a + 1'", check: "SELECT f(1)", want: "2"},
		{name: "create type", ddl: "CREATE TYPE mood AS ENUM ('sad', 'ok')", check: "SELECT 'ok'::mood"},
		{name: "create domain", ddl: "CREATE DOMAIN pos AS int CHECK (VALUE > 0)", check: "SELECT 1::pos"},
		{name: "alter table add check", ddl: "ALTER TABLE t ADD CONSTRAINT t_c CHECK (id > 0)", probe: "INSERT INTO t VALUES (-1, 'x')"},
		{name: "alter table add unique", ddl: "ALTER TABLE t ADD UNIQUE (v)", probe: "INSERT INTO t VALUES (2, 'a')"},
		{name: "alter table set default", ddl: "ALTER TABLE t ALTER COLUMN v SET DEFAULT 'd'", probe: "INSERT INTO t (id) VALUES (9) RETURNING v"},
		{name: "alter table drop default", setup: "ALTER TABLE t ALTER COLUMN v SET DEFAULT 'd'", ddl: "ALTER TABLE t ALTER COLUMN v DROP DEFAULT", probe: "INSERT INTO t (id) VALUES (9) RETURNING v"},
		{name: "rename table", ddl: "ALTER TABLE t RENAME TO t3", check: "SELECT count(*) FROM t3"},
		{name: "rename column", ddl: "ALTER TABLE t RENAME COLUMN v TO w", check: "SELECT w FROM t"},
		{name: "create sequence and table", ddl: "CREATE SEQUENCE q2; CREATE TABLE t2 (a INT DEFAULT nextval('q2'))", check: "SELECT count(*) FROM t2"},
		{name: "drop column", ddl: "ALTER TABLE t DROP COLUMN v", check: "SELECT * FROM t", want: "1", keep: true},
	}
	// verify runs the case's check (or its gone) and fails the test when
	// it does not hold.
	verify := func(t *testing.T, s pgwire.Session, where string, check, want, gone string) {
		t.Helper()
		if check != "" {
			lines, _, err := run(t, s, check)
			if err != nil || !strings.Contains(strings.Join(lines, "\n"), want) {
				t.Errorf("%s: %s: %v %v, want %q", where, check, lines, err, want)
			}
		}
		if gone != "" {
			_, _, err := run(t, s, gone)
			switch sqlerr.CodeOf(err) {
			case sqlerr.UndefinedTable, sqlerr.UndefinedObject:
			default:
				t.Errorf("%s: %s: %v, want the object gone", where, gone, err)
			}
		}
	}
	// start opens a session with table t, runs setup and then ddl in a
	// block.
	start := func(setup, ddl string) pgwire.Session {
		s := newSession(t)
		mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')")
		if setup != "" {
			mustRun(t, s, setup)
		}
		mustRun(t, s, "BEGIN")
		mustRun(t, s, ddl)
		return s
	}
	for _, c := range cases {
		t.Run(c.name+"/commit", func(t *testing.T) {
			s := start(c.setup, c.ddl)
			verify(t, s, "in the block", c.check, c.want, "")
			if c.gone != "" {
				// The failed check would abort the block: see it in a
				// savepoint instead.
				mustRun(t, s, "SAVEPOINT g")
				verify(t, s, "in the block", "", "", c.gone)
				mustRun(t, s, "ROLLBACK TO g")
			}
			tag, notices, err := runNotices(t, s, "COMMIT")
			if err != nil || tag != "COMMIT" || len(warnings(notices)) != 0 {
				t.Fatalf("COMMIT: %q %v %v", tag, notices, err)
			}
			verify(t, s, "after COMMIT", c.check, c.want, c.gone)
		})
		t.Run(c.name+"/rollback", func(t *testing.T) {
			s := start(c.setup, "SELECT 1")
			q := cmp.Or(c.probe, c.check, c.gone)
			before := probe(t, s, "SAVEPOINT p; "+q) // (a check that changes is undone too)
			rows := probe(t, s, "ROLLBACK TO p; SELECT * FROM t ORDER BY 1")
			mustRun(t, s, c.ddl)
			if probe(t, s, "SAVEPOINT p; "+q) == before && !c.keep {
				t.Fatalf("%s: the same before and after %s", q, c.ddl)
			}
			mustRun(t, s, "ROLLBACK TO p")
			tag, notices, err := runNotices(t, s, "ROLLBACK")
			if err != nil || tag != "ROLLBACK" {
				t.Fatalf("ROLLBACK: %q %v", tag, err)
			}
			ws := warnings(notices)
			if !c.keep {
				if len(ws) != 0 {
					t.Fatalf("ROLLBACK's warning: %+v", ws)
				}
				mustRun(t, s, "BEGIN")
				if after := probe(t, s, "SAVEPOINT p; "+q); after != before {
					t.Fatalf("%s after ROLLBACK: %s, before the block: %s", q, after, before)
				}
				mustRun(t, s, "ROLLBACK")
				if got := probe(t, s, "SELECT * FROM t ORDER BY 1"); got != rows {
					t.Errorf("rows after ROLLBACK: %v, before: %v", got, rows)
				}
				return
			}
			if len(ws) != 1 || ws[0].Code != "01000" || !strings.Contains(ws[0].Detail, c.ddl) ||
				!strings.Contains(ws[0].Message, "not rolled back") {
				t.Fatalf("ROLLBACK's warning: %+v", ws)
			}
			verify(t, s, "after ROLLBACK", c.check, c.want, c.gone)
		})
	}
}

// probe is the outcome of query q: its rows, or its error's SQLSTATE.
func probe(t *testing.T, s pgwire.Session, q string) string {
	t.Helper()
	lines, _, err := run(t, s, q)
	if err != nil {
		return "error " + string(sqlerr.CodeOf(err))
	}
	return strings.Join(lines, "\n")
}

// TestDDLInBlockMigration is what Alembic sends for two revisions in one
// transaction: DDL, then its version table written, then more DDL on
// another table; the block's rows commit with the DDL.
func TestDDLInBlockMigration(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "BEGIN")
	mustRun(t, s, "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
	mustRun(t, s, "CREATE TABLE account (id INT PRIMARY KEY, name TEXT)")
	mustRun(t, s, "INSERT INTO alembic_version (version_num) VALUES ('r1')")
	mustRun(t, s, "ALTER TABLE account ADD COLUMN email TEXT")
	mustRun(t, s, "CREATE INDEX ix_account_email ON account (email)")
	mustRun(t, s, "UPDATE alembic_version SET version_num = 'r2' WHERE alembic_version.version_num = 'r1'")
	mustRun(t, s, "INSERT INTO account (id, name, email) VALUES (1, 'a', 'a@x')")
	mustRun(t, s, "COMMIT")
	if got := mustRun(t, s, "SELECT version_num FROM alembic_version"); len(got) != 1 || got[0] != "r2" {
		t.Errorf("version: %v", got)
	}
	if got := mustRun(t, s, "SELECT email FROM account"); len(got) != 1 || got[0] != "a@x" {
		t.Errorf("account: %v", got)
	}
}

// TestDDLInBlockRules covers what DDL in a block refuses, and the
// warnings of ROLLBACK TO SAVEPOINT and of a failed block's end.
func TestDDLInBlockRules(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')")

	// Rows pending for a table: the table's DDL waits for COMMIT.
	mustRun(t, s, "BEGIN; INSERT INTO t VALUES (2, 'b')")
	mustRun(t, s, "SAVEPOINT p")
	wantErr(t, s, "ALTER TABLE t ADD COLUMN c INT", sqlerr.FeatureNotSupported, `cannot run after this transaction wrote rows to table "t"`)
	mustRun(t, s, "ROLLBACK TO p")
	// DROP TABLE is the block's (dropped at COMMIT): rolled back to the
	// savepoint, the table is back with the block's rows.
	mustRun(t, s, "SAVEPOINT p; DROP TABLE t; ROLLBACK TO p")
	// DDL of other tables is fine, and the rows still commit.
	mustRun(t, s, "CREATE TABLE u (a INT)")
	mustRun(t, s, "COMMIT")
	if got := mustRun(t, s, "SELECT count(*) FROM t"); got[0] != "2" {
		t.Errorf("rows after COMMIT: %v", got)
	}

	// A table the block opened without writing rows to it is seen again
	// as the DDL left it.
	mustRun(t, s, "BEGIN; DELETE FROM t WHERE id > 100")
	mustRun(t, s, "ALTER TABLE t ADD COLUMN c INT")
	mustRun(t, s, "INSERT INTO t (id, v, c) VALUES (3, 'c', 30)")
	if got := mustRun(t, s, "SELECT c FROM t WHERE id = 3"); len(got) != 1 || got[0] != "30" {
		t.Errorf("new column in the block: %v", got)
	}
	mustRun(t, s, "COMMIT")

	// Read-only blocks refuse DDL, as PostgreSQL does; so do REPEATABLE
	// READ ones (their snapshot cannot hold it).
	wantErr(t, s, "BEGIN READ ONLY; CREATE TABLE x (a INT)", sqlerr.ReadOnlySQLTransaction, "cannot execute CREATE TABLE in a read-only transaction")
	mustRun(t, s, "ROLLBACK")
	wantErr(t, s, "BEGIN ISOLATION LEVEL REPEATABLE READ; CREATE VIEW x AS SELECT 1", sqlerr.FeatureNotSupported, "REPEATABLE READ")
	mustRun(t, s, "ROLLBACK")
	// VACUUM still refuses a block, as in PostgreSQL (TRUNCATE runs in
	// one: truncate_test.go).
	wantErr(t, s, "BEGIN; VACUUM t", sqlerr.ActiveSQLTransaction, "cannot run inside a transaction block")
	mustRun(t, s, "ROLLBACK")

	// ROLLBACK TO SAVEPOINT undoes the DDL after the savepoint only, and
	// warns of what it cannot undo among it (a DROP COLUMN).
	mustRun(t, s, "BEGIN; CREATE TABLE before_sp (a INT, b INT); SAVEPOINT a; CREATE TABLE after_sp (a INT); ALTER TABLE before_sp DROP COLUMN b")
	_, notices, err := runNotices(t, s, "ROLLBACK TO SAVEPOINT a")
	if ws := warnings(notices); err != nil || len(ws) != 1 || !strings.Contains(ws[0].Detail, "DROP COLUMN b") || strings.Contains(ws[0].Detail, "after_sp") {
		t.Errorf("ROLLBACK TO's warning: %+v %v", ws, err)
	}
	mustRun(t, s, "CREATE TABLE after_sp (a INT)") // (gone: the name is free)
	mustRun(t, s, "COMMIT")
	mustRun(t, s, "SELECT * FROM before_sp, after_sp")

	// A failed block ends in ROLLBACK, which undoes its DDL; a DDL
	// statement that failed is not named.
	mustRun(t, s, "BEGIN; CREATE TABLE made (a INT)")
	if _, _, err := run(t, s, "CREATE TABLE made (a INT)"); sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		t.Fatalf("duplicate: %v", err)
	}
	tag, notices, err := runNotices(t, s, "COMMIT")
	ws := warnings(notices)
	if err != nil || tag != "ROLLBACK" || len(ws) != 0 {
		t.Errorf("COMMIT of the failed block: %q %+v %v", tag, ws, err)
	}
	wantErr(t, s, "SELECT * FROM made", sqlerr.UndefinedTable, `relation "made" does not exist`)
	mustRun(t, s, "CREATE TABLE made (a INT)")
	// A block without DDL rolls back without a warning.
	mustRun(t, s, "BEGIN; INSERT INTO made VALUES (1)")
	if _, notices, _ := runNotices(t, s, "ROLLBACK"); len(warnings(notices)) != 0 {
		t.Errorf("warning without DDL: %+v", notices)
	}
}

// TestDDLInBlockFailedStatement: a CREATE TABLE AS whose rows fail made its
// table before them; the ROLLBACK of its failed block drops it, as
// PostgreSQL's, and so does a ROLLBACK TO a savepoint before it.
func TestDDLInBlockFailedStatement(t *testing.T) {
	s := newSession(t)
	for _, end := range []string{"ROLLBACK", "COMMIT", "SAVEPOINT"} {
		mustRun(t, s, "BEGIN")
		if end == "SAVEPOINT" {
			mustRun(t, s, "SAVEPOINT p")
		}
		if _, _, err := run(t, s, "CREATE TABLE half AS SELECT 1 / (x - 2) AS a FROM generate_series(1, 3) AS x"); sqlerr.CodeOf(err) != sqlerr.DivisionByZero {
			t.Fatalf("CREATE TABLE AS: %v, want 22012", err)
		}
		if end == "SAVEPOINT" {
			mustRun(t, s, "ROLLBACK TO p")
			wantErr(t, s, "SAVEPOINT q; SELECT * FROM half", sqlerr.UndefinedTable, `relation "half" does not exist`)
			end = "ROLLBACK"
		}
		tag, notices, err := runNotices(t, s, end)
		if err != nil || tag != "ROLLBACK" || len(warnings(notices)) != 0 {
			t.Fatalf("%s: %q %+v %v", end, tag, notices, err)
		}
		wantErr(t, s, "SELECT * FROM half", sqlerr.UndefinedTable, `relation "half" does not exist`)
	}
}
