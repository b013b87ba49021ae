package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
)

// TestCopyWaitsForDDLBlock: COPY FROM takes its table's intent lock before
// it reads the table (ddllock.go), so it waits for a transaction block
// whose ALTER TABLE holds the table, as PostgreSQL's COPY waits for the
// ACCESS EXCLUSIVE lock, and then fills its rows as the ALTER left the
// table (the new default).
func TestCopyWaitsForDDLBlock(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	a, b := session("a"), session("b")
	mustRun(t, a, "CREATE TABLE cw (id int PRIMARY KEY, v int)")
	mustRun(t, a, "BEGIN")
	mustRun(t, a, "ALTER TABLE cw ALTER COLUMN v SET DEFAULT 3")
	stmts, err := b.Prepare(context.Background(), "COPY cw (id) FROM STDIN", nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := stmts[0].(pgwire.CopyStatement).CopyFrom(context.Background(), &idsFrom{first: 1, n: 2}) // copy_test.go
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("COPY did not wait for the ALTER's block: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	mustRun(t, a, "COMMIT")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("COPY after the block: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("COPY still waits after the block's COMMIT")
	}
	if got := mustRun(t, a, "SELECT sum(v) FROM cw"); got[0] != "6" {
		t.Errorf("sum(v): %v, want 6 (the default set by the ALTER)", got)
	}
}
