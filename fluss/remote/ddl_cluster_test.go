//go:build fluss_cluster

package remote_test

// CREATE / DROP SCHEMA and ALTER TABLE on a real Fluss cluster, through
// sqlgate's PostgreSQL protocol: the same SQL as on the embedded store.

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func sqlstate(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return fmt.Sprint(err)
}

func TestClusterSchemas(t *testing.T) {
	ctx, conn := serveCluster(t)
	schema := fmt.Sprintf("sch_%d", time.Now().UnixNano()%1e6)
	run := func(sql string) error {
		_, err := conn.Exec(ctx, sql)
		return err
	}
	must := func(sql string) {
		t.Helper()
		if err := run(sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	want := func(sql, code string) {
		t.Helper()
		if got := sqlstate(run(sql)); got != code {
			t.Fatalf("%s: %s, want %s", sql, got, code)
		}
	}
	must("CREATE SCHEMA " + schema)
	defer run("DROP SCHEMA IF EXISTS " + schema + " CASCADE")
	want("CREATE SCHEMA "+schema, "42P06")
	must("CREATE SCHEMA IF NOT EXISTS " + schema)
	must(fmt.Sprintf("CREATE TABLE %s.t (id BIGINT PRIMARY KEY, v TEXT)", schema))
	must(fmt.Sprintf("INSERT INTO %s.t VALUES (1, 'a')", schema))
	must("SET search_path = " + schema + ", public")
	var v string
	if err := conn.QueryRow(ctx, "SELECT v FROM t WHERE id = 1").Scan(&v); err != nil || v != "a" {
		t.Fatalf("unqualified read over search_path: %q %v", v, err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1", schema).Scan(&n); err != nil || n != 1 {
		t.Fatalf("information_schema.schemata: %d %v", n, err)
	}
	rows, err := conn.Query(ctx, "SHOW DATABASES")
	if err != nil {
		t.Fatal(err)
	}
	var dbs []string
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		dbs = append(dbs, s)
	}
	rows.Close()
	if !strings.Contains(","+strings.Join(dbs, ",")+",", ","+schema+",") {
		t.Fatalf("SHOW DATABASES: %v lacks %s", dbs, schema)
	}
	want("DROP SCHEMA "+schema, "2BP01")
	want("DROP SCHEMA nosuch_"+schema, "3F000")
	want("CREATE TABLE nosuch_"+schema+".x (a INT)", "3F000")
	must("SET search_path = public")
	must("DROP SCHEMA " + schema + " CASCADE")
	want(fmt.Sprintf("SELECT * FROM %s.t", schema), "42P01")
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = $1", schema).Scan(&n); err != nil || n != 0 {
		t.Fatalf("pg_namespace after DROP SCHEMA: %d %v", n, err)
	}
}

// TestClusterAlterTable: ADD COLUMN on the cluster registers a new schema;
// rows written before it (primary-key values and log batches) read NULL in
// the new column; properties change as Fluss allows; the rest is 0A000.
func TestClusterAlterTable(t *testing.T) {
	ctx, conn := serveCluster(t)
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	pk, lg := "alt_pk_"+suffix, "alt_log_"+suffix
	must := func(sql string) {
		t.Helper()
		mustExec(t, ctx, conn, sql)
	}
	rowsOf := func(sql string) string {
		t.Helper()
		return queryText(t, ctx, conn, sql)
	}
	must(fmt.Sprintf("CREATE TABLE %s (id INT PRIMARY KEY, name TEXT)", pk))
	defer conn.Exec(ctx, "DROP TABLE "+pk)
	must(fmt.Sprintf("CREATE TABLE %s (id INT, s TEXT)", lg))
	defer conn.Exec(ctx, "DROP TABLE "+lg)
	must(fmt.Sprintf("INSERT INTO %s VALUES (1, 'a'), (2, 'b')", pk))
	must(fmt.Sprintf("INSERT INTO %s VALUES (1, 'x')", lg))
	must(fmt.Sprintf("ALTER TABLE %s ADD COLUMN score BIGINT", pk))
	must(fmt.Sprintf("ALTER TABLE %s ADD COLUMN n INT", lg))
	must(fmt.Sprintf("INSERT INTO %s VALUES (3, 'c', 30)", pk))
	must(fmt.Sprintf("INSERT INTO %s VALUES (2, 'y', 7)", lg))
	if got, want := rowsOf(fmt.Sprintf("SELECT * FROM %s ORDER BY id", pk)), "[1 a <nil>]\n[2 b <nil>]\n[3 c 30]"; got != want {
		t.Fatalf("primary-key table after ADD COLUMN:\n got %s\nwant %s", got, want)
	}
	if got, want := rowsOf(fmt.Sprintf("SELECT * FROM %s WHERE id = 1", pk)), "[1 a <nil>]"; got != want {
		t.Fatalf("lookup of a row of the older schema: %s, want %s", got, want)
	}
	if got, want := rowsOf(fmt.Sprintf("SELECT * FROM %s ORDER BY id", lg)), "[1 x <nil>]\n[2 y 7]"; got != want {
		t.Fatalf("log table after ADD COLUMN:\n got %s\nwant %s", got, want)
	}
	must(fmt.Sprintf("ALTER TABLE %s SET ('owner.team' = 'data')", pk))
	if got := rowsOf("SHOW CREATE TABLE " + pk); !strings.Contains(got, "'owner.team' = 'data'") || !strings.Contains(got, "score bigint") {
		t.Fatalf("SHOW CREATE TABLE after ALTER: %s", got)
	}
	must(fmt.Sprintf("ALTER TABLE %s RESET ('owner.team')", pk))
	if got := rowsOf("SHOW CREATE TABLE " + pk); strings.Contains(got, "owner.team") {
		t.Fatalf("SHOW CREATE TABLE after RESET: %s", got)
	}
	for _, sql := range []string{
		fmt.Sprintf("ALTER TABLE %s DROP COLUMN name", pk),
		fmt.Sprintf("ALTER TABLE %s RENAME COLUMN name TO label", pk),
		fmt.Sprintf("ALTER TABLE %s ALTER COLUMN name TYPE VARCHAR(3)", pk),
		fmt.Sprintf("ALTER TABLE %s SET ('table.log.format' = 'INDEXED')", pk),
	} {
		if _, err := conn.Exec(ctx, sql); sqlstate(err) != "0A000" {
			t.Fatalf("%s: %v, want 0A000", sql, err)
		}
	}
	// ADD COLUMN ... DEFAULT: the rows stored before read its value (the
	// missing value, sqlgate's metadata) through the cluster's scans,
	// lookups and log batches; NOT NULL needs one (fluss/missing.go)
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD COLUMN m INT NOT NULL", pk)); sqlstate(err) != "23502" {
		t.Fatalf("ADD COLUMN ... NOT NULL over stored rows: %v, want 23502", err)
	}
	must(fmt.Sprintf("ALTER TABLE %s ADD COLUMN m INT DEFAULT 5 NOT NULL", pk))
	must(fmt.Sprintf("ALTER TABLE %s ADD COLUMN t TEXT DEFAULT 'q'", lg))
	must(fmt.Sprintf("INSERT INTO %s VALUES (4, 'd', 40, 6)", pk))
	must(fmt.Sprintf("INSERT INTO %s VALUES (3, 'z', 8, NULL)", lg))
	if got, want := rowsOf(fmt.Sprintf("SELECT id, score, m FROM %s ORDER BY id", pk)), "[1 <nil> 5]\n[2 <nil> 5]\n[3 30 5]\n[4 40 6]"; got != want {
		t.Fatalf("primary-key table after ADD COLUMN ... DEFAULT:\n got %s\nwant %s", got, want)
	}
	if got, want := rowsOf(fmt.Sprintf("SELECT m FROM %s WHERE id = 1", pk)), "[5]"; got != want {
		t.Fatalf("lookup after ADD COLUMN ... DEFAULT: %s, want %s", got, want)
	}
	if got, want := rowsOf(fmt.Sprintf("SELECT id, n, t FROM %s ORDER BY id", lg)), "[1 <nil> q]\n[2 7 q]\n[3 8 <nil>]"; got != want {
		t.Fatalf("log table after ADD COLUMN ... DEFAULT:\n got %s\nwant %s", got, want)
	}
	if got, want := rowsOf(fmt.Sprintf("SELECT id, t FROM %s$changelog ORDER BY id", lg)), "[1 q]\n[2 q]\n[3 <nil>]"; got != want {
		t.Fatalf("log table's changelog after ADD COLUMN ... DEFAULT:\n got %s\nwant %s", got, want)
	}
	must(fmt.Sprintf("ALTER TABLE %s ALTER COLUMN m DROP DEFAULT", pk))
	if _, err := conn.Exec(ctx, fmt.Sprintf("INSERT INTO %s (id, name) VALUES (5, 'e')", pk)); sqlstate(err) != "23502" {
		t.Fatalf("a NULL in a NOT NULL ALTER TABLE set: %v, want 23502", err)
	}
	// COMMENT ON, which Fluss's AlterTable cannot do, is kept in custom
	// properties (comments.go).
	must(fmt.Sprintf("COMMENT ON TABLE %s IS 'x'", pk))
	must(fmt.Sprintf("COMMENT ON COLUMN %s.score IS 'points'", pk))
	if got := rowsOf(fmt.Sprintf("SELECT obj_description('%s'::regclass, 'pg_class'), col_description('%s'::regclass, 3)", pk, pk)); got != "[x points]" {
		t.Fatalf("comments after COMMENT ON: %q", got)
	}
	if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER TABLE %s ADD COLUMN name TEXT", pk)); sqlstate(err) != "42701" {
		t.Fatalf("ADD COLUMN of an existing name: %v", err)
	}
}
