//go:build fluss_cluster

package remote_test

// Two sqlgate servers in front of one Fluss cluster are one system (issue
// 26, acceptance 3): a role, a table, a view and a GRANT created through
// one are usable, and enforced, through the other without a restart, and
// a REVOKE through one applies to the other's next statement. The
// metadata lives in the cluster (package meta, sqlgate_system.metadata).

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
)

// startAuthServer starts a sqlgate serving the test cluster with SCRAM
// authentication; users holds the superuser the test starts from.
func startAuthServer(t *testing.T, ctx context.Context, users *pgwire.Users) *server.Server {
	t.Helper()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")},
		Auth:  pgwire.AuthConfig{Method: pgwire.AuthSCRAM, Users: users, FailureDelay: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	return srv
}

func connectAs(t *testing.T, ctx context.Context, srv *server.Server, user, password string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://%s:%s@%s/sqlgate?sslmode=disable", user, password, srv.Addr()))
	if err != nil {
		t.Fatalf("connect as %s to %s: %v", user, srv.Addr(), err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func TestClusterTwoServersShareMetadata(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	users := &pgwire.Users{}
	if err := users.SetPassword("admin", "admin-pw", false); err != nil {
		t.Fatal(err)
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	a := startAuthServer(t, ctx, users)
	b := startAuthServer(t, ctx, users)
	adminA := connectAs(t, ctx, a, "admin", "admin-pw")
	adminB := connectAs(t, ctx, b, "admin", "admin-pw")

	sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
	tab, view, other, role := "meta_t_"+sfx, "meta_v_"+sfx, "meta_o_"+sfx, "alice_"+sfx
	exec := func(conn *pgx.Conn, sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	rows := func(conn *pgx.Conn, sql string) string {
		t.Helper()
		rs, err := conn.Query(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			vals, err := rs.Values()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		if err := rs.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(out, ";")
	}
	denied := func(conn *pgx.Conn, sql, msg string) {
		t.Helper()
		_, err := conn.Exec(ctx, sql)
		var pe *pgconn.PgError
		if err == nil || !errors.As(err, &pe) || pe.Code != "42501" || !strings.Contains(pe.Message, msg) {
			t.Fatalf("%s: %v, want 42501 %q", sql, err, msg)
		}
	}

	// The metadata's own database is sqlgate's: not a schema to SQL.
	if got := rows(adminB, "SELECT count(*) FROM pg_namespace WHERE nspname = 'sqlgate_system'"); got != "0" {
		t.Fatalf("pg_namespace shows the metadata's database: %s", got)
	}
	for sql, code := range map[string]string{
		"SELECT * FROM sqlgate_system.metadata": "42P01",
		"CREATE SCHEMA sqlgate_system":          "42939",
		"DROP SCHEMA sqlgate_system CASCADE":    "3F000",
		"DROP TABLE sqlgate_system.metadata":    "42P01",
	} {
		var pe *pgconn.PgError
		if _, err := adminA.Exec(ctx, sql); !errors.As(err, &pe) || pe.Code != code {
			t.Fatalf("%s: %v, want %s", sql, err, code)
		}
	}

	// Through A: a role that may log in, two tables, a view.
	exec(adminA, fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD 'alice-pw'", role))
	exec(adminA, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)", tab))
	t.Cleanup(func() { adminA.Exec(context.Background(), "DROP TABLE IF EXISTS "+tab) })
	exec(adminA, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY)", other))
	t.Cleanup(func() { adminA.Exec(context.Background(), "DROP TABLE IF EXISTS "+other) })
	exec(adminA, fmt.Sprintf("INSERT INTO %s VALUES (1, 'one'), (2, 'two')", tab))
	exec(adminA, fmt.Sprintf("CREATE VIEW %s AS SELECT name FROM %s WHERE id = 2", view, tab))
	t.Cleanup(func() { adminA.Exec(context.Background(), "DROP VIEW IF EXISTS "+view) })

	// Through B, without a restart: the role logs in, the table and view
	// are there, owned by admin, and nothing is granted yet.
	alice := connectAs(t, ctx, b, role, "alice-pw")
	if got := rows(adminB, fmt.Sprintf("SELECT tableowner FROM pg_tables WHERE tablename = '%s'", tab)); got != "admin" {
		t.Fatalf("owner of %s seen through B: %q, want admin", tab, got)
	}
	if got := rows(adminB, fmt.Sprintf("SELECT viewowner FROM pg_views WHERE viewname = '%s'", view)); got != "admin" {
		t.Fatalf("owner of %s seen through B: %q, want admin", view, got)
	}
	denied(alice, "SELECT * FROM "+tab, "permission denied for table "+tab)
	denied(alice, "SELECT * FROM "+view, "permission denied for view "+view)

	// A GRANT through A is usable through B at B's next statement, and
	// enforced: only what was granted.
	exec(adminA, fmt.Sprintf("GRANT SELECT ON %s, %s TO %s", tab, view, role))
	if got := rows(alice, fmt.Sprintf("SELECT id, name FROM %s ORDER BY id", tab)); got != "1one;2two" {
		t.Fatalf("alice reads %s through B: %q", tab, got)
	}
	if got := rows(alice, "SELECT name FROM "+view); got != "two" {
		t.Fatalf("alice reads %s through B: %q", view, got)
	}
	denied(alice, fmt.Sprintf("INSERT INTO %s VALUES (3, 'three')", tab), "permission denied for table "+tab)
	denied(alice, "SELECT * FROM "+other, "permission denied for table "+other)
	// A prepared statement too: privileges are checked at each execution.
	if _, err := alice.Prepare(ctx, "read", fmt.Sprintf("SELECT name FROM %s WHERE id = $1", tab)); err != nil {
		t.Fatal(err)
	}
	var name string
	if err := alice.QueryRow(ctx, "read", 1).Scan(&name); err != nil || name != "one" {
		t.Fatalf("prepared read through B: %q %v", name, err)
	}

	// A REVOKE through A applies to B's next statement; the view still
	// reads the table with its owner's rights, as in PostgreSQL.
	exec(adminA, fmt.Sprintf("REVOKE SELECT ON %s FROM %s", tab, role))
	denied(alice, "SELECT * FROM "+tab, "permission denied for table "+tab)
	var pe *pgconn.PgError
	if _, err := alice.Exec(ctx, "read", 1); !errors.As(err, &pe) || pe.Code != "42501" {
		t.Fatalf("the prepared statement after the REVOKE: %v, want 42501", err)
	}
	if got := rows(alice, "SELECT name FROM "+view); got != "two" {
		t.Fatalf("alice reads %s through B after the table's REVOKE: %q", view, got)
	}

	// And the other way: through B, A sees B's changes.
	exec(adminB, fmt.Sprintf("GRANT INSERT ON %s TO %s", other, role))
	aliceA := connectAs(t, ctx, a, role, "alice-pw")
	exec(aliceA, fmt.Sprintf("INSERT INTO %s VALUES (7)", other))
	exec(adminB, "DROP VIEW "+view)
	if _, err := aliceA.Exec(ctx, "SELECT * FROM "+view); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("view dropped through B, read through A: %v", err)
	}
	exec(adminB, "DROP TABLE "+tab)
	exec(adminB, "DROP TABLE "+other)
	alice.Close(ctx)
	aliceA.Close(ctx)
	exec(adminA, "DROP ROLE "+role)
	if _, err := pgx.Connect(ctx, fmt.Sprintf("postgres://%s:%s@%s/sqlgate?sslmode=disable", role, "alice-pw", b.Addr())); err == nil {
		t.Fatal("a role dropped through A still logs in through B")
	}
}

// What a sqlgate server that dies between a table change and its
// metadata commit leaves on the cluster, seen through another server: a
// table created without its owner's row is owned by its creator anyway
// (the owner is a custom property of the table), and the grants of a
// table dropped before its row was forgotten grant nothing to a table
// created again under the name; a server starting sweeps them.
func TestClusterMetadataAfterAServerDied(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	users := &pgwire.Users{}
	if err := users.SetPassword("admin", "admin-pw", false); err != nil {
		t.Fatal(err)
	}
	e := users.Users["admin"]
	e.Superuser = true
	users.Users["admin"] = e
	b := startAuthServer(t, ctx, users)
	admin := connectAs(t, ctx, b, "admin", "admin-pw")
	direct, err := remote.OpenStore(ctx, remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
	role, born, reborn := "bob_"+sfx, "meta_born_"+sfx, "meta_reborn_"+sfx
	exec := func(conn *pgx.Conn, sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	exec(admin, fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD 'bob-pw'", role))
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP ROLE IF EXISTS "+role) })

	// Server A created the table (its owner inside it) and died.
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: born}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}},
		PrimaryKey: []string{"id"}}, CustomProperties: map[string]string{fluss.OwnerProperty: role}}
	if _, err := direct.CreateTable(ctx, path, desc, false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { direct.DropTable(context.Background(), path, true) })
	var owner string
	if err := admin.QueryRow(ctx, "SELECT tableowner FROM pg_tables WHERE tablename = $1", born).Scan(&owner); err != nil || owner != role {
		t.Fatalf("owner of a table whose owner's row was never written: %q %v", owner, err)
	}
	bob := connectAs(t, ctx, b, role, "bob-pw")
	exec(bob, fmt.Sprintf("INSERT INTO %s VALUES (1)", born))
	var n int
	if err := bob.QueryRow(ctx, "SELECT count(*) FROM "+born).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the owner reads its table: %d %v", n, err)
	}
	exec(bob, fmt.Sprintf("GRANT SELECT ON %s TO PUBLIC", born))

	// A dropped the table (its grants' row still there) and died; the
	// name is taken again.
	exec(admin, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY)", reborn))
	exec(admin, fmt.Sprintf("GRANT SELECT ON %s TO %s", reborn, role))
	old, err := direct.GetTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: reborn})
	if err != nil {
		t.Fatal(err)
	}
	if err := direct.DropTable(ctx, old.Path, false); err != nil {
		t.Fatal(err)
	}
	exec(admin, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY)", reborn))
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP TABLE IF EXISTS "+reborn) })
	_, err = bob.Exec(ctx, "SELECT * FROM "+reborn)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" {
		t.Fatalf("the grant of a dropped table reached the table created again: %v", err)
	}

	// A server starting sweeps the dropped table's row.
	md, err := meta.OpenTable(ctx, direct)
	if err != nil {
		t.Fatal(err)
	}
	if md.Access().PathOf(old.TableID) == "" {
		t.Fatal("the dropped table's row is missing before the sweep: the test did not set it up")
	}
	startAuthServer(t, ctx, users)
	if err := md.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if p := md.Access().PathOf(old.TableID); p != "" {
		t.Fatalf("the row of dropped table %d (%s) survived a server's start", old.TableID, p)
	}
	// A role whose only objects are gone with their tables may be dropped.
	bob.Close(ctx)
	if err := direct.DropTable(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	exec(admin, fmt.Sprintf("REVOKE SELECT ON %s FROM %s", reborn, role))
	exec(admin, "DROP ROLE "+role)
}
