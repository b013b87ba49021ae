package binder

import pt "github.com/sqlgate/sqlgate/sql/tree"

// A WITH query belongs to the query level that defines it, so, as in
// PostgreSQL, its body may reference the columns of the queries enclosing
// that level: SELECT (WITH w AS (SELECT .. WHERE y.a = x.a) SELECT count(*)
// FROM w) FROM t x. A derived table in FROM sees no enclosing row here
// (bindSubqueryPlan), so a WITH query referenced at the level that
// defines it is bound with that level's correlation state instead, its
// outer references becoming the level's own. Referenced from a deeper
// subquery, it binds as a derived table does.

// noteCTELevel records the correlation state of the level defining cte.
func (b *binder) noteCTELevel(cte *pt.CTE) {
	if b.corr == nil {
		return
	}
	if b.cteCorr == nil {
		b.cteCorr = map[*pt.CTE]*corrState{}
	}
	b.cteCorr[cte] = b.corr
}

// bindCTEBody binds the query of a reference to cte.
func (b *binder) bindCTEBody(cte *pt.CTE) (Node, error) {
	if c, ok := b.cteCorr[cte]; !ok || c != b.corr {
		n, _, err := b.bindSubqueryPlan(nil, &pt.Subquery{At: pt.At{Offset: cte.Query.Pos()}, Tree: cte.Query})
		return n, err
	}
	prevAgg := b.agg
	b.agg = nil // the body's aggregates are its own
	defer func() { b.agg = prevAgg }()
	return b.bindQueryTree(cte.Query) // exprbind.go
}
