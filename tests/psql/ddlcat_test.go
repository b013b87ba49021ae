package psql

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/server"
)

// catalogDDL is what pg_dump and migration tools write besides CREATE
// TABLE: comments on other objects, schema grants, default privileges,
// catalog-only ALTER TABLE actions and column collations. The same text
// runs on both servers.
const catalogDDL = `CREATE SCHEMA app;
COMMENT ON SCHEMA app IS 'the application';
CREATE ROLE app_reader;
GRANT USAGE ON SCHEMA app TO app_reader;
ALTER DEFAULT PRIVILEGES IN SCHEMA app GRANT SELECT ON TABLES TO app_reader;
ALTER DEFAULT PRIVILEGES GRANT USAGE ON SEQUENCES TO app_reader;
CREATE TABLE events (ts timestamp, msg text);
CREATE VIEW recent AS SELECT ts, msg FROM events WHERE msg IS NOT NULL;
COMMENT ON VIEW recent IS 'the latest messages';
CREATE TYPE mood AS ENUM ('ok', 'sad');
COMMENT ON TYPE mood IS 'how it went';
CREATE TABLE app.st (a int PRIMARY KEY, b text COLLATE "C", c int, d text NOT NULL);
ALTER TABLE app.st REPLICA IDENTITY FULL;
ALTER TABLE app.st ALTER COLUMN b SET STORAGE EXTERNAL, ALTER COLUMN b SET STATISTICS 100, ALTER COLUMN d SET COMPRESSION pglz;
ALTER TABLE app.st SET (fillfactor = 70);
ALTER TABLE app.st CLUSTER ON st_pkey;
COMMENT ON CONSTRAINT st_pkey ON app.st IS 'the key'`

// TestPsqlCatalogDDL compares psql's describe commands over those objects,
// on a whole sqlgate server (its catalog shows the metadata store's roles,
// types, comments and grants).
func TestPsqlCatalogDDL(t *testing.T) {
	db := pgtest.Start(t)
	for _, stmt := range []string{"CREATE ROLE sqlgate SUPERUSER LOGIN", "CREATE DATABASE sqlgate OWNER sqlgate"} {
		if out := runPsql(t, db.Port(), "postgres", "postgres", "-q", "-c", stmt); out != "" {
			t.Fatalf("PostgreSQL setup: %s", out)
		}
	}
	srv, err := server.Start(context.Background(), server.Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(t.TempDir(), "data")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop(context.Background()) })
	_, port, _ := net.SplitHostPort(srv.Addr().String())
	pg := db.Port()
	sg, _ := strconv.Atoi(port)
	for _, stmt := range strings.Split(catalogDDL, ";\n") {
		for name, port := range map[string]int{"PostgreSQL": pg, "sqlgate": sg} {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("%s: %s: %s", name, stmt, out)
			}
		}
	}
	for _, cmd := range []string{`\dn+`, `\dv+`, `\dT+`, `\ddp`, `\d+ app.st`, `\d app.st`,
		`SELECT obj_description(oid, 'pg_constraint') FROM pg_constraint WHERE conname = 'st_pkey'`,
		`SELECT relacl FROM pg_class WHERE relname = 'st'`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		want := runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd)
		if got != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
}
