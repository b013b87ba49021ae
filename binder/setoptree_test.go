package binder

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// setOpCatalog serves one table, s(a int, b text, c varchar(3)).
type setOpCatalog struct{}

func (setOpCatalog) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if p.Table != "s" {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
	}
	return fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "s"}, TableID: 7, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns: []fluss.Column{{Name: "a", Type: types.Int32Type}, {Name: "b", Type: types.StringType}, {Name: "c", Type: types.T{Kind: types.String, Length: 3}}},
	}}}, nil
}

// planShape writes a plan's node kinds and columns, depth first.
func planShape(n Node) string {
	var sb strings.Builder
	var walk func(Node, int)
	walk = func(n Node, depth int) {
		fmt.Fprintf(&sb, "%s%T", strings.Repeat(" ", depth), n)
		for _, c := range n.Columns() {
			fmt.Fprintf(&sb, " %s:%s", c.Name, c.T.PGName())
		}
		sb.WriteByte('\n')
		for _, c := range n.Children() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return sb.String()
}

// TestSetOpTreeAgreesWithEdge: bindSetOpTree, which binds a whole set
// operation of the tree (its ORDER BY and LIMIT from the tree), gives the
// plan that the edge with TiDB's statement (bindSetOpr) gives, and the
// same error.
func TestSetOpTreeAgreesWithEdge(t *testing.T) {
	cases := []struct {
		q    string
		code sqlerr.Code // "": binds
	}{
		{q: "SELECT a FROM s UNION SELECT 2"},
		{q: "SELECT b FROM s UNION ALL SELECT c FROM s ORDER BY 1 DESC LIMIT 3 OFFSET 1"},
		{q: "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"},
		{q: "SELECT a, b FROM s EXCEPT ALL SELECT 1, 'x' ORDER BY b NULLS FIRST, a"},
		{q: "SELECT 'x' UNION (SELECT c FROM s UNION SELECT b FROM s ORDER BY 1 LIMIT 2)"},
		{q: "SELECT 1 UNION (SELECT '2')"},
		{q: "VALUES (1), (2) UNION SELECT a FROM s"},
		{q: "SELECT a FROM s UNION SELECT a, b FROM s", code: sqlerr.SyntaxError},
		{q: "SELECT a FROM s UNION SELECT b FROM s", code: sqlerr.DatatypeMismatch},
		{q: "SELECT a FROM s UNION SELECT a FROM s ORDER BY b", code: sqlerr.FeatureNotSupported},
		{q: "SELECT a FROM s UNION SELECT a FROM s ORDER BY 2", code: sqlerr.InvalidColumnReference},
		{q: "SELECT a FROM s UNION SELECT a FROM s LIMIT 2 OFFSET 1"},
	}
	p := sql.NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		st := stmts[0]
		var tr sql.Transformer
		q, err := tr.QueryToTree(st.AST, st)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		so, ok := q.(*pt.SetOp)
		if !ok {
			t.Fatalf("%s: a %T", c.q, q)
		}
		edge := &binder{ctx: context.Background(), cat: setOpCatalog{}, stmt: st, params: make([]types.T, st.NumParams)}
		want, werr := edge.bindQueryNodeForTest(st.AST)
		tree := &binder{ctx: context.Background(), cat: setOpCatalog{}, stmt: st, params: make([]types.T, st.NumParams)}
		got, gerr := tree.bindSetOpTree(so)
		if c.code != "" {
			if sqlerr.CodeOf(werr) != c.code || sqlerr.CodeOf(gerr) != c.code || werr.Error() != gerr.Error() {
				t.Errorf("%s: edge %v, tree %v; want %s from both", c.q, werr, gerr, c.code)
			}
			continue
		}
		if werr != nil || gerr != nil {
			t.Errorf("%s: edge %v, tree %v", c.q, werr, gerr)
			continue
		}
		if ws, gs := planShape(want), planShape(got); ws != gs {
			t.Errorf("%s:\n edge\n%s tree\n%s", c.q, ws, gs)
		}
	}
}

// bindQueryNodeForTest binds a TiDB query through the edge.
func (b *binder) bindQueryNodeForTest(q any) (Node, error) {
	n, _, err := b.bindQueryNode(q)
	return n, err
}
