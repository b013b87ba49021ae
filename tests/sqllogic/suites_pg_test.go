package sqllogic

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/sqllogictest"
	"github.com/sqlgate/sqlgate/sqllogictest/slttest"
)

// TestSuitesMatchPostgres runs sqlgate's suites against a real PostgreSQL
// 15 (a fresh database per file, label "postgresql"), proving that their
// expected results are PostgreSQL's wherever PostgreSQL runs the same SQL;
// records only sqlgate can run are marked onlyif sqlgate.
func TestSuitesMatchPostgres(t *testing.T) {
	files, err := suiteFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("no suites found: %v", err)
	}
	pg := pgtest.Start(t)
	var n atomic.Int64
	connect := func(ctx context.Context, file string) (string, func(), error) {
		admin, err := pgx.Connect(ctx, pg.ConnString())
		if err != nil {
			return "", nil, err
		}
		defer admin.Close(ctx)
		db := fmt.Sprintf("slt_%d", n.Add(1))
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
			return "", nil, err
		}
		conn := strings.Replace(pg.ConnString(), "/postgres?", "/"+db+"?", 1)
		return conn, func() {}, nil
	}
	sum := slttest.RunT(t, files, sqllogictest.Options{Label: "postgresql", Connect: connect})
	if sum.Passed == 0 {
		t.Fatal("no record passed")
	}
}
