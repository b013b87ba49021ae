//go:build fluss_cluster

package remote_test

// sqlgate serving a real Fluss cluster (`sqlgate serve --fluss`), through
// the PostgreSQL protocol: what psql does, checked value by value.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
)

func TestClusterSQL(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(context.Background())
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	pk, lg := "sqlt_pk_"+suffix, "sqlt_log_"+suffix
	exec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	query := func(sql string) string {
		t.Helper()
		rows, err := conn.Query(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return strings.Join(out, "\n")
	}
	check := func(sql, want string) {
		t.Helper()
		if got := query(sql); got != want {
			t.Fatalf("%s:\n got %s\nwant %s", sql, got, want)
		}
	}
	exec(fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, name text, v double precision, n bigint)", pk))
	defer exec("DROP TABLE " + pk)
	exec(fmt.Sprintf("CREATE TABLE %s (id int, s text)", lg))
	defer exec("DROP TABLE " + lg)
	exec(fmt.Sprintf("INSERT INTO %s VALUES (1,'a',1.5,10),(2,NULL,2.5,-20),(3,'ü',-0.25,NULL)", pk))
	exec(fmt.Sprintf("INSERT INTO %s VALUES (1,'x'),(2,'y'),(3,NULL),(1,'x again')", lg))
	check(fmt.Sprintf("SELECT * FROM %s ORDER BY id", pk), "[1 a 1.5 10]\n[2 <nil> 2.5 -20]\n[3 ü -0.25 <nil>]")
	check(fmt.Sprintf("SELECT * FROM %s WHERE id = 2", pk), "[2 <nil> 2.5 -20]")
	// A read-modify-write needs row locks that other writers of the cluster
	// honour; there are none, so UPDATE is refused (engine.needRowLocks).
	if _, err := conn.Exec(ctx, fmt.Sprintf("UPDATE %s SET v = v * 2, name = 'b' WHERE id = 2", pk)); !is0A000(err) {
		t.Fatalf("UPDATE: %v, want 0A000", err)
	}
	exec(fmt.Sprintf("INSERT INTO %s VALUES (2, 'b', 5, -20)", pk))
	exec(fmt.Sprintf("DELETE FROM %s WHERE id = 3", pk))
	check(fmt.Sprintf("SELECT id, name, v FROM %s ORDER BY id", pk), "[1 a 1.5]\n[2 b 5]")
	check(fmt.Sprintf("SELECT id, s FROM %s ORDER BY id, s", lg), "[1 x]\n[1 x again]\n[2 y]\n[3 <nil>]")
	check(fmt.Sprintf("SELECT l.s, p.name FROM %s l JOIN %s p ON l.id = p.id ORDER BY 1", lg, pk), "[x a]\n[x again a]\n[y b]")
	check(fmt.Sprintf("SELECT count(*), sum(n)::text FROM %s", pk), "[2 -10]")
	// The primary-key table's changelog, as Fluss produced it: three
	// inserts, the replacement of key 2 (-U, +U) and the delete of key 3.
	check(fmt.Sprintf(`SELECT _change_type, id, name FROM "%s$changelog" ORDER BY _log_offset, id`, pk),
		"[insert 1 a]\n[insert 2 <nil>]\n[insert 3 ü]\n[update_before 2 <nil>]\n[update_after 2 b]\n[delete 3 ü]")
	check(fmt.Sprintf(`SELECT count(*) FROM "%s$changelog" WHERE _change_type = 'insert' AND _log_offset >= 0`, lg), "[4]")

	// What a cluster cannot do fails with 0A000, naming it.
	for _, sql := range []string{
		fmt.Sprintf("INSERT INTO %s VALUES (9,'z',0,0) ON CONFLICT DO NOTHING", pk),
		fmt.Sprintf("BEGIN; INSERT INTO %s VALUES (9,'t',0,0); INSERT INTO %s VALUES (9,'t'); COMMIT", pk, lg),
	} {
		if _, err := conn.Exec(ctx, sql); !is0A000(err) {
			t.Fatalf("%s: %v, want 0A000", sql, err)
		}
		_, _ = conn.Exec(ctx, "ROLLBACK")
	}
	check(fmt.Sprintf("SELECT count(*) FROM %s WHERE id = 9", pk), "[0]")
}

func is0A000(err error) bool {
	pe, ok := err.(*pgconn.PgError)
	return ok && pe.Code == "0A000"
}
