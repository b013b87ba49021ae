package psql

import (
	"regexp"
	"strings"
	"testing"
)

// moreCommandsMatchPostgres compares the \d-family commands the other
// subtests leave out (access methods, conversions, object descriptions,
// foreign data, languages, materialized views, privileges, partitioned
// relations, role settings, publications, subscriptions, sequences,
// extended statistics, event triggers, large objects) with PostgreSQL's,
// over the harness's tables and a sequence and a materialized view made
// alike on both servers.
func moreCommandsMatchPostgres(t *testing.T, pg, sg int) {
	for _, port := range []int{pg, sg} {
		for _, stmt := range []string{`CREATE SEQUENCE mc_seq`, `CREATE MATERIALIZED VIEW mc_mv AS SELECT 1 AS x`} {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("%s on port %d: %s", stmt, port, out)
			}
		}
	}
	// Documented differences left out: \dL+ (the handlers' pg_proc rows
	// sqlgate does not list), \dm+ and \ds+ (sizes: PostgreSQL's one 8 kB page of a
	// materialized view or sequence); \dP+'s sizes and descriptions (a
	// Fluss table's comment summarizes its properties, as \dt+'s) are
	// compared apart from the rest
	for _, cmd := range []string{`\dA`, `\dA+`, `\dA btree`, `\dc`, `\dd`, `\dE`, `\des`, `\det`, `\deu`, `\dew`,
		`\dm`, `\dp`, `\z every_type`, `\dP`, `\drds`, `\dRp`, `\dRs`, `\ds`, `\dX`, `\dy`, `\dl`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if want := runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd); got != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
	// \dL: the procedural languages (plpgsql), whose owner is each
	// server's bootstrap superuser (postgres, sqlgate)
	owner := regexp.MustCompile(`(?m)^(plpgsql)\|(postgres|sqlgate)\|`)
	got := owner.ReplaceAllString(runPsql(t, sg, "sqlgate", "sqlgate", "-A", "-c", `\dL`), "$1|owner|")
	if want := owner.ReplaceAllString(runPsql(t, pg, "sqlgate", "sqlgate", "-A", "-c", `\dL`), "$1|owner|"); got != want || !strings.Contains(got, "plpgsql|owner|") {
		t.Errorf("\\dL differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", got, want)
	}
	// \dP+ and \dPt+ (pg_partition_tree in a correlated LATERAL item):
	// their rows without the last two columns, Total size and Description
	lastTwo := regexp.MustCompile(`(?m)\|[^|\n]*\|[^|\n]*$`)
	for _, cmd := range []string{`\dP+`, `\dPt+`} {
		got := lastTwo.ReplaceAllString(runPsql(t, sg, "sqlgate", "sqlgate", "-A", "-c", cmd), "")
		if want := lastTwo.ReplaceAllString(runPsql(t, pg, "sqlgate", "sqlgate", "-A", "-c", cmd), ""); got != want {
			t.Errorf("%s differs (without sizes and descriptions)\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
}
