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
// leave), at a query level without window functions. PostgreSQL computes
// each as SELECT c FROM ... WHERE quals AND c IS NOT NULL LIMIT 1: the
// ORDER BY c its rewrite adds is redundant for a constant, so any scan is
// presorted and that path wins on cost (it reads one row's fraction of
// the scan). The scan stops at the first row the quals pass, so the quals
// of the rows after it are never computed (an error there is not the
// statement's), and a NULL c reads no row at all. The aggregation here
// gets the same input: at most one row of those whose quals pass and for
// which some c is not NULL. A min or max of a column is left alone: its
// rewrite needs an index on the column.
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
	if len(a.GroupBy) > 0 || len(a.Aggs) == 0 || !singleTable(a.Input) {
		return a
	}
	var notNull []binder.Expr
	for _, call := range a.Aggs {
		if call.Func != "min" && call.Func != "max" || len(call.Args) != 1 || call.Filter != nil || len(call.OrderBy) > 0 {
			return a
		}
		arg := call.Args[0]
		if ref, ok := arg.(*binder.ColumnRef); ok {
			// the binder's projection of the argument below the aggregation
			if p, ok := a.Input.(*binder.Project); ok && ref.Index < len(p.Exprs) {
				arg = p.Exprs[ref.Index]
			}
		}
		if readsColumns(arg) || hasOuterRef(arg) || hasSubquery(arg) || hasUDF(arg) || !deterministic(arg) ||
			arg.Type().Kind == types.Row {
			return a
		}
		notNull = append(notNull, &binder.IsNull{X: call.Args[0], Not: true})
	}
	c := *a
	c.Input = &binder.Limit{
		Input: &binder.Filter{Input: a.Input, Cond: or(notNull...)},
		Count: &binder.Const{Value: int64(1), T: types.Int64Type},
	}
	return &c
}

// singleTable reports whether n is one table's scan under filters and
// projections alone (PostgreSQL's single RangeTblRef of a relation).
func singleTable(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Scan:
		return true
	case *binder.Project:
		return !slices.ContainsFunc(x.Exprs, hasSubquery) && singleTable(x.Input)
	case *binder.Filter:
		return singleTable(x.Input)
	}
	return false
}
