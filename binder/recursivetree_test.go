package binder

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestRecursiveTermsFromTree: a recursive WITH query's terms bind from
// sqlgate's tree (bindRecursiveUnion): the plan's RecursiveUnion has the
// non-recursive term's types, the SEARCH / CYCLE columns reach the
// recursive term under the reference's alias, and the refusals keep their
// SQLSTATEs.
func TestRecursiveTermsFromTree(t *testing.T) {
	cases := []struct {
		q    string
		want []string    // lines the plan's shape holds
		code sqlerr.Code // "": binds
	}{
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM r WHERE n < 3) SELECT n FROM r",
			want: []string{"*binder.RecursiveUnion n:integer", "*binder.WorkTableScan n:integer"}},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT 2 UNION ALL SELECT n+1 FROM r WHERE n < 3) SELECT n FROM r",
			want: []string{"*binder.RecursiveUnion n:integer", "*binder.SetOp"}},
		{q: "WITH RECURSIVE r(n) AS (VALUES ('a') UNION ALL SELECT n || 'b' FROM r WHERE length(n) < 3) SELECT n FROM r",
			want: []string{"*binder.RecursiveUnion n:text"}},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT z.n+1 FROM r AS z WHERE z.n < 3) CYCLE n SET c USING p SELECT n, c FROM r",
			want: []string{"*binder.WorkTableScan n:integer c:boolean p:record[]"}},
		{q: "WITH RECURSIVE r(n) AS ((SELECT 1 UNION SELECT 2 ORDER BY 1) UNION ALL SELECT n+1 FROM r WHERE n < 3) SELECT n FROM r",
			code: sqlerr.FeatureNotSupported},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM (SELECT * FROM r) x) SEARCH DEPTH FIRST BY n SET o SELECT n FROM r",
			code: sqlerr.FeatureNotSupported},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT n+1 FROM r) CYCLE n SET c USING p SELECT n FROM r",
			code: sqlerr.FeatureNotSupported},
		{q: "WITH RECURSIVE r(n) AS (SELECT 1::int8 UNION ALL SELECT n+1.5 FROM r WHERE n < 3) SELECT n FROM r",
			code: sqlerr.DatatypeMismatch},
	}
	p := sql.NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		st := stmts[0]
		b := &binder{ctx: context.Background(), cat: setOpCatalog{}, stmt: st, params: make([]types.T, st.NumParams)}
		got, err := b.bindQueryNodeForTest(st.AST)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.q, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		shape := planShape(got)
		for _, w := range c.want {
			if !strings.Contains(shape, w) {
				t.Errorf("%s: the plan lacks %q:\n%s", c.q, w, shape)
			}
		}
	}
}

// TestRecursiveTermsTree: the split of a recursive query's tree into its
// terms takes the top UNION's operands (INTERSECT grouped into its
// operand, as PostgreSQL's grammar groups it) and nothing else.
func TestRecursiveTermsTree(t *testing.T) {
	sel := &pt.Select{}
	cases := []struct {
		q       pt.Query
		ok, all bool
	}{
		{q: &pt.SetOp{Op: pt.Union, All: true, L: sel, R: sel}, ok: true, all: true},
		{q: &pt.SetOp{Op: pt.Union, L: &pt.SetOp{Op: pt.Intersect, L: sel, R: sel}, R: sel}, ok: true},
		{q: &pt.SetOp{Op: pt.Except, L: sel, R: sel}},
		{q: sel},
	}
	for i, c := range cases {
		l, r, all, ok := recursiveTermsTree(c.q)
		if ok != c.ok || all != c.all {
			t.Errorf("%d: ok %v all %v, want %v %v", i, ok, all, c.ok, c.all)
		}
		if ok && (l != c.q.(*pt.SetOp).L || r != sel) {
			t.Errorf("%d: the wrong terms", i)
		}
	}
}

// TestSetOpWithFromTree: a set operation with its own WITH binds from the
// tree (bindSetOpTree binds the WITH), its references counted over the
// whole operation (the SetOp the WITH is on): a query referenced from both operands is
// evaluated once (a CTEScan), as in PostgreSQL.
func TestSetOpWithFromTree(t *testing.T) {
	cases := []struct {
		q      string
		shared bool
		code   sqlerr.Code
	}{
		{q: "WITH x AS (SELECT a FROM s) SELECT a FROM x UNION ALL SELECT a FROM x", shared: true},
		{q: "WITH x AS (SELECT a FROM s) SELECT a FROM x UNION ALL SELECT 1"},
		{q: "WITH x AS NOT MATERIALIZED (SELECT a FROM s) SELECT a FROM x UNION SELECT a FROM x ORDER BY 1 LIMIT 2"},
		{q: "WITH x AS (SELECT 1), x AS (SELECT 2) SELECT 1 UNION SELECT 2", code: sqlerr.DuplicateAlias},
		{q: "WITH x AS (SELECT a, b FROM s) SELECT a FROM x UNION SELECT b FROM x", code: sqlerr.DatatypeMismatch},
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
		if !ok || so.With == nil {
			t.Fatalf("%s: a %T without its WITH", c.q, q)
		}
		b := &binder{ctx: context.Background(), cat: setOpCatalog{}, stmt: st, params: make([]types.T, st.NumParams)}
		got, err := b.bindSetOpTree(so)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.q, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if shared := strings.Contains(planShape(got), "*binder.CTEScan"); shared != c.shared {
			t.Errorf("%s: shared %v, want %v:\n%s", c.q, shared, c.shared, planShape(got))
		}
	}
}
