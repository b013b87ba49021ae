package pgoper_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestDefaultClassTypesMatchPostgres checks defaultClassTypes against
// PostgreSQL 15's default classes of gist, gin, spgist and brin: one pair
// more or fewer fails.
func TestDefaultClassTypesMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	want := map[[2]uint32]bool{}
	pgtest.ScanRows(context.Background(), t, conn, `SELECT c.opcmethod, c.opcintype FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
		WHERE c.opcdefault AND a.amname IN ('gist', 'gin', 'spgist', 'brin')`, func(r pgx.Rows) error {
		var k [2]uint32
		err := r.Scan(&k[0], &k[1])
		want[k] = true
		return err
	})
	for k := range want {
		if !pgoper.HasDefaultClass(k[0], k[1], 0) {
			t.Errorf("PostgreSQL's default class (method %d, type %d) is not in defaultClassTypes", k[0], k[1])
		}
	}
	for _, k := range pgoper.DefaultClassPairs() {
		if !want[k] {
			t.Errorf("defaultClassTypes' (method %d, type %d) is no default class of PostgreSQL's", k[0], k[1])
		}
	}
}
