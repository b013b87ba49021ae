package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// minmaxConstants models PostgreSQL's planagg.c for the one case that
// depends on no index or cost: an aggregation without GROUP BY whose every
// aggregate is min or max of a constant (preprocess_minmax_aggregates: one
// argument, no FILTER or ORDER BY, immutable, not a row) over a single
// table under filters and projections (what pulled-up derived tables
// leave), at a query level without window functions or WITH clause
// (binder.Aggregate's OneRelation). PostgreSQL computes
// each as SELECT c FROM ... WHERE quals AND c IS NOT NULL LIMIT 1: the
// ORDER BY c its rewrite adds is redundant for a constant, so any scan is
// presorted and that path wins on cost (it reads one row's fraction of
// the scan). The scan stops at the first row the quals pass, so the quals
// of the rows after it are never computed (an error there is not the
// statement's), and a NULL c reads no row at all. The aggregation here
// gets the same input: at most one row of those whose quals pass and for
// which some c is not NULL. A min or max of a column is left alone: its
// rewrite needs an index on the column.
//
// An uncorrelated scalar, EXISTS or ARRAY subquery is such a constant too:
// PostgreSQL has made it an initplan's Param (SS_process_sublinks, before
// preprocess_minmax_aggregates) when it checks the argument, and a Param
// is no mutable function and reads no relation, so the sort by it is
// redundant as well; its rewrite tests the argument's IS NOT NULL as a
// one-time filter, before the scan (max((SELECT NULL::int)) reads no
// row). A correlated one, or one compared with ANY or ALL, is a SubPlan
// that is not.
func minmaxConstants(n binder.Node) binder.Node { return minmaxWalk(n, false) }

// minmaxWalk rewrites below n; windowed says that n's query level has
// window functions (a Window above, through its level's projections,
// filters, sorts and limits), which PostgreSQL's rewrite refuses.
func minmaxWalk(n binder.Node, windowed bool) binder.Node {
	switch n.(type) {
	case *binder.Window:
		return rewriteChildren(n, func(c binder.Node) binder.Node { return minmaxWalk(c, true) })
	case *binder.Project, *binder.Filter, *binder.Sort, *binder.Limit, *binder.Distinct, *binder.DistinctOn:
		return rewriteChildren(n, func(c binder.Node) binder.Node { return minmaxWalk(c, windowed) })
	case *binder.Aggregate:
		n = rewriteChildren(n, func(c binder.Node) binder.Node { return minmaxWalk(c, false) })
		if !windowed {
			return minmaxLimit(n.(*binder.Aggregate))
		}
		return n
	}
	return rewriteChildren(n, func(c binder.Node) binder.Node { return minmaxWalk(c, false) })
}

// minmaxLimit returns a with its input limited to the first row with a
// non-NULL argument when a is the aggregation minmaxConstants describes.
func minmaxLimit(a *binder.Aggregate) binder.Node {
	if len(a.GroupBy) > 0 || len(a.Aggs) == 0 || !a.OneRelation || !singleTable(a.Input) {
		return a
	}
	var notNull []binder.Expr
	for _, call := range a.Aggs {
		// min and max of an array are an array_agg the binder marks
		minmax := call.Func == "min" || call.Func == "max" || call.Func == "array_agg" && call.ArrayMinMax != ""
		if !minmax || len(call.Args) != 1 || call.Filter != nil || len(call.OrderBy) > 0 {
			return a
		}
		arg := call.Args[0]
		if ref, ok := arg.(*binder.ColumnRef); ok {
			// the binder's projection of the argument below the aggregation
			if p, ok := a.Input.(*binder.Project); ok && ref.Index < len(p.Exprs) {
				arg = p.Exprs[ref.Index]
			}
		}
		if readsColumns(arg) || hasOuterRef(arg) || hasUDF(arg) || anyExpr(arg, notInitPlanConstant) ||
			arg.Type().Kind == types.Row {
			return a
		}
		notNull = append(notNull, &binder.IsNull{X: arg, Not: true})
	}
	c := *a
	// the test goes under the binder's projection of the arguments, with
	// them in place, so that it joins the quals and goes first among
	// them (a one-time conjunct, pgfold.go)
	in := a.Input
	if p, ok := in.(*binder.Project); ok {
		in = &binder.Project{Input: &binder.Filter{Input: p.Input, Cond: or(notNull...)}, Exprs: p.Exprs, Cols: p.Cols}
	} else {
		in = &binder.Filter{Input: in, Cond: or(notNull...)}
	}
	c.Input = &binder.Limit{Input: in, Count: &binder.Const{Value: int64(1), T: types.Int64Type}}
	return &c
}

// notInitPlanConstant reports whether x itself keeps an expression from
// being PostgreSQL's constant: a volatile function call, or a subquery
// that is no initplan (correlated, or an ANY or ALL comparison).
func notInitPlanConstant(x binder.Expr) bool {
	switch f := x.(type) {
	case *binder.FuncCall:
		return f.Volatile
	case *binder.Subquery:
		return len(f.Outer) > 0 || f.Mode == binder.AnySubquery || f.Mode == binder.AllSubquery
	}
	return false
}

// singleTable reports whether n is one table's scan under filters and
// projections alone (PostgreSQL's single RangeTblRef of a relation).
func singleTable(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Scan:
		return true
	case *binder.Project:
		return !slices.ContainsFunc(x.Exprs, func(e binder.Expr) bool { return anyExpr(e, notInitPlanConstant) }) && singleTable(x.Input)
	case *binder.Filter:
		return singleTable(x.Input)
	}
	return false
}
