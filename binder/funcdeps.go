package binder

import (
	"slices"

	"github.com/sqlgate/sqlgate/fluss"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// groupFunctionalDeps adds to a plain GROUP BY's keys the columns that
// its keys determine, PostgreSQL's functional-dependency rule
// (parse_agg.c's check_ungrouped_columns with check_functional_grouping):
// when every column of a table's primary key is grouped, as a plain
// column reference of that FROM item, any other column of the item may
// be used ungrouped. Only a table's own scan qualifies (not a derived
// table, view, CTE or changelog, whose columns carry no table id), and
// only its primary key (not a unique constraint, which allows NULLs).
//
// The Aggregate node outputs only keys and aggregates, so a dependent
// column the statement may read (reads: a name it writes, or a whole row
// or * of its item) becomes one more key: with the key grouped it splits
// no group. The others are left out, so that a wide table's GROUP BY id
// does not hash every column.
// A column of a type without equality (json) cannot be a key and stays
// ungrouped. With grouping sets only the keys common to every set count
// (PostgreSQL's gset_common), and a dependent column joins every set.
func (b *binder) groupFunctionalDeps(st *aggState, reads func(item, name string) bool) {
	if len(st.keys) == 0 {
		return
	}
	// with grouping sets only the keys of every set count (gset_common)
	common := make([]bool, len(st.keys))
	for i := range common {
		common[i] = true
	}
	for _, set := range st.sets {
		in := make([]bool, len(st.keys))
		for _, k := range set {
			in[k] = true
		}
		for i := range common {
			common[i] = common[i] && in[i]
		}
	}
	cols := st.input.cols
	var items []groupedItem                      // in the order of their first key
	grouped := map[groupedItem]map[string]bool{} // a FROM item's grouped column names
	for i, k := range st.keys {
		ref, ok := k.(*ColumnRef)
		if !ok || !common[i] || ref.Index < 0 || ref.Index >= len(cols) {
			continue
		}
		c := cols[ref.Index]
		if c.TableID == 0 || c.Ordinal == 0 {
			continue
		}
		it := groupedItem{c.Table, c.TableID}
		if grouped[it] == nil {
			grouped[it] = map[string]bool{}
			items = append(items, it)
		}
		grouped[it][c.Name] = true
	}
	for _, it := range items {
		names := grouped[it]
		info, ok := b.scannedTable(it.id)
		if !ok || !info.HasPrimaryKey() {
			continue
		}
		full := true
		for _, k := range info.Descriptor.Schema.PrimaryKey {
			full = full && names[k]
		}
		if !full {
			continue
		}
		st.funcGrouped = append(st.funcGrouped, it)
		for i, c := range cols {
			if c.Table != it.alias || c.TableID != it.id || c.Ordinal == 0 || names[c.Name] || !reads(c.Table, c.Name) {
				continue
			}
			if _, eq := typeSortOps(c.T); !eq {
				continue
			}
			ref := &ColumnRef{Index: i, Name: c.Name, T: c.T}
			if keyOf(st.keys, ref) {
				continue
			}
			// a key of every set, as the primary key is
			for j := range st.sets {
				st.sets[j] = append(st.sets[j], len(st.keys))
			}
			st.keys = append(st.keys, ref)
		}
	}
}

// namesRead over-approximates what sel can read of its FROM items' columns
// beyond its GROUP BY: a column named anywhere in it (any qualifier), and
// every column of an item named as a whole row (a bare name that is the
// item's alias) or by a star (every item for an unqualified one).
func namesRead(sel *pt.Select) func(item, name string) bool {
	names := map[string]bool{}
	allOf := map[string]bool{}
	all := false
	pt.Inspect(sel, func(n pt.Node) bool {
		switch x := n.(type) {
		case *pt.ColumnRef:
			names[x.Name] = true
		case *pt.Star:
			if x.Table == "" {
				all = true
			}
			allOf[x.Table] = true
		}
		return true
	})
	return func(item, name string) bool {
		return all || names[name] || allOf[item] || names[item]
	}
}

// groupedItem is a FROM item that is a table's scan: its alias and the
// table's Fluss id.
type groupedItem struct {
	alias string
	id    int64
}

// wholeRowGrouped reports whether whole-row reference f is of a FROM item
// whose primary key is grouped: its columns are then group keys too.
//
// Not with grouping sets: there a grouped column of the row is NULL in
// the sets without it, where PostgreSQL's whole row still shows its value
// (sqlgate refuses rather than answer otherwise).
func (st *aggState) wholeRowGrouped(f *FuncCall) bool {
	if len(f.Args) == 0 || st.sets != nil {
		return false
	}
	for _, a := range f.Args {
		ref, ok := a.(*ColumnRef)
		if !ok || ref.Index < 0 || ref.Index >= len(st.input.cols) {
			return false
		}
		c := st.input.cols[ref.Index]
		if !slices.Contains(st.funcGrouped, groupedItem{c.Table, c.TableID}) {
			return false
		}
	}
	return true
}

// scannedTable is the table with Fluss id id among the statement's scans.
func (b *binder) scannedTable(id int64) (fluss.TableInfo, bool) {
	for _, sc := range b.scans {
		if sc.Table.TableID == id && !sc.Changelog && !sc.Binlog {
			return sc.Table, true
		}
	}
	return fluss.TableInfo{}, false
}

// keyOf reports whether e is one of keys.
func keyOf(keys []Expr, e Expr) bool {
	for _, k := range keys {
		if sameExpr(k, e) {
			return true
		}
	}
	return false
}
