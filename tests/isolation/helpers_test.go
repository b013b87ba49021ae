package isolation

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/internal/testbin"
)

// target is a server the same test runs against: sqlgate, and PostgreSQL 15
// as the oracle that must give the same answer.
type target struct {
	name string
	conn string
}

// targets starts an in-process sqlgate and a throwaway PostgreSQL 15.
func targets(t *testing.T) []target {
	t.Helper()
	sg := testbin.StartServer(t, t.TempDir())
	pg := pgtest.Start(t)
	return []target{{"sqlgate", sg.ConnString()}, {"postgres", pg.ConnString()}}
}

func connect(t testing.TB, conn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func mustExec(t testing.TB, c *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := c.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// sized returns small unless SQLGATE_SOAK is set (make soak), then big:
// the acceptance sizes run there, the quick ones in make test.
func sized(small, big int) int {
	if v := os.Getenv("SQLGATE_SOAK"); v != "" && v != "0" {
		return big
	}
	return small
}
