package sql

import (
	"errors"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestValuesRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"VALUES (1, 'a'), (2, 'b')", "VALUES row(1, 'a'), row(2, 'b')"},
		{"VALUES (1), (2) ORDER BY 1 DESC LIMIT 1", "VALUES row(1), row(2) ORDER BY 1 DESC LIMIT 1"},
		{"VALUES ((1 + 2) * 3, x::int)", "VALUES row((1 + 2) * 3, pg__cast(x, 'int'))"},
		{"SELECT * FROM (VALUES (1, 'a')) AS t(id, name)",
			"SELECT * FROM (select pg__colalias('id', 'name') from (VALUES row(1, 'a')) as pg__colalias) AS t"},
		{"WITH v(x) AS (VALUES (1), (2)) SELECT x FROM v", "WITH v(x) AS (VALUES row(1), row(2)) SELECT x FROM v"},
		{"SELECT 1 UNION ALL VALUES (2)", "SELECT 1 UNION ALL VALUES row(2)"},
		{"SELECT x IN (VALUES (1), (2)) FROM t", "SELECT x IN (VALUES row(1), row(2)) FROM t"},
		{"INSERT INTO t VALUES (1, 'a'), (2, 'b')", "INSERT INTO t VALUES (1, 'a'), (2, 'b')"},
		{"INSERT INTO t (a, b) VALUES (1, 'a')", "INSERT INTO t (a, b) VALUES (1, 'a')"},
		{"SELECT * FROM (SELECT 1 a, 2 b) AS t(x, y)",
			"SELECT * FROM (select pg__colalias('x', 'y') from (SELECT 1 a, 2 b) as pg__colalias) AS t"},
		{`SELECT * FROM (SELECT 1 a) t("X"), u`,
			"SELECT * FROM (select pg__colalias('X') from (SELECT 1 a) as pg__colalias) t, u"},
		{"SELECT * FROM a JOIN (SELECT 1 a) AS s(z) ON true",
			"SELECT * FROM a JOIN (select pg__colalias('z') from (SELECT 1 a) as pg__colalias) AS s ON true"},
		{"SELECT * FROM generate_series(1, 3) AS g(n)",
			"SELECT * FROM (select pg__srf('generate_series', 0, 1, pg__cols('n'), 1, 3)) as g"},
		{"SELECT f(x) FROM t", "SELECT f(x) FROM t"},
		{"DELETE FROM t USING (VALUES (3)) AS d(id) WHERE t.id = d.id",
			"DELETE FROM t ; select * from (select pg__colalias('id') from (VALUES row(3)) as pg__colalias) AS d WHERE t.id = d.id"},
		{"CREATE TABLE c AS VALUES (1, 'a') ORDER BY 1", `CREATE TABLE c AS select * from (VALUES row(1, 'a') ORDER BY 1) as "*VALUES*"`},
		{"CREATE VIEW w AS VALUES (1)", "CREATE VIEW w AS VALUES row(1)"},
		{"SELECT (x) AS y FROM t", `SELECT (x) AS "y" FROM t`},
		// a FROM item after FULL JOIN and first in a parenthesised join
		{"SELECT * FROM (VALUES (1)) a(x) FULL JOIN (VALUES (2)) b(y) ON true",
			"select * from (select pg__colalias('x') from (values row(1)) as pg__colalias) a left join (select pg__colalias('y') from (values row(2)) as pg__colalias) b on pg__full_join((true))"},
		{"SELECT * FROM ((VALUES (1)) a(x) JOIN (VALUES (1)) b(y) ON x = y)",
			"select * from ((select pg__colalias('x') from (values row(1)) as pg__colalias) a join (select pg__colalias('y') from (values row(1)) as pg__colalias) b on x = y)"},
		{"SELECT * FROM a FULL JOIN generate_series(1, 2) g ON true",
			"select * from a left join (select pg__srf('generate_series', 0, 1, pg__cols(), 1, 2)) as g on pg__full_join((true))"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if want := foldOutsideQuotes(tc.want); st.Rewritten != want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
			}
		})
	}
}

func TestValuesAST(t *testing.T) {
	st := parseOne(t, "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id)")
	sel, ok := st.AST.(*ast.SelectStmt)
	if !ok {
		t.Fatalf("AST %T", st.AST)
	}
	ts := sel.From.TableRefs.Left.(*ast.TableSource)
	if ts.AsName.O != "t" {
		t.Errorf("alias %q", ts.AsName.O)
	}
	marker := ts.Source.(*ast.SelectStmt)
	inner := marker.From.TableRefs.Left.(*ast.TableSource).Source.(*ast.SelectStmt)
	if inner.Kind != ast.SelectStmtKindValues || len(inner.Lists) != 2 || len(inner.Lists[0].Values) != 2 {
		t.Errorf("inner VALUES: kind %v, %d rows", inner.Kind, len(inner.Lists))
	}
}

func TestValuesRewriteErrors(t *testing.T) {
	for _, tc := range []struct {
		in  string
		pos int // 1-based character position PostgreSQL reports
	}{
		{"VALUES (1), ", 13},
		{"VALUES ()", 9},
		{"SELECT * FROM (SELECT 1) AS t(x,)", 33},
		{"SELECT * FROM (SELECT 1) AS t()", 31},
		{"SELECT * FROM (SELECT 1) AS t(x + 1)", 33},
		{"VALUES (1 +)", 12},
		{"VALUES (1), (2), (", 19},
		{"SELECT * FROM (SELECT 1) t(x", 29},
	} {
		_, err := NewParser().Parse(tc.in)
		var se *sqlerr.Error
		if !errors.As(err, &se) {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if se.Code != sqlerr.SyntaxError || se.Position != tc.pos {
			t.Errorf("%q: %s at %d, want 42601 at %d", tc.in, se.Code, se.Position, tc.pos)
		}
	}
}
