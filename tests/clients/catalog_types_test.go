package clients

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPgxCatalogTypeParameters binds parameters against PostgreSQL's
// "char" and int2vector catalog columns through pgx's extended protocol,
// in every query mode: pgx encodes a "char" parameter (OID 18) in binary,
// an int2vector comparison's parameter as text, and reads both kinds of
// column back (relkind as a one-character string, indkey as "2 1").
func TestPgxCatalogTypeParameters(t *testing.T) {
	srv := startServer(t)
	setup := connectPgx(t, srv.ConnString())
	mustExec(t, setup, "CREATE TABLE kv (k string NOT NULL, id int NOT NULL, v string, PRIMARY KEY (id, k))")
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		t.Run(mode.String(), func(t *testing.T) {
			conn := connectPgx(t, srv.ConnString())
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var name, kind string
			err := conn.QueryRow(ctx, "SELECT relname::text, relkind FROM pg_catalog.pg_class WHERE relkind = $1 AND relnamespace = 2200",
				mode, "i").Scan(&name, &kind)
			if err != nil || name != "kv_pkey" || kind != "i" {
				t.Fatalf("relkind = $1: %q %q %v", name, kind, err)
			}
			var keys string
			var first int16
			err = conn.QueryRow(ctx, "SELECT indkey::text, indkey[0] FROM pg_catalog.pg_index WHERE indkey = $1",
				mode, "2 1").Scan(&keys, &first)
			if err != nil || keys != "2 1" || first != 2 {
				t.Fatalf("indkey = $1: %q %d %v", keys, first, err)
			}
		})
	}
}
