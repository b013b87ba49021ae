//go:build fluss_cluster

package remote_test

// The table-info cache (tablecache.go) against a real cluster: server A
// caches a table's info; the table is dropped and created again with
// other columns, or altered, through server B (which announces it through
// the metadata version row) or through a client that is not sqlgate (a
// bare Store: no announcement, as pyfluss); A's statements see the new
// table, never the old columns.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
)

// startTrustServer starts a sqlgate without authentication; maxAge is its
// remote.Config.TableInfoMaxAge (0: the default).
func startTrustServer(t *testing.T, ctx context.Context, maxAge time.Duration) *server.Server {
	t.Helper()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ","), TableInfoMaxAge: maxAge}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	return srv
}

func connectTrust(t *testing.T, ctx context.Context, srv *server.Server) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// rowsOf runs sql and renders its column names and rows.
func rowsOf(ctx context.Context, conn *pgx.Conn, sql string, args ...any) (string, error) {
	rs, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	var names []string
	for _, f := range rs.FieldDescriptions() {
		names = append(names, f.Name)
	}
	out := []string{strings.Join(names, ",")}
	for rs.Next() {
		vals, err := rs.Values()
		if err != nil {
			return "", err
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(cells, " "))
	}
	return strings.Join(out, ";"), rs.Err()
}

func TestClusterTableCacheSeesOtherServersDDL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A trusts its cache for an hour: only B's announcement can tell it.
	a, b := startTrustServer(t, ctx, time.Hour), startTrustServer(t, ctx, 0)
	ca, cb := connectTrust(t, ctx, a), connectTrust(t, ctx, b)
	tab := fmt.Sprintf("tcache_%d", time.Now().UnixNano()%1e9)
	exec := func(conn *pgx.Conn, sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	want := func(conn *pgx.Conn, sql, want string, args ...any) {
		t.Helper()
		got, err := rowsOf(ctx, conn, sql, args...)
		if err != nil || got != want {
			t.Fatalf("%s: %q, %v; want %q", sql, got, err, want)
		}
	}
	// wantPrepared is want for a statement pgx keeps prepared: after the
	// table's columns changed, its first run fails as on PostgreSQL 15
	// (0A000 "cached plan must not change result type"; pgx then drops it)
	// and the next one prepares it again.
	wantPrepared := func(conn *pgx.Conn, sql, want string, args ...any) {
		t.Helper()
		got, err := rowsOf(ctx, conn, sql, args...)
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "0A000" && pe.Message == "cached plan must not change result type" {
			got, err = rowsOf(ctx, conn, sql, args...)
		}
		if err != nil || got != want {
			t.Fatalf("%s: %q, %v; want %q", sql, got, err, want)
		}
	}
	t.Cleanup(func() { cb.Exec(context.Background(), "DROP TABLE IF EXISTS "+tab) })
	exec(ca, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, v TEXT)", tab))
	exec(ca, fmt.Sprintf("INSERT INTO %s VALUES (1, 'a')", tab))
	lookup := fmt.Sprintf("SELECT * FROM %s WHERE id = $1", tab)
	for i := 0; i < 3; i++ { // A caches the table (and prepares the lookup)
		want(ca, lookup, "id,v;1 a", 1)
	}

	// Dropped and created again through B, with other columns.
	exec(cb, "DROP TABLE "+tab)
	exec(cb, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, w BIGINT, x TEXT)", tab))
	exec(cb, fmt.Sprintf("INSERT INTO %s VALUES (1, 7, 'x')", tab))
	wantPrepared(ca, lookup, "id,w,x;1 7 x", 1)
	want(ca, "SELECT * FROM "+tab, "id,w,x;1 7 x")

	// ALTER TABLE ADD COLUMN through B, no row written since.
	exec(cb, fmt.Sprintf("ALTER TABLE %s ADD COLUMN y TEXT", tab))
	wantPrepared(ca, lookup, "id,w,x,y;1 7 x <nil>", 1)
	exec(ca, fmt.Sprintf("INSERT INTO %s VALUES (2, 8, 'z', 'yy')", tab))
	want(cb, "SELECT * FROM "+tab+" ORDER BY id", "id,w,x,y;1 7 x <nil>;2 8 z yy")

	// Dropped through B: A's next statement says it does not exist.
	exec(cb, "DROP TABLE "+tab)
	var pe *pgconn.PgError
	if _, err := rowsOf(ctx, ca, lookup, 1); !errors.As(err, &pe) || pe.Code != "42P01" {
		t.Fatalf("lookup of a table dropped through B: %v, want 42P01", err)
	}
}

// A client that is not sqlgate announces nothing: A learns of its changes
// from the cluster's answers (a table id that is gone, a newer schema id)
// or, for a change no answer shows, after TableInfoMaxAge.
func TestClusterTableCacheSeesOtherClientsDDL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a := startTrustServer(t, ctx, 0)
	ca := connectTrust(t, ctx, a)
	other, err := remote.OpenStore(ctx, remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tab := fmt.Sprintf("tcache_o_%d", time.Now().UnixNano()%1e9)
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: tab}
	t.Cleanup(func() { other.DropTable(context.Background(), path, true) })
	if _, err := ca.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, v TEXT)", tab)); err != nil {
		t.Fatal(err)
	}
	lookup := fmt.Sprintf("SELECT * FROM %s WHERE id = $1", tab)
	for i := 0; i < 3; i++ {
		if _, err := rowsOf(ctx, ca, lookup, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.DropTable(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	desc := fluss.TableDescriptor{BucketCount: 1, Schema: fluss.Schema{PrimaryKey: []string{"id"}, Columns: []fluss.Column{
		{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "z", Type: types.T{Kind: types.Int64}}}}}
	if _, err := other.CreateTable(ctx, path, desc, false); err != nil {
		t.Fatal(err)
	}
	// The first statement may fail, as one racing a DROP in PostgreSQL
	// does (the table it knew is gone), but quickly and clearly; the next
	// one sees the new table. Never the old columns.
	start := time.Now()
	got, err := rowsOf(ctx, ca, lookup, 1)
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || (pe.Code != "42P01" && pe.Code != "40001") {
			t.Fatalf("first lookup after another client replaced the table: %v, want 42P01 or 40001", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("the failure took %v (retrying a table id that is gone)", d)
		}
		got, err = rowsOf(ctx, ca, lookup, 1)
	}
	if err != nil || got != "id,z" {
		t.Fatalf("lookup after another client replaced the table: %q, %v; want the new columns id,z", got, err)
	}
	// ADD COLUMN by the other client: seen within TableInfoMaxAge.
	if _, err := other.AlterTable(ctx, path, []fluss.TableChange{{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: "q", Type: types.T{Kind: types.String}}}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	if got, err := rowsOf(ctx, ca, "SELECT * FROM "+tab); err != nil || got != "id,z,q" {
		t.Fatalf("scan after another client added a column: %q, %v; want id,z,q", got, err)
	}
}

// The same through pyfluss: it drops the table sqlgate server A cached and
// creates it with other columns; A's statements see the new table (the
// first may fail clearly, as one racing a DROP does), never the old one.
func TestClusterTableCacheSeesPyflussDDL(t *testing.T) {
	python := pyflussPython(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a := startTrustServer(t, ctx, time.Hour) // only the cluster's answers can tell it
	ca := connectTrust(t, ctx, a)
	tab := fmt.Sprintf("tcache_py_%d", time.Now().UnixNano()%1e9)
	t.Cleanup(func() { ca.Exec(context.Background(), "DROP TABLE IF EXISTS "+tab) })
	if _, err := ca.Exec(ctx, fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, v TEXT)", tab)); err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES (1, 'a')", tab)); err != nil {
		t.Fatal(err)
	}
	lookup := fmt.Sprintf("SELECT * FROM %s WHERE id = 1", tab)
	for i := 0; i < 3; i++ {
		if got, err := rowsOf(ctx, ca, lookup); err != nil || got != "id,v;1 a" {
			t.Fatalf("before: %q, %v", got, err)
		}
	}
	cmd := exec.CommandContext(ctx, python, "testdata/pyfluss_recreate.py", remote.ClusterBootstrap(), fluss.DefaultDatabase, tab)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pyfluss_recreate.py: %v\n%s", err, out)
	}
	got, err := rowsOf(ctx, ca, lookup)
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || (pe.Code != "42P01" && pe.Code != "40001") {
			t.Fatalf("first lookup after pyfluss replaced the table: %v, want 42P01 or 40001", err)
		}
		t.Logf("first lookup after pyfluss replaced the table: %v", err)
		got, err = rowsOf(ctx, ca, lookup)
	}
	if err != nil || got != "id,z;1 42" {
		t.Fatalf("lookup after pyfluss replaced the table: %q, %v; want the new table's row", got, err)
	}
}
