package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/views"
)

// Materialized views.
//
// A materialized view is a view in views.Store with rows of its own
// (views.Matview): it takes a view's OIDs, its row type and its _RETURN
// rule and dependencies (pg_rewrite, pg_depend), and shows in pg_class
// with relkind 'm' (relispopulated false after WITH NO DATA, relhasindex
// once CREATE INDEX named it), pg_attribute, pg_type and pg_matviews;
// not in pg_views nor information_schema (PostgreSQL lists neither). The
// Fluss tables holding the rows (views.BackingPrefix) are hidden.

// plainViews are the views that are not materialized, nor the partitions
// of partitioned tables that sqlgate keeps as views (pgpartitions.go).
func plainViews(vs []views.View) []views.View {
	out := make([]views.View, 0, len(vs))
	for _, v := range vs {
		if !v.Materialized() && !v.IsPartition() {
			out = append(out, v)
		}
	}
	return out
}

// matviews are the materialized views among vs.
func matviews(vs []views.View) []views.View {
	var out []views.View
	for _, v := range vs {
		if v.Materialized() {
			out = append(out, v)
		}
	}
	return out
}

// withMatviewRows adds the materialized views' rows to the generators of
// the relations that list them.
func (c *Catalog) withMatviewRows() {
	add := map[string]func(context.Context, []views.View) []row{
		"pg_class":     noCtx(c.matviewClassRows),
		"pg_attribute": noCtx(c.viewAttributeRows),
		"pg_type":      noCtx(c.viewTypeRows),
		"pg_matviews":  c.pgMatviewsRows,
	}
	for name, fn := range add {
		c.appendViewRows(name, func(ctx context.Context) []row { return fn(ctx, matviews(c.listViews())) })
	}
}

func (c *Catalog) matviewClassRows(vs []views.View) []row {
	rows := c.viewClassRows(vs)
	for i, v := range vs {
		r := rows[i]
		r["relkind"] = "m"
		r["relam"] = amHeap
		r["relfilenode"] = ViewOID(v.ID)
		r["relhasindex"] = len(v.Matview.Indexes) > 0
		r["relispopulated"] = v.Populated()
		r["relreplident"] = "d"
	}
	return rows
}

func (c *Catalog) pgMatviewsRows(ctx context.Context, vs []views.View) []row {
	var rows []row
	for _, v := range vs {
		rows = append(rows, row{"schemaname": v.Path.Database, "matviewname": v.Path.Table,
			"matviewowner": c.tableOwner(v.ACLKey()), "tablespace": nil,
			"hasindexes": len(v.Matview.Indexes) > 0, "ispopulated": v.Populated(),
			"definition": c.viewDefinition(ctx, v, false, 0)})
	}
	return rows
}
