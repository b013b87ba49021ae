package lower

import "github.com/sqlgate/sqlgate/binder"

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
	leaf := a.Input
	if f, ok := leaf.(*binder.Filter); ok {
		leaf = f.Input
	}
	switch leaf.(type) {
	case *binder.Scan, *binder.Join, *scanProjection, *pkLookup:
	default:
		return n
	}
	need := map[int]bool{}
	for _, g := range a.GroupBy {
		markColumns(g, need)
	}
	for _, c := range a.Aggs {
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
	if len(need) == len(a.Input.Columns()) {
		return n
	}
	in, remap := pruneInput(a.Input, need)
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
		out.Aggs[i] = nc
	}
	return &out
}
