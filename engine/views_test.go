package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// viewEngine opens an engine over dir's store, views file and privileges
// file, as the server does, and sessions of the given users.
func viewEngine(t *testing.T, dir string, rs roles, users ...string) (*embedded.Store, []pgwire.Session) {
	t.Helper()
	store, err := embedded.Open(filepath.Join(dir, "data"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	md, err := meta.OpenFile(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(store, engine.Options{Meta: md, Roles: rs})
	var out []pgwire.Session
	for _, u := range users {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: u})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		out = append(out, s)
	}
	return store, out
}

func wantErr(t *testing.T, s pgwire.Session, sql string, code sqlerr.Code, msg string) {
	t.Helper()
	_, _, err := run(t, s, sql)
	if sqlerr.CodeOf(err) != code || err == nil || !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: %v, want %s %q", sql, err, code, msg)
	}
}

func TestViewSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	store, ss := viewEngine(t, dir, roles{"admin": true}, "admin")
	mustRun(t, ss[0], "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	mustRun(t, ss[0], "CREATE VIEW big (n, label) AS SELECT id, upper(v) FROM t WHERE id > 1")
	mustRun(t, ss[0], "CREATE VIEW over_big AS SELECT label FROM big")
	ss[0].Close()
	store.Close()

	_, ss = viewEngine(t, dir, roles{"admin": true}, "admin")
	if got := mustRun(t, ss[0], "SELECT label FROM over_big"); strings.Join(got, ",") != "B" {
		t.Errorf("after restart: %v", got)
	}
	wantErr(t, ss[0], "DROP TABLE t", sqlerr.DependentObjectsStillExist, "cannot drop table t because other objects depend on it")
	wantErr(t, ss[0], "CREATE VIEW big AS SELECT 1", sqlerr.DuplicateTable, `relation "big" already exists`)
	mustRun(t, ss[0], "DROP VIEW over_big, big")
	mustRun(t, ss[0], "DROP TABLE t")
}

// TestStaleViewOverRecreatedTable drops and re-creates a view's table
// behind the engine's back (another path to the store): the view fails,
// naming itself and the column, instead of answering from other columns.
func TestStaleViewOverRecreatedTable(t *testing.T) {
	dir := t.TempDir()
	store, ss := viewEngine(t, dir, roles{"admin": true}, "admin")
	s := ss[0]
	mustRun(t, s, "CREATE TABLE t (a INT, b TEXT); INSERT INTO t VALUES (1, 'x')")
	mustRun(t, s, "CREATE VIEW v AS SELECT * FROM t")
	ctx := context.Background()
	p := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"}
	recreate := func(cols ...fluss.Column) {
		t.Helper()
		if err := store.DropTable(ctx, p, false); err != nil {
			t.Fatal(err)
		}
		if _, err := store.CreateTable(ctx, p, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols}}, false); err != nil {
			t.Fatal(err)
		}
	}
	recreate(fluss.Column{Name: "a", Type: types.Int64Type}, fluss.Column{Name: "b", Type: types.StringType})
	wantErr(t, s, "SELECT * FROM v", sqlerr.DatatypeMismatch, `view "v" no longer matches the relations it uses: column "a" was of type integer and is now of type bigint`)
	recreate(fluss.Column{Name: "b", Type: types.StringType}, fluss.Column{Name: "a", Type: types.Int32Type})
	wantErr(t, s, "SELECT a FROM v", sqlerr.DatatypeMismatch, `column "a" was of type integer and is now of type text`)
	recreate(fluss.Column{Name: "a", Type: types.Int32Type})
	wantErr(t, s, "SELECT count(*) FROM v", sqlerr.UndefinedColumn, `column "b" is missing`)
	if err := store.DropTable(ctx, p, false); err != nil {
		t.Fatal(err)
	}
	wantErr(t, s, "SELECT * FROM v", sqlerr.UndefinedTable, `view "v" no longer matches the relations it uses: relation "t" does not exist`)
	// the same columns again: the view works
	mustRun(t, s, "CREATE TABLE t (a INT, b TEXT, c BOOLEAN); INSERT INTO t VALUES (7, 'y', true)")
	if got := mustRun(t, s, "SELECT b FROM v WHERE a = 7"); strings.Join(got, ",") != "y" {
		t.Errorf("re-created table: %v", got)
	}
}

func TestViewPrivileges(t *testing.T) {
	dir := t.TempDir()
	rs := roles{"admin": true, "keeper": true, "alice": false}
	store, ss := viewEngine(t, dir, rs, "admin", "keeper", "alice")
	admin, keeper, alice := ss[0], ss[1], ss[2]
	mustRun(t, admin, "CREATE TABLE secret (k INT PRIMARY KEY, v TEXT); INSERT INTO secret VALUES (1, 'a'), (2, 'b')")
	mustRun(t, keeper, "CREATE VIEW public_part AS SELECT k FROM secret")

	wantErr(t, alice, "SELECT * FROM public_part", sqlerr.InsufficientPrivilege, "permission denied for view public_part")
	wantErr(t, alice, "CREATE VIEW mine AS SELECT 1", sqlerr.InsufficientPrivilege, "permission denied for schema public")
	wantErr(t, alice, "DROP VIEW public_part", sqlerr.InsufficientPrivilege, "must be owner of view public_part")
	wantErr(t, alice, "GRANT SELECT ON public_part TO alice", sqlerr.InsufficientPrivilege, "permission denied for view public_part")
	mustRun(t, keeper, "GRANT SELECT ON public_part TO alice")
	// the view reads secret with its owner's rights, not alice's
	if got := mustRun(t, alice, "SELECT count(*) FROM public_part"); got[0] != "2" {
		t.Errorf("alice through the view: %v", got)
	}
	wantErr(t, alice, "SELECT * FROM secret", sqlerr.InsufficientPrivilege, "permission denied for table secret")
	wantErr(t, alice, "SELECT * FROM public_part JOIN secret USING (k)", sqlerr.InsufficientPrivilege, "permission denied for table secret")
	mustRun(t, keeper, "REVOKE SELECT ON public_part FROM alice")
	wantErr(t, alice, "SELECT * FROM public_part", sqlerr.InsufficientPrivilege, "permission denied for view public_part")
	mustRun(t, admin, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO alice")
	mustRun(t, alice, "SELECT * FROM public_part")
	mustRun(t, admin, "REVOKE SELECT ON ALL TABLES IN SCHEMA public FROM alice")
	mustRun(t, keeper, "GRANT SELECT ON public_part TO alice")
	ss[0].Close()
	store.Close()

	// keeper is no superuser any more: the view's reads need keeper's own
	// grant on secret, whoever queries it (a superuser too, as on PostgreSQL)
	_, ss = viewEngine(t, dir, roles{"admin": true, "keeper": false, "alice": false}, "admin", "alice")
	admin, alice = ss[0], ss[1]
	wantErr(t, alice, "SELECT * FROM public_part", sqlerr.InsufficientPrivilege, "permission denied for table secret")
	wantErr(t, admin, "SELECT * FROM public_part", sqlerr.InsufficientPrivilege, "permission denied for table secret")
	mustRun(t, admin, "GRANT SELECT ON secret TO keeper")
	if got := mustRun(t, alice, "SELECT k FROM public_part ORDER BY k"); strings.Join(got, ",") != "1,2" {
		t.Errorf("after the grant to the owner: %v", got)
	}
}

func TestViewWrites(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); CREATE VIEW v AS SELECT * FROM t")
	// an automatically updatable view writes its table
	mustRun(t, s, "INSERT INTO v VALUES (1, 'a'); UPDATE v SET v = 'b'; INSERT INTO public.v VALUES (2, 'c'); DELETE FROM public.v WHERE id = 2")
	if got := mustRun(t, s, "SELECT id || v FROM t"); strings.Join(got, ",") != "1b" {
		t.Errorf("after writes through the view: %v", got)
	}
	mustRun(t, s, "CREATE VIEW g AS SELECT v, count(*) FROM t GROUP BY v")
	for sql, msg := range map[string]string{
		"INSERT INTO g VALUES ('a', 1)":   `cannot insert into view "g"`,
		"UPDATE g SET v = 'b'":            `cannot update view "g"`,
		"DELETE FROM public.g WHERE v=''": `cannot delete from view "g"`,
	} {
		wantErr(t, s, sql, sqlerr.ObjectNotInPrerequisiteState, msg)
	}
	wantErr(t, s, "TRUNCATE v", sqlerr.WrongObjectType, `"v" is not a table`)
	wantErr(t, s, "BEGIN READ ONLY; CREATE VIEW w AS SELECT 1", sqlerr.ReadOnlySQLTransaction, "cannot execute CREATE VIEW in a read-only transaction")
	mustRun(t, s, "ROLLBACK")
	// INSERT ... SELECT from a view into a table is fine
	mustRun(t, s, "INSERT INTO t SELECT id + 1, v FROM v")
	if got := mustRun(t, s, "SELECT count(*) FROM v"); got[0] != "2" {
		t.Errorf("count: %v", got)
	}
}

// TestViewWritePrivileges: a write through a view needs the write's
// privilege on the view (and SELECT where it reads it) from the role, and
// on the base table from the view's owner, as in PostgreSQL.
func TestViewWritePrivileges(t *testing.T) {
	dir := t.TempDir()
	_, ss := viewEngine(t, dir, roles{"admin": true, "bob": false, "alice": false}, "admin", "bob", "alice")
	admin, bob, alice := ss[0], ss[1], ss[2]
	mustRun(t, admin, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')")
	mustRun(t, admin, "GRANT CREATE ON SCHEMA public TO bob; GRANT SELECT ON t TO bob")
	mustRun(t, bob, "CREATE VIEW bv AS SELECT id, v FROM t; GRANT INSERT, DELETE ON bv TO alice")
	wantErr(t, alice, "INSERT INTO bv VALUES (2, 'b')", sqlerr.InsufficientPrivilege, "permission denied for table t")
	mustRun(t, admin, "GRANT INSERT ON t TO bob")
	mustRun(t, alice, "INSERT INTO bv VALUES (2, 'b')")
	wantErr(t, alice, "INSERT INTO t VALUES (3, 'c')", sqlerr.InsufficientPrivilege, "permission denied for table t")
	wantErr(t, alice, "UPDATE bv SET v = 'x'", sqlerr.InsufficientPrivilege, "permission denied for view bv")
	// DELETE ... WHERE reads the view: SELECT on it too
	wantErr(t, alice, "DELETE FROM bv WHERE id = 2", sqlerr.InsufficientPrivilege, "permission denied for view bv")
	mustRun(t, bob, "GRANT SELECT ON bv TO alice")
	wantErr(t, alice, "DELETE FROM bv WHERE id = 2", sqlerr.InsufficientPrivilege, "permission denied for table t")
	mustRun(t, admin, "GRANT DELETE ON t TO bob")
	mustRun(t, alice, "DELETE FROM bv WHERE id = 2")
	if got := mustRun(t, admin, "SELECT id FROM t ORDER BY id"); strings.Join(got, ",") != "1" {
		t.Errorf("rows: %v", got)
	}
}

// TestSecurityInvokerViews: a security_invoker view reads (and writes)
// its relations with the privileges of the role using it, not its
// owner's, as PostgreSQL 15's; ALTER VIEW ... SET turns it on and off.
func TestSecurityInvokerViews(t *testing.T) {
	dir := t.TempDir()
	_, ss := viewEngine(t, dir, roles{"admin": true, "alice": false}, "admin", "alice")
	admin, alice := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (id INT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')")
	mustRun(t, admin, "CREATE VIEW def AS SELECT * FROM t; CREATE VIEW inv WITH (security_invoker) AS SELECT * FROM t")
	mustRun(t, admin, "CREATE VIEW inv_over_def WITH (security_invoker = true) AS SELECT * FROM def")
	mustRun(t, admin, "GRANT SELECT, INSERT ON def, inv, inv_over_def TO alice")
	mustRun(t, alice, "SELECT * FROM def")
	wantErr(t, alice, "SELECT * FROM inv", sqlerr.InsufficientPrivilege, "permission denied for table t")
	// def, under the invoker's view, still reads t as its owner
	mustRun(t, alice, "SELECT * FROM inv_over_def")
	mustRun(t, alice, "INSERT INTO def VALUES (2, 'b')")
	wantErr(t, alice, "INSERT INTO inv VALUES (3, 'c')", sqlerr.InsufficientPrivilege, "permission denied for table t")
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	mustRun(t, alice, "SELECT * FROM inv")
	wantErr(t, alice, "INSERT INTO inv VALUES (3, 'c')", sqlerr.InsufficientPrivilege, "permission denied for table t")
	mustRun(t, admin, "GRANT INSERT ON t TO alice")
	mustRun(t, alice, "INSERT INTO inv VALUES (3, 'c')")
	mustRun(t, admin, "REVOKE SELECT, INSERT ON t FROM alice; ALTER VIEW inv SET (security_invoker = false)")
	mustRun(t, alice, "SELECT * FROM inv")
	mustRun(t, admin, "ALTER VIEW inv RESET (security_invoker); ALTER VIEW def SET (security_invoker)")
	wantErr(t, alice, "SELECT * FROM def", sqlerr.InsufficientPrivilege, "permission denied for table t")
	if got := mustRun(t, admin, "SELECT id FROM t ORDER BY id"); strings.Join(got, ",") != "1,2,3" {
		t.Errorf("rows: %v", got)
	}
}
