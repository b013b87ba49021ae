package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/types"
)

// The multirange types' operators share the range operators' binding
// (ranges.go): where an operand is a multirange, the function is
// PostgreSQL's multirangetypes.c one named by the operands' kinds
// (functions/multirange.go): range_before_multirange,
// multirange_contains_elem, multirange_overlaps_multirange ...

// rangeLike reports whether t is a range or a multirange.
func rangeLike(t types.T) bool { return t.IsRange() || t.IsMultirange() }

// rangeVariant is the range type of a range or multirange type t.
func rangeVariant(t types.T) types.Variant {
	if t.IsMultirange() {
		return types.RangeOfMultirange(t.Variant)
	}
	return t.Variant
}

// multirangeFunc is the function of the range operator function name
// (range_adjacent, range_before, range_contains, ...) between operands
// of types ts when one is a multirange: its kinds' name, an untyped
// literal taking its neighbour's kind as PostgreSQL's resolution assumes
// it; name itself between ranges.
func multirangeFunc(name string, ts []types.T) string {
	if len(ts) != 2 || !ts[0].IsMultirange() && !ts[1].IsMultirange() {
		return name
	}
	// the operator's middle: range_contains_elem and elem_contained_by_range
	// (the element's functions) are contains and contained_by as well
	op := strings.TrimPrefix(strings.TrimPrefix(name, "range_"), "elem_")
	op = strings.TrimSuffix(strings.TrimSuffix(op, "_elem"), "_range")
	side := func(t, other types.T) string {
		switch {
		case t.IsMultirange() || isUnknown(t) && other.IsMultirange():
			return "multirange"
		case t.IsRange() || isUnknown(t):
			return "range"
		}
		return "elem"
	}
	return side(ts[0], ts[1]) + "_" + op + "_" + side(ts[1], ts[0])
}
