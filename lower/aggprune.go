package lower

import (
	"maps"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// pruneAggregateInputs narrows an aggregation's input to the columns its
// grouping keys and aggregates read (issue 27): without it
//
//	SELECT count(*), sum(qty), avg(amount) FROM events WHERE user_id < 50000
//
// scanned every column of events (the strings too), the filter compacted
// all of them, and a join below a GROUP BY carried every column of both
// sides through its build and probe. The input gets what pruneJoinInputs
// gives a projection's (pruneInput: a scan or lookup that decodes only
// those columns, under its filter; joins whose inputs are narrowed), and
// the aggregation is rewritten over it, so that its output is unchanged.
func pruneAggregateInputs(n binder.Node) binder.Node {
	n = rewriteChildren(n, pruneAggregateInputs)
	a, ok := n.(*binder.Aggregate)
	if !ok {
		return n
	}
	// Only an input that reads a table narrows to some gain; a projection
	// over a sort or a union would only add a node.
	need := map[int]bool{}
	leaf := a.Input
	if f, ok := leaf.(*binder.Filter); ok {
		// The filter's columns stay in the input: a filter over a narrowed
		// scan is what the scan then decodes, with no projection between.
		markColumns(f.Cond, need)
		leaf = f.Input
	}
	switch leaf.(type) {
	case *binder.Scan, *binder.Join, *binder.Lateral, *binder.Window, *scanProjection, *pkLookup:
	case *binder.Project:
		// a derived table's projection right below: pruneInput drops
		// the outputs nothing reads (narrowProject); under a filter, one
		// over a join (pruneJoinInputs goes through it)
		if leaf != a.Input && !narrowsInputs(leaf) {
			return n
		}
	case *binder.Limit, *binder.Sort, *binder.SetOp:
		// those under a derived table's LIMIT, ORDER BY or UNION ALL
		// (narrowThrough), when it drops some
		if leaf != a.Input || !throughDerived(leaf) {
			return n
		}
	default:
		return n
	}
	for _, g := range a.GroupBy {
		markColumns(g, need)
	}
	for _, c := range a.Aggs {
		markAggCall(c, need)
	}
	if len(need) == len(a.Input.Columns()) && !projectOverDerived(a.Input) {
		return n
	}
	var in binder.Node
	var remap map[int]int
	if narrowsInputs(leaf) && leaf != a.Input {
		// A filter over a join (a LATERAL one, a window): pruneJoinInputs
		// narrows it under a projection of the columns needed.
		keep := make([]int, 0, len(need))
		for c := range need {
			keep = append(keep, c)
		}
		slices.Sort(keep)
		cols := a.Input.Columns()
		p := &binder.Project{Input: a.Input}
		remap = map[int]int{}
		for i, c := range keep {
			remap[c] = i
			p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: c, Name: cols[c].Name, T: cols[c].T})
			p.Cols = append(p.Cols, cols[c])
		}
		in = pruneJoinInputs(p)
	} else if throughDerived(leaf) {
		keep := slices.Sorted(maps.Keys(need))
		var narrow binder.Node
		ok := true
		switch {
		case len(keep) == 0 && overAggregate(leaf):
			narrow = aggregateRows(leaf)
		case len(keep) == 0 && rowsAloneThrough(leaf):
			// count(*) over a UNION ALL: its branches compute none of
			// their outputs
			narrow = derivedRows(leaf)
		case len(keep) == 0:
			keep = []int{plainColumn(leaf)} // the rows still count
			fallthrough
		default:
			narrow, ok = pickThrough(leaf, keep)
		}
		if !ok {
			return n
		}
		in, remap = narrow, map[int]int{}
		for i, c := range keep {
			remap[c] = i
		}
	} else {
		in, remap = pruneInput(a.Input, need)
	}
	if in == a.Input {
		return n
	}
	out := *a
	out.Input = in
	out.GroupBy = make([]binder.Expr, len(a.GroupBy))
	for i, g := range a.GroupBy {
		out.GroupBy[i] = remapColumns(g, remap)
	}
	out.Aggs = make([]binder.AggCall, len(a.Aggs))
	for i, c := range a.Aggs {
		out.Aggs[i] = remapAggCall(c, remap)
	}
	return &out
}

// pruneAggregateOutputs drops the aggregates of a derived table's
// aggregation that the node right above it (a projection, through a
// HAVING filter, or an aggregation) does not read, unless they
// mustCompute: PostgreSQL removes a subquery's unread outputs before
// planning it (remove_unused_subquery_outputs), so SELECT k FROM (SELECT
// k, sum(10 / n) FROM t GROUP BY k) s computes no sum and divides
// nothing. An aggregation without grouping keys whose every aggregate is
// dropped is one row: over one table (binder.Aggregate's OneRelation) it
// reads nothing, as
// PostgreSQL's planagg.c then makes it (preprocess_minmax_aggregates
// finds no aggregate that is not min or max, none at all, over a single
// relation, and its MinMaxAggPath is a Result with no subplan), so its
// input's quals are never computed; over anything else it computes
// count(*) instead, as PostgreSQL's Aggregate reads its input.
func pruneAggregateOutputs(n binder.Node) binder.Node {
	n = rewriteChildren(n, pruneAggregateOutputs)
	var in binder.Node
	switch x := n.(type) {
	case *binder.Project:
		in = x.Input
	case *binder.Aggregate:
		in = x.Input
	default:
		return n
	}
	f, _ := in.(*binder.Filter)
	if f != nil {
		in = f.Input
	}
	a, ok := in.(*binder.Aggregate)
	if !ok || len(a.Aggs) == 0 {
		return n
	}
	need := map[int]bool{}
	if f != nil {
		markColumns(f.Cond, need)
	}
	switch x := n.(type) {
	case *binder.Project:
		for _, e := range x.Exprs {
			markColumns(e, need)
		}
	case *binder.Aggregate:
		for _, g := range x.GroupBy {
			markColumns(g, need)
		}
		for _, c := range x.Aggs {
			markAggCall(c, need)
		}
	}
	ng := len(a.GroupBy)
	remap := make(map[int]int, ng+len(a.Aggs))
	for i := range ng {
		remap[i] = i
	}
	var aggs []binder.AggCall
	for i, c := range a.Aggs {
		if need[ng+i] || aggMustCompute(c) {
			remap[ng+i] = ng + len(aggs)
			aggs = append(aggs, c)
		}
	}
	if len(aggs) == len(a.Aggs) {
		return n
	}
	var below binder.Node
	switch {
	case ng == 0 && len(aggs) == 0 && a.OneRelation:
		below = oneRow()
	case ng == 0 && len(aggs) == 0:
		aggs = []binder.AggCall{{Func: "count", T: types.T{Kind: types.Int64, NotNull: true}}}
		fallthrough
	default:
		na := binder.NewAggregate(a.Input, a.GroupBy, aggs)
		na.OneRelation, na.Grouped, na.GroupingSet = a.OneRelation, a.Grouped, a.GroupingSet
		below = na
	}
	if f != nil {
		below = &binder.Filter{Input: below, Cond: remapColumns(f.Cond, remap)}
	}
	switch x := n.(type) {
	case *binder.Project:
		out := *x
		out.Input = below
		out.Exprs = make([]binder.Expr, len(x.Exprs))
		for i, e := range x.Exprs {
			out.Exprs[i] = remapColumns(e, remap)
		}
		return &out
	case *binder.Aggregate:
		groups := make([]binder.Expr, len(x.GroupBy))
		for i, g := range x.GroupBy {
			groups[i] = remapColumns(g, remap)
		}
		outer := make([]binder.AggCall, len(x.Aggs))
		for i, c := range x.Aggs {
			outer[i] = remapAggCall(c, remap)
		}
		out := *x
		out.Input, out.GroupBy, out.Aggs = below, groups, outer
		return &out
	}
	return n
}

// oneRow is one row of no columns, read from nothing (SELECT without
// FROM): an aggregation PostgreSQL plans as a Result.
func oneRow() binder.Node { return &binder.Values{Rows: [][]binder.Expr{{}}} }

// aggMustCompute reports whether an aggregate calls something volatile.
func aggMustCompute(c binder.AggCall) bool {
	if c.Filter != nil && mustCompute(c.Filter) {
		return true
	}
	for _, e := range c.Args {
		if mustCompute(e) {
			return true
		}
	}
	for _, k := range c.OrderBy {
		if mustCompute(k.Expr) {
			return true
		}
	}
	return false
}

// remapAggCall is c with its arguments, FILTER and ORDER BY reading the
// input's columns through remap.
func remapAggCall(c binder.AggCall, remap map[int]int) binder.AggCall {
	nc := c
	nc.Args = make([]binder.Expr, len(c.Args))
	for j, e := range c.Args {
		nc.Args[j] = remapColumns(e, remap)
	}
	if c.Filter != nil {
		nc.Filter = remapColumns(c.Filter, remap)
	}
	if len(c.OrderBy) > 0 {
		nc.OrderBy = make([]binder.SortKey, len(c.OrderBy))
		for j, k := range c.OrderBy {
			nc.OrderBy[j] = binder.SortKey{Expr: remapColumns(k.Expr, remap), Desc: k.Desc, NullsFirst: k.NullsFirst}
		}
	}
	return nc
}

// markAggCall marks in need the input columns c's arguments, FILTER and
// ORDER BY read.
func markAggCall(c binder.AggCall, need map[int]bool) {
	for _, e := range c.Args {
		markColumns(e, need)
	}
	if c.Filter != nil {
		markColumns(c.Filter, need)
	}
	for _, k := range c.OrderBy {
		markColumns(k.Expr, need)
	}
}

// degenerateGroupings replaces an aggregation that groups by nothing and
// computes no aggregate (a HAVING, GROUP BY () or grouping sets of empty
// sets over a select list without aggregates) by its one row, read from
// nothing: PostgreSQL plans it as a Result (is_degenerate_grouping,
// create_degenerate_grouping_paths in planner.c) that never runs its
// FROM and WHERE, so SELECT 1 FROM t WHERE 1 / t.z > 0 HAVING true is one
// row whatever t holds. Its HAVING stays above it, computed once. (An
// empty grouping set of several is one such aggregation of the binder's
// per-set UNION ALL: one row each, unless another set groups by an
// expression, binder.Aggregate's Grouped.)
func degenerateGroupings(n binder.Node) binder.Node {
	n = rewriteChildren(n, degenerateGroupings)
	if a, ok := n.(*binder.Aggregate); ok && len(a.GroupBy) == 0 && len(a.Aggs) == 0 && !a.Grouped {
		return oneRow()
	}
	return n
}

// trimSubqueryPlan is a subquery's plan as it is lowered: the rules do not
// run over a subquery's plan, yet its derived tables compute only the
// outputs read (and what mustCompute), as PostgreSQL's do. The second
// fold of a plan whose fold errors waited (pgfold.go) folds the same
// plan, so both trim it here. pruneJoinInputs narrows through its windows
// and joins, so an aggregate beside a window whose keys stay is dropped
// when nothing reads it, as at the top (EXISTS (SELECT 1 FROM (SELECT
// rank() OVER (PARTITION BY max(a)), sum(10 / b) FROM t) s) divides
// nothing in PostgreSQL).
//
// The aggregations' inputs are narrowed before their unread aggregates are
// dropped, as the rules order them (aggregate_input_pruning, then
// aggregate_output_pruning): count(*) over a derived table that
// aggregates reads none of its outputs only once its input projection is
// narrowed, so (SELECT count(*) FROM (SELECT sum(10 / b) FROM t GROUP BY
// GROUPING SETS ((), ())) s) divides nothing, as at the top; they are
// narrowed again below the aggregations that lost aggregates.
func trimSubqueryPlan(plan binder.Node) binder.Node {
	return pruneAggregateInputs(pruneAggregateOutputs(pruneAggregateInputs(pruneJoinInputs(eliminateProjections(degenerateGroupings(plan))))))
}
