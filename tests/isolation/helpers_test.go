package isolation

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/server"
)

// target is a server the same test runs against: sqlgate, and PostgreSQL 15
// as the oracle that must give the same answer.
type target struct {
	name string
	conn string
}

// shared are the servers every test of the package uses, started once by
// TestMain: starting PostgreSQL takes seconds.
var shared []target

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "isolation")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	sg, err := server.Start(ctx, server.Config{Listen: "127.0.0.1:0", DataDir: filepath.Join(dir, "sqlgate")})
	if err != nil {
		fmt.Fprintln(os.Stderr, "sqlgate:", err)
		return 1
	}
	defer func() {
		stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = sg.Stop(stop)
	}()
	pg, err := pgtest.StartCluster(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "postgres:", err)
		return 1
	}
	defer pg.Stop()
	shared = []target{{"sqlgate", sg.ConnString()}, {"postgres", pg.ConnString()}}
	return m.Run()
}

// targets are sqlgate and PostgreSQL 15, the oracle.
func targets(t *testing.T) []target {
	t.Helper()
	return shared
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
