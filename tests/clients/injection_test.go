package clients

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestSimpleProtocolInjection is pg-clients.md §3 end to end: pgx's simple
// protocol interpolates parameters itself, doubling quotes only, because
// standard_conforming_strings is on. A backslash before the closing quote
// must stay an ordinary character, so "x\" and " OR 1=1 -- " stay two
// literals and the OR never runs.
func TestSimpleProtocolInjection(t *testing.T) {
	srv := startServer(t)
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, "CREATE TABLE secrets (id INT PRIMARY KEY, a TEXT, b TEXT)")
	mustExec(t, conn, "INSERT INTO secrets VALUES (1, 'top', 'secret'), (2, 'x\\', ' OR 1=1 -- ')")
	count := func(a, b string) int {
		var n int
		err := conn.QueryRow(ctx, "SELECT count(*) FROM secrets WHERE a = $1 AND b = $2", pgx.QueryExecModeSimpleProtocol, a, b).Scan(&n)
		if err != nil {
			t.Fatalf("simple protocol query with %q, %q: %v", a, b, err)
		}
		return n
	}
	if n := count(`x\`, " OR 1=1 -- "); n != 1 {
		t.Errorf(`a = 'x\' AND b = ' OR 1=1 -- ' matched %d rows, want exactly the row holding those values`, n)
	}
	if n := count(`nobody\`, " OR 1=1 -- "); n != 0 {
		t.Errorf("the injected OR ran: %d rows", n)
	}
	if n := count(`'; DROP TABLE secrets; --`, "x"); n != 0 {
		t.Errorf("quote injection matched %d rows", n)
	}
	var left int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM secrets").Scan(&left); err != nil || left != 2 {
		t.Errorf("the table after the attempts: %d rows, %v", left, err)
	}
}
