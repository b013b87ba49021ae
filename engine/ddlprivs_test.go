package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ddlUsers opens an engine whose metadata store knows a superuser (admin)
// and two plain roles, and a session for each.
func ddlUsers(t *testing.T) (admin, rvu1, rvu2 pgwire.Session, md *meta.Store) {
	t.Helper()
	ss, md := roleSessions(t, "admin", "rvu1", "rvu2")
	return ss[0], ss[1], ss[2], md
}

// roleSessions opens an engine whose metadata store knows the superuser su
// and the plain roles, and returns a session of each (su's first).
func roleSessions(t *testing.T, su string, plain ...string) ([]pgwire.Session, *meta.Store) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Update(ctx, func(tx *meta.Tx) error {
		tx.Users[su] = pgwire.UserEntry{Superuser: true}
		for _, u := range plain {
			tx.Users[u] = pgwire.UserEntry{}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return sessions(t, dir+"/data", engine.Options{Meta: md, Roles: md}, append([]string{su}, plain...)...), md
}

// Dropping a schema takes its owner or a superuser; creating one takes
// CREATE on the database, which sqlgate leaves to superusers (PostgreSQL's
// default: only the database's owner holds it).
func TestDropSchemaNeedsOwner(t *testing.T) {
	admin, rvu1, rvu2, _ := ddlUsers(t)
	mustRun(t, admin, "CREATE TABLE pt (id int)")
	mustRun(t, admin, "CREATE SCHEMA s1")
	mustRun(t, admin, "CREATE SCHEMA s2 AUTHORIZATION rvu1")
	mustRun(t, admin, "CREATE TABLE s2.t (id int)")
	for _, c := range []struct {
		sess pgwire.Session
		sql  string
		code sqlerr.Code
		msg  string
	}{
		{rvu1, "DROP SCHEMA public CASCADE", sqlerr.InsufficientPrivilege, "must be owner of schema public"},
		{rvu1, "DROP SCHEMA public", sqlerr.InsufficientPrivilege, "must be owner of schema public"},
		{rvu1, "DROP SCHEMA s1", sqlerr.InsufficientPrivilege, "must be owner of schema s1"},
		{rvu2, "DROP SCHEMA s2 CASCADE", sqlerr.InsufficientPrivilege, "must be owner of schema s2"},
		{rvu1, "DROP SCHEMA s1, s2", sqlerr.InsufficientPrivilege, "must be owner of schema s1"},
		{rvu1, "CREATE SCHEMA mine", sqlerr.InsufficientPrivilege, "permission denied for database"},
		{rvu1, "CREATE SCHEMA IF NOT EXISTS s1", sqlerr.InsufficientPrivilege, "permission denied for database"},
	} {
		wantErr(t, c.sess, c.sql, c.code, c.msg)
	}
	mustRun(t, admin, "SELECT * FROM pt") // still there
	mustRun(t, admin, "SELECT * FROM s2.t")
	mustRun(t, rvu1, "DROP SCHEMA s2 CASCADE") // its owner may, with the superuser's table in it
	mustRun(t, admin, "DROP SCHEMA s1")
}

// DROP INDEX resolves a unique index's name as PostgreSQL resolves a
// relation's (its schema, else the search path's first that holds it),
// and only the table's owner makes or drops one; only a sequence's owner
// alters or drops it.
func TestUniqueIndexNamesAndOwners(t *testing.T) {
	admin, rvu1, _, _ := ddlUsers(t)
	for _, stmt := range []string{
		"CREATE SCHEMA s2", "CREATE SCHEMA s3", "CREATE TABLE s2.x (k int PRIMARY KEY, id int)", "CREATE TABLE s3.x (k int PRIMARY KEY, id int)",
		"CREATE UNIQUE INDEX ui ON s2.x (id)", "CREATE UNIQUE INDEX ui ON s3.x (id)",
		"GRANT USAGE ON SCHEMA s2, s3 TO rvu1", "GRANT CREATE ON SCHEMA public TO rvu1", "CREATE SEQUENCE sq", "CREATE SEQUENCE sq2",
	} {
		mustRun(t, admin, stmt)
	}
	wantErr(t, rvu1, "DROP INDEX s3.ui", sqlerr.InsufficientPrivilege, "must be owner of index ui")
	wantErr(t, rvu1, "CREATE UNIQUE INDEX uj ON s2.x (id)", sqlerr.InsufficientPrivilege, "must be owner of table x")
	wantErr(t, rvu1, "DROP SEQUENCE sq", sqlerr.InsufficientPrivilege, "must be owner of sequence sq")
	wantErr(t, rvu1, "ALTER SEQUENCE sq RESTART 5", sqlerr.InsufficientPrivilege, "must be owner of sequence sq")
	mustRun(t, rvu1, "CREATE TABLE mine (id int)")
	mustRun(t, rvu1, "CREATE SEQUENCE mysq")
	wantErr(t, rvu1, "DROP SEQUENCE mysq, sq", sqlerr.InsufficientPrivilege, "must be owner of sequence sq")
	mustRun(t, rvu1, "CREATE UNIQUE INDEX mine_u ON mine (id)")
	mustRun(t, rvu1, "DROP INDEX mine_u")
	mustRun(t, rvu1, "DROP SEQUENCE mysq") // still there: the failed DROP dropped none

	// which schemas' x still have ui: a repeated value is refused there
	n := 0
	indexSchemas := func() string {
		t.Helper()
		var in []string
		for _, sc := range []string{"s2", "s3"} {
			n++
			mustRun(t, admin, fmt.Sprintf("INSERT INTO %s.x VALUES (1, %d)", sc, n))
			if _, _, err := run(t, admin, fmt.Sprintf("INSERT INTO %s.x VALUES (2, %d)", sc, n)); sqlerr.CodeOf(err) == sqlerr.UniqueViolation {
				in = append(in, sc)
			}
			mustRun(t, admin, fmt.Sprintf("DELETE FROM %s.x", sc))
		}
		return strings.Join(in, ",")
	}
	mustRun(t, admin, "DROP INDEX s3.ui")
	if got := indexSchemas(); got != "s2" {
		t.Fatalf("after DROP INDEX s3.ui: ui in %q, want s2", got)
	}
	mustRun(t, admin, "CREATE UNIQUE INDEX ui ON s3.x (id)")
	mustRun(t, admin, "SET search_path = s3, s2")
	mustRun(t, admin, "DROP INDEX ui")
	if got := indexSchemas(); got != "s2" {
		t.Fatalf("after DROP INDEX ui with search_path s3, s2: ui in %q, want s2", got)
	}
	mustRun(t, admin, "SET search_path = public")
	wantErr(t, admin, "DROP INDEX ui", sqlerr.UndefinedObject, `index "ui" does not exist`) // not on the path (PostgreSQL's 42704): s2's stays
	if got := indexSchemas(); got != "s2" {
		t.Fatalf("after DROP INDEX ui with search_path public: ui in %q, want s2", got)
	}
}

// DROP SCHEMA takes the schema's default privileges with it (a schema
// made again under the name does not inherit them), and DROP TYPE, DROP
// DOMAIN and DROP SCHEMA their types' and domains' comments.
func TestDropLeavesNothingBehind(t *testing.T) {
	admin, _, _, md := ddlUsers(t)
	for _, stmt := range []string{
		"CREATE SCHEMA ds", "ALTER DEFAULT PRIVILEGES IN SCHEMA ds GRANT SELECT ON TABLES TO rvu1",
		"CREATE TYPE mood AS ENUM ('a', 'b')", "COMMENT ON TYPE mood IS 'enum'",
		"CREATE DOMAIN pos AS int CHECK (VALUE > 0)", "COMMENT ON DOMAIN pos IS 'domain'",
		"CREATE TYPE ds.inner_t AS ENUM ('x')", "COMMENT ON TYPE ds.inner_t IS 'inner'",
	} {
		mustRun(t, admin, stmt)
	}
	if n := len(md.DefaultACLs()); n != 1 {
		t.Fatalf("%d default privileges lists, want 1", n)
	}
	if n := len(md.Comments()); n != 3 {
		t.Fatalf("%d comments, want 3: %v", n, md.Comments())
	}
	mustRun(t, admin, "DROP TYPE mood")
	mustRun(t, admin, "DROP DOMAIN pos")
	mustRun(t, admin, "DROP SCHEMA ds CASCADE")
	if got := md.DefaultACLs(); len(got) != 0 {
		t.Errorf("default privileges left after DROP SCHEMA: %v", got)
	}
	if got := md.Comments(); len(got) != 0 {
		t.Errorf("comments left after DROP TYPE / DOMAIN / SCHEMA: %v", got)
	}
}

// DROP SCHEMA ... CASCADE takes what other schemas have over its
// relations, as PostgreSQL's dependency walk does: views (also through
// a view of the schema) and foreign keys that reference its tables.
func TestDropSchemaCascadeOtherSchemas(t *testing.T) {
	admin, _, _, _ := ddlUsers(t)
	for _, stmt := range []string{
		"CREATE SCHEMA ds", "CREATE TABLE ds.p (id int PRIMARY KEY)", "CREATE TABLE ds.t (id int)",
		"CREATE VIEW ds.iv AS SELECT id FROM ds.t", "CREATE VIEW dv AS SELECT * FROM ds.t",
		"CREATE VIEW dv2 AS SELECT * FROM ds.iv", "CREATE VIEW dv3 AS SELECT * FROM dv",
		"CREATE TABLE ch (k int PRIMARY KEY, id int REFERENCES ds.p)", "CREATE TABLE keep (id int)",
	} {
		mustRun(t, admin, stmt)
	}
	ctx := context.Background()
	stmts, err := admin.Prepare(ctx, "DROP SCHEMA ds CASCADE", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var detail string
	if n, ok := res.(interface{ Notices() []*sqlerr.Error }); ok && len(n.Notices()) == 1 {
		detail = n.Notices()[0].Detail
	}
	for _, want := range []string{"drop cascades to table ds.p", "drop cascades to constraint ch_id_fkey on table ch",
		"drop cascades to view dv", "drop cascades to view dv2", "drop cascades to view dv3"} {
		if !strings.Contains(detail, want) {
			t.Errorf("DROP SCHEMA ds CASCADE notice detail %q lacks %q", detail, want)
		}
	}
	for _, v := range []string{"dv", "dv2", "dv3"} {
		wantErr(t, admin, "SELECT * FROM "+v, sqlerr.UndefinedTable, v+`" does not exist`)
	}
	mustRun(t, admin, "INSERT INTO ch VALUES (1, 42)") // no key left to check
	mustRun(t, admin, "SELECT * FROM keep")
	mustRun(t, admin, "CREATE SCHEMA ds") // and the name is free again
	mustRun(t, admin, "CREATE TABLE ds.p (id int PRIMARY KEY)")
	mustRun(t, admin, "INSERT INTO ch VALUES (2, 43)")
}

// TRUNCATE and COPY FROM name a table as any statement does: without
// USAGE on its schema they fail whatever the table's grants.
func TestTruncateCopyNeedSchemaUsage(t *testing.T) {
	admin, rvu1, _, _ := ddlUsers(t)
	for _, stmt := range []string{
		"CREATE SCHEMA s", "CREATE TABLE s.c (id int, pad text)", "GRANT INSERT, TRUNCATE ON s.c TO rvu1",
	} {
		mustRun(t, admin, stmt)
	}
	wantErr(t, rvu1, "TRUNCATE s.c", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	if _, err := copyFrom(t, rvu1, "COPY s.c FROM STDIN", &batchesOf{batches: 1, n: 1, nullAt: -1}); sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege || !strings.Contains(err.Error(), "permission denied for schema s") {
		t.Errorf("COPY s.c FROM STDIN without USAGE on s: %v", err)
	}
	mustRun(t, admin, "GRANT USAGE ON SCHEMA s TO rvu1")
	if _, err := copyFrom(t, rvu1, "COPY s.c FROM STDIN", &batchesOf{batches: 1, n: 1, nullAt: -1}); err != nil {
		t.Errorf("COPY s.c FROM STDIN with USAGE on s: %v", err)
	}
	mustRun(t, rvu1, "TRUNCATE s.c")
}

// The search path leaves out the schemas the role may not use, as
// PostgreSQL's does: an unqualified name reaches the next schema that has
// it; a qualified one still fails with 42501.
func TestSearchPathSkipsUnusableSchemas(t *testing.T) {
	admin, rvu1, _, _ := ddlUsers(t)
	for _, stmt := range []string{
		"CREATE SCHEMA s", "CREATE TABLE s.t (v text)", "INSERT INTO s.t VALUES ('s')",
		"CREATE TABLE t (v text)", "INSERT INTO t VALUES ('public')", "GRANT SELECT ON s.t, t TO rvu1",
		"GRANT CREATE ON SCHEMA public TO rvu1",
	} {
		mustRun(t, admin, stmt)
	}
	mustRun(t, rvu1, "SET search_path = s, public")
	if got := strings.Join(mustRun(t, rvu1, "SELECT v FROM t"), ","); got != "public" {
		t.Errorf("SELECT v FROM t with search_path s, public and no USAGE on s: %q, want public's row", got)
	}
	wantErr(t, rvu1, "SELECT v FROM s.t", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	mustRun(t, rvu1, "CREATE TABLE mine (id int)") // made in public, the first schema it may use
	mustRun(t, rvu1, "SELECT * FROM public.mine")
	mustRun(t, admin, "GRANT USAGE ON SCHEMA s TO rvu1")
	if got := strings.Join(mustRun(t, rvu1, "SELECT v FROM t"), ","); got != "s" {
		t.Errorf("SELECT v FROM t with USAGE on s: %q, want s's row", got)
	}
}
