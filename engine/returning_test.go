package engine_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// RETURNING reads the rows written and UPDATE ... FROM / DELETE ... USING
// read the target's rows, so, as in PostgreSQL, they need SELECT on the
// target besides the write privilege, and SELECT on the other tables.
func TestReturningAndJoinedWritesNeedSelect(t *testing.T) {
	ss := aclSessions(t, t.TempDir(), "admin", "alice")
	admin, alice := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (k INT PRIMARY KEY, v TEXT)")
	mustRun(t, admin, "CREATE TABLE o (k INT PRIMARY KEY, v TEXT)")
	mustRun(t, admin, "CREATE TABLE hidden (k INT PRIMARY KEY)")
	mustRun(t, admin, "INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	mustRun(t, admin, "INSERT INTO o VALUES (1, 'x')")
	mustRun(t, admin, "GRANT INSERT, UPDATE, DELETE ON t TO alice")
	mustRun(t, admin, "GRANT SELECT ON o TO alice")
	check := func(who pgwire.Session, sql string, deniedOn string) {
		t.Helper()
		_, _, err := run(t, who, sql)
		switch {
		case deniedOn == "" && err != nil:
			t.Errorf("%s: %v", sql, err)
		case deniedOn != "" && (sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege || !strings.Contains(err.Error(), "permission denied for table "+deniedOn)):
			t.Errorf("%s: %v, want 42501 on %s", sql, err, deniedOn)
		}
	}
	check(alice, "INSERT INTO t VALUES (3, 'c')", "")
	check(alice, "INSERT INTO t VALUES (4, 'd') RETURNING k", "t")
	check(alice, "UPDATE t SET v = 'y' RETURNING v", "t")
	check(alice, "DELETE FROM t USING o WHERE o.k = t.k", "t")
	check(alice, "UPDATE t SET v = o.v FROM o WHERE o.k = t.k", "t")
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	check(alice, "UPDATE t SET v = o.v FROM o WHERE o.k = t.k RETURNING t.v", "")
	check(alice, "DELETE FROM t USING hidden WHERE hidden.k = t.k", "hidden")
	check(alice, "DELETE FROM t USING o WHERE o.k = t.k RETURNING t.k", "")
	if got := mustRun(t, admin, "SELECT k || v FROM t ORDER BY k"); strings.Join(got, ",") != "2b,3c" {
		t.Errorf("rows left: %v", got)
	}
}
