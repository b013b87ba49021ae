package relop

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PostgreSQL cannot hash an aggregation with an aggregate's ORDER BY or
// DISTINCT (numOrderedAggs): it sorts its input by the group keys and a
// GroupAggregate finishes each group before it reads the next one's rows
// (nodeAgg.c's agg_retrieve_direct: finalize_aggregates runs the ordered
// aggregates' transition functions over their sorted rows,
// process_ordered_aggregate_single and _multi, one aggregate after the
// other in the query's order). An error there is thus the first group's,
// in that sort's order, and within it the first aggregate's; HashAggregate
// instead finishes an aggregate over all the groups of a batch before the
// next aggregate. When an aggregation has such an aggregate, it first
// runs, group by group in PostgreSQL's order, the part of each
// accumulator's finish that can fail (groupChecker), so the error is the
// one PostgreSQL raises; the array_agg(anyarray) rules of an aggregate
// without ORDER BY (its transition function's, on the group's rows as
// they came) go before the ordered aggregates' of the same group.

// groupChecker is an accumulator whose finish can fail.
type groupChecker interface {
	// check does the part of group g's finish that can fail, as finish
	// would (finish may then skip what check did).
	check(mem memory.Allocator, g uint32) error
}

// orderedAggs reports whether one of o's aggregates has an ORDER BY or
// DISTINCT, so PostgreSQL sorts the aggregation.
func (o *HashAggregate) orderedAggs() bool {
	return slices.ContainsFunc(o.Aggs, func(a AggSpec) bool { return a.Distinct || len(a.OrderBy) > 0 })
}

// checkGroups runs the accumulators' checks of every group in the table,
// group by group in PostgreSQL's order (GroupOrder, else the order the
// groups came in), when o has an ordered aggregate.
func (o *HashAggregate) checkGroups(mem memory.Allocator) error {
	if !o.orderedAggs() || o.table.n == 0 {
		return nil
	}
	var plain, ordered []groupChecker
	for i, acc := range o.accs {
		c, ok := acc.(groupChecker)
		switch {
		case !ok:
		case o.Aggs[i].Distinct || len(o.Aggs[i].OrderBy) > 0:
			ordered = append(ordered, c)
		default:
			plain = append(plain, c)
		}
	}
	if len(plain)+len(ordered) == 0 {
		return nil
	}
	order, err := o.groupsInOrder(mem)
	if err != nil {
		return err
	}
	for _, g := range order {
		for _, c := range plain {
			if err := c.check(mem, g); err != nil {
				return err
			}
		}
		for _, c := range ordered {
			if err := c.check(mem, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupsInOrder lists the table's groups in the order PostgreSQL's sort
// of the input by GroupOrder puts them (their order of arrival without
// GroupOrder: the input is then sorted so already, or has one group).
func (o *HashAggregate) groupsInOrder(mem memory.Allocator) ([]uint32, error) {
	n := o.table.n
	order := make([]uint32, n)
	for g := range order {
		order[g] = uint32(g)
	}
	if len(o.GroupOrder) == 0 || len(o.GroupBy) == 0 {
		return order, nil
	}
	cols, err := o.table.keysOf(mem, 0, n)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	keys := make([]SortKey, 0, len(o.GroupOrder))
	for _, k := range o.GroupOrder {
		if i := slices.Index(o.GroupBy, k.Column); i >= 0 {
			k.Column = i // keysOf's columns are GroupBy's
			keys = append(keys, k)
		}
	}
	enc, _ := keyBuffers(n, keyWidthHint(cols, keys), nil)
	if err := encodeKeys(cols, keys, enc); err != nil {
		return nil, err
	}
	slices.SortStableFunc(order, func(x, y uint32) int { return bytes.Compare(enc[x], enc[y]) })
	return order, nil
}
