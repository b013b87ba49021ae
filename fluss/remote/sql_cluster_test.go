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

// serveCluster starts sqlgate serving the test cluster and connects to it;
// both end with the test.
func serveCluster(t *testing.T) (context.Context, *pgx.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	srv, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(context.Background()) })
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://sqlgate@%s/sqlgate?sslmode=disable", srv.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return ctx, conn
}

// mustExec runs sql on conn, failing the test on an error.
func mustExec(t *testing.T, ctx context.Context, conn *pgx.Conn, sql string) {
	t.Helper()
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// queryText is sql's rows on conn, one line per row.
func queryText(t *testing.T, ctx context.Context, conn *pgx.Conn, sql string) string {
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

func TestClusterSQL(t *testing.T) {
	ctx, conn := serveCluster(t)
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	pk, lg := "sqlt_pk_"+suffix, "sqlt_log_"+suffix
	exec := func(sql string) {
		t.Helper()
		mustExec(t, ctx, conn, sql)
	}
	query := func(sql string) string {
		t.Helper()
		return queryText(t, ctx, conn, sql)
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

// TestClusterSQLTypes: values of every type (nested ARRAY/MAP/ROW with
// NULLs inside included) written through sqlgate
// read back the same from the key-value store (our compacted rows, returned
// by Lookup/LimitScan) and from the changelog (Arrow batches the Fluss server
// wrote from our rows, decoded by us): both directions of byte fidelity.
func TestClusterSQLTypes(t *testing.T) {
	ctx, conn := serveCluster(t)
	name := fmt.Sprint("sqlt_types_", time.Now().UnixNano()%1e6)
	cols := []struct{ name, typ, v1 string }{
		{"b", "boolean", "true"}, {"i16", "smallint", "-5"}, {"i32", "int", "-2147483648"}, {"i64", "bigint", "9000000000"},
		{"f4", "real", "1.5"}, {"f8", "double precision", "-2.25e-300"}, {"s", "text", "'héllo ✓'"},
		{"byt", "bytea", `'\xdeadbeef00'`}, {"d18", "numeric(18,4)", "-12345.6789"},
		{"d30", "numeric(30,5)", "1234567890123456789012345.12345"}, {"dt", "date", "'2024-02-29'"},
		{"tm3", "time(3)", "'13:14:15.123'"}, {"ts6", "timestamp(6)", "'2024-01-02 03:04:05.123456'"},
		{"tz6", "timestamptz(6)", "'2024-01-02 03:04:05.123456+00'"}, {"arr", "int[]", "'{1,NULL,3}'"},
		{"txt", "text[]", "'{a,NULL,\"\"}'"},
		{"m", "MAP<STRING, INT>", "MAP['a', 1, 'b', NULL]"}, {"r", "ROW<a INT, b STRING>", "ROW(NULL, 'x')"},
		{"nr", "ROW<x INT NOT NULL, y ARRAY<STRING>, z ROW<p DOUBLE, q MAP<INT, STRING>>>",
			`'{"x": 7, "y": ["u", null], "z": {"p": 0.5, "q": [[1, "one"], [2, null]]}}'`},
		// Fluss's Arrow units differ from the engine's at these precisions
		// (fluss.md §11): fluss/format converts at the log batch.
		{"ts0", "timestamp(0)", "'2024-01-02 03:04:05'"}, {"ts3", "timestamp(3)", "'2024-01-02 03:04:05.123'"},
		{"tz0", "timestamptz(0)", "'2024-01-02 03:04:05+00'"}, {"tz3", "timestamptz(3)", "'2024-01-02 03:04:05.123+00'"},
		{"tm0", "time(0)", "'01:02:03'"},
	}
	var defs, names, vals, nulls []string
	for _, c := range cols {
		defs = append(defs, c.name+" "+c.typ)
		names = append(names, c.name+"::text")
		vals = append(vals, c.v1)
		nulls = append(nulls, "NULL")
	}
	mustExec := func(sql string) {
		t.Helper()
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	mustExec(fmt.Sprintf("CREATE TABLE %s (id int PRIMARY KEY, %s)", name, strings.Join(defs, ", ")))
	defer mustExec("DROP TABLE " + name)
	mustExec(fmt.Sprintf("INSERT INTO %s VALUES (1, %s), (2, %s)", name, strings.Join(vals, ", "), strings.Join(nulls, ", ")))
	read := func(from string) [][]*string {
		t.Helper()
		rows, err := conn.Query(ctx, fmt.Sprintf("SELECT %s FROM %s ORDER BY id", strings.Join(names, ", "), from))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out [][]*string
		for rows.Next() {
			r := make([]*string, len(cols))
			ptrs := make([]any, len(cols))
			for i := range r {
				ptrs[i] = &r[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	kv, cl := read(name), read(fmt.Sprintf("%q", name+"$changelog"))
	if len(kv) != 2 || len(cl) != 2 {
		t.Fatalf("%d rows from the table, %d from its changelog; want 2 and 2", len(kv), len(cl))
	}
	show := func(p *string) string {
		if p == nil {
			return "NULL"
		}
		return *p
	}
	for r := 0; r < 2; r++ {
		for i, c := range cols {
			if r == 1 && kv[r][i] != nil {
				t.Errorf("%s: NULL read back as %s", c.name, show(kv[r][i]))
			}
			if show(kv[r][i]) == show(cl[r][i]) {
				continue
			}
			t.Errorf("%s row %d: table %s, changelog (Arrow written by Fluss) %s", c.name, r+1, show(kv[r][i]), show(cl[r][i]))
		}
	}
	var one []string
	for i := range cols {
		one = append(one, show(kv[0][i]))
	}
	// As PostgreSQL 15 prints the inserted values.
	want := `true | -5 | -2147483648 | 9000000000 | 1.5 | -2.25e-300 | héllo ✓ | \xdeadbeef00 | -12345.6789 | ` +
		`1234567890123456789012345.12345 | 2024-02-29 | 13:14:15.123 | 2024-01-02 03:04:05.123456 | ` +
		`2024-01-02 03:04:05.123456+00 | {1,NULL,3} | {a,NULL,""} | [["a",1],["b",null]] | {"a":null,"b":"x"} | ` +
		`{"x":7,"y":["u",null],"z":{"p":0.5,"q":[[1,"one"],[2,null]]}} | 2024-01-02 03:04:05 | 2024-01-02 03:04:05.123 | ` +
		`2024-01-02 03:04:05+00 | 2024-01-02 03:04:05.123+00 | 01:02:03`
	if got := strings.Join(one, " | "); got != want {
		t.Errorf("row 1 read back:\n got %s\nwant %s", got, want)
	}

	// The same values in a log table: Arrow batches we write, the server
	// keeps and we read back.
	mustExec(fmt.Sprintf("CREATE TABLE %s_log (id int, %s)", name, strings.Join(defs, ", ")))
	defer mustExec("DROP TABLE " + name + "_log")
	mustExec(fmt.Sprintf("INSERT INTO %s_log VALUES (1, %s), (2, %s)", name, strings.Join(vals, ", "), strings.Join(nulls, ", ")))
	lg := read(name + "_log")
	if len(lg) != 2 {
		t.Fatalf("%d rows from the log table", len(lg))
	}
	one = one[:0]
	for i := range cols {
		one = append(one, show(lg[0][i]))
		if lg[1][i] != nil {
			t.Errorf("log table %s: NULL read back as %s", cols[i].name, show(lg[1][i]))
		}
	}
	if got := strings.Join(one, " | "); got != want {
		t.Errorf("log table row 1 read back:\n got %s\nwant %s", got, want)
	}
}
