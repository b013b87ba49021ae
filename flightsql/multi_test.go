package flightsql_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/types"
	"google.golang.org/grpc/codes"
)

// TestMultiStatementStrings: a query string of several statements runs
// all but the last as one implicit transaction, then streams the last,
// which may read what the others made; an update string of several is
// one implicit transaction too, rolled back whole by an error.
func TestMultiStatementStrings(t *testing.T) {
	ts := startServer(t)
	cl, ctx := ts.client(t, "admin", adminPassword)
	recs, _ := query(t, ctx, cl, "CREATE TABLE m (a INT NOT NULL, PRIMARY KEY (a)); INSERT INTO m VALUES (1), (2); SELECT a FROM m ORDER BY a")
	sameRows(t, "query string", asText(t, recs, []types.T{types.Int32Type}), [][]string{{"1"}, {"2"}})
	if n, err := cl.ExecuteUpdate(ctx, "INSERT INTO m VALUES (3); DELETE FROM m WHERE a = 1"); err != nil || n != 2 {
		t.Fatalf("update string: %d, %v", n, err)
	}
	_, err := cl.ExecuteUpdate(ctx, "INSERT INTO m VALUES (4); INSERT INTO m VALUES (NULL)")
	codeAndState(t, err, codes.FailedPrecondition, "23502")
	sameRows(t, "after a failed string", ts.pgText(t, "SELECT a FROM m ORDER BY a"), [][]string{{"2"}, {"3"}})
}
