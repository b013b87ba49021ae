package psql

import (
	"strings"
	"testing"
)

// foreignKeysMatchPostgres: psql's \d of a referencing table lists its
// "Foreign-key constraints:", of a referenced one "Referenced by:", as
// PostgreSQL's do (psql's own catalog queries, run on both servers). The
// tables are made here and dropped at the end, so the other suites'
// listings do not see them.
func foreignKeysMatchPostgres(t *testing.T, pg, sg int) {
	// registered first: a DDL that fails on one server after the other
	// took it must not leave the tables for the other listings
	defer func() {
		for _, port := range []int{pg, sg} {
			runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", "DROP TABLE IF EXISTS fk_child, fk_parent")
		}
	}()
	for _, port := range []int{pg, sg} {
		for _, stmt := range []string{
			`CREATE TABLE fk_parent (id int, code int NOT NULL, PRIMARY KEY (id, code))`,
			`CREATE TABLE fk_child (id int PRIMARY KEY, pid int, pcode int, self int REFERENCES fk_child,
			 FOREIGN KEY (pid, pcode) REFERENCES fk_parent ON DELETE CASCADE ON UPDATE SET NULL,
			 CONSTRAINT late FOREIGN KEY (pcode, pid) REFERENCES fk_parent (code, id) MATCH FULL DEFERRABLE INITIALLY DEFERRED)`,
		} {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("DDL on port %d: %s", port, out)
			}
		}
	}
	for cmd, section := range map[string]string{`\d fk_child`: "Foreign-key constraints:", `\d fk_parent`: "Referenced by:",
		`\d+ fk_child`: "Referenced by:", `\d+ fk_parent`: "Referenced by:"} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if !strings.Contains(got, section) {
			t.Errorf("%s lists no %q:\n%s", cmd, section, got)
		}
		want := normalize(runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd))
		if normalize(got) != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
}
