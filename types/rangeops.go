package types

import "github.com/sqlgate/sqlgate/sqlerr"

// The range operators, as rangetypes.c computes them over range_cmp_bounds
// (ranges.go): containment, overlap, the positional operators, adjacency,
// union, intersection and difference.

// RangeContains is range_contains (r1 @> r2): every range contains the
// empty one, the empty one none other.
func RangeContains(r1, r2 Range) bool {
	if r2.Empty {
		return true
	}
	if r1.Empty {
		return false
	}
	return CompareRangeBounds(r1.Lo, true, r2.Lo, true) <= 0 && CompareRangeBounds(r1.Hi, false, r2.Hi, false) >= 0
}

// RangeContainsElem is range_contains_elem (r @> x).
func RangeContainsElem(r Range, x any) bool {
	if r.Empty {
		return false
	}
	if !r.Lo.Inf {
		c := CompareRangeValues(r.Lo.Val, x)
		if c > 0 || c == 0 && !r.Lo.Inc {
			return false
		}
	}
	if !r.Hi.Inf {
		c := CompareRangeValues(r.Hi.Val, x)
		if c < 0 || c == 0 && !r.Hi.Inc {
			return false
		}
	}
	return true
}

// RangeOverlaps is range_overlaps (r1 && r2).
func RangeOverlaps(r1, r2 Range) bool {
	if r1.Empty || r2.Empty {
		return false
	}
	if CompareRangeBounds(r1.Lo, true, r2.Lo, true) >= 0 && CompareRangeBounds(r1.Lo, true, r2.Hi, false) <= 0 {
		return true
	}
	return CompareRangeBounds(r2.Lo, true, r1.Lo, true) >= 0 && CompareRangeBounds(r2.Lo, true, r1.Hi, false) <= 0
}

// RangeBefore is range_before (r1 << r2): r1 ends before r2 starts.
func RangeBefore(r1, r2 Range) bool {
	if r1.Empty || r2.Empty {
		return false
	}
	return CompareRangeBounds(r1.Hi, false, r2.Lo, true) < 0
}

// RangeOverleft is range_overleft (r1 &< r2): r1 does not extend right of r2.
func RangeOverleft(r1, r2 Range) bool {
	if r1.Empty || r2.Empty {
		return false
	}
	return CompareRangeBounds(r1.Hi, false, r2.Hi, false) <= 0
}

// RangeOverright is range_overright (r1 &> r2): r1 does not extend left of r2.
func RangeOverright(r1, r2 Range) bool {
	if r1.Empty || r2.Empty {
		return false
	}
	return CompareRangeBounds(r1.Lo, true, r2.Lo, true) >= 0
}

// boundValueCmp is range_cmp_bound_values: the bounds' values compared,
// inclusivity aside (an infinite bound at its end).
func boundValueCmp(a RangeBound, aLower bool, b RangeBound, bLower bool) int {
	switch {
	case a.Inf && b.Inf:
		if aLower == bLower {
			return 0
		}
		if aLower {
			return -1
		}
		return 1
	case a.Inf:
		if aLower {
			return -1
		}
		return 1
	case b.Inf:
		if bLower {
			return 1
		}
		return -1
	}
	return CompareRangeValues(a.Val, b.Val)
}

// boundsAdjacent is bounds_adjacent: whether the upper bound a and the
// lower bound b of a range of type v touch with nothing between them.
func boundsAdjacent(v Variant, a, b RangeBound) bool {
	c := boundValueCmp(a, false, b, true)
	switch {
	case c < 0:
		if !rangeDiscrete(v) {
			return false // a continuous type has points between any two
		}
		// nothing between: the range (a, b) is empty once canonical
		r, err := MakeRange(v, RangeBound{Val: a.Val, Inc: !a.Inc}, RangeBound{Val: b.Val, Inc: !b.Inc})
		return err == nil && r.Empty
	case c == 0:
		return a.Inc != b.Inc
	}
	return false
}

// RangeAdjacent is range_adjacent (r1 -|- r2).
func RangeAdjacent(r1, r2 Range) bool {
	if r1.Empty || r2.Empty {
		return false
	}
	return boundsAdjacent(r1.Type, r1.Hi, r2.Lo) || boundsAdjacent(r1.Type, r2.Hi, r1.Lo)
}

// RangeUnion is range_union (r1 + r2, strict: 22000 when they neither
// overlap nor touch) and range_merge (not strict: the smallest range
// holding both).
func RangeUnion(r1, r2 Range, strict bool) (Range, error) {
	if r1.Empty {
		return r2, nil
	}
	if r2.Empty {
		return r1, nil
	}
	if strict && !RangeOverlaps(r1, r2) && !RangeAdjacent(r1, r2) {
		return Range{}, sqlerr.New(sqlerr.DataException, "result of range union would not be contiguous")
	}
	// Of two equal bounds the second range's is kept, as range_union_internal
	// does ('[1.0,2]' + '[1,2.0]' is [1,2.0]; the intersection keeps the
	// first's).
	lo, hi := r2.Lo, r2.Hi
	if CompareRangeBounds(r1.Lo, true, lo, true) < 0 {
		lo = r1.Lo
	}
	if CompareRangeBounds(r1.Hi, false, hi, false) > 0 {
		hi = r1.Hi
	}
	return MakeRange(r1.Type, lo, hi)
}

// RangeIntersect is range_intersect (r1 * r2).
func RangeIntersect(r1, r2 Range) (Range, error) {
	if r1.Empty || r2.Empty || !RangeOverlaps(r1, r2) {
		return Range{Type: r1.Type, Empty: true}, nil
	}
	lo, hi := r1.Lo, r1.Hi
	if CompareRangeBounds(r2.Lo, true, lo, true) > 0 {
		lo = r2.Lo
	}
	if CompareRangeBounds(r2.Hi, false, hi, false) < 0 {
		hi = r2.Hi
	}
	return MakeRange(r1.Type, lo, hi)
}

// RangeMinus is range_minus (r1 - r2): 22000 when r2 lies strictly
// inside r1, which would leave two pieces.
func RangeMinus(r1, r2 Range) (Range, error) {
	if r1.Empty || r2.Empty {
		return r1, nil
	}
	l1l2 := CompareRangeBounds(r1.Lo, true, r2.Lo, true)
	l1u2 := CompareRangeBounds(r1.Lo, true, r2.Hi, false)
	u1l2 := CompareRangeBounds(r1.Hi, false, r2.Lo, true)
	u1u2 := CompareRangeBounds(r1.Hi, false, r2.Hi, false)
	switch {
	case l1l2 < 0 && u1u2 > 0:
		return Range{}, sqlerr.New(sqlerr.DataException, "result of range difference would not be contiguous")
	case l1u2 > 0 || u1l2 < 0:
		return r1, nil
	case l1l2 >= 0 && u1u2 <= 0:
		return Range{Type: r1.Type, Empty: true}, nil
	case l1l2 <= 0 && u1l2 >= 0 && u1u2 <= 0:
		hi := r2.Lo
		hi.Inc = !hi.Inc
		return MakeRange(r1.Type, r1.Lo, hi)
	case l1l2 >= 0 && u1u2 >= 0 && l1u2 <= 0:
		lo := r2.Hi
		lo.Inc = !lo.Inc
		return MakeRange(r1.Type, lo, r1.Hi)
	}
	return Range{}, sqlerr.New(sqlerr.InternalError, "unexpected case in range_minus")
}
