package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// sharedStore is a store other servers write too: it hides the embedded
// store's fluss.RowLockable, as a Fluss cluster's client would lack it.
type sharedStore struct{ fluss.Store }

func newEngine(t *testing.T, store fluss.Store) (*engine.Engine, func(user string) pgwire.Session) {
	t.Helper()
	eng := engine.New(store, engine.Options{})
	return eng, func(user string) pgwire.Session {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: user, ProcessID: 7})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
}

func openStore(t *testing.T) *embedded.Store {
	t.Helper()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// TestUnlockableStoreRefusesReadModifyWrite: without row locks, the
// statements that read a row to write it fail with 0A000; blind writes run.
func TestUnlockableStoreRefusesReadModifyWrite(t *testing.T) {
	_, session := newEngine(t, sharedStore{openStore(t)})
	s := session("a")
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY, n INT)")
	for _, c := range []struct {
		sql  string
		code sqlerr.Code
	}{
		{"INSERT INTO t VALUES (1, 1), (2, 2)", ""},
		{"INSERT INTO t VALUES (1, 10)", ""}, // an upsert
		{"INSERT INTO t VALUES (3, 3) ON CONFLICT DO NOTHING", ""},
		{"DELETE FROM t WHERE id = 3", ""},
		{"UPDATE t SET n = n + 1 WHERE id = 1", sqlerr.FeatureNotSupported},
		{"INSERT INTO t VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1", sqlerr.FeatureNotSupported},
		{"SELECT n FROM t WHERE id = 1 FOR UPDATE", sqlerr.FeatureNotSupported},
		{"SELECT n FROM t WHERE id = 1", ""},
	} {
		_, _, err := run(t, s, c.sql)
		if sqlerr.CodeOf(err) != c.code && !(c.code == "" && err == nil) {
			t.Errorf("%s: got %v, want %q", c.sql, err, c.code)
		}
	}
	if got := mustRun(t, s, "SELECT n FROM t WHERE id = 1"); len(got) != 1 || got[0] != "10" {
		t.Errorf("row 1: %v", got)
	}
}

// TestIsolationLevels: READ COMMITTED (and READ UNCOMMITTED, which is READ
// COMMITTED in PostgreSQL) and REPEATABLE READ are accepted and shown;
// SERIALIZABLE is refused with 0A000, never run as a weaker one; the level
// of a block cannot change after its first query (25001).
func TestIsolationLevels(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	s := session("a")
	for _, c := range []struct {
		sql  string
		code sqlerr.Code
		show string // SHOW transaction_isolation after it ("" skip)
	}{
		{"BEGIN ISOLATION LEVEL SERIALIZABLE", sqlerr.FeatureNotSupported, "read committed"},
		{"START TRANSACTION ISOLATION LEVEL REPEATABLE READ", "", "repeatable read"},
		{"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "", "read committed"},
		{"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "", "repeatable read"},
		{"SELECT 1", "", "repeatable read"},
		{"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", "", "repeatable read"},
		{"SET TRANSACTION ISOLATION LEVEL READ COMMITTED", sqlerr.ActiveSQLTransaction, ""},
		{"ROLLBACK", "", "read committed"},
		{"BEGIN", "", "read committed"},
		{"SELECT 1", "", "read committed"},
		{"SET transaction_isolation = 'repeatable read'", sqlerr.ActiveSQLTransaction, ""},
		{"ROLLBACK", "", "read committed"},
		{"BEGIN ISOLATION LEVEL READ UNCOMMITTED", "", "read uncommitted"},
		{"COMMIT", "", "read committed"},
		{"BEGIN", "", "read committed"},
		{"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", sqlerr.FeatureNotSupported, ""},
		{"ROLLBACK", "", "read committed"},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE", sqlerr.FeatureNotSupported, "read committed"},
		{"BEGIN", "", "read committed"},
		{"SELECT 1", "", "read committed"},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ", "", "read committed"},
		{"COMMIT", "", "repeatable read"},
		{"SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED", "", "read committed"},
		{"SET default_transaction_isolation = 'serializable'", sqlerr.FeatureNotSupported, "read committed"},
		{"SET default_transaction_isolation = 'bogus'", sqlerr.InvalidParameterValue, ""},
		{"SET default_transaction_isolation = 'repeatable read'", "", ""},
		{"BEGIN", "", "repeatable read"},
		{"ROLLBACK", "", "repeatable read"},
		{"SET default_transaction_isolation = 'read uncommitted'", "", ""},
		{"BEGIN", "", "read uncommitted"},
		{"ROLLBACK", "", "read uncommitted"},
	} {
		_, _, err := run(t, s, c.sql)
		if sqlerr.CodeOf(err) != c.code && !(c.code == "" && err == nil) {
			t.Fatalf("%s: got %v, want %q", c.sql, err, c.code)
		}
		if c.show != "" {
			if got := mustRun(t, s, "SHOW transaction_isolation"); len(got) != 1 || got[0] != c.show {
				t.Fatalf("after %s: transaction_isolation %v, want %s", c.sql, got, c.show)
			}
		}
	}
}

// TestLocksEndWithTheTransaction: every way a transaction ends releases its
// row locks: COMMIT, ROLLBACK, an error in the block, the session's end,
// and a statement outside a block, failed or not.
func TestLocksEndWithTheTransaction(t *testing.T) {
	eng, session := newEngine(t, openStore(t))
	s := session("a")
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY, n INT)")
	mustRun(t, s, "INSERT INTO t VALUES (1, 1), (2, 2)")
	if n := len(eng.Locks()); n != 0 {
		t.Fatalf("an autocommit INSERT left %d locks", n)
	}
	held := func(when string, want bool) {
		t.Helper()
		if got := len(eng.Locks()) > 0; got != want {
			t.Fatalf("%s: locks held %v, want %v (%v)", when, got, want, eng.Locks())
		}
	}
	for _, end := range []string{"COMMIT", "ROLLBACK", "SELECT 1/0", "close"} {
		s := session("b")
		mustRun(t, s, "BEGIN")
		mustRun(t, s, "UPDATE t SET n = n + 1 WHERE id = 1")
		mustRun(t, s, "SELECT n FROM t WHERE id = 2 FOR SHARE")
		held("in the block", true)
		switch end {
		case "close":
			s.Close()
		default:
			_, _, _ = run(t, s, end)
		}
		held("after "+end, false)
	}
	if _, _, err := run(t, s, "UPDATE t SET n = n / 0 WHERE id = 1"); sqlerr.CodeOf(err) != "22012" {
		t.Fatalf("division by zero: %v", err)
	}
	held("after a failed autocommit UPDATE", false)
}

// TestForUpdateNeedsUpdatePrivilege: as in PostgreSQL, SELECT ... FOR
// UPDATE (or FOR SHARE) takes UPDATE privilege besides SELECT.
func TestForUpdateNeedsUpdatePrivilege(t *testing.T) {
	ss := aclSessions(t, t.TempDir(), "admin", "alice")
	admin, alice := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (id INT PRIMARY KEY, n INT)")
	mustRun(t, admin, "INSERT INTO t VALUES (1, 1)")
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	mustRun(t, alice, "SELECT n FROM t WHERE id = 1")
	for _, q := range []string{"SELECT n FROM t WHERE id = 1 FOR UPDATE", "SELECT n FROM t FOR KEY SHARE"} {
		if _, _, err := run(t, alice, q); sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege {
			t.Fatalf("%s without UPDATE: %v", q, err)
		}
	}
	mustRun(t, admin, "GRANT UPDATE ON t TO alice")
	if got := mustRun(t, alice, "SELECT n FROM t WHERE id = 1 FOR UPDATE"); len(got) != 1 || got[0] != "1" {
		t.Fatalf("FOR UPDATE with UPDATE: %v", got)
	}
}

// TestLockMemoryBounded: past the server's row-lock limit a statement
// fails with 53200 and a message saying so; a transaction that alone
// writes a table locks it whole instead of row by row.
func TestLockMemoryBounded(t *testing.T) {
	eng := engine.New(openStore(t), engine.Options{Locks: rowlock.Options{MaxLocks: 10, EscalateAt: 20}})
	open := sessionsOf(t, eng)
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, n INT)")
	mustRun(t, a, "INSERT INTO t SELECT g, 0 FROM generate_series(1, 50) AS g")
	mustRun(t, b, "BEGIN")
	mustRun(t, b, "SELECT n FROM t WHERE id = 50 FOR SHARE")
	_, _, err := run(t, a, "UPDATE t SET n = n + 1 WHERE id < 40")
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.OutOfMemory || se.Message != "out of shared memory" {
		t.Fatalf("past the limit: %v", err)
	}
	mustRun(t, b, "COMMIT")
	if got := mustRun(t, a, "SELECT sum(n) FROM t"); got[0] != "0" {
		t.Fatalf("the failed UPDATE wrote: %v", got)
	}
	if n := len(eng.Locks()); n != 0 {
		t.Fatalf("%d locks left", n)
	}
}

// TestRepeatableReadNeedsSnapshots: a store that cannot hold a snapshot
// refuses REPEATABLE READ (0A000) rather than run it as READ COMMITTED.
func TestRepeatableReadNeedsSnapshots(t *testing.T) {
	_, session := newEngine(t, sharedStore{openStore(t)})
	s := session("a")
	for _, q := range []string{"BEGIN ISOLATION LEVEL REPEATABLE READ", "SET default_transaction_isolation = 'repeatable read'"} {
		if _, _, err := run(t, s, q); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
			t.Errorf("%s: got %v, want 0A000", q, err)
		}
	}
}

// TestRepeatableReadStampCollisions: with one version-stamp slot every
// commit stamps every key, so each write of a REPEATABLE READ transaction
// after another session's commit is a possible conflict; only a row that
// really changed since the snapshot fails (40001), never one that merely
// shares the slot.
func TestRepeatableReadStampCollisions(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{Locks: rowlock.Options{StampSlots: 1}}))
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, n INT NOT NULL)")
	mustRun(t, a, "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)")
	mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustRun(t, a, "SELECT count(*) FROM t")
	mustRun(t, b, "UPDATE t SET n = 11 WHERE id = 1")
	// Same values written again: a newer version all the same (its
	// values cannot tell, the log of written rows does).
	mustRun(t, b, "UPDATE t SET n = 30 WHERE id = 3")
	for _, q := range []string{
		"UPDATE t SET n = n + 1 WHERE id = 2",
		"SELECT n FROM t WHERE id = 2 FOR UPDATE",
		"INSERT INTO t VALUES (4, 40) ON CONFLICT (id) DO UPDATE SET n = 0",
		"SELECT n FROM t WHERE id = 3 FOR KEY SHARE",
	} {
		mustRun(t, a, q)
	}
	for _, q := range []string{
		"UPDATE t SET n = 0 WHERE id = 1",
		"DELETE FROM t WHERE id = 3",
		"INSERT INTO t VALUES (3, 0) ON CONFLICT DO NOTHING",
	} {
		if _, _, err := run(t, a, q); sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
			t.Fatalf("%s over a row written since the snapshot: got %v, want 40001", q, err)
		}
		mustRun(t, a, "ROLLBACK")
		mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
		mustRun(t, a, "SELECT count(*) FROM t")
		mustRun(t, b, "UPDATE t SET n = n WHERE id IN (1, 3)")
	}
	mustRun(t, a, "ROLLBACK")
	if got := mustRun(t, a, "SELECT n FROM t WHERE id = 1"); len(got) != 1 || got[0] != "11" {
		t.Errorf("after rollback: row 1 %v, want 11", got)
	}
}

// sessionsOf opens sessions of eng (user a), closed when the test ends.
func sessionsOf(t *testing.T, eng *engine.Engine) func() pgwire.Session {
	return func() pgwire.Session {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: "a"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
}

// TestRepeatableReadConflictMessages: PostgreSQL's words for a row another
// transaction deleted after the snapshot: "concurrent delete" for UPDATE
// and DELETE, "concurrent update" for a row lock, for a change and for a
// row moved to another key.
func TestRepeatableReadConflictMessages(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, n INT NOT NULL)")
	for _, c := range []struct{ other, write, want string }{
		{"DELETE FROM t WHERE id = 1", "UPDATE t SET n = 0 WHERE id = 1", "could not serialize access due to concurrent delete"},
		{"DELETE FROM t WHERE id = 1", "DELETE FROM t WHERE id = 1", "could not serialize access due to concurrent delete"},
		{"DELETE FROM t WHERE id = 1", "SELECT n FROM t WHERE id = 1 FOR UPDATE", "could not serialize access due to concurrent update"},
		{"UPDATE t SET n = 2 WHERE id = 1", "DELETE FROM t WHERE id = 1", "could not serialize access due to concurrent update"},
		// moved to another key: updated, not deleted (rowlock's move log)
		{"UPDATE t SET id = 10 WHERE id = 1", "UPDATE t SET n = 0 WHERE n = 1", "could not serialize access due to concurrent update"},
		{"UPDATE t SET id = 10 WHERE id = 1", "DELETE FROM t WHERE n = 1", "could not serialize access due to concurrent update"},
	} {
		mustRun(t, a, "DELETE FROM t WHERE id = 10")
		mustRun(t, a, "INSERT INTO t VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = 1")
		mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
		mustRun(t, a, "SELECT count(*) FROM t")
		mustRun(t, b, c.other)
		_, _, err := run(t, a, c.write)
		if se := sqlerr.As(err); se == nil || se.Code != sqlerr.SerializationFailure || se.Message != c.want {
			t.Errorf("%s after %s: %v, want 40001 %q", c.write, c.other, err, c.want)
		}
		mustRun(t, a, "ROLLBACK")
	}
}
