package exec

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// x IN (SELECT ...) or NOT IN over an uncorrelated subquery, of one value
// or row-wise (x1, ..., xn), compares each left row with the subquery's
// rows found by binary search instead of with every one, as PostgreSQL's
// hashed subplan does: its rows without a NULL (field) sorted once
// (rowIndex), and those with one kept apart. A left row without NULL
// fields that equals a sorted row is IN (and not NOT IN); else only the
// rows with a NULL can make it NULL (their = is false or NULL, never
// true), so only those are compared one by one. A left row with a NULL
// (field) is compared with every row, as before. A single value is a row
// of one field: the value itself (a NULL record is NULL, whatever its
// fields), compared as the pairwise comparison compares it.

// rowIndex is a subquery's rows as fields (a row subquery's struct
// fields, or a single-value subquery's column): sorted holds the indexes
// of the rows without a NULL field in the fields' order, nulls those with
// one.
type rowIndex struct {
	fields        []arrow.Array
	sorted, nulls []int
}

// membershipFields is the fields rowIndex compares of a side of the
// comparison: a ROW constructor's (rowWise), else the value itself.
func membershipFields(a arrow.Array, rowWise bool) []arrow.Array {
	if !rowWise {
		return []arrow.Array{a}
	}
	s := a.(*array.Struct)
	out := make([]arrow.Array, s.NumField())
	for k := range out {
		out[k] = s.Field(k)
	}
	return out
}

// newRowIndex sorts the m rows of fields.
func newRowIndex(fields []arrow.Array, m int) (*rowIndex, error) {
	ix := &rowIndex{fields: fields}
	var a, b int
	cmps, err := fieldComparators(fields, fields, func(int) (int, int) { return a, b })
	if err != nil {
		return nil, err
	}
	for j := 0; j < m; j++ {
		if hasNullField(fields, j) {
			ix.nulls = append(ix.nulls, j)
		} else {
			ix.sorted = append(ix.sorted, j)
		}
	}
	slices.SortFunc(ix.sorted, func(x, y int) int {
		a, b = x, y
		return compareFields(cmps)
	})
	return ix, nil
}

// rowMembership reports whether the comparison is x IN (...) (= ANY) or
// NOT IN (<> ALL), which the index answers.
func (e *SubqueryExpr) rowMembership() bool {
	return (e.Mode == AnyMode && e.Op == Eq) || (e.Mode == AllMode && e.Op == Ne)
}

// foldIndexed is fold for rowMembership over ix: row i of x's fields as
// IN (NOT IN the reverse) with SQL's NULL rules; m is the subquery's
// number of rows.
func (e *SubqueryExpr) foldIndexed(ix *rowIndex, x []arrow.Array, m int, pair func(i, j int) (bool, bool)) (func(int) (bool, bool), error) {
	var li, lj int
	cmps, err := fieldComparators(x, ix.fields, func(int) (int, int) { return li, lj })
	if err != nil {
		return nil, err
	}
	in := e.Mode == AnyMode
	return func(i int) (bool, bool) {
		if hasNullField(x, i) {
			return e.fold(pair, i, m)
		}
		li = i
		_, found := slices.BinarySearchFunc(ix.sorted, i, func(j, _ int) int {
			lj = j
			return -compareFields(cmps)
		})
		if found {
			return in, false
		}
		for _, j := range ix.nulls {
			if _, null := pair(i, j); null {
				return false, true
			}
		}
		return !in, false
	}, nil
}

// fieldComparators compares field k of a's row with field k of b's, the
// rows idx gives.
func fieldComparators(a, b []arrow.Array, idx func(int) (int, int)) ([]func(int) int, error) {
	cmps := make([]func(int) int, len(a))
	for k := range cmps {
		var err error
		if cmps[k], err = rowComparator(a[k], b[k], idx); err != nil {
			return nil, err
		}
	}
	return cmps, nil
}

// compareFields is the order of two rows without NULL fields: the first
// field that differs.
func compareFields(cmps []func(int) int) int {
	for _, c := range cmps {
		if r := c(0); r != 0 {
			return r
		}
	}
	return 0
}

// hasNullField reports whether row i of fields has a NULL field.
func hasNullField(fields []arrow.Array, i int) bool {
	for _, f := range fields {
		if f.IsNull(i) {
			return true
		}
	}
	return false
}
