package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Automatically updatable views (PostgreSQL's rewriteTargetView).
//
// INSERT, UPDATE and DELETE whose target is a view over one table (or
// one such view), without DISTINCT, GROUP BY, HAVING, set operations,
// WITH, LIMIT / OFFSET, aggregates, window functions or set-returning
// functions in its select list, write the base table: before the write
// binds, its tree is rewritten so that the target is the base table
// (under the view's name or the write's alias), the view's column names
// are the base columns they select, and the view's WHERE is ANDed into
// UPDATE's and DELETE's. A view column that is not a plain column of
// the base table cannot be written (0A000); any other view is refused
// with 55000 and PostgreSQL's detail naming why.

// viewWrite is a view a write targets, as the rewrite maps it.
type viewWrite struct {
	view *View
	// base is the relation the view selects from, baseAlias the name its
	// query reads it by.
	base      *pt.TableName
	baseAlias string
	where     pt.Expr
	// names are the view's columns in order; cols maps each to the base
	// column it selects, exprs to its expression when it is no plain
	// column ("" in cols).
	names []string
	cols  map[string]string
	exprs map[string]pt.Expr
}

// maxViewNesting bounds the views over views a write goes through (a
// view cannot name itself once created; this only stops a corrupt
// catalog from looping).
const maxViewNesting = 64

// targetView returns the view a write's target names (nil when it names
// none: a table, a WITH query, or a catalog without views). verb is
// "insert into", "update" or "delete from".
func (b *binder) targetView(target pt.FromItem, verb string) (*viewWrite, error) {
	ref, ok := target.(*pt.TableRef)
	if !ok || ref.Name == nil {
		return nil, nil
	}
	if _, isCTE := b.ctes[ref.Name.Name]; isCTE && ref.Name.Schema == "" {
		return nil, nil
	}
	vc, isViews := b.cat.(ViewCatalog)
	if !isViews {
		return nil, nil
	}
	v, err := vc.GetView(b.ctx, b.treePath(ref.Name))
	if err != nil || v == nil || v.Stored {
		return nil, err // a materialized view is refused by the engine
	}
	if v.Query == nil || v.Query.AST == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "view \"%s\" has no definition", v.Path.Table)
	}
	q, err := sql.QueryToTree(v.Query.AST, v.Query)
	if err != nil {
		return nil, err
	}
	refuse := func(detail string) error {
		return viewNotUpdatable(v.Path.Table, verb, detail)
	}
	sel, ok := q.(*pt.Select)
	if !ok {
		if _, setop := q.(*pt.SetOp); setop {
			return nil, refuse("Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.")
		}
		return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
	}
	switch {
	case sel.Distinct:
		return nil, refuse("Views containing DISTINCT are not automatically updatable.")
	case len(sel.GroupBy) > 0:
		return nil, refuse("Views containing GROUP BY are not automatically updatable.")
	case sel.Having != nil:
		return nil, refuse("Views containing HAVING are not automatically updatable.")
	case sel.With != nil:
		return nil, refuse("Views containing WITH are not automatically updatable.")
	case sel.QueryClauses.Limit != nil || sel.QueryClauses.Offset != nil:
		return nil, refuse("Views containing LIMIT or OFFSET are not automatically updatable.")
	}
	for _, t := range sel.Targets {
		switch {
		case b.containsAggregateTree(t.X):
			return nil, refuse("Views that return aggregate functions are not automatically updatable.")
		case b.containsWindowTree(t.X):
			return nil, refuse("Views that return window functions are not automatically updatable.")
		case containsSetCall(t.X):
			return nil, refuse("Views that return set-returning functions are not automatically updatable.")
		}
	}
	from, ok := sel.From.(*pt.TableRef)
	if !ok || from.Name == nil || len(from.Alias.Columns) > 0 {
		return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
	}
	if from.Name.Schema == "" && strings.EqualFold(from.Name.Name, "dual") {
		return nil, refuse("Views that do not select from a single table or view are not automatically updatable.")
	}
	vw := &viewWrite{view: v, base: from.Name, baseAlias: from.Alias.Name, where: sel.Where,
		cols: map[string]string{}, exprs: map[string]pt.Expr{}}
	if vw.baseAlias == "" {
		vw.baseAlias = from.Name.Name
	}
	// The base relation's columns, for the select list's stars.
	var baseCols []string
	star := func() error {
		if baseCols != nil {
			return nil
		}
		path := b.treePath(from.Name)
		if info, err := b.cat.GetTable(b.ctx, path); err == nil {
			for _, c := range info.Descriptor.Schema.Columns {
				baseCols = append(baseCols, c.Name)
			}
			return nil
		}
		inner, err := vc.GetView(b.ctx, path)
		if err != nil || inner == nil {
			return refuse("Views that do not select from a single table or view are not automatically updatable.")
		}
		for _, c := range inner.Columns {
			baseCols = append(baseCols, c.Name)
		}
		return nil
	}
	var selected []string // base column per output column ("" for none)
	var outExprs []pt.Expr
	for _, t := range sel.Targets {
		switch x := t.X.(type) {
		case *pt.Star:
			if err := star(); err != nil {
				return nil, err
			}
			for _, c := range baseCols {
				selected = append(selected, c)
				outExprs = append(outExprs, nil)
			}
			continue
		case *pt.ColumnRef:
			if x.Schema == "" && (x.Table == "" || x.Table == vw.baseAlias) {
				selected = append(selected, x.Name)
				outExprs = append(outExprs, nil)
				continue
			}
		}
		selected = append(selected, "")
		outExprs = append(outExprs, t.X)
	}
	for i, c := range v.Columns {
		vw.names = append(vw.names, c.Name)
		if i < len(selected) {
			vw.cols[c.Name] = selected[i]
			if outExprs[i] != nil {
				vw.exprs[c.Name] = outExprs[i]
			}
		}
	}
	if verb != "delete from" {
		any := false
		for _, c := range vw.cols {
			any = any || c != ""
		}
		if !any {
			return nil, refuse("Views that have no updatable columns are not automatically updatable.")
		}
	}
	return vw, nil
}

// containsSetCall says whether e calls a set-returning function.
func containsSetCall(e pt.Expr) bool {
	found := false
	pt.Walk(e, func(x pt.Expr) bool {
		if f, ok := x.(*pt.FuncCall); ok && f.Over == nil && functions.IsSetFunc(strings.ToLower(f.Name)) {
			found = true
		}
		return !found
	})
	return found
}

// viewNotUpdatable is PostgreSQL's 55000 for a write to a view that is
// not automatically updatable.
func viewNotUpdatable(view, verb, detail string) error {
	hint := map[string]string{
		"insert into": "To enable inserting into the view, provide an INSTEAD OF INSERT trigger or an unconditional ON INSERT DO INSTEAD rule.",
		"update":      "To enable updating the view, provide an INSTEAD OF UPDATE trigger or an unconditional ON UPDATE DO INSTEAD rule.",
		"delete from": "To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.",
	}[verb]
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "cannot %s view \"%s\"", verb, view).
		WithDetail("%s", detail).WithHint("%s", hint)
}

// column maps the view column name a write sets to its base column:
// 42703 when the view has no such column, 0A000 when it is not a plain
// column of the base relation. verb is "insert into" or "update".
func (vw *viewWrite) column(name, verb string) (string, error) {
	base, ok := vw.cols[name]
	if !ok {
		return "", sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, vw.view.Path.Table)
	}
	if base == "" {
		return "", sqlerr.New(sqlerr.FeatureNotSupported, "cannot %s column \"%s\" of view \"%s\"", verb, name, vw.view.Path.Table).
			WithDetail("View columns that are not columns of their base relation are not updatable.")
	}
	return base, nil
}

// target is the write's new target: the base relation under alias.
func (vw *viewWrite) target(at pt.At, alias string) *pt.TableRef {
	name := *vw.base
	return &pt.TableRef{At: at, Name: &name, Alias: pt.Alias{Name: alias}}
}

// renameRefs renames, in e (not in its subqueries), the references to
// the view's columns (unqualified, or qualified by alias) to the base
// columns they select.
func (vw *viewWrite) renameRefs(e pt.Expr, alias string) {
	pt.Walk(e, func(x pt.Expr) bool {
		if c, ok := x.(*pt.ColumnRef); ok && c.Schema == "" && (c.Table == "" || c.Table == alias) {
			if base := vw.cols[c.Name]; base != "" {
				c.Name = base
			}
		}
		return true
	})
}

// viewWhere is the view's WHERE over the write's target named alias: its
// references by the base relation's name in the view now read alias.
func (vw *viewWrite) viewWhere(alias string) pt.Expr {
	if vw.where == nil {
		return nil
	}
	pt.Walk(vw.where, func(x pt.Expr) bool {
		if c, ok := x.(*pt.ColumnRef); ok && c.Schema == "" && c.Table == vw.baseAlias {
			c.Table = alias
		}
		return true
	})
	return vw.where
}

// andWhere is where AND the view's condition.
func andWhere(where, view pt.Expr) pt.Expr {
	switch {
	case view == nil:
		return where
	case where == nil:
		return view
	}
	return &pt.Binary{Op: pt.And, L: view, R: where}
}

// returning rewrites a RETURNING list over the view: * and alias.* are
// the view's columns, a column that is the view's expression that
// expression, the others the base columns.
func (vw *viewWrite) returning(r *pt.Returning, alias string) {
	if r == nil {
		return
	}
	var items []*pt.ReturningItem
	for _, it := range r.Items {
		if it.Star && (it.Table == "" || it.Table == alias) {
			for _, name := range vw.names {
				var x pt.Expr
				if e := vw.exprs[name]; e != nil {
					x = e
				} else {
					x = &pt.ColumnRef{At: it.At, Table: alias, Name: vw.cols[name]}
				}
				items = append(items, &pt.ReturningItem{At: it.At, X: x, Alias: name})
			}
			continue
		}
		if c, ok := it.X.(*pt.ColumnRef); ok && c.Schema == "" && (c.Table == "" || c.Table == alias) {
			if e := vw.exprs[c.Name]; e != nil {
				alias := it.Alias
				if alias == "" {
					alias = c.Name
				}
				items = append(items, &pt.ReturningItem{At: it.At, X: e, Alias: alias})
				continue
			}
			if base := vw.cols[c.Name]; base != "" && base != c.Name && it.Alias == "" {
				it.Alias = c.Name // the output column keeps the view's name
			}
		}
		vw.renameRefs(it.X, alias)
		items = append(items, it)
	}
	r.Items = items
}

// viewUpdate rewrites an UPDATE of a view into one of its base relation
// (unchanged when the target is no view), through views over views.
func (b *binder) viewUpdate(up *pt.Update) error {
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(up.Target, "update")
		if err != nil || vw == nil {
			return err
		}
		alias := up.Alias
		if alias == "" {
			alias = vw.view.Path.Table
		}
		for _, a := range up.Set {
			if a.Table != "" && a.Table != alias {
				continue // the binder reports the qualifier
			}
			base, err := vw.column(a.Column, "update")
			if err != nil {
				return b.columnErr(a, err)
			}
			a.Column = base
			vw.renameRefs(a.Value, alias)
		}
		vw.renameRefs(up.Where, alias)
		vw.returning(up.Returning, alias)
		up.Where = andWhere(up.Where, vw.viewWhere(alias))
		up.Target, up.Table, up.Alias = vw.target(up.At, alias), vw.base, alias
	}
	return sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", up.Table.Name)
}

// viewDelete is viewUpdate for DELETE.
func (b *binder) viewDelete(del *pt.Delete) error {
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(del.Target, "delete from")
		if err != nil || vw == nil {
			return err
		}
		alias := del.Alias
		if alias == "" {
			alias = vw.view.Path.Table
		}
		vw.renameRefs(del.Where, alias)
		vw.returning(del.Returning, alias)
		del.Where = andWhere(del.Where, vw.viewWhere(alias))
		del.Target, del.Table, del.Alias = vw.target(del.At, alias), vw.base, alias
	}
	return sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", del.Table.Name)
}

// viewInsert is viewUpdate for INSERT: the column list names base
// columns (the view's leading columns when none was written).
func (b *binder) viewInsert(ins *pt.Insert) error {
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(ins.Target, "insert into")
		if err != nil || vw == nil {
			return err
		}
		alias := ins.Alias
		if alias == "" {
			alias = vw.view.Path.Table
		}
		if len(ins.Columns) == 0 {
			n := len(vw.names)
			if w := insertWidth(ins); w >= 0 && w < n {
				n = w
			}
			for _, name := range vw.names[:n] {
				ins.Columns = append(ins.Columns, &pt.InsertColumn{At: ins.At, Name: name})
			}
		}
		for _, c := range ins.Columns {
			base, err := vw.column(c.Name, "insert into")
			if err != nil {
				return b.columnErr(c, err)
			}
			c.Name = base
		}
		vw.returning(ins.Returning, alias)
		ins.Target, ins.Table = vw.target(ins.At, ""), vw.base
		if ins.Alias != "" || vw.view.Path.Table != vw.base.Name {
			ins.Alias = alias // RETURNING reads the row by the view's name
		}
	}
	return sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", ins.Table.Name)
}

// insertWidth is how many values an INSERT's rows carry, -1 when its
// query's width is not known before it binds.
func insertWidth(ins *pt.Insert) int {
	if ins.Rows != nil {
		w := 0
		for _, r := range ins.Rows {
			w = max(w, len(r))
		}
		return w
	}
	if s, ok := ins.Query.(*pt.Select); ok {
		for _, t := range s.Targets {
			if _, star := t.X.(*pt.Star); star {
				return -1
			}
		}
		if s.Table || len(s.Targets) == 0 {
			return -1
		}
		return len(s.Targets)
	}
	return -1
}

// columnErr is column's error at node n: 42703 points at the column, as
// PostgreSQL's does; its 0A000 has no position.
func (b *binder) columnErr(n sourceNode, err error) error {
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.UndefinedColumn {
		return b.errAt(n, se)
	}
	return err
}
