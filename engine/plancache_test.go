package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// prepareOne prepares one statement, as a Parse message does.
func prepareOne(t *testing.T, s pgwire.Session, sql string) pgwire.Statement {
	t.Helper()
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil || len(stmts) != 1 {
		t.Fatalf("%s: %v", sql, err)
	}
	return stmts[0]
}

// executeRows runs a prepared statement and returns its rows, or its error.
func executeRows(st pgwire.Statement, params ...any) ([]string, error) {
	ctx := context.Background()
	res, err := st.Execute(ctx, params)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var out []string
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return out, err
		}
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				vals = append(vals, b.Column(c).ValueStr(i))
			}
			out = append(out, strings.Join(vals, "|"))
		}
		b.Release()
	}
}

// TestPreparedPlanFollowsCatalog: a prepared statement keeps its bound
// plan until the catalog changes; then it is planned again against the
// new catalog, or fails as PostgreSQL's plan cache does (PostgreSQL 15:
// "cached plan must not change result type", 0A000; a dropped table is
// 42P01 at EXECUTE).
func TestPreparedPlanFollowsCatalog(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'old')")
	sel := prepareOne(t, s, "SELECT * FROM t WHERE k = $1")
	ins := prepareOne(t, s, "INSERT INTO t VALUES ($1, 'ins')")
	steps := []struct {
		ddl      string
		st       pgwire.Statement
		param    int64
		want     string
		wantCode sqlerr.Code
		wantMsg  string
	}{
		{"", sel, 1, "1|old", "", ""},
		// Same shape, new table (a new id): planned again, the new rows.
		{"DROP TABLE t; CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'new')", sel, 1, "1|new", "", ""},
		{"", ins, 2, "", "", ""},
		{"", sel, 2, "2|ins", "", ""},
		// Gone: the binder's error, as EXECUTE's in PostgreSQL.
		{"DROP TABLE t", sel, 1, "", sqlerr.UndefinedTable, `relation "t" does not exist`},
		// Back with another result type: the description the client
		// holds would lie.
		{"CREATE TABLE t (k BIGINT PRIMARY KEY, v INT); INSERT INTO t VALUES (1, 7)", sel, 1, "", sqlerr.FeatureNotSupported, "cached plan must not change result type"},
		// A statement prepared now sees the new table.
		{"", prepareLater(t, s), 1, "1|7", "", ""},
	}
	for i, step := range steps {
		if step.ddl != "" {
			mustRun(t, s, step.ddl)
		}
		rows, err := executeRows(step.st, step.param)
		if step.wantCode != "" {
			if sqlerr.CodeOf(err) != step.wantCode || !strings.Contains(err.Error(), step.wantMsg) {
				t.Errorf("step %d (%s): %v, want %s %q", i, step.ddl, err, step.wantCode, step.wantMsg)
			}
			continue
		}
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, step.ddl, err)
		}
		if step.want != "" && (len(rows) != 1 || rows[0] != step.want) {
			t.Errorf("step %d (%s): %q, want %q", i, step.ddl, rows, step.want)
		}
	}
}

// prepareLater returns a statement prepared when it first runs.
func prepareLater(t *testing.T, s pgwire.Session) pgwire.Statement {
	return &lateStatement{t: t, s: s, sql: "SELECT * FROM t WHERE k = $1"}
}

type lateStatement struct {
	pgwire.Statement
	t   *testing.T
	s   pgwire.Session
	sql string
}

func (l *lateStatement) Execute(ctx context.Context, params []any) (pgwire.Result, error) {
	return prepareOne(l.t, l.s, l.sql).Execute(ctx, params)
}

// TestPreparedPlanFollowsSearchPathAndViews: changing search_path plans
// the statement again (PostgreSQL's plan cache checks it too), and a view
// replaced under a prepared statement is read with its new definition.
func TestPreparedPlanFollowsSearchPathAndViews(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')")
	mustRun(t, s, "CREATE VIEW w AS SELECT k, v FROM t WHERE k = 1")
	sel := prepareOne(t, s, "SELECT * FROM w")
	for i, step := range []struct{ ddl, want string }{
		{"", "1|a"},
		{"SET search_path TO public", "1|a"},
		{"DROP VIEW w; CREATE VIEW w AS SELECT k, v FROM t WHERE k = 2", "2|b"},
		{"RESET search_path", "2|b"},
	} {
		if step.ddl != "" {
			mustRun(t, s, step.ddl)
		}
		rows, err := executeRows(sel)
		if err != nil || len(rows) != 1 || rows[0] != step.want {
			t.Errorf("step %d (%s): %q, %v; want %q", i, step.ddl, rows, err, step.want)
		}
	}
}

// TestRevokeReachesPreparedStatement: privileges are checked at every
// execution, not when the plan was cached.
func TestRevokeReachesPreparedStatement(t *testing.T) {
	ss := aclSessions(t, t.TempDir(), "admin", "alice")
	admin, alice := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (k BIGINT PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a')")
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	sel := prepareOne(t, alice, "SELECT v FROM t WHERE k = $1")
	if rows, err := executeRows(sel, int64(1)); err != nil || len(rows) != 1 || rows[0] != "a" {
		t.Fatalf("granted: %q, %v", rows, err)
	}
	mustRun(t, admin, "REVOKE SELECT ON t FROM alice")
	if _, err := executeRows(sel, int64(1)); sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege {
		t.Fatalf("after REVOKE: %v, want 42501", err)
	}
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	if rows, err := executeRows(sel, int64(1)); err != nil || len(rows) != 1 || rows[0] != "a" {
		t.Fatalf("granted again: %q, %v", rows, err)
	}
}
