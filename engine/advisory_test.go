package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
)

// TestAdvisoryLocksEndWithSession: a session that ends holds nothing,
// however its last statement ended: a session-level lock, and a
// transaction-level one taken in a pipeline the client cut off before its
// Sync (the implicit transaction still held, nothing written).
func TestAdvisoryLocksEndWithSession(t *testing.T) {
	eng, session := newEngine(t, openStore(t))
	other := session("b")
	for _, c := range []struct {
		name, lock string
		held       bool // the implicit transaction of a pipeline is open
	}{
		{"session-level", "SELECT pg_advisory_lock(1)", false},
		{"transaction-level in a cut-off pipeline", "SELECT pg_advisory_xact_lock(1)", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: "a", ProcessID: 9})
			if err != nil {
				t.Fatal(err)
			}
			closed := false
			t.Cleanup(func() {
				if !closed {
					s.Close()
				}
			})
			if c.held {
				s.(pgwire.ImplicitTransactions).HoldImplicit()
			}
			mustRun(t, s, c.lock)
			if got := mustRun(t, other, "SELECT pg_try_advisory_lock(1)"); got[0] != "false" {
				t.Fatalf("the lock is not held: %v", got)
			}
			s.Close()
			closed = true
			if got := mustRun(t, other, "SELECT pg_try_advisory_lock(1)"); got[0] != "true" {
				t.Fatalf("the ended session still holds the lock: %v", got)
			}
			mustRun(t, other, "SELECT pg_advisory_unlock_all()")
		})
	}
}
