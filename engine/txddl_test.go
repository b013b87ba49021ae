package engine_test

import (
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
// COMMIT), and inside BEGIN ... ROLLBACK, which cannot undo it: the
// ROLLBACK warns, naming the statement, and the change is still there.
// (DROP TABLE and TRUNCATE are the block's own, undone by a ROLLBACK:
// droptable_test.go, truncate_test.go.)
func TestDDLInTransactionBlock(t *testing.T) {
	cases := []struct {
		name  string
		setup string // outside the block
		ddl   string
		check string // must succeed after the DDL, in the block and after it,
		want  string // with this in its output
		gone  string // must fail with 42P01 or 42704 after the DDL
	}{
		{name: "create table", ddl: "CREATE TABLE t2 (a INT)", check: "SELECT count(*) FROM t2"},
		{name: "create table as", ddl: "CREATE TABLE t2 AS SELECT id FROM t", check: "SELECT count(*) FROM t2"},
		{name: "alter table add column", ddl: "ALTER TABLE t ADD COLUMN c INT", check: "SELECT c FROM t"},
		{name: "create view", ddl: "CREATE VIEW w AS SELECT id FROM t", check: "SELECT * FROM w"},
		{name: "drop view", setup: "CREATE VIEW w AS SELECT id FROM t", ddl: "DROP VIEW w", gone: "SELECT * FROM w"},
		{name: "create schema", ddl: "CREATE SCHEMA s1", check: "SHOW DATABASES", want: "s1"},
		{name: "drop schema", setup: "CREATE SCHEMA s1; CREATE TABLE s1.x (a INT)", ddl: "DROP SCHEMA s1 CASCADE", gone: "SELECT * FROM s1.x"},
		{name: "create sequence", ddl: "CREATE SEQUENCE q", check: "ALTER SEQUENCE q RESTART"},
		{name: "drop sequence", setup: "CREATE SEQUENCE q", ddl: "DROP SEQUENCE q", gone: "ALTER SEQUENCE q RESTART"},
		{name: "comment on table", ddl: "COMMENT ON TABLE t IS 'things'", check: "SHOW CREATE TABLE t", want: "'things'"},
		{name: "comment on column", ddl: "COMMENT ON COLUMN t.v IS 'value'", check: "SHOW CREATE TABLE t", want: "'value'"},
		{name: "grant", ddl: "GRANT SELECT ON t TO PUBLIC", check: "SELECT * FROM t"},
		{name: "revoke", setup: "GRANT SELECT ON t TO PUBLIC", ddl: "REVOKE SELECT ON t FROM PUBLIC", check: "SELECT * FROM t"},
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
			s := start(c.setup, c.ddl)
			tag, notices, err := runNotices(t, s, "ROLLBACK")
			if err != nil || tag != "ROLLBACK" {
				t.Fatalf("ROLLBACK: %q %v", tag, err)
			}
			ws := warnings(notices)
			if len(ws) != 1 || ws[0].Code != "01000" || !strings.Contains(ws[0].Detail, c.ddl) ||
				!strings.Contains(ws[0].Message, "not rolled back") {
				t.Fatalf("ROLLBACK's warning: %+v", ws)
			}
			verify(t, s, "after ROLLBACK", c.check, c.want, c.gone)
		})
	}
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

	// ROLLBACK TO SAVEPOINT warns about the DDL after the savepoint only.
	mustRun(t, s, "BEGIN; CREATE TABLE before_sp (a INT); SAVEPOINT a; CREATE TABLE after_sp (a INT)")
	_, notices, err := runNotices(t, s, "ROLLBACK TO SAVEPOINT a")
	if ws := warnings(notices); err != nil || len(ws) != 1 || !strings.Contains(ws[0].Detail, "after_sp") || strings.Contains(ws[0].Detail, "before_sp") {
		t.Errorf("ROLLBACK TO's warning: %+v %v", ws, err)
	}
	mustRun(t, s, "COMMIT")

	// A failed block ends in ROLLBACK, warning about its DDL; a DDL
	// statement that failed is not named.
	mustRun(t, s, "BEGIN; CREATE TABLE made (a INT)")
	if _, _, err := run(t, s, "CREATE TABLE made (a INT)"); sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		t.Fatalf("duplicate: %v", err)
	}
	tag, notices, err := runNotices(t, s, "COMMIT")
	ws := warnings(notices)
	if err != nil || tag != "ROLLBACK" || len(ws) != 1 || !strings.Contains(ws[0].Message, "1 schema change") {
		t.Errorf("COMMIT of the failed block: %q %+v %v", tag, ws, err)
	}
	// A block without DDL rolls back without a warning.
	mustRun(t, s, "BEGIN; INSERT INTO made VALUES (1)")
	if _, notices, _ := runNotices(t, s, "ROLLBACK"); len(warnings(notices)) != 0 {
		t.Errorf("warning without DDL: %+v", notices)
	}
}
