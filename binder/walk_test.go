package binder_test

import (
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
)

// walkByMapChildren is Walk as MapChildren alone defines it: the order
// Walk's direct paths for the commonest nodes must keep.
func walkByMapChildren(e binder.Expr, fn func(binder.Expr)) {
	fn(e)
	binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) {
		walkByMapChildren(c, fn)
		return c, nil
	})
}

func TestWalkVisitsEveryNodeInMapChildrenOrder(t *testing.T) {
	cases := []string{
		"SELECT id FROM t WHERE id IN (1, 2, 3) AND name LIKE 'a%' AND n BETWEEN 1 AND 9",
		"SELECT n * 2 + 1, name || '!', lower(name), CAST(n AS BIGINT), -n, n IS NULL FROM t",
		"SELECT CASE WHEN n > 0 THEN coalesce(name, 'x') ELSE upper(name) END FROM t WHERE NOT (n <> 3 OR id = $1)",
		"SELECT id FROM t WHERE n = (SELECT max(u.id) FROM u WHERE u.id = t.id)",
	}
	for _, q := range cases {
		st, err := bind(t, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var exprs []binder.Expr
		var collect func(n binder.Node)
		collect = func(n binder.Node) {
			switch x := n.(type) {
			case *binder.Filter:
				exprs = append(exprs, x.Cond)
			case *binder.Project:
				exprs = append(exprs, x.Exprs...)
			}
			for _, c := range n.Children() {
				collect(c)
			}
		}
		collect(st.(*binder.Query).Plan)
		if len(exprs) == 0 {
			t.Fatalf("%s: no expressions", q)
		}
		for _, e := range exprs {
			var got, want []binder.Expr
			binder.Walk(e, func(x binder.Expr) { got = append(got, x) })
			walkByMapChildren(e, func(x binder.Expr) { want = append(want, x) })
			if !slices.Equal(got, want) {
				t.Errorf("%s: Walk(%s) visits %d nodes %v, want %d %v", q, e, len(got), got, len(want), want)
			}
		}
	}
}
