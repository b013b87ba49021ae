package exec

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// A row-wise (x1, ..., xn) IN (SELECT ...) or NOT IN over an uncorrelated
// subquery compares each left row with the subquery's rows found by
// binary search instead of with every one, as PostgreSQL's hashed subplan
// does: its rows without a NULL field sorted once (rowIndex), and those
// with one kept apart. A left row without NULL fields that equals a
// sorted row is IN (and not NOT IN); else only the rows with a NULL field
// can make it NULL (their = is false or NULL, never true), so only those
// are compared one by one. A left row with a NULL field is compared with
// every row, as before.

// rowIndex is a row subquery's rows: sorted holds the indexes of the rows
// without a NULL field in the fields' order, nulls those with one.
type rowIndex struct {
	rows          *array.Struct
	sorted, nulls []int
}

// newRowIndex sorts rows by their fields.
func newRowIndex(rows *array.Struct) (*rowIndex, error) {
	ix := &rowIndex{rows: rows}
	var a, b int
	cmps, err := fieldComparators(rows, rows, func(int) (int, int) { return a, b })
	if err != nil {
		return nil, err
	}
	for j := 0; j < rows.Len(); j++ {
		if hasNullField(rows, j) {
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

// foldIndexed is fold for rowMembership over ix: x[i]'s value as IN (NOT
// IN the reverse) with SQL's NULL rules.
func (e *SubqueryExpr) foldIndexed(ix *rowIndex, x *array.Struct, pair func(i, j int) (bool, bool)) (func(int) (bool, bool), error) {
	var li, lj int
	cmps, err := fieldComparators(x, ix.rows, func(int) (int, int) { return li, lj })
	if err != nil {
		return nil, err
	}
	in := e.Mode == AnyMode
	return func(i int) (bool, bool) {
		if hasNullField(x, i) {
			return e.fold(pair, i, ix.rows.Len())
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
func fieldComparators(a, b *array.Struct, idx func(int) (int, int)) ([]func(int) int, error) {
	cmps := make([]func(int) int, a.NumField())
	for k := range cmps {
		var err error
		if cmps[k], err = rowComparator(a.Field(k), b.Field(k), idx); err != nil {
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

// hasNullField reports whether row i of rows has a NULL field.
func hasNullField(rows *array.Struct, i int) bool {
	for k := 0; k < rows.NumField(); k++ {
		if rows.Field(k).IsNull(i) {
			return true
		}
	}
	return false
}
