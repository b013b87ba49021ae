package clients

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// Server-side COPY through a driver: a statement like any other under the
// simple and the extended protocol (no COPY sub-protocol, a COPY n tag, no
// result columns), prepared and run twice, and inside a transaction block
// whose ROLLBACK undoes it.
func TestServerSideCopyThroughDriver(t *testing.T) {
	files := t.TempDir()
	srv := testbin.StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), FileDir: files})
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, "CREATE TABLE src (id INT NOT NULL, tags ARRAY<STRING>, PRIMARY KEY (id))")
	mustExec(t, conn, "INSERT INTO src VALUES (1, ARRAY['a', NULL]), (2, NULL)")
	mustExec(t, conn, "CREATE TABLE dst (id INT NOT NULL, tags ARRAY<STRING>)")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement, pgx.QueryExecModeDescribeExec} {
		tag, err := conn.Exec(ctx, "COPY src TO 'src.parquet' (FORMAT parquet)", mode)
		if err != nil || tag.String() != "COPY 2" {
			t.Fatalf("%v: COPY TO: %v %v", mode, tag, err)
		}
		if tag, err = conn.Exec(ctx, "COPY dst FROM 'src.parquet' (FORMAT parquet)", mode); err != nil || tag.String() != "COPY 2" {
			t.Fatalf("%v: COPY FROM: %v %v", mode, tag, err)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM dst WHERE tags[1] = 'a'").Scan(&n); err != nil || n != 3 {
		t.Errorf("dst: %d %v", n, err)
	}
	sd, err := conn.Prepare(ctx, "c", "COPY dst FROM 'src.parquet' (FORMAT parquet)")
	if err != nil || len(sd.Fields) != 0 {
		t.Fatalf("prepare: %+v %v", sd, err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM dst").Scan(&n); err != nil || n != 8 {
		t.Errorf("inside the block: %d %v", n, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM dst").Scan(&n); err != nil || n != 6 {
		t.Errorf("after ROLLBACK: %d %v", n, err)
	}
	// A bad file inside a block fails it (25P02 after), like any error.
	if err := os.WriteFile(filepath.Join(files, "bad.parquet"), []byte("nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	tx, _ = conn.Begin(ctx)
	_, err = tx.Exec(ctx, "COPY dst FROM 'bad.parquet' (FORMAT parquet)")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "22P04" {
		t.Errorf("bad file: %v", err)
	}
	if _, err := tx.Exec(ctx, "SELECT 1"); !errors.As(err, &pe) || pe.Code != "25P02" {
		t.Errorf("after the bad file: %v", err)
	}
	tx.Rollback(ctx)
}
