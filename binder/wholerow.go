package binder

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// wholeRow binds a FROM item's alias used as a value (row_to_json(t) in
// SELECT row_to_json(t) FROM (...) t), which PostgreSQL reads as the whole
// row: a composite with one field per column of that FROM item, named and
// typed as the columns. ok is false when name is no alias of s, so the
// caller reports its own "column does not exist".
//
// The value is typed as a record (AnonRecord) so that it prints, compares,
// orders, groups and aggregates as PostgreSQL's row value does: record_out's
// "(1,x)" text, not JSON. PostgreSQL types a derived table's whole row as
// record (2249) and a table's as the table's composite type, which the
// record's TypeOID then names (asTableRow, composite.go). The fields keep
// the column names, so row_to_json(t) and (t).a still see them.
func (b *binder) wholeRow(s *scope, name string) (Expr, bool) {
	if w, ok := wholeRowOf(s, name); ok {
		return b.asTableRow(s, name, w), true // composite.go
	}
	return b.outerWholeRow(b.corr, name)
}

// wholeRowOf is the whole row of FROM item name of s, over s's columns.
// Its arguments are the item's columns and, when an outer join may have
// made the item's row up, the item's row marker last (rowMarker): the
// value is NULL where the join null-extended the item, as PostgreSQL's
// whole-row Var of a nullable relation is, and a row of NULL fields where
// the item has a row whose columns are all NULL.
func wholeRowOf(s *scope, name string) (*FuncCall, bool) {
	if s == nil || !s.hasTable(name) {
		return nil, false
	}
	t := types.T{Kind: types.Row, Variant: types.AnonRecord}
	var args []Expr
	marker := -1
	for i, c := range s.cols {
		if c.Table == "" && c.Name == rowMarkerName(name) {
			marker = i
		}
		if c.Table != name {
			continue
		}
		args = append(args, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		t.Fields = append(t.Fields, types.Field{Name: c.Name, Type: c.T.Nullable()})
	}
	if len(args) == 0 {
		return nil, false
	}
	if marker < 0 {
		return &FuncCall{Name: name + wholeRowSuffix, Args: args, T: t, Kernel: functions.WholeRowKernel(t)}, true
	}
	args = append(args, &ColumnRef{Index: marker, Name: s.cols[marker].Name, T: s.cols[marker].T})
	return &FuncCall{Name: name + wholeRowSuffix, Args: args, T: t, Kernel: functions.MarkedWholeRowKernel(t)}, true
}

// outerWholeRow binds name as the whole row of a FROM item of a query
// enclosing the subquery being bound (SELECT (SELECT t) FROM tbl t, a
// LATERAL (SELECT t), a correlated subquery in WHERE): as PostgreSQL
// does, a name that is no column of any level is looked up as a FROM
// item, innermost level first. The whole row, built over the enclosing
// query's columns, is one outer slot of the subquery (passed down through
// every subquery between, as outerRefIn passes a column), so that the
// enclosing query sees it as one value: grouped when it groups by t, "t.*"
// in its grouping error when not.
func (b *binder) outerWholeRow(c *corrState, name string) (Expr, bool) {
	if c == nil || c.outer == nil {
		return nil, false
	}
	if w, ok := wholeRowOf(c.outer, name); ok {
		return c.rowSlot(b.asTableRow(c.outer, name, w)), true
	}
	w, ok := b.outerWholeRow(c.parent, name)
	if !ok {
		return nil, false
	}
	return c.passDown(w.(*OuterRef)), true
}

// rowMarkerName names the row marker of FROM item alias: a hidden column
// (Hidden, no Table, so that neither *, alias.* nor any name reaches it;
// EXPLAIN shows it as "true AS row of alias")
// that is true wherever the item has a row. markNullable adds it to a
// FROM item on the nullable side of an outer join; where the join makes
// a row up it is NULL with the item's columns, which is how a whole-row
// reference tells a made-up row from a row whose columns are all NULL.
func rowMarkerName(alias string) string { return "row of " + alias }

// wholeRowNames are the names stmt (a SELECT, UPDATE or DELETE whose
// FROM items are from), its subqueries included, writes unqualified (u,
// row_to_json(u), (u).x): only these can be whole-row references to its
// FROM items, so only these items get row markers. A plan whose query
// reads no nullable item's whole row keeps the join's inputs as they are
// (no marker column, no projection for it). nil when from has no outer
// join.
func wholeRowNames(from pt.FromItem, stmt pt.Node) map[string]bool {
	if !hasOuterJoin(from) {
		return nil
	}
	names := map[string]bool{}
	pt.Inspect(stmt, func(n pt.Node) bool {
		if c, ok := n.(*pt.ColumnRef); ok && c.Table == "" && c.Schema == "" {
			names[c.Name] = true
		} else if ok && c.Name == tableOIDColumn && c.Schema == "" {
			names[c.Table] = true // x.tableoid is NULL where x's row is made up (systemcols.go)
		}
		return true
	})
	return names
}

// hasOuterJoin reports whether FROM item it joins with LEFT, RIGHT or
// FULL JOIN at its top level (a derived table's joins are its query's).
func hasOuterJoin(it pt.FromItem) bool {
	j, ok := it.(*pt.Join)
	if !ok {
		return false
	}
	switch j.Kind {
	case pt.LeftJoin, pt.RightJoin, pt.FullJoin:
		return true
	}
	return hasOuterJoin(j.L) || hasOuterJoin(j.R)
}

// markNullable gives each FROM item of n (an outer join's nullable
// input) named in rowNames that has no row marker yet one, true on every row of n. An item
// with a marker keeps it: an inner outer join already made some of its
// rows up, and the marker NULL there stays NULL, as it goes NULL with the
// item's columns where this join makes a row up.
func (b *binder) markNullable(n Node, rowNames map[string]bool) Node {
	if len(rowNames) == 0 {
		return n
	}
	cols := n.Columns()
	marked := map[string]bool{}
	for _, c := range cols {
		if c.Table == "" && c.Hidden && strings.HasPrefix(c.Name, rowMarkerName("")) {
			marked[strings.TrimPrefix(c.Name, rowMarkerName(""))] = true
		}
	}
	var missing []string
	for _, c := range cols {
		if c.Table != "" && !marked[c.Table] && rowNames[c.Table] {
			missing = append(missing, c.Table)
			marked[c.Table] = true
		}
	}
	if len(missing) == 0 {
		return n
	}
	p := &Project{Input: n, Exprs: columnRefs(cols, 0), Cols: append([]Column(nil), cols...)}
	for _, alias := range missing {
		p.Exprs = append(p.Exprs, b.newConst(true, types.BoolType))
		p.Cols = append(p.Cols, Column{Name: rowMarkerName(alias), T: types.BoolType, Hidden: true})
	}
	return p
}

// wholeRowSuffix ends the name of a whole-row reference's FuncCall
// ("t.*", PostgreSQL's name for it in errors); no other call is so named.
const wholeRowSuffix = ".*"

// isWholeRow reports whether f is a whole-row reference (wholeRow's).
func isWholeRow(f *FuncCall) bool { return strings.HasSuffix(f.Name, wholeRowSuffix) }

// bindFuncArg binds argument a of function name. (a, b) is bound here
// only as the argument of row_to_json/to_json (a composite with fields f1,
// f2, ... as PostgreSQL names them); ROW constructors elsewhere are the
// value-constructor binder's.
func (b *binder) bindFuncArg(s *scope, name string, a pt.Expr) (Expr, error) {
	r, ok := a.(*pt.Row)
	if !ok || r.Explicit || (name != "row_to_json" && name != "to_json") {
		return b.bindTree(s, a)
	}
	t := types.T{Kind: types.Row}
	args := make([]Expr, len(r.Fields))
	for i, v := range r.Fields {
		e, err := b.bindTree(s, v)
		if err != nil {
			return nil, err
		}
		if isUnknown(e.Type()) {
			e = b.resolveUnknown(e, types.StringType)
		}
		args[i] = e
		t.Fields = append(t.Fields, types.Field{Name: fmt.Sprintf("f%d", i+1), Type: e.Type().Nullable()})
	}
	return &FuncCall{Name: "row", Args: args, T: t, Kernel: functions.WholeRowKernel(t)}, nil
}
