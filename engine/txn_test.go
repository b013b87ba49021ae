package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// twoSessions opens an engine over a fresh store and two sessions on it.
func sessions(t testing.TB, dir string, opts engine.Options, users ...string) []pgwire.Session {
	t.Helper()
	store, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng := engine.New(store, opts)
	var out []pgwire.Session
	for _, u := range users {
		s, err := eng.NewSession(context.Background(), pgwire.SessionInfo{User: u})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		out = append(out, s)
	}
	return out
}

func mustRun(t *testing.T, s pgwire.Session, sql string) []string {
	t.Helper()
	lines, _, err := run(t, s, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return lines
}

func TestTransactionIsolationAndAtomicity(t *testing.T) {
	dir := t.TempDir()
	ss := sessions(t, dir, engine.Options{}, "a", "b")
	a, b := ss[0], ss[1]
	mustRun(t, a, "CREATE TABLE kv (k INT PRIMARY KEY, v TEXT)")
	mustRun(t, a, "CREATE TABLE log (n INT)")
	mustRun(t, a, "INSERT INTO kv VALUES (1, 'x')")

	mustRun(t, a, "BEGIN")
	mustRun(t, a, "INSERT INTO kv VALUES (2, 'y')")
	mustRun(t, a, "UPDATE kv SET v = 'X' WHERE k = 1")
	mustRun(t, a, "INSERT INTO log VALUES (1), (2)")
	// The other session sees none of it yet...
	if got := strings.Join(mustRun(t, b, "SELECT k || v FROM kv ORDER BY k"), ","); got != "1x" {
		t.Errorf("uncommitted writes visible to another session: %s", got)
	}
	if got := mustRun(t, b, "SELECT count(*) FROM log"); got[0] != "0" {
		t.Errorf("uncommitted log rows visible: %v", got)
	}
	// ... while a sees its own writes, also through a point lookup.
	if got := mustRun(t, a, "SELECT v FROM kv WHERE k = 2"); len(got) != 1 || got[0] != "y" {
		t.Errorf("own write not visible: %v", got)
	}
	// b writes a key a does not touch, in the meantime: both survive.
	mustRun(t, b, "INSERT INTO kv VALUES (3, 'z')")
	mustRun(t, a, "COMMIT")
	if got := strings.Join(mustRun(t, b, "SELECT k || v FROM kv ORDER BY k"), ","); got != "1X,2y,3z" {
		t.Errorf("after COMMIT: %s", got)
	}
	if got := mustRun(t, b, "SELECT sum(n) FROM log"); got[0] != "3" {
		t.Errorf("log after COMMIT: %v", got)
	}
	// The changelog records the committed transaction's changes.
	if got := mustRun(t, b, "SELECT count(*) FROM kv$changelog"); got[0] != "5" {
		t.Errorf("changelog rows: %v (want +I 1, +I 3, +I 2, -U/+U 1)", got)
	}

	// A statement that fails after several batches leaves nothing, outside
	// a block too: 10,000 rows from a cross join, the last of which divides
	// by zero.
	mustRun(t, a, "CREATE TABLE ten (n INT)")
	mustRun(t, a, "INSERT INTO ten VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	mustRun(t, a, "CREATE TABLE big (id INT PRIMARY KEY, x INT)")
	_, _, err := run(t, a, `INSERT INTO big SELECT a.n * 1000 + b.n * 100 + c.n * 10 + d.n, 100 / (a.n * 1000 + b.n * 100 + c.n * 10 + d.n - 9999)
		FROM ten a, ten b, ten c, ten d`)
	if sqlerr.CodeOf(err) != sqlerr.DivisionByZero {
		t.Fatalf("failing INSERT: %v", err)
	}
	if got := mustRun(t, a, "SELECT count(*) FROM big"); got[0] != "0" {
		t.Errorf("a failed statement left rows: %v", got)
	}
	mustRun(t, a, "INSERT INTO big SELECT a.n * 1000 + b.n * 100 + c.n * 10 + d.n, 1 FROM ten a, ten b, ten c, ten d")
	if got := mustRun(t, a, "SELECT count(*), sum(x) FROM big"); got[0] != "10000" {
		t.Errorf("a statement of many batches: %v", got)
	}
}

func TestTransactionSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	func() {
		store, err := embedded.Open(dir, embedded.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		s, _ := engine.New(store, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
		mustRun(t, s, "CREATE TABLE kv (k INT PRIMARY KEY, v TEXT)")
		mustRun(t, s, "CREATE TABLE log (n INT)")
		mustRun(t, s, "BEGIN")
		mustRun(t, s, "INSERT INTO kv VALUES (1, 'a'), (2, 'b')")
		mustRun(t, s, "DELETE FROM kv WHERE k = 1")
		mustRun(t, s, "INSERT INTO log VALUES (7)")
		mustRun(t, s, "COMMIT")
		mustRun(t, s, "BEGIN")
		mustRun(t, s, "INSERT INTO kv VALUES (3, 'c')")
		s.Close() // never committed
	}()
	s := sessions(t, dir, engine.Options{}, "u")[0]
	if got := strings.Join(mustRun(t, s, "SELECT k || v FROM kv ORDER BY k"), ","); got != "2b" {
		t.Errorf("after restart: %s", got)
	}
	if got := mustRun(t, s, "SELECT sum(n) FROM log"); got[0] != "7" {
		t.Errorf("log after restart: %v", got)
	}
}

// roles is a fixed set of roles for the privilege tests.
type roles map[string]bool // name -> superuser

func (r roles) Role(name string) (bool, bool) {
	s, ok := r[name]
	return ok, s
}

// aclSessions opens an engine whose privileges are kept in
// dir/privileges.json and a session for each user: the first user is a
// superuser, the others are not.
func aclSessions(t *testing.T, dir string, users ...string) []pgwire.Session {
	t.Helper()
	md, err := meta.OpenFile(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	rs := roles{}
	for i, u := range users {
		rs[u] = i == 0
	}
	return sessions(t, dir+"/data", engine.Options{Meta: md, Roles: rs}, users...)
}

func TestPrivileges(t *testing.T) {
	dir := t.TempDir()
	ss := aclSessions(t, dir, "admin", "alice", "bob")
	admin, alice, bob := ss[0], ss[1], ss[2]
	mustRun(t, admin, "CREATE TABLE t (k INT PRIMARY KEY, v TEXT)")
	mustRun(t, admin, "INSERT INTO t VALUES (1, 'a')")
	denied := func(who pgwire.Session, sql, msg string) {
		t.Helper()
		_, _, err := run(t, who, sql)
		if sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want 42501 %q", sql, err, msg)
		}
	}
	allowed := func(who pgwire.Session, sql string) {
		t.Helper()
		if _, _, err := run(t, who, sql); err != nil {
			t.Errorf("%s: %v", sql, err)
		}
	}
	denied(alice, "SELECT * FROM t", "permission denied for table t")
	denied(alice, "INSERT INTO t VALUES (2, 'b')", "permission denied for table t")
	denied(alice, "CREATE TABLE mine (a INT)", "permission denied for schema public")
	denied(alice, "DROP TABLE t", "must be owner of table t")
	denied(alice, "GRANT SELECT ON t TO alice", "permission denied for table t")

	allowed(admin, "GRANT SELECT, INSERT ON t TO alice")
	allowed(alice, "SELECT * FROM t")
	allowed(alice, "INSERT INTO t VALUES (2, 'b')")
	denied(alice, "UPDATE t SET v = 'x' WHERE k = 1", "permission denied for table t")
	denied(alice, "DELETE FROM t", "permission denied for table t")
	denied(alice, "INSERT INTO t VALUES (1, 'z') ON CONFLICT (k) DO UPDATE SET v = excluded.v", "permission denied for table t")
	denied(alice, "TRUNCATE t", "permission denied for table t")
	denied(bob, "SELECT * FROM t", "permission denied for table t")
	// A subquery's table needs SELECT too.
	allowed(admin, "CREATE TABLE secret (k INT)")
	denied(alice, "SELECT * FROM t WHERE k IN (SELECT k FROM secret)", "permission denied for table secret")

	// Checked when the statement runs: a REVOKE reaches prepared statements.
	ctx := context.Background()
	stmts, err := alice.Prepare(ctx, "SELECT v FROM t WHERE k = 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	allowed(admin, "REVOKE SELECT ON t FROM alice")
	if _, err := stmts[0].Execute(ctx, nil); sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege {
		t.Errorf("prepared statement after REVOKE: %v", err)
	}
	allowed(admin, "GRANT ALL ON ALL TABLES IN SCHEMA public TO PUBLIC")
	allowed(bob, "UPDATE t SET v = v || '!' WHERE k = 1")
	allowed(bob, "SELECT * FROM secret")
	if _, _, err := run(t, admin, "GRANT SELECT ON t TO nobody"); sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		t.Errorf("unknown role: %v", err)
	}

	// Grants persist: a new engine over the same files sees them.
	re, err := meta.OpenFile(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if !re.Access().Has("bob", 1, access.Update) && !re.Access().Has("bob", 2, access.Update) {
		t.Error("grants did not persist")
	}
}

func TestTransactionMemoryLimit(t *testing.T) {
	s := sessions(t, t.TempDir(), engine.Options{TransactionMemoryLimit: 64 << 10}, "u")[0]
	mustRun(t, s, "CREATE TABLE ten (n INT)")
	mustRun(t, s, "INSERT INTO ten VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	mustRun(t, s, "CREATE TABLE big (id INT PRIMARY KEY, pad TEXT)")
	// 10,000 rows of 40 bytes and more: past 64 KiB of uncommitted writes.
	_, _, err := run(t, s, "INSERT INTO big SELECT a.n * 1000 + b.n * 100 + c.n * 10 + d.n, repeat('x', 40) FROM ten a, ten b, ten c, ten d")
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("a statement past the transaction memory limit: %v, want 53200", err)
	}
	if got := mustRun(t, s, "SELECT count(*) FROM big"); got[0] != "0" {
		t.Errorf("the refused statement left %s rows", got[0])
	}
	mustRun(t, s, "INSERT INTO big VALUES (1, 'small')") // the session goes on
}

// A SELECT by key inside a transaction reads the key's pending row when
// the transaction wrote it (one key: the row sliced out of the record that
// holds it), the store's row otherwise, and nothing after its own DELETE;
// the row is the newest of several writes, and the right one of a
// many-row write.
func TestTransactionReadsItsOwnRowByKey(t *testing.T) {
	s := sessions(t, t.TempDir(), engine.Options{}, "a")[0]
	mustRun(t, s, "CREATE TABLE own (id BIGINT PRIMARY KEY, a INT NOT NULL, b TEXT, c DOUBLE PRECISION)")
	mustRun(t, s, "INSERT INTO own VALUES (1, 10, 'one', 1.5), (2, 20, 'two', 2.5), (3, 30, NULL, 3.5), (4, 40, 'four', 4.5)")
	mustRun(t, s, "BEGIN")
	for _, step := range []struct{ sql, want string }{
		{"UPDATE own SET a = a + 1, b = b || '!' WHERE id = 2", ""},
		{"SELECT b FROM own WHERE id = 2", "two!"},
		{"SELECT a FROM own WHERE id = 2", "21"},
		{"SELECT c FROM own WHERE id = 2", "2.5"},
		{"SELECT id FROM own WHERE id = 2", "2"},
		{"SELECT b FROM own WHERE id = 1", "one"}, // not written: the store's
		{"SELECT b FROM own WHERE id IN (1, 2) ORDER BY id", "one,two!"},
		{"UPDATE own SET b = 'again' WHERE id = 2", ""},
		{"SELECT b FROM own WHERE id = 2", "again"},
		{"UPDATE own SET a = 0, b = 'all' WHERE id IN (1, 3, 4)", ""},
		{"SELECT a FROM own WHERE id = 4", "0"},
		{"SELECT b FROM own WHERE id = 3", "all"},
		{"SAVEPOINT s", ""},
		{"DELETE FROM own WHERE id = 3", ""},
		{"SELECT b FROM own WHERE id = 3", ""},
		{"ROLLBACK TO SAVEPOINT s", ""},
		{"SELECT b FROM own WHERE id = 3", "all"},
		{"COMMIT", ""},
		{"SELECT b FROM own ORDER BY id", "all,again,all,all"},
	} {
		if got := strings.Join(mustRun(t, s, step.sql), ","); got != step.want {
			t.Errorf("%s: %q, want %q", step.sql, got, step.want)
		}
	}
}
