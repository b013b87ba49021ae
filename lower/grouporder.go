package lower

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
)

// groupKeyOrder is one key of the sort PostgreSQL's GroupAggregate reads
// its input in: the group key's index in GroupBy and its direction.
type groupKeyOrder struct {
	key              int
	desc, nullsFirst bool
}

// pgGroupKeyOrder is the order PostgreSQL 15 sorts a grouped
// aggregation's input in when the ORDER BY above it (s) names its group
// keys: a GROUP BY item that appears in the ORDER BY takes that item's
// direction and NULLS placement (the parser's transformGroupClauseExpr
// copies the ORDER BY's SortGroupClause), and the GROUP BY list is
// reordered to follow the ORDER BY when one list is a prefix of the other
// (preprocess_groupclause); otherwise it keeps its written order. The
// rows of a group then reach its aggregates in the order that sort left
// them (GROUP BY k ORDER BY k DESC sorts k descending). nil when s is not
// over an aggregation (through projections and HAVING) or names none of
// its group keys.
func pgGroupKeyOrder(s *binder.Sort) []groupKeyOrder {
	var agg *binder.Aggregate
	groupOf := make([]int, len(s.Keys)) // -1: not a group key
	for i, k := range s.Keys {
		ref, ok := k.Expr.(*binder.ColumnRef)
		if !ok {
			return nil
		}
		a, c := traceToAggregate(s.Input, ref.Index)
		if a == nil || agg != nil && a != agg {
			return nil
		}
		agg = a
		groupOf[i] = -1
		if c >= 0 && c < len(a.GroupBy) {
			groupOf[i] = c
		}
	}
	if agg == nil || len(agg.GroupBy) == 0 {
		return nil
	}
	dir := make([]groupKeyOrder, len(agg.GroupBy))
	seen := make([]bool, len(agg.GroupBy))
	for g := range dir {
		dir[g].key = g
	}
	named := false
	for i, g := range groupOf {
		if g >= 0 && !seen[g] {
			seen[g] = true
			named = true
			dir[g].desc, dir[g].nullsFirst = s.Keys[i].Desc, s.Keys[i].NullsFirst
		}
	}
	if !named {
		return nil
	}
	// preprocess_groupclause: the ORDER BY's group keys, up to its first
	// item that is none, then the others when the ORDER BY was used up
	var out []groupKeyOrder
	taken := make([]bool, len(agg.GroupBy))
	partial := false
	for _, g := range groupOf {
		if g < 0 {
			partial = true
			break
		}
		if !taken[g] {
			taken[g] = true
			out = append(out, dir[g])
		}
	}
	if len(out) == 0 || partial && len(out) < len(dir) {
		return dir
	}
	for g := range dir {
		if !taken[g] {
			out = append(out, dir[g])
		}
	}
	return out
}

// traceToAggregate follows column c of n down through projections (a
// column reference) and filters to the aggregation it comes from,
// returning it and the column's index in its output, or nil.
func traceToAggregate(n binder.Node, c int) (*binder.Aggregate, int) {
	for {
		switch x := n.(type) {
		case *binder.Aggregate:
			return x, c
		case *binder.Filter:
			n = x.Input
		case *binder.Project:
			ref, ok := x.Exprs[c].(*binder.ColumnRef)
			if !ok {
				return nil, -1
			}
			n, c = x.Input, ref.Index
		default:
			return nil, -1
		}
	}
}

// orderGroupsAs hands the aggregation in (the lowering of the sort's
// input, through projections and filters) the group key order its
// pre-sort uses (pgGroupKeyOrder).
func orderGroupsAs(s *binder.Sort, in Node) {
	order := pgGroupKeyOrder(s)
	if order == nil {
		return
	}
	for {
		switch x := in.(type) {
		case *aggregateNode:
			if len(order) == len(x.groupBy) {
				x.groupOrder = order
			}
			return
		case *projectNode:
			in = x.input
		case *filterNode:
			in = x.input
		default:
			return
		}
	}
}

// groupSortKeys are the keys of the sort under n's aggregation: its group
// keys in PostgreSQL's order (groupOrder, or as written, ascending).
func (n *aggregateNode) groupSortKeys() []exec.SortKey {
	keys := make([]exec.SortKey, len(n.groupBy))
	for i, c := range n.groupBy {
		keys[i] = exec.SortKey{Column: c, Form: n.forms[i]}
	}
	if n.groupOrder == nil {
		return keys
	}
	out := make([]exec.SortKey, len(n.groupOrder))
	for i, o := range n.groupOrder {
		out[i] = keys[o.key]
		out[i].Desc, out[i].NullsFirst = o.desc, o.nullsFirst
	}
	return out
}
