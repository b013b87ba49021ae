package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Row subqueries: (x1, ..., xn) op ANY | ALL (SELECT y1, ..., yn ...),
// (x1, ..., xn) [NOT] IN (SELECT ...) and (x1, ..., xn) op (SELECT ...)
// compare a ROW constructor with each of the query's rows field by field,
// as PostgreSQL's make_row_comparison_op does: each pair typed as xi op yi
// would be, = false when a pair differs and else NULL when a pair is NULL,
// < <= > >= decided by the first unequal pair (exec's comparePairs). The
// left fields become one ROW value and the query one column, the row of
// its converted columns (Subquery.RowWise), so that the subquery runs once
// and the plan's walkers see one operand as for a single column.

// rowSubqueryComparison types the pairs of fields against plan's columns
// with op (typeOp names the operator in errors: NOT IN is NOT (x = ANY
// ...) in PostgreSQL) and returns each pair's sides, converted to the
// pair's type: xs the left fields, ys expressions over plan's columns.
func (b *binder) rowSubqueryComparison(at sourceNode, typeOp Op, fields []Expr, plan Node) (xs, ys []Expr, err error) {
	cols := plan.Columns()
	xs, ys = make([]Expr, len(fields)), make([]Expr, len(fields))
	for i, f := range fields {
		probe := &ColumnRef{Index: i, Name: cols[i].Name, T: cols[i].T}
		cmp, err := b.makeBinary(at, typeOp, f, probe)
		if err != nil {
			return nil, nil, err
		}
		bo, ok := cmp.(*BinaryOp)
		if !ok || bo.Op != typeOp || !bo.L.Type().Nullable().Equal(bo.R.Type().Nullable()) {
			// a comparison that is a function (arrays, jsonb, records) or
			// across types: exec compares a row's fields of one type each
			return nil, nil, b.errAt(at, sqlerr.NotSupported("a ROW constructor's "+f.Type().PGName()+
				" field compared with a subquery's "+cols[i].T.PGName()+" column"))
		}
		xs[i], ys[i] = bo.L, bo.R
	}
	return xs, ys, nil
}

// rowOperands are a row subquery's operands: the row of the left fields
// xs and plan projected to one column, the row of ys.
func rowOperands(xs, ys []Expr, plan Node) (Expr, Node) {
	xts, yts := make([]types.T, len(xs)), make([]types.T, len(ys))
	for i := range xs {
		xts[i], yts[i] = xs[i].Type(), ys[i].Type()
	}
	rowT := recordType(yts)
	p := &Project{Input: plan, Exprs: []Expr{makeRow(ys, rowT)}, Cols: []Column{{Name: "row", T: rowT}}}
	return makeRow(xs, recordType(xts)), p
}

// foldNullPairs is PostgreSQL's constant folding of a row comparison with
// an uncorrelated subquery's one row (an InitPlan, whose output the
// comparison reads as parameters: eval_const_expressions folds it before
// anything runs): a
// pair whose left side is the NULL constant is NULL, so (x, NULL) = (SELECT
// ...) is the other pairs' = AND NULL — which a WHERE clause never
// satisfies, so PostgreSQL never runs the subquery there, not even to find
// it returns several rows — and a row of NULL constants compared by = or
// <> is NULL outright. kept are the pairs left to compare; null is true
// when a NULL conjunct (or, with nothing kept, the whole NULL) stands for
// the others.
func foldNullPairs(op Op, xs []Expr) (kept []int, null bool) {
	for i, x := range xs {
		if c, ok := x.(*Const); !ok || c.Value != nil {
			kept = append(kept, i)
		}
	}
	switch {
	case len(kept) == len(xs), op != OpEq && op != OpNe:
		return allIndexes(len(xs)), false
	case op == OpNe && len(kept) > 0:
		return allIndexes(len(xs)), false // (x <> y) OR NULL: not folded
	}
	return kept, true
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// pick is es at indexes at.
func pick(es []Expr, at []int) []Expr {
	out := make([]Expr, len(at))
	for i, k := range at {
		out[i] = es[k]
	}
	return out
}

// RowFields are the field expressions of a ROW constructor built by
// makeRow (a "row" call or a constant), nil for any other expression: the
// planner's decorrelation compares a row subquery's fields one by one.
func RowFields(e Expr) []Expr {
	switch x := e.(type) {
	case *FuncCall:
		if x.Name == "row" && len(x.Args) == len(x.T.Fields) {
			return x.Args
		}
	case *Const:
		vals, ok := x.Value.([]any)
		if !ok || x.T.Kind != types.Row || len(vals) != len(x.T.Fields) {
			return nil
		}
		out := make([]Expr, len(vals))
		for i, v := range vals {
			out[i] = &Const{Value: v, T: x.T.Fields[i].Type}
		}
		return out
	}
	return nil
}
