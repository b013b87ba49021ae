package lower

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// Keys whose PostgreSQL equality and order are not their Arrow bytes'.
// bpchar's (bpchareq, bpcharcmp) ignore trailing blanks; jsonb's btree
// order compares numbers numerically ('1' = '1.0'), objects by their
// number of pairs first, and orders value types null < string < number <
// boolean < array < object. Every operator that compares keys must follow
// them: GROUP BY (grouping sets included), DISTINCT and DISTINCT ON, set
// operations with and without ALL, a recursive UNION's duplicate check,
// PARTITION BY, ORDER BY and its peers, aggregate DISTINCT, and arrays of
// either as keys. Arrow holds both as strings, so lower marks such keys
// with their form (exec.SortKey.Form and the operators' Forms lists, from
// types.T.KeyForm), and relop's key encoding follows it; the rows keep
// their values as written.

// keyForms are the key forms of cols: those listed in keys by position,
// or every column when keys is nil. It returns nil when every one is
// compared as stored, so that the operators keep their fast paths over
// text keys.
func keyForms(cols []binder.Column, keys []int) []types.KeyForm {
	n := len(cols)
	if keys != nil {
		n = len(keys)
	}
	var forms []types.KeyForm
	for i := 0; i < n; i++ {
		c := i
		if keys != nil {
			c = keys[i]
		}
		if c >= len(cols) {
			continue
		}
		if f := cols[c].T.KeyForm(); f != types.KeyAsStored {
			if forms == nil {
				forms = make([]types.KeyForm, n)
			}
			forms[i] = f
		}
	}
	return forms
}
