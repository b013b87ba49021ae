package server

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestEnumTypesSurviveRestart: an enum type (with a label ALTER TYPE added
// between two others), a table's enum and enum-array columns and their
// rows are all there after the server stops and starts again on the same
// data directory: values in declaration order, invalid labels refused,
// and the OID RowDescription sends for the column is pg_type's.
func TestEnumTypesSurviveRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "data")
	run := func(stmts []string, check func(conn *pgx.Conn)) { t.Helper(); runOnDataDir(t, ctx, dir, stmts, check) }
	check := func(conn *pgx.Conn) {
		t.Helper()
		rows, err := conn.Query(ctx, "SELECT m::text AS label FROM people ORDER BY m, id")
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[*string])
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, g := range got {
			if g == nil {
				labels = append(labels, "NULL")
			} else {
				labels = append(labels, *g)
			}
		}
		if want := []string{"sad", "meh", "ok", "ok", "happy", "NULL"}; !slices.Equal(labels, want) {
			t.Errorf("ORDER BY m: %v, want %v", labels, want)
		}
		var typOID, arrOID uint32
		if err := conn.QueryRow(ctx, "SELECT oid, typarray FROM pg_type WHERE typname = 'mood' AND typtype = 'e'").Scan(&typOID, &arrOID); err != nil {
			t.Fatalf("pg_type: %v", err)
		}
		rows, err = conn.Query(ctx, "SELECT m, ms FROM people WHERE id = 1", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatal(err)
		}
		fds := rows.FieldDescriptions()
		rows.Close()
		if len(fds) != 2 || fds[0].DataTypeOID != typOID || fds[1].DataTypeOID != arrOID {
			t.Errorf("RowDescription OIDs %v, want %d and %d (pg_type)", fds, typOID, arrOID)
		}
		var arr string
		if err := conn.QueryRow(ctx, "SELECT ms::text FROM people WHERE id = 1").Scan(&arr); err != nil || arr != "{happy,sad}" {
			t.Errorf("enum array: %q, %v", arr, err)
		}
		// a driver's parameter of the enum's OID (extended protocol), and
		// the enum's value read back as a Go string
		var back string
		if err := conn.QueryRow(ctx, "SELECT m FROM people WHERE m = $1 LIMIT 1", "meh").Scan(&back); err != nil || back != "meh" {
			t.Errorf("enum parameter: %q, %v", back, err)
		}
		_, err = conn.Exec(ctx, "INSERT INTO people VALUES (9, 'bad', NULL)")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "22P02" || pe.Message != `invalid input value for enum mood: "bad"` {
			t.Errorf("invalid label: %v", err)
		}
	}
	run([]string{
		"CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')",
		"CREATE TABLE people (id int PRIMARY KEY, m mood, ms mood[])",
		"ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok'",
		"INSERT INTO people VALUES (1, 'happy', ARRAY['happy', 'sad']::mood[]), (2, 'ok', NULL), (3, 'sad', NULL), (4, NULL, NULL), (5, 'meh', NULL), (6, 'ok', NULL)",
	}, check)
	// the restarted server starts with an empty registry of its own: it
	// must publish the type before a statement that names no type (the
	// first ORDER BY m) runs
	run(nil, check)
}

// runOnDataDir starts a server on data directory dir, runs stmts on a
// connection to it, hands the connection to check and stops the server:
// one life of the server, for the tests of what survives a restart.
func runOnDataDir(t *testing.T, ctx context.Context, dir string, stmts []string, check func(conn *pgx.Conn)) {
	t.Helper()
	srv, err := Start(ctx, Config{Listen: "127.0.0.1:0", DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(context.Background())
	conn, err := pgx.Connect(ctx, srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	check(conn)
}
