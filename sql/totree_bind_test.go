package sql

import (
	"errors"
	"fmt"
	"testing"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// TestBindStatementKinds: every statement the binder binds arrives as a
// node of the tree (the binder switches on these types only); the others
// as no tree and no error.
func TestBindStatementKinds(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1", "*tree.Select"},
		{"VALUES (1)", "*tree.Values"},
		{"SELECT 1 UNION SELECT 2", "*tree.SetOp"},
		{"(SELECT 1) ORDER BY 1", "*tree.ParenQuery"},
		{"WITH w AS (SELECT 1 AS a) (SELECT a FROM w) LIMIT 1", "*tree.ParenQuery"},
		{"INSERT INTO t VALUES (1)", "*tree.Insert"},
		{"UPDATE t SET a = 1", "*tree.Update"},
		{"DELETE FROM t", "*tree.Delete"},
		{"EXPLAIN SELECT 1", "*tree.Explain"},
		{"EXPLAIN ANALYZE DELETE FROM t", "*tree.Explain"},
		{"DESCRIBE s.t", "*tree.Describe"},
		{"CREATE TABLE t (a int)", "*tree.CreateTable"},
		{"DROP VIEW v", "*tree.DropTable"},
	}
	p := NewParser()
	var tr Transformer
	for _, c := range cases {
		sts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		st, err := tr.BindStatement(sts[0])
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := fmt.Sprintf("%T", st); got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}

// TestBindStatementParts: the parts the binder reads of the statements
// moved here.
func TestBindStatementParts(t *testing.T) {
	p := NewParser()
	var tr Transformer
	bind := func(text string) pt.Statement {
		t.Helper()
		sts, err := p.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		st, err := tr.BindStatement(sts[0])
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		return st
	}
	if e := bind("EXPLAIN ANALYZE SELECT 1").(*pt.Explain); !e.Analyze {
		t.Errorf("EXPLAIN ANALYZE: Analyze false")
	} else if _, ok := e.Stmt.(*pt.Select); !ok {
		t.Errorf("EXPLAIN SELECT explains a %T", e.Stmt)
	}
	if e := bind("EXPLAIN INSERT INTO t VALUES (1)").(*pt.Explain); e.Analyze {
		t.Errorf("EXPLAIN: Analyze true")
	} else if _, ok := e.Stmt.(*pt.Insert); !ok {
		t.Errorf("EXPLAIN INSERT explains a %T", e.Stmt)
	}
	// TRUNCATE reaches the binder as Statement.DDL (ddlstmts.go), never as
	// TiDB's statement: the tree has no node for it
	for _, q := range []string{"TRUNCATE s.t", "truncate table t, u RESTART IDENTITY", "/* c */ TRUNCATE ONLY t *"} {
		sts, err := NewParser().Parse(q)
		if err != nil || len(sts) != 1 || sts[0].Kind != Truncate || sts[0].DDL == nil || sts[0].AST != nil {
			t.Errorf("%s: %v, %+v", q, err, sts)
		}
	}
	if d := bind("DESCRIBE t").(*pt.Describe); d.Table.Name != "t" {
		t.Errorf("DESCRIBE t: %+v", d.Table)
	}
	pq := bind("WITH w AS (SELECT 1 AS a) (SELECT a FROM w) ORDER BY 1 LIMIT 2 OFFSET 1").(*pt.ParenQuery)
	if pq.With == nil || len(pq.With.CTEs) != 1 || !pq.HasOrder || len(pq.OrderBy) != 1 || !pq.HasLimit ||
		pq.Limit == nil || pq.QueryClauses.Offset == nil || pq.Refused != nil {
		t.Errorf("ParenQuery's clauses: %+v", pq)
	}
	if _, ok := pq.Query.(*pt.Select); !ok {
		t.Errorf("ParenQuery's query: a %T", pq.Query)
	}
}

// TestBindQueryRefusals: a SELECT's refusal of itself as a whole has no
// position (the binder's message has none), one of its parts has; a set
// operation's are positioned.
func TestBindQueryRefusals(t *testing.T) {
	p := NewParser()
	var tr Transformer
	cases := []struct {
		in         string
		positioned bool
	}{
		{"SELECT a FROM t GROUP BY a WITH ROLLUP", true},
		{"SELECT * FROM t USE INDEX (i)", true},
	}
	for _, c := range cases {
		sts, err := p.Parse(c.in)
		if err != nil {
			t.Logf("%s: refused before the tree: %v", c.in, err)
			continue
		}
		_, ok, err := tr.BindQuery(sts[0].AST, sts[0])
		if !ok || err == nil {
			t.Errorf("%s: ok %v, err %v", c.in, ok, err)
			continue
		}
		var te *TransformError
		if got := errors.As(err, &te); got != c.positioned {
			t.Errorf("%s: positioned %v, want %v", c.in, got, c.positioned)
		}
	}
	if _, ok, _ := tr.BindQuery(42, nil); ok {
		t.Errorf("BindQuery took a non-query")
	}
}

// TestParseExprText: one expression, its tree and whether it is a binary
// operator; anything else a syntax error.
func TestParseExprText(t *testing.T) {
	x, err := ParseExprText("a + 1")
	if err != nil || !x.Operator || x.Tree == nil || x.Statement == nil {
		t.Errorf("a + 1: %+v, %v", x, err)
	}
	if x, err := ParseExprText("f(a)"); err != nil || x.Operator {
		t.Errorf("f(a): %+v, %v", x, err)
	}
	for _, bad := range []string{"1 FROM t", "a AS b", "1, 2"} {
		if _, err := ParseExprText(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestFuncTableFields: a function in FROM is the tree's FuncTable, read
// by the binder from its fields (never the rewrite's marker): the call,
// WITH ORDINALITY, the alias's columns or column definitions (each at its
// place), and ROWS FROM's functions with theirs.
func TestFuncTableFields(t *testing.T) {
	cases := []struct {
		in       string
		call     string
		ord      bool
		cols     []string
		defs     []string
		rowsFrom []string // each function's name and its definitions
	}{
		{in: "SELECT * FROM generate_series(1, 3) WITH ORDINALITY AS g(n, o)", call: "generate_series/2", ord: true, cols: []string{"n", "o"}},
		{in: "SELECT * FROM json_to_record('{}') AS r(a int, b text)", call: "json_to_record/1", defs: []string{"a int", "b text"}},
		{in: "SELECT * FROM ROWS FROM (generate_series(1, 2), json_to_record('{}') AS (a int)) AS r", call: rowsFromMarker + "/2",
			rowsFrom: []string{"generate_series/2", "json_to_record/1 a int"}},
	}
	p := NewParser()
	for _, c := range cases {
		sts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		q, err := QueryToTree(sts[0].AST, sts[0])
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		ft, ok := q.(*pt.Select).From.(*pt.FuncTable)
		if !ok {
			t.Errorf("%s: FROM is a %T", c.in, q.(*pt.Select).From)
			continue
		}
		if got := fmt.Sprintf("%s/%d", ft.Call.Name, len(ft.Call.Args)); got != c.call {
			t.Errorf("%s: call %s, want %s", c.in, got, c.call)
		}
		if ft.Ordinality != c.ord || fmt.Sprint(ft.Columns) != fmt.Sprint(c.cols) {
			t.Errorf("%s: ordinality %v, columns %v", c.in, ft.Ordinality, ft.Columns)
		}
		var defs []string
		for _, d := range ft.ColumnDefs {
			defs = append(defs, d.Name+" "+d.Type)
			if d.Pos() <= 0 || d.Pos() >= len(sts[0].Rewritten) {
				t.Errorf("%s: definition %s at %d", c.in, d.Name, d.Pos())
			}
		}
		if fmt.Sprint(defs) != fmt.Sprint(c.defs) {
			t.Errorf("%s: definitions %v, want %v", c.in, defs, c.defs)
		}
		var fns []string
		for _, f := range ft.Funcs {
			s := fmt.Sprintf("%s/%d", f.Call.Name, len(f.Call.Args))
			for _, d := range f.ColumnDefs {
				s += " " + d.Name + " " + d.Type
			}
			fns = append(fns, s)
		}
		if ft.RowsFrom != (c.rowsFrom != nil) || fmt.Sprint(fns) != fmt.Sprint(c.rowsFrom) {
			t.Errorf("%s: ROWS FROM %v %v, want %v", c.in, ft.RowsFrom, fns, c.rowsFrom)
		}
	}
}
