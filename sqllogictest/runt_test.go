package sqllogictest_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/sqllogictest"
	"github.com/sqlgate/sqlgate/sqllogictest/slttest"
)

func TestRunTOneSubtestPerFile(t *testing.T) {
	srv := pgtest.Start(t)
	opts := sqllogictest.Options{Label: "postgresql", Connect: sqllogictest.FreshDatabases(t, srv)}
	sum := slttest.RunT(t, sqllogictest.Corpus("crlf.test", "include.slt"), opts)
	if got, want := sum.String(), "11 passed, 0 failed, 1 skipped"; got != want {
		t.Errorf("RunT summary = %q, want %q", got, want)
	}
	if len(sum.Files) != 2 {
		t.Errorf("RunT returned %d file summaries, want 2", len(sum.Files))
	}
}
