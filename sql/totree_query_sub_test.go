package sql

import (
	"testing"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// TestSubqueryTree: the query a moved statement carries (CREATE VIEW's,
// CREATE TABLE AS's) becomes its tree on demand, once, and a subquery
// that is no TiDB query is an error rather than a panic.
func TestSubqueryTree(t *testing.T) {
	cases := []struct{ in, want string }{
		{"CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1", `SELECT "a", "b" FROM "t" WHERE ("a" > 1)`},
		{"CREATE VIEW v AS SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", "SELECT 1 UNION (SELECT 2 INTERSECT SELECT 3)"},
		{"CREATE TABLE c AS SELECT x FROM t ORDER BY x", `SELECT "x" FROM "t" ORDER BY "x"`},
	}
	p := NewParser()
	var tr Transformer
	for _, c := range cases {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		st, err := StatementToTree(stmts[0].AST)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var sub *pt.Subquery
		switch s := st.(type) {
		case *pt.CreateView:
			sub = s.Query
		case *pt.CreateTable:
			sub = s.Query
		}
		q, err := tr.SubqueryTree(sub, stmts[0])
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := pt.FormatQuery(q, nil); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
		if again, _ := tr.SubqueryTree(sub, stmts[0]); again != q {
			t.Errorf("%s: a second call transformed again", c.in)
		}
	}
	if _, err := tr.SubqueryTree(&pt.Subquery{Query: "not a query"}, nil); err == nil {
		t.Error("a subquery of another type: no error")
	}
	if _, err := tr.SubqueryTree(nil, nil); err == nil {
		t.Error("no subquery: no error")
	}
}
