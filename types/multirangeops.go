package types

// The multirange operators, as multirangetypes.c computes them over the
// ranges' bounds (rangeops.go): containment and overlap between
// multiranges, ranges and elements, the positional operators (which read
// the first range's lower bound and the last range's upper one),
// adjacency, and union, intersection and difference of two multiranges.
// A range argument is a Multirange of that one range (Single), so that
// each operator is one function whatever its operands.

// Single is the multirange of r alone (multirange(anyrange)): empty when
// r is.
func Single(r Range) Multirange {
	if r.Empty {
		return Multirange{Type: r.Type}
	}
	return Multirange{Type: r.Type, Ranges: []Range{r}}
}

func (m Multirange) first() Range { return m.Ranges[0] }
func (m Multirange) last() Range  { return m.Ranges[len(m.Ranges)-1] }

// MultirangeContainsElem is multirange_contains_elem (m @> x).
func MultirangeContainsElem(m Multirange, x any) bool {
	for _, r := range m.Ranges {
		if RangeContainsElem(r, x) {
			return true
		}
	}
	return false
}

// MultirangeContains is m1 @> m2 for multiranges and ranges (held as
// Single): each of m2's ranges lies in one of m1's; everything contains
// the empty multirange. A range container (range_contains_multirange)
// holds m2 when it holds m2's span, which callers pass as m1 = Single.
func MultirangeContains(m1, m2 Multirange) bool {
	for _, r2 := range m2.Ranges {
		found := false
		for _, r1 := range m1.Ranges {
			if RangeContains(r1, r2) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// MultirangeOverlaps is && between multiranges and ranges.
func MultirangeOverlaps(m1, m2 Multirange) bool {
	for _, r1 := range m1.Ranges {
		for _, r2 := range m2.Ranges {
			if RangeOverlaps(r1, r2) {
				return true
			}
		}
	}
	return false
}

// MultirangeBefore is << between multiranges and ranges: m1's last range
// ends before m2's first begins; false when either is empty.
func MultirangeBefore(m1, m2 Multirange) bool {
	if m1.IsEmpty() || m2.IsEmpty() {
		return false
	}
	return RangeBefore(m1.last(), m2.first())
}

// MultirangeOverleft is &<: m1 does not extend right of m2.
func MultirangeOverleft(m1, m2 Multirange) bool {
	if m1.IsEmpty() || m2.IsEmpty() {
		return false
	}
	return CompareRangeBounds(m1.last().Hi, false, m2.last().Hi, false) <= 0
}

// MultirangeOverright is &>: m1 does not extend left of m2.
func MultirangeOverright(m1, m2 Multirange) bool {
	if m1.IsEmpty() || m2.IsEmpty() {
		return false
	}
	return CompareRangeBounds(m1.first().Lo, true, m2.first().Lo, true) >= 0
}

// MultirangeAdjacent is -|-: m1's end touches m2's start or m2's end
// touches m1's start.
func MultirangeAdjacent(m1, m2 Multirange) bool {
	if m1.IsEmpty() || m2.IsEmpty() {
		return false
	}
	return boundsAdjacent(m1.Type, m1.last().Hi, m2.first().Lo) || boundsAdjacent(m1.Type, m2.last().Hi, m1.first().Lo)
}

// MultirangeUnion is multirange_union (m1 + m2).
func MultirangeUnion(m1, m2 Multirange) (Multirange, error) {
	all := make([]Range, 0, len(m1.Ranges)+len(m2.Ranges))
	return MakeMultirange(m1.Type, append(append(all, m1.Ranges...), m2.Ranges...))
}

// MultirangeIntersect is multirange_intersect_internal (m1 * m2): the
// overlapping parts, walking both lists once.
func MultirangeIntersect(m1, m2 Multirange) (Multirange, error) {
	var out []Range
	i2 := 0
	for _, r1 := range m1.Ranges {
		i2 = skipBefore(m2.Ranges, i2, r1)
		for i2 < len(m2.Ranges) && RangeOverlaps(r1, m2.Ranges[i2]) {
			r, err := RangeIntersect(r1, m2.Ranges[i2])
			if err != nil {
				return Multirange{}, err
			}
			out = append(out, r)
			if !RangeOverleft(m2.Ranges[i2], r1) {
				break // m2's range goes on past r1: it may meet the next r1
			}
			i2++
		}
		if i2 == len(m2.Ranges) {
			break
		}
	}
	return MakeMultirange(m1.Type, out)
}

// MultirangeMinus is multirange_minus_internal (m1 - m2): each range of
// m1 with m2's ranges taken out, one split in two where an m2 range lies
// strictly inside it.
func MultirangeMinus(m1, m2 Multirange) (Multirange, error) {
	var out []Range
	i2 := 0
	for _, r1 := range m1.Ranges {
		i2 = skipBefore(m2.Ranges, i2, r1)
		for i2 < len(m2.Ranges) {
			r2 := m2.Ranges[i2]
			if CompareRangeBounds(r1.Lo, true, r2.Lo, true) < 0 && CompareRangeBounds(r1.Hi, false, r2.Hi, false) > 0 {
				// range_split_internal: r2 bites out of r1's middle
				hi, lo := r2.Lo, r2.Hi
				hi.Inc, lo.Inc = !hi.Inc, !lo.Inc
				left, err := MakeRange(r1.Type, r1.Lo, hi)
				if err != nil {
					return Multirange{}, err
				}
				if r1, err = MakeRange(r1.Type, lo, r1.Hi); err != nil {
					return Multirange{}, err
				}
				out = append(out, left)
				i2++
				continue
			}
			if !RangeOverlaps(r1, r2) {
				break // this and every later r2 lie past r1
			}
			var err error
			if r1, err = RangeMinus(r1, r2); err != nil {
				return Multirange{}, err
			}
			if r1.Empty || RangeBefore(r1, r2) {
				break // r2 goes on past r1: keep it for the next
			}
			i2++
		}
		out = append(out, r1)
	}
	return MakeMultirange(m1.Type, out)
}

// skipBefore is the index of the first of rs[i:] not wholly before r.
func skipBefore(rs []Range, i int, r Range) int {
	for i < len(rs) && RangeBefore(rs[i], r) {
		i++
	}
	return i
}

// MultirangeIntersectAll is range_intersect_agg over multiranges: the
// intersection of ms, in order.
func MultirangeIntersectAll(ms []Multirange) (Multirange, error) {
	acc := ms[0]
	for _, m := range ms[1:] {
		var err error
		if acc, err = MultirangeIntersect(acc, m); err != nil {
			return Multirange{}, err
		}
	}
	return acc, nil
}
