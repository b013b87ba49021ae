package psql

import (
	"strings"
	"testing"
)

// uniqueMatchesPostgres: psql's \d of a table with UNIQUE constraints and
// a unique index lists them under "Indexes:" ("t_a_key" UNIQUE
// CONSTRAINT, btree (a); "ix" UNIQUE, btree (c)), and \di lists them, as
// PostgreSQL's do (psql's own catalog queries, run on both servers). The
// table is made here and dropped at the end, so the other suites'
// listings do not see it.
func uniqueMatchesPostgres(t *testing.T, pg, sg int) {
	defer func() {
		for _, port := range []int{pg, sg} {
			runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", "DROP TABLE IF EXISTS uq_described")
		}
	}()
	for _, port := range []int{pg, sg} {
		for _, stmt := range []string{
			`CREATE TABLE uq_described (id int PRIMARY KEY, a int UNIQUE, b text, c int, CONSTRAINT uq_described_named UNIQUE (b, c))`,
			`CREATE UNIQUE INDEX uq_described_c_ix ON uq_described (c)`,
		} {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("DDL on port %d: %s", port, out)
			}
		}
	}
	for _, cmd := range []string{`\d uq_described`, `\d+ uq_described`, `\di uq_described*`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if !strings.Contains(got, "uq_described_a_key") {
			t.Errorf("%s lists no unique constraint:\n%s", cmd, got)
		}
		want := normalize(runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd))
		if normalize(got) != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
}
