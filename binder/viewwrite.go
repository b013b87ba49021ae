package binder

import (
	"context"
	"reflect"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
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
	// baseCols are the base relation's columns; baseView is the base
	// relation when it is a view.
	baseCols map[string]bool
	baseView *View
	// checkQual is the view's WHERE again, a tree of its own, for its
	// check option (viewcheck.go); nil for DELETE.
	checkQual pt.Expr
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
	ctx := b.ctx
	if b.writeVia != nil { // a view under the one the write names
		ctx = asOwner(ctx, b.writeVia)
	}
	v, err := vc.GetView(ctx, b.treePath(ref.Name))
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
	vw, err := b.viewWriteOf(v, q, verb)
	if err != nil || verb == "delete from" {
		return vw, err
	}
	q2, err := sql.QueryToTree(v.Query.AST, v.Query)
	if err != nil {
		return nil, err
	}
	if sel, ok := q2.(*pt.Select); ok {
		vw.checkQual = sel.Where
	}
	return vw, nil
}

// markUpdatable records whether the view CREATE VIEW makes is
// automatically updatable, and which of its columns are, for the
// catalog (information_schema, pg_relation_is_updatable).
//
// why is PostgreSQL's reason the view's own query is not automatically
// updatable ("" when it is, though its base view may not be), which
// WITH CHECK OPTION's refusal gives as its hint.
func (b *binder) markUpdatable(out *CreateView, query *pt.Subquery) (why string) {
	q, err := b.trees.SubqueryTree(query, b.stmt)
	if err != nil {
		return ""
	}
	return b.markUpdatableTree(out, q)
}

// markUpdatableTree is markUpdatable of the query's tree q.
func (b *binder) markUpdatableTree(out *CreateView, q pt.Query) (why string) {
	v := &View{Path: out.Path, Columns: out.Columns}
	vw, err := b.viewWriteOf(v, q, "delete from") // DELETE: no column needs to be updatable
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.ObjectNotInPrerequisiteState {
		return se.Detail
	}
	if err != nil || vw == nil {
		return ""
	}
	if _, err := b.viewWriteOf(v, q, "insert into"); err != nil { // no updatable column
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.ObjectNotInPrerequisiteState {
			why = se.Detail
		}
	}
	innerOK := map[string]bool{}
	if bv := vw.baseView; bv != nil {
		// a view over a view is updatable where the inner one is, as
		// its definition says now (not a flag stored with it)
		if len(b.viewStack) >= maxViewNesting {
			return why
		}
		if bv.Stored || bv.Query == nil || bv.Query.AST == nil {
			return why
		}
		inner, err := sql.QueryToTree(bv.Query.AST, bv.Query)
		if err != nil {
			return why
		}
		sub := &binder{ctx: context.WithValue(b.ctx, expandingKey{}, bv), cat: b.cat, stmt: bv.Query,
			viewStack: append(append([]fluss.TablePath(nil), b.viewStack...), bv.Path)}
		innerOut := &CreateView{Path: bv.Path, Columns: append([]ViewColumn(nil), bv.Columns...)}
		sub.markUpdatableTree(innerOut, inner)
		if !innerOut.AutoUpdatable {
			return why
		}
		for _, c := range innerOut.Columns {
			innerOK[c.Name] = c.Updatable
		}
	}
	out.AutoUpdatable = true
	for i := range out.Columns {
		base := vw.cols[out.Columns[i].Name]
		out.Columns[i].Updatable = base != "" && (vw.baseView == nil || innerOK[base])
	}
	return why
}

// viewWriteOf maps the write through v, whose definition is q; an error
// when v is not automatically updatable.
func (b *binder) viewWriteOf(v *View, q pt.Query, verb string) (*viewWrite, error) {
	vc, _ := b.cat.(ViewCatalog)
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
		cols: map[string]string{}, exprs: map[string]pt.Expr{}, baseCols: map[string]bool{}}
	if vw.baseAlias == "" {
		vw.baseAlias = from.Name.Name
	}
	// The base relation's columns, for the select list's stars.
	var baseCols []string
	var baseView *View // the base relation when it is a view
	star := func() error {
		if baseCols != nil {
			return nil
		}
		path := b.treePath(from.Name)
		ctx := asOwner(b.ctx, v) // read as the view's owner
		if info, err := b.cat.GetTable(ctx, path); err == nil {
			for _, c := range info.Descriptor.Schema.Columns {
				baseCols = append(baseCols, c.Name)
			}
			return nil
		}
		var inner *View
		var err error
		if vc != nil {
			inner, err = vc.GetView(ctx, path)
		}
		if err != nil || inner == nil {
			return refuse("Views that do not select from a single table or view are not automatically updatable.")
		}
		baseView = inner
		for _, c := range inner.Columns {
			baseCols = append(baseCols, c.Name)
		}
		return nil
	}
	if err := star(); err != nil {
		return nil, err
	}
	for _, c := range baseCols {
		vw.baseCols[c] = true
	}
	vw.baseView = baseView
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

// substRefs replaces, in the clauses of the write under root (not in
// their subqueries), each reference to a view column (unqualified, or
// qualified by alias) with what the column selects: the base column
// under alias, or the view's expression. hidden: an unqualified name
// that is only a base column the view does not show is refused (42703)
// as PostgreSQL refuses it; false when the write reads other tables,
// whose columns such a name may mean.
func (vw *viewWrite) substRefs(b *binder, root any, alias string, hidden bool) error {
	var err error
	subst := func(c *pt.ColumnRef) pt.Expr {
		if c.Schema != "" || (c.Table != "" && c.Table != alias) || err != nil {
			return nil
		}
		if e := vw.exprs[c.Name]; e != nil {
			return cloneExpr(e) // each use its own: a later level substitutes in it
		}
		if base := vw.cols[c.Name]; base != "" {
			return &pt.ColumnRef{At: c.At, Table: alias, Name: base}
		}
		if _, isCol := vw.cols[c.Name]; !isCol && vw.baseCols[c.Name] {
			switch {
			case c.Table != "":
				err = b.errAt(c, sqlerr.New(sqlerr.UndefinedColumn, "column %s.%s does not exist", c.Table, c.Name))
			case hidden:
				err = b.errAt(c, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", c.Name))
			}
		}
		return nil
	}
	substExprs(reflect.ValueOf(root), subst)
	return err
}

var (
	columnRefType = reflect.TypeOf((*pt.ColumnRef)(nil))
	queryType     = reflect.TypeOf((*pt.Query)(nil)).Elem()
	subqueryType  = reflect.TypeOf((*pt.Subquery)(nil))
	treePkg       = reflect.TypeOf(pt.ColumnRef{}).PkgPath()
)

// substExprs walks the tree nodes under v (sql/tree's structs, their
// slices and interfaces; not queries), replacing each *pt.ColumnRef held
// in an interface by subst's expression where it gives one. The tree has
// no rewriting walker of its own: reflection keeps this one complete as
// node types are added.
func substExprs(v reflect.Value, subst func(*pt.ColumnRef) pt.Expr) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if c, ok := v.Elem().Interface().(*pt.ColumnRef); ok {
			if r := subst(c); r != nil && v.CanSet() && reflect.TypeOf(r).AssignableTo(v.Type()) {
				v.Set(reflect.ValueOf(r))
			}
			return
		}
		substExprs(v.Elem(), subst)
	case reflect.Pointer:
		t := v.Type()
		if v.IsNil() || t == columnRefType || t == subqueryType || t.Implements(queryType) || t.Elem().PkgPath() != treePkg {
			return
		}
		substExprs(v.Elem(), subst)
	case reflect.Struct:
		if v.Type().PkgPath() != treePkg {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Type != reflect.TypeOf(pt.At{}) {
				substExprs(v.Field(i), subst)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			substExprs(v.Index(i), subst)
		}
	}
}

// requalify makes the view's WHERE and column expressions read the base
// relation by alias, the write's name for it.
func (vw *viewWrite) requalify(alias string) {
	fix := func(e pt.Expr) {
		if e == nil {
			return
		}
		pt.Walk(e, func(x pt.Expr) bool {
			if c, ok := x.(*pt.ColumnRef); ok && c.Schema == "" && c.Table == vw.baseAlias {
				c.Table = alias
			}
			return true
		})
	}
	fix(vw.where)
	fix(vw.checkQual)
	for _, e := range vw.exprs {
		fix(e)
	}
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

// returning rewrites a RETURNING list over the view: * is the view's
// columns then the other tables' (others: their names), alias.* the
// view's; a view column keeps its name as the output column's.
func (vw *viewWrite) returning(b *binder, r *pt.Returning, alias string, others []string) error {
	if r == nil {
		return nil
	}
	var items []*pt.ReturningItem
	for _, it := range r.Items {
		if it.Star && (it.Table == "" || it.Table == alias) {
			for _, name := range vw.names {
				items = append(items, &pt.ReturningItem{At: it.At, X: &pt.ColumnRef{At: it.At, Table: alias, Name: name}, Alias: name})
			}
			if it.Table == "" {
				for _, o := range others {
					items = append(items, &pt.ReturningItem{At: it.At, Star: true, Table: o})
				}
			}
			continue
		}
		if c, ok := it.X.(*pt.ColumnRef); ok && it.Alias == "" && c.Schema == "" && (c.Table == "" || c.Table == alias) {
			if _, isCol := vw.cols[c.Name]; isCol {
				it.Alias = c.Name
			}
		}
		items = append(items, it)
	}
	r.Items = items
	return vw.substRefs(b, r, alias, len(others) == 0)
}

// fromNames are the names FROM's (USING's) tables are read by, for
// RETURNING *; a FROM item of another shape adds none.
func fromNames(f pt.FromItem) []string {
	switch x := f.(type) {
	case *pt.TableRef:
		if x.Alias.Name != "" {
			return []string{x.Alias.Name}
		}
		return []string{x.Name.Name}
	case *pt.DerivedTable:
		return []string{x.Alias.Name}
	case *pt.Join:
		return append(fromNames(x.L), fromNames(x.R)...)
	}
	return nil
}

// viewUpdate rewrites an UPDATE of a view into one of its base relation
// (unchanged when the target is no view), through views over views.
func (b *binder) viewUpdate(up *pt.Update) (*View, error) {
	var outer *View
	b.writeVia, b.viewChecks = nil, nil
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(up.Target, "update")
		if err != nil || vw == nil {
			return outer, err
		}
		if outer == nil {
			outer = vw.view
		}
		b.writeVia = vw.view
		alias := up.Alias
		if alias == "" {
			alias = vw.view.Path.Table
		}
		vw.requalify(alias)
		if err := b.noteViewCheck(vw, alias, true); err != nil { // viewcheck.go
			return nil, err
		}
		for _, a := range up.Set {
			if a.Table != "" && a.Table != alias {
				continue // the binder reports the qualifier
			}
			base, err := vw.column(a.Column, "update")
			if err != nil {
				return nil, b.columnErr(a, err)
			}
			a.Column = base
		}
		hidden := up.From == nil
		if err := vw.substRefs(b, up.Set, alias, hidden); err != nil {
			return nil, err
		}
		if err := vw.substRefs(b, &up.Where, alias, hidden); err != nil {
			return nil, err
		}
		if err := vw.returning(b, up.Returning, alias, fromNames(up.From)); err != nil {
			return nil, err
		}
		up.Where = andWhere(up.Where, vw.where)
		up.Target, up.Table, up.Alias = vw.target(up.At, alias), vw.base, alias
	}
	return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", up.Table.Name)
}

// viewDelete is viewUpdate for DELETE.
func (b *binder) viewDelete(del *pt.Delete) (*View, error) {
	var outer *View
	b.writeVia = nil
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(del.Target, "delete from")
		if err != nil || vw == nil {
			return outer, err
		}
		if outer == nil {
			outer = vw.view
		}
		b.writeVia = vw.view
		alias := del.Alias
		if alias == "" {
			alias = vw.view.Path.Table
		}
		vw.requalify(alias)
		if err := vw.substRefs(b, &del.Where, alias, del.Using == nil); err != nil {
			return nil, err
		}
		if err := vw.returning(b, del.Returning, alias, fromNames(del.Using)); err != nil {
			return nil, err
		}
		del.Where = andWhere(del.Where, vw.where)
		del.Target, del.Table, del.Alias = vw.target(del.At, alias), vw.base, alias
	}
	return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", del.Table.Name)
}

// viewInsert is viewUpdate for INSERT: the column list names base
// columns (the view's leading columns when none was written).
func (b *binder) viewInsert(ins *pt.Insert) (*View, error) {
	var outer *View
	b.writeVia, b.viewChecks = nil, nil
	for i := 0; i < maxViewNesting; i++ {
		vw, err := b.targetView(ins.Target, "insert into")
		if err != nil || vw == nil {
			return outer, err
		}
		if outer == nil {
			outer = vw.view
		}
		b.writeVia = vw.view
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
				return nil, b.columnErr(c, err)
			}
			c.Name = base
		}
		vw.requalify(alias)
		if err := b.noteViewCheck(vw, alias, false); err != nil { // viewcheck.go
			return nil, err
		}
		if err := vw.onConflict(b, ins.OnConflict, alias); err != nil {
			return nil, err
		}
		if err := vw.returning(b, ins.Returning, alias, nil); err != nil {
			return nil, err
		}
		ins.Target, ins.Table = vw.target(ins.At, ""), vw.base
		if ins.Alias != "" || vw.view.Path.Table != vw.base.Name {
			ins.Alias = alias // RETURNING reads the row by the view's name
		}
	}
	return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", ins.Table.Name)
}

// onConflict maps INSERT ... ON CONFLICT's columns (its target, DO
// UPDATE's SET, its conditions, EXCLUDED's columns) to the base
// relation's; nothing without the clause.
func (vw *viewWrite) onConflict(b *binder, oc *pt.OnConflict, alias string) error {
	if oc == nil {
		return nil
	}
	for i, name := range oc.Target {
		if base := vw.cols[name]; base != "" {
			oc.Target[i] = base
		}
	}
	for _, a := range oc.Update {
		if a.Table != "" && a.Table != alias {
			continue // the binder reports the qualifier
		}
		base, err := vw.column(a.Column, "update")
		if err != nil {
			return b.columnErr(a, err)
		}
		a.Column = base
	}
	for _, name := range []string{alias, "excluded"} {
		if err := vw.substRefs(b, oc, name, name == alias); err != nil {
			return err
		}
	}
	// EXCLUDED.col reaches the tree as pt.Excluded
	for _, e := range []pt.Expr{oc.Where, oc.TargetWhere} {
		vw.renameExcluded(e)
	}
	for _, a := range oc.Update {
		vw.renameExcluded(a.Value)
	}
	return nil
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

// throughView makes the binder's catalog reads, until the returned func
// runs, those of the view a write's target was rewritten through (none
// for a table): the base table is the view owner's to reach.
func (b *binder) throughView() func() {
	if b.writeVia == nil {
		return func() {}
	}
	saved := b.ctx
	b.ctx = asOwner(b.ctx, b.writeVia)
	return func() { b.ctx, b.writeVia = saved, nil }
}

// renameExcluded renames the EXCLUDED columns in e that are plain view
// columns to their base columns.
func (vw *viewWrite) renameExcluded(e pt.Expr) {
	pt.Walk(e, func(x pt.Expr) bool {
		if ex, ok := x.(*pt.Excluded); ok {
			if base := vw.cols[ex.Column]; base != "" {
				ex.Column = base
			}
		}
		return true
	})
}
