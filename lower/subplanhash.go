package lower

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// hashedSubPlan reports whether PostgreSQL hashes the uncorrelated
// quantified subquery sq (make_subplan: an ANY sublink whose every
// comparison is a hashable = — x IN (...), x = ANY (...), a row's
// (x1, ..., xn) IN (...), and NOT IN, which is NOT of such a sublink),
// so that its hashed SubPlan reads all of the subquery's rows when a
// row first needs it (exec.SubqueryExpr's Hashed). x op ALL (...) and
// any other operator it never hashes: exec reads those only as far as a
// row's comparisons need, as ExecScanSubPlan does.
func hashedSubPlan(sq *binder.Subquery) bool {
	if len(sq.Outer) > 0 {
		return false
	}
	in := sq.Mode == binder.AnySubquery && sq.Op == binder.OpEq
	if !in && !sq.NotIn {
		return false
	}
	cols := sq.Plan.Columns()
	if len(cols) != 1 {
		return false
	}
	if !sq.RowWise {
		return hashableEq(sq.X.Type(), cols[0].T)
	}
	xs, ys := binder.RowFields(sq.X), cols[0].T.Fields
	if xs == nil || len(xs) != len(ys) {
		return false
	}
	for i, x := range xs {
		if !hashableEq(x.Type(), ys[i].Type) {
			return false
		}
	}
	return true
}

// canHashEq reports whether PostgreSQL 15 can hash the = of types with
// OIDs x and y: its pg_operator's oprcanhash (internal/pgoper's table;
// false for money, bit, varbit, tsvector, tsquery, xid = int4, and date,
// timestamp and timestamptz across types). Types without an = of their
// own (varchar, read as text's) hash.
func canHashEq(x, y uint32) bool {
	for _, o := range pgoper.ByName("=") {
		if o.Left == x && o.Right == y {
			return o.CanHash
		}
	}
	return true
}

// hashableEq reports whether PostgreSQL hashes x = y for values of types
// x and y: an array's = when its elements', a record's when each field's
// (op_hashjoinable's typecache checks).
func hashableEq(x, y types.T) bool {
	if x.Kind == types.Array && y.Kind == types.Array && x.Elem != nil && y.Elem != nil {
		return hashableEq(*x.Elem, *y.Elem)
	}
	if x.Kind == types.Row && y.Kind == types.Row {
		if len(x.Fields) != len(y.Fields) {
			return false
		}
		for i := range x.Fields {
			if !hashableEq(x.Fields[i].Type, y.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	xo, _, _ := pgtypes.OIDOf(x)
	yo, _, _ := pgtypes.OIDOf(y)
	return canHashEq(xo, yo)
}
