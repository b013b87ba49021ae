package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// minmaxConstants models PostgreSQL's planagg.c for the one case that
// depends on no index or cost: an aggregation without GROUP BY whose every
// aggregate is min or max of a constant (preprocess_minmax_aggregates: one
// argument, no FILTER or ORDER BY, no mutable function, not a row) over a single
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
		// a stable call or cast (now(), ' '::text::date) is a mutable
		// function, which find_minmax_aggs_walker refuses
		if readsColumns(arg) || hasOuterRef(arg) || hasUDF(arg) || anyExpr(arg, notInitPlanConstant) ||
			anyExpr(arg, mutableNode) || arg.Type().Kind == types.Row {
			return a
		}
		notNull = append(notNull, &binder.IsNull{X: arg, Not: true})
	}
	if constantlyEmpty(a.Input) {
		// WHERE false or NULL: PostgreSQL's plain aggregation over an
		// empty (dummy) relation wins, and no argument is computed
		return a
	}
	c := *a
	// the test goes under the binder's projection of the arguments, with
	// them in place, so that it joins the quals and goes first among
	// their one-time conjuncts of its cost (a one-time conjunct,
	// pgfold.go's orderQual): build_minmax_path puts it in front of the
	// query's quals (lcons), so WHERE (SELECT false) still computes it
	in := a.Input
	gate := minmaxGate(notNull)
	if p, ok := in.(*binder.Project); ok {
		in = &binder.Project{Input: withQual(p.Input, gate), Exprs: p.Exprs, Cols: p.Cols}
	} else {
		in = withQual(in, gate)
	}
	c.Input = &binder.Limit{Input: in, Count: &binder.Const{Value: int64(1), T: types.Int64Type}}
	// the first argument's is always computed; a constant's cannot fail
	// at run time (planning folded it)
	var rest []binder.Expr
	for _, nn := range notNull[1:] {
		if anyExpr(nn, func(x binder.Expr) bool { _, ok := x.(*binder.Subquery); return ok }) {
			rest = append(rest, nn)
		}
	}
	if len(rest) == 0 {
		return &c
	}
	return &binder.Filter{Input: &c, Cond: minmaxRest(a, rest)}
}

// minmaxGate is the one-time test of the arguments' IS NOT NULL
// (notNull): their OR, up to the first non-NULL one. When an argument
// that is a planning-time constant comes after one that reads an
// initplan, the OR would fold to that constant's true and drop the
// initplans before it, which PostgreSQL computes first (each aggregate's
// initplan in turn, its argument's IS NOT NULL at the head of its own
// one-time filter): the OR of those before the first constant that is
// not NULL is then a CASE's condition whose every branch is true, which
// folding keeps.
func minmaxGate(notNull []binder.Expr) binder.Expr {
	k := slices.IndexFunc(notNull, func(nn binder.Expr) bool {
		t, ok := nn.(*binder.IsNull)
		return ok && constNotNull(t.X)
	})
	if k <= 0 {
		return or(notNull...)
	}
	t := &binder.Const{Value: true, T: types.BoolType}
	return &binder.Case{Whens: []binder.When{{Cond: or(notNull[:k]...), Result: t}}, Else: t, T: types.BoolType}
}

// constNotNull reports whether e is a constant that is not NULL (through
// casts, which keep that).
func constNotNull(e binder.Expr) bool {
	switch x := e.(type) {
	case *binder.Const:
		return x.Value != nil
	case *binder.Cast:
		return constNotNull(x.X)
	}
	return false
}

// withQual is n filtered by cond too: a filter right under n takes cond
// as its first conjunct.
func withQual(n binder.Node, cond binder.Expr) binder.Node {
	if f, ok := n.(*binder.Filter); ok {
		return &binder.Filter{Input: f.Input, Cond: &binder.BinaryOp{Op: binder.OpAnd, L: cond, R: f.Cond, T: types.BoolType}}
	}
	return &binder.Filter{Input: n, Cond: cond}
}

// minmaxRest is the condition, always true, over a's result that computes
// the arguments' IS NOT NULL (notNull, those after the first that read an
// initplan) once more, in order, after the scan.
// PostgreSQL's rewrite is one initplan per aggregate, each with its own
// one-time filter (its argument IS NOT NULL, then the quals' one-time
// conjuncts) before its own LIMIT 1 scan, computed in turn: the arguments
// up to the first non-NULL one, the scan, then the remaining arguments
// even when the scan found no row (min(2), min((SELECT i * -7 FROM t2))
// over an empty table fails with 22003). The OR of the one-time filter
// here stops at the first non-NULL argument, and a scan without a row
// computes none of the others, so this condition computes them: its
// first operand reads a's first column, so that it runs on a's row, after
// its input (not as a one-time filter before it), and IS DISTINCT FROM,
// never NULL, computes both its operands.
func minmaxRest(a *binder.Aggregate, notNull []binder.Expr) binder.Expr {
	col := a.Columns()[0]
	var chain binder.Expr = &binder.IsNull{X: &binder.ColumnRef{Index: 0, Name: col.Name, T: col.T}}
	for _, nn := range notNull {
		chain = &binder.BinaryOp{Op: binder.OpIsDistinct, L: chain, R: nn, T: types.BoolType}
	}
	return &binder.IsNull{X: chain, Not: true}
}

// constantlyEmpty reports whether a filter of n, a single table's scan
// under filters and projections, has a constant false or NULL conjunct.
func constantlyEmpty(n binder.Node) bool {
	for {
		switch x := n.(type) {
		case *binder.Filter:
			for _, c := range conjuncts(x.Cond) {
				if v, ok := boolConst(c); ok && !v || isNullConst(c) {
					return true
				}
			}
			n = x.Input
		case *binder.Project:
			n = x.Input
		default:
			return false
		}
	}
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
