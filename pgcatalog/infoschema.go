package pgcatalog

import (
	"context"
	"strconv"

	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

func (c *Catalog) schemataRows() []row {
	var rows []row
	for _, ns := range []string{infoSchema, pgCatalog, "pg_toast", fluss.DefaultDatabase} {
		owner := c.opts.User
		if ns == fluss.DefaultDatabase {
			owner = "pg_database_owner"
		}
		rows = append(rows, row{"catalog_name": c.opts.Database, "schema_name": ns, "schema_owner": owner})
	}
	return rows
}

func (c *Catalog) infoTablesRows(_ context.Context, s *snapshot) ([]row, error) {
	mk := func(schema, name, typ string) row {
		return row{"table_catalog": c.opts.Database, "table_schema": schema, "table_name": name,
			"table_type": typ, "is_insertable_into": yesNo(typ == "BASE TABLE"), "is_typed": "NO"}
	}
	var rows []row
	for _, t := range s.tables {
		rows = append(rows, mk(t.Path.Database, t.Path.Table, "BASE TABLE"))
	}
	for i := range relationSpecs {
		sp := &relationSpecs[i]
		typ := "BASE TABLE"
		if sp.kind == 'v' {
			typ = "VIEW"
		}
		rows = append(rows, mk(sp.schema, sp.name, typ))
	}
	return rows, nil
}

// columnRow is information_schema.columns' row for one column.
func (c *Catalog) columnRow(schema, table string, pos int, name string, t types.T) row {
	ct := c.colType(t)
	r := row{
		"table_catalog": c.opts.Database, "table_schema": schema, "table_name": table, "column_name": name,
		"ordinal_position": pos, "is_nullable": yesNo(!t.NotNull), "udt_catalog": c.opts.Database,
		"udt_schema": pgCatalog, "dtd_identifier": strconv.Itoa(pos), "is_self_referencing": "NO",
		"is_identity": "NO", "identity_cycle": "NO", "is_generated": "NEVER", "is_updatable": yesNo(schema != pgCatalog && schema != infoSchema),
	}
	if ts, ok := c.types[ct.oid]; ok {
		r["udt_name"] = ts.name
	}
	if t.Kind == types.Array && pgtypes.IsPGArray(t) {
		r["data_type"] = "ARRAY"
	} else {
		r["data_type"] = c.FormatType(ct.oid, -1, false)
	}
	for _, e := range c.enumTypes() { // an enum is USER-DEFINED, named by udt_schema and udt_name
		if e.OID == ct.oid {
			r["data_type"], r["udt_schema"], r["udt_name"] = "USER-DEFINED", e.Schema, e.Name
		}
	}
	switch ct.oid {
	case pgtypes.OIDVarchar, pgtypes.OIDBPChar:
		if ct.typmod > 4 {
			r["character_maximum_length"] = int(ct.typmod - 4)
			r["character_octet_length"] = int(ct.typmod-4) * 4
		} else { // no length (a view's bpchar or varchar column): as text
			r["character_octet_length"] = 1073741824
		}
	case pgtypes.OIDText:
		r["character_octet_length"] = 1073741824
	case pgtypes.OIDInt2:
		r["numeric_precision"], r["numeric_precision_radix"], r["numeric_scale"] = 16, 2, 0
	case pgtypes.OIDInt4:
		r["numeric_precision"], r["numeric_precision_radix"], r["numeric_scale"] = 32, 2, 0
	case pgtypes.OIDInt8:
		r["numeric_precision"], r["numeric_precision_radix"], r["numeric_scale"] = 64, 2, 0
	case pgtypes.OIDFloat4:
		r["numeric_precision"], r["numeric_precision_radix"] = 24, 2
	case pgtypes.OIDFloat8:
		r["numeric_precision"], r["numeric_precision_radix"] = 53, 2
	case pgtypes.OIDNumeric:
		r["numeric_precision_radix"] = 10
		if ct.typmod >= 4 {
			r["numeric_precision"] = int((ct.typmod - 4) >> 16)
			r["numeric_scale"] = int((ct.typmod - 4) & 0xffff)
		}
	case pgtypes.OIDDate:
		r["datetime_precision"] = 0
	case pgtypes.OIDTime, pgtypes.OIDTimeTZ, pgtypes.OIDTimestamp, pgtypes.OIDTimestampTZ, pgtypes.OIDInterval:
		p := 6
		if ct.typmod >= 0 {
			p = int(ct.typmod)
		}
		r["datetime_precision"] = p
	}
	return r
}

func (c *Catalog) infoColumnsRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		meta := fluss.MetaOf(t.Descriptor)
		var sc *deparse.Scope
		scope := func() deparse.Scope {
			if sc == nil {
				v := c.scopeOf(t, meta) // exprs.go
				sc = &v
			}
			return *sc
		}
		for i, col := range t.Descriptor.Schema.Columns {
			m := meta.Column(i)
			r := c.withInfoDomain(c.withInfoColumnMeta(c.columnRow(t.Path.Database, t.Path.Table, i+1, col.Name, shownType(col.Type, m)), t, i, m, s, scope), m) // domains.go
			if m.Collation != "" {                                                                                                                               // CREATE TABLE's COLLATE (pgstorage.go)
				r["collation_catalog"], r["collation_schema"], r["collation_name"] = c.opts.Database, pgCatalog, m.Collation
			}
			rows = append(rows, r)
		}
	}
	for i := range relationSpecs {
		sp := &relationSpecs[i]
		for k, col := range sp.cols {
			rows = append(rows, c.columnRow(sp.schema, sp.name, k+1, col.name, col.t))
		}
	}
	return rows, nil
}

// infoTableConstraintRows lists primary keys and, as PostgreSQL does, one
// CHECK constraint per NOT NULL column (named nspoid_reloid_attnum_not_null).
func (c *Catalog) infoTableConstraintRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	mk := func(t fluss.TableInfo, name, typ string) row {
		return row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database,
			"constraint_name": name, "table_catalog": c.opts.Database, "table_schema": t.Path.Database,
			"table_name": t.Path.Table, "constraint_type": typ, "is_deferrable": "NO",
			"initially_deferred": "NO", "enforced": "YES"}
	}
	for _, t := range s.tables {
		if t.HasPrimaryKey() {
			rows = append(rows, mk(t, pkName(t), "PRIMARY KEY"))
		}
		for _, u := range uniquesOf(t) { // unique.go
			if !u.Index {
				r := mk(t, u.Name, "UNIQUE")
				// PostgreSQL 15 shows YES for a NULLS DISTINCT unique
				// constraint (the only kind binder accepts) and NULL for
				// every other constraint type.
				r["nulls_distinct"] = "YES"
				rows = append(rows, r)
			}
		}
		for i, col := range t.Descriptor.Schema.Columns {
			if col.Type.NotNull {
				name := strconv.FormatUint(uint64(namespaceOID(t.Path.Database)), 10) + "_" + strconv.FormatUint(uint64(RelationOID(t.TableID)), 10) +
					"_" + strconv.Itoa(i+1) + "_not_null"
				rows = append(rows, mk(t, name, "CHECK"))
			}
		}
	}
	return append(rows, c.fkTableConstraintRows(s)...), nil // fkeys.go
}

func (c *Catalog) infoKeyColumnRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		for k, name := range t.Descriptor.Schema.PrimaryKey {
			rows = append(rows, row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database,
				"constraint_name": pkName(t), "table_catalog": c.opts.Database, "table_schema": t.Path.Database,
				"table_name": t.Path.Table, "column_name": name, "ordinal_position": k + 1})
		}
		for _, u := range uniquesOf(t) { // unique.go
			if u.Index {
				continue
			}
			for k, col := range u.Columns {
				rows = append(rows, row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database,
					"constraint_name": u.Name, "table_catalog": c.opts.Database, "table_schema": t.Path.Database,
					"table_name": t.Path.Table, "column_name": t.Descriptor.Schema.Columns[col].Name, "ordinal_position": k + 1})
			}
		}
	}
	return append(rows, c.fkKeyColumnRows(s)...), nil // fkeys.go
}

func (c *Catalog) infoRoutineRows() []row {
	rows := make([]row, len(c.procs))
	for i, p := range c.procs {
		specific := p.name + "_" + strconv.FormatUint(uint64(p.oid), 10)
		r := row{"specific_catalog": c.opts.Database, "specific_schema": pgCatalog, "specific_name": specific,
			"routine_catalog": c.opts.Database, "routine_schema": pgCatalog, "routine_name": p.name,
			"routine_type": "FUNCTION", "type_udt_catalog": c.opts.Database, "type_udt_schema": pgCatalog,
			"routine_body": "EXTERNAL", "external_language": "INTERNAL", "parameter_style": "GENERAL",
			"is_deterministic": "NO", "sql_data_access": "MODIFIES", "is_null_call": "YES",
			"schema_level_routine": "YES", "is_user_defined_cast": "NO", "is_implicitly_invocable": "NO",
			"security_type": "INVOKER", "as_locator": "NO", "is_udt_dependent": "NO"}
		if ts, ok := c.types[p.ret]; ok {
			r["type_udt_name"] = ts.name
			r["data_type"] = c.FormatType(p.ret, -1, false)
		}
		rows[i] = r
	}
	return rows
}
