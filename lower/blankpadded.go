package lower

import "github.com/sqlgate/sqlgate/binder"

// Keys over bpchar. PostgreSQL's bpchar equality and order (bpchareq,
// bpcharcmp) ignore trailing blanks, and every operator that compares
// keys must too: GROUP BY (grouping sets included), DISTINCT and DISTINCT
// ON, set operations with and without ALL, a recursive UNION's duplicate
// check, PARTITION BY and ORDER BY's peers, aggregate DISTINCT, and arrays
// of bpchar as keys. Arrow holds a bpchar as a string with its blanks, so
// lower marks such keys (exec.SortKey.BlankPadded and the operators'
// BlankPadded lists) from their types (types.T.BlankPadded), and relop's
// key encoding drops the blanks; the rows keep their values as written.

// paddedColumns marks the bpchar columns among cols: those listed in keys
// by position, or every column when keys is nil. It returns nil when there
// is none, so that the operators keep their fast paths over text keys.
func paddedColumns(cols []binder.Column, keys []int) []bool {
	n := len(cols)
	if keys != nil {
		n = len(keys)
	}
	var padded []bool
	for i := 0; i < n; i++ {
		c := i
		if keys != nil {
			c = keys[i]
		}
		if c < len(cols) && cols[c].T.BlankPadded() {
			if padded == nil {
				padded = make([]bool, n)
			}
			padded[i] = true
		}
	}
	return padded
}
