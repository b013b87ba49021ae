package flightsql_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// TestFlightReadsMissingValue: a Flight SQL query reads the value ALTER
// TABLE ... ADD COLUMN ... DEFAULT gave the rows stored before it (their
// missing value, fluss/missing.go), of a primary-key table and of a log
// table, as the PostgreSQL side reads them.
func TestFlightReadsMissingValue(t *testing.T) {
	ts := startServer(t)
	ts.pgExec(t,
		"CREATE TABLE mv_pk (id int PRIMARY KEY, a text)",
		"CREATE TABLE mv_log (id int, a text)",
		"INSERT INTO mv_pk VALUES (1, 'x'), (2, NULL)",
		"INSERT INTO mv_log VALUES (1, 'x'), (2, NULL)",
		"ALTER TABLE mv_pk ADD COLUMN n int DEFAULT 42 NOT NULL, ADD COLUMN s text DEFAULT 'd'",
		"ALTER TABLE mv_log ADD COLUMN n int DEFAULT 42 NOT NULL, ADD COLUMN s text DEFAULT 'd'",
		"INSERT INTO mv_pk VALUES (3, 'y', 7, NULL)",
		"INSERT INTO mv_log VALUES (3, 'y', 7, NULL)")
	cl, ctx := ts.client(t, "admin", adminPassword)
	cols := []types.T{types.Int32Type, types.StringType, types.Int32Type, types.StringType}
	for _, tbl := range []string{"mv_pk", "mv_log"} {
		q := "SELECT * FROM " + tbl + " ORDER BY id"
		want := ts.pgText(t, q)
		if len(want) != 3 || want[0][2] != "42" || want[0][3] != "d" {
			t.Fatalf("%s through PostgreSQL's protocol: %v", tbl, want)
		}
		recs, _ := query(t, ctx, cl, q)
		sameRows(t, tbl, asText(t, recs, cols), want)
	}
}
