package server

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestCompositeTypesSurviveRestart: composite types (one nested in
// another, one altered after it was made) are there after the server
// stops and starts again on the same data directory: their text input
// and output, pg_typeof, and the OIDs RowDescription sends for a
// composite and for a table's whole row are pg_type's (and pg_class.
// reltype's for the table).
func TestCompositeTypesSurviveRestart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "data")
	run := func(stmts []string, check func(conn *pgx.Conn)) { t.Helper(); runOnDataDir(t, ctx, dir, stmts, check) }
	check := func(conn *pgx.Conn) {
		t.Helper()
		var text, typ, field string
		q := `SELECT '("(1,""a b"",7)",5)'::cnest::text, pg_typeof('(,3)'::cnest)::text, (('("(1,x,2)",5)'::cnest).p).z::text`
		if err := conn.QueryRow(ctx, q).Scan(&text, &typ, &field); err != nil {
			t.Fatal(err)
		}
		if text != `("(1,""a b"",7)",5)` || typ != "cnest" || field != "2" {
			t.Errorf("composite values: %q %q %q", text, typ, field)
		}
		var pairOID, nestOID, rowOID, relType uint32
		if err := conn.QueryRow(ctx, "SELECT (SELECT oid FROM pg_type WHERE typname = 'cpair' AND typtype = 'c'), "+
			"(SELECT oid FROM pg_type WHERE typname = 'cnest'), (SELECT oid FROM pg_type WHERE typname = 'crt'), "+
			"(SELECT reltype FROM pg_class WHERE relname = 'crt')").Scan(&pairOID, &nestOID, &rowOID, &relType); err != nil {
			t.Fatalf("pg_type: %v", err)
		}
		if rowOID == 0 || rowOID != relType {
			t.Errorf("table row type %d, pg_class.reltype %d", rowOID, relType)
		}
		rows, err := conn.Query(ctx, "SELECT '(1,x,2)'::cpair, '(,)'::cnest, c FROM crt c", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatal(err)
		}
		fds := rows.FieldDescriptions()
		rows.Close()
		if len(fds) != 3 || fds[0].DataTypeOID != pairOID || fds[1].DataTypeOID != nestOID || fds[2].DataTypeOID != rowOID {
			t.Errorf("RowDescription OIDs %v, want %d, %d and %d (pg_type)", fds, pairOID, nestOID, rowOID)
		}
	}
	run([]string{
		"CREATE TYPE cpair AS (x int, y text)",
		"ALTER TYPE cpair ADD ATTRIBUTE z int",
		"CREATE TYPE cnest AS (p cpair, n int)",
		"CREATE TABLE crt (a int PRIMARY KEY, b text)",
		"INSERT INTO crt VALUES (1, 'x')",
	}, check)
	// the restarted server starts with an empty registry of its own: it
	// must publish the types again
	run(nil, check)
}
