package pgcatalog

import (
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/views"
)

// Views.
//
// A view's OID is 16384 + 4<<22 + its view id, its row type's that plus
// 1<<22 (after the OID ranges of tables and what derives from them, see
// RelationOID), so both survive restarts. Views show in pg_class (relkind
// 'v', relhasrules as PostgreSQL's _RETURN rule makes it), pg_attribute
// (no system columns, as PostgreSQL), pg_type (their row type),
// pg_views, information_schema.tables (VIEW), .columns and .views.
//
// The definition (pg_views.definition, pg_get_viewdef in its three forms,
// information_schema.views.view_definition) is printed by package
// deparse from the query as written, as PostgreSQL re-prints its parsed
// tree; a view the deparser does not reproduce shows the simple views'
// text binder/viewdef.go printed when it was made, else the text the
// user wrote, framed as PostgreSQL frames its own (a leading space, a
// trailing semicolon).
//
// Known differences:
// views are not updatable (is_updatable NO). Each view has its _RETURN
// rule in pg_rewrite and PostgreSQL's pg_depend rows for it: the rule
// depends internally on the view ('i') and normally on each relation the
// view names ('n', whole relations: no per-column rows), which is what
// dbt's relation cache reads to know which views a DROP ... CASCADE
// takes.

// ViewLister lists the stored views (views.Store implements it).
type ViewLister interface {
	List(database string) []views.View
}

const viewOIDBase = firstUserOID + 4*oidStride

// ViewOID is the OID of the view with the given id.
func ViewOID(id int64) uint32 { return uint32(viewOIDBase + id) }

func viewRowTypeOID(id int64) uint32 { return ViewOID(id) + oidStride }

// viewRuleOID is the OID of the view's _RETURN rule (pg_rewrite).
func viewRuleOID(id int64) uint32 { return uint32(firstUserOID + 11*oidStride + id) }

// listViews lists the views clients see: those of every schema (each
// shows in its own schema's namespace).
func (c *Catalog) listViews() []views.View {
	if c.opts.Views == nil {
		return nil
	}
	return c.opts.Views.List("")
}

// viewByOID finds the view an OID names.
func (c *Catalog) viewByOID(oid uint32) (views.View, bool) {
	if oid <= viewOIDBase || oid >= viewOIDBase+oidStride {
		return views.View{}, false
	}
	for _, v := range c.listViews() {
		if ViewOID(v.ID) == oid {
			return v, true
		}
	}
	return views.View{}, false
}

// viewTableInfo shows a view as the table-shaped record relation()
// returns (name and columns, no comment), so that regclass output,
// pg_table_is_visible and col_description treat it as a relation.
func viewTableInfo(v views.View) fluss.TableInfo {
	info := fluss.TableInfo{Path: v.Path}
	for _, col := range v.Columns {
		info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, fluss.Column{Name: col.Name, Type: col.Type})
	}
	return info
}

// viewOIDByName finds a view by schema and name.
func (c *Catalog) viewOIDByName(schema, name string) (uint32, bool) {
	for _, v := range c.listViews() {
		if v.Path.Table == name && v.Path.Database == schema {
			return ViewOID(v.ID), true
		}
	}
	return 0, false
}

// viewDefinition is pg_get_viewdef's text of v (pretty: its PRETTY_PAREN
// form; wrap: its wrap column, 0 for every form but pg_get_viewdef(oid,
// int)), printed by the deparser from the query as written when it
// reproduces it; else the simple views' text the binder printed when the
// view was made; else the text as written, framed as PostgreSQL frames
// its own (a leading space, a trailing semicolon).
func (c *Catalog) viewDefinition(ctx context.Context, v views.View, pretty bool, wrap int) string {
	names := make([]string, len(v.Columns))
	for i, col := range v.Columns {
		names[i] = col.Name
	}
	if out, err := deparse.View(v.Definition, c.viewRelations(ctx, v), names, pretty, wrap, sessionScope(ctx, deparse.Scope{Functions: c.userFunctions()})); err == nil {
		return out
	}
	switch {
	case pretty && v.Pretty != "":
		return v.Pretty
	case !pretty && v.Plain != "":
		return v.Plain
	}
	return " " + v.Definition + ";"
}

// viewRelations finds the relations v's query names, for the deparser:
// those it named when it was made (v.Uses: an unqualified name is the
// one it resolved to then), each with its columns as they show now.
func (c *Catalog) viewRelations(ctx context.Context, v views.View) deparse.Relations {
	return func(schema, name string) ([]deparse.Column, string, bool) {
		for _, u := range v.Uses {
			if u.Path.Table != name || schema != "" && u.Path.Database != schema {
				continue
			}
			if u.ViewID != 0 {
				for _, w := range c.listViews() {
					if w.ID == u.ViewID {
						cols := make([]deparse.Column, len(w.Columns))
						for i, col := range w.Columns {
							cols[i] = deparse.Column{Name: col.Name, Type: c.opts.Types.Bind(col.Type)}
						}
						return cols, u.Path.Database, true
					}
				}
				return nil, "", false
			}
			t, err := c.store.GetTable(ctx, u.Path)
			if err != nil || t.TableID != u.TableID {
				return nil, "", false
			}
			return c.tableScope(t).Columns, u.Path.Database, true
		}
		return nil, "", false
	}
}

// ViewDef implements functions.ViewDefs.
func (c *Catalog) ViewDef(ctx context.Context, oid uint32, pretty bool) (string, bool, error) {
	v, ok := c.viewByOID(oid)
	if !ok {
		return "", false, nil
	}
	return c.viewDefinition(ctx, v, pretty, 0), true, nil
}

// WrappedViewDef implements functions.WrappedViewDefs.
func (c *Catalog) WrappedViewDef(ctx context.Context, oid uint32, wrap int) (string, bool, error) {
	v, ok := c.viewByOID(oid)
	if !ok {
		return "", false, nil
	}
	return c.viewDefinition(ctx, v, true, wrap), true, nil
}

// withViewRows adds the views' rows to the generators of the relations
// that list them.
func (c *Catalog) withViewRows() {
	add := map[string]func(context.Context, []views.View) []row{
		"pg_class":     noCtx(c.viewClassRows),
		"pg_attribute": noCtx(c.viewAttributeRows),
		"pg_type":      noCtx(c.viewTypeRows),
		"pg_views":     c.pgViewsRows,
		"tables":       c.viewInfoTablesRows,
		"columns":      c.viewInfoColumnsRows,
		"views":        c.viewInfoViewsRows,
		"pg_rewrite":   noCtx(c.viewRewriteRows),
		"pg_depend":    noCtx(c.viewDependRows),
	}
	for name, fn := range add {
		c.appendViewRows(name, func(ctx context.Context) []row {
			vs := c.listViews()
			if name != "pg_rewrite" && name != "pg_depend" { // a materialized view's are a view's
				vs = plainViews(vs) // matviews.go
			} else {
				vs = notPartitions(vs) // pgpartitions.go
			}
			return fn(ctx, vs)
		})
	}
}

// noCtx adapts a row generator that reads no store to withViewRows' form.
func noCtx(f func([]views.View) []row) func(context.Context, []views.View) []row {
	return func(_ context.Context, vs []views.View) []row { return f(vs) }
}

// appendViewRows makes relation name's generator list more's rows after
// those it listed before.
func (c *Catalog) appendViewRows(name string, more func(context.Context) []row) {
	c.extendRows(name, func(ctx context.Context, _ *snapshot, rows []row) []row { return append(rows, more(ctx)...) })
}

// extendRows makes relation name's generator list what more makes of the
// rows it listed before (none when it had no generator).
func (c *Catalog) extendRows(name string, more func(ctx context.Context, s *snapshot, rows []row) []row) {
	prev := c.rows[name]
	c.rows[name] = func(ctx context.Context, s *snapshot) ([]row, error) {
		var rows []row
		if prev != nil {
			var err error
			if rows, err = prev(ctx, s); err != nil {
				return nil, err
			}
		}
		return more(ctx, s, rows), nil
	}
}

func (c *Catalog) viewClassRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		r := classBase(ViewOID(v.ID), v.Path.Table, namespaceOID(v.Path.Database), "v", len(v.Columns))
		r["reltype"] = viewRowTypeOID(v.ID)
		r["relfilenode"] = 0
		r["relhasrules"] = true
		r["relowner"] = c.roleOID(c.tableOwner(v.ACLKey()))
		if len(v.Options) > 0 { // in the order set, as PostgreSQL keeps them
			opts := make([]any, len(v.Options))
			for i, o := range v.Options {
				opts[i] = o
			}
			r["reloptions"] = opts
		}
		if c.opts.Roles != nil {
			if acl := c.opts.Roles.TableACL(v.ACLKey()); acl != nil {
				items := make([]any, len(acl))
				for i, a := range acl {
					items[i] = a
				}
				r["relacl"] = items
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func (c *Catalog) viewAttributeRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		for i, col := range v.Columns {
			t := col.Type.Nullable()
			if v.IsPartition() {
				t = col.Type // a partition's NOT NULL columns are its parent's
			}
			rows = append(rows, c.attributeRow(ViewOID(v.ID), i+1, col.Name, t))
		}
	}
	return rows
}

func (c *Catalog) viewTypeRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, typeRow(viewRowTypeOID(v.ID), v.Path.Table, namespaceOID(v.Path.Database), -1, false, "c", "C", false,
			0, 0, ViewOID(v.ID), "d", "x", 0))
	}
	return rows
}

func (c *Catalog) pgViewsRows(ctx context.Context, vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, row{"schemaname": v.Path.Database, "viewname": v.Path.Table,
			"viewowner": c.tableOwner(v.ACLKey()), "definition": c.viewDefinition(ctx, v, false, 0)})
	}
	return rows
}

func (c *Catalog) viewInfoTablesRows(ctx context.Context, vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		v = c.updatable(ctx, v)
		rows = append(rows, row{"table_catalog": c.opts.Database, "table_schema": v.Path.Database,
			"table_name": v.Path.Table, "table_type": "VIEW", "is_insertable_into": yesNo(viewEvents(v)&cmdInsert != 0), "is_typed": "NO"})
	}
	return rows
}

func (c *Catalog) viewInfoColumnsRows(ctx context.Context, vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		v = c.updatable(ctx, v)
		for i, col := range v.Columns {
			r := c.columnRow(v.Path.Database, v.Path.Table, i+1, col.Name, col.Type.Nullable())
			r["is_updatable"] = yesNo(v.AutoUpdatable && col.Updatable)
			rows = append(rows, r)
		}
	}
	return rows
}

func (c *Catalog) viewInfoViewsRows(ctx context.Context, vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		v = c.updatable(ctx, v)
		check := "NONE"
		// information_schema.views compares reloptions' texts, as written
		if slices.Contains(v.Options, "check_option=cascaded") {
			check = "CASCADED"
		} else if slices.Contains(v.Options, "check_option=local") {
			check = "LOCAL"
		}
		rows = append(rows, row{"table_catalog": c.opts.Database, "table_schema": v.Path.Database,
			"table_name": v.Path.Table, "view_definition": c.viewDefinition(ctx, v, false, 0), "check_option": check,
			"is_updatable":       yesNo(viewEvents(v)&(cmdUpdate|cmdDelete) == cmdUpdate|cmdDelete),
			"is_insertable_into": yesNo(viewEvents(v)&cmdInsert != 0), "is_trigger_updatable": "NO",
			"is_trigger_deletable": "NO", "is_trigger_insertable_into": "NO"})
	}
	return rows
}

func (c *Catalog) viewRewriteRows(vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, row{"oid": viewRuleOID(v.ID), "rulename": "_RETURN", "ev_class": ViewOID(v.ID),
			"ev_type": "1", "ev_enabled": "O", "is_instead": true})
	}
	return rows
}

func (c *Catalog) viewDependRows(vs []views.View) []row {
	dep := func(rule, ref uint32, typ string) row {
		return row{"classid": classPgRewrite, "objid": rule, "objsubid": 0, "refclassid": classPgClass,
			"refobjid": ref, "refobjsubid": 0, "deptype": typ}
	}
	var rows []row
	for _, v := range vs {
		rule := viewRuleOID(v.ID)
		rows = append(rows, dep(rule, ViewOID(v.ID), "i"))
		for _, u := range v.Uses {
			switch {
			case u.TableID != 0:
				rows = append(rows, dep(rule, RelationOID(u.TableID), "n"))
			case u.ViewID != 0:
				rows = append(rows, dep(rule, ViewOID(u.ViewID), "n"))
			}
		}
	}
	return rows
}

// The bits of pg_relation_is_updatable's answer (PostgreSQL's CmdType
// numbering).
const (
	cmdUpdate = 1 << 2
	cmdInsert = 1 << 3
	cmdDelete = 1 << 4
)

// viewEvents is pg_relation_is_updatable of a view: INSERT, UPDATE and
// DELETE when it is automatically updatable with an updatable column,
// DELETE alone when none of its columns is, nothing otherwise.
func viewEvents(v views.View) int64 {
	if !v.AutoUpdatable || v.Materialized() {
		return 0
	}
	for _, c := range v.Columns {
		if c.Updatable {
			return cmdInsert | cmdUpdate | cmdDelete
		}
	}
	return cmdDelete
}

// ViewEvents implements functions.UpdatableViews.
func (c *Catalog) ViewEvents(ctx context.Context, oid uint32, attnum int) (int64, bool) {
	v, ok := c.viewByOID(oid)
	if !ok {
		return 0, false
	}
	v = c.updatable(ctx, v)
	ev := viewEvents(v)
	if attnum > 0 && (attnum > len(v.Columns) || !v.Columns[attnum-1].Updatable) {
		ev &^= cmdInsert | cmdUpdate // a column no write may set
	}
	return ev, true
}

// updatable is v with its AutoUpdatable and columns' Updatable derived
// from its definition now (Options.ViewUpdatability), as PostgreSQL
// answers from the view's query: a view stored before sqlgate recorded
// them, or over a view since replaced, answers right.
func (c *Catalog) updatable(ctx context.Context, v views.View) views.View {
	if c.opts.ViewUpdatability == nil || v.Materialized() {
		return v
	}
	auto, cols := c.opts.ViewUpdatability(ctx, v)
	v.AutoUpdatable = auto
	v.Columns = append([]views.Column(nil), v.Columns...)
	for i := range v.Columns {
		v.Columns[i].Updatable = auto && i < len(cols) && cols[i]
	}
	return v
}
