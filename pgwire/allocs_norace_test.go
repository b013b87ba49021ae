//go:build !race

package pgwire

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSimpleQueryAllocations holds the allocations of one simple Query's
// round trip (BenchmarkSimpleQueryRoundTrip's), counted over the whole
// process: the pgx client's and the fake session's with pgwire's. 17 when
// every Query made a context and two closures for its statement whether or
// not statement_timeout was set, 10 since, 8 after that, 6 since the
// statement's portal and unnamed statement are the conn's (runSimple) and
// ReadyForQuery is appended without boxing.
func TestSimpleQueryAllocations(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := context.Background()
	query := func() {
		if _, err := conn.Exec(ctx, "BEGIN"); err != nil {
			t.Fatal(err)
		}
	}
	checkAllocations(t, "simple Query", 7, query)
}

// checkAllocations runs round once (caches) and then fails t when a run of
// it allocates more than budget times on average.
func checkAllocations(t *testing.T, what string, budget float64, round func()) {
	t.Helper()
	round()
	if n := testing.AllocsPerRun(200, round); n > budget {
		t.Errorf("%.1f allocations per %s, want at most %g", n, what, budget)
	} else {
		t.Logf("%.1f allocations per %s", n, what)
	}
}

// TestPreparedBindAllocations holds the allocations of one Bind/Execute/Sync
// round trip of a prepared statement without result columns, with one
// result format code in the Bind as libpq sends for every statement
// (pgbench -M prepared's UPDATE, BEGIN and COMMIT), counted over the whole
// process like TestSimpleQueryAllocations: 3 when the portal kept a copy of
// the result formats that no column reads, 2 since.
func TestPreparedBindAllocations(t *testing.T) {
	ts := startServer(t, nil)
	conn := ts.connect(t, pgx.QueryExecModeSimpleProtocol)
	ctx := context.Background()
	pc := conn.PgConn()
	if _, err := pc.Prepare(ctx, "ins", "INSERT", nil); err != nil {
		t.Fatal(err)
	}
	resultFormats := []int16{0}
	exec := func() {
		if _, err := pc.ExecPrepared(ctx, "ins", nil, nil, resultFormats).Close(); err != nil {
			t.Fatal(err)
		}
	}
	checkAllocations(t, "prepared Bind/Execute/Sync", 2, exec)
}
