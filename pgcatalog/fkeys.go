package pgcatalog

import (
	"context"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
)

// FOREIGN KEY constraints (sqlgate's metadata, fluss.ForeignKey) in
// pg_constraint (contype 'f') and pg_get_constraintdef. A foreign key's
// OID is firstUserOID + 9<<22 + its table's id * 64 + the number its
// metadata keys carry (fluss.FKeyNumbers), as a CHECK's is.

const fkeyOIDBase = firstUserOID + 9*oidStride

func fkeyOID(tableID int64, k int) uint32 { return uint32(fkeyOIDBase + tableID*64 + int64(k)) }

// tableByPath finds a table of the snapshot by its path.
func tableByPath(ts []fluss.TableInfo, p fluss.TablePath) (fluss.TableInfo, bool) {
	for _, t := range ts {
		if t.Path == p {
			return t, true
		}
	}
	return fluss.TableInfo{}, false
}

// attnums are 0-based column indexes as 1-based attnums.
func attnums(idx []int) []int {
	out := make([]int, len(idx))
	for i, n := range idx {
		out[i] = n + 1
	}
	return out
}

// fkeyRows are pg_constraint's rows of the snapshot's foreign keys (one
// whose referenced table is gone has confrelid 0).
func fkeyRows(s *snapshot) []row {
	var rows []row
	for _, t := range s.tables {
		numbers := fluss.FKeyNumbers(t.Descriptor)
		for k, fk := range fluss.MetaOf(t.Descriptor).ForeignKeys {
			var confrelid uint32
			p, referenced := tableByPath(s.tables, fk.RefTable)
			if referenced {
				confrelid = RelationOID(p.TableID)
			}
			r := row{
				"oid": fkeyOID(t.TableID, numbers[k]), "conname": fk.Name, "connamespace": namespaceOID(t.Path.Database), "contype": "f",
				"condeferrable": fk.Deferrable, "condeferred": fk.Deferred, "convalidated": !fk.NotValid, "conrelid": RelationOID(t.TableID),
				"contypid": 0, "conindid": 0, "conparentid": 0, "confrelid": confrelid,
				"confupdtype": string(fk.OnUpdate), "confdeltype": string(fk.OnDelete), "confmatchtype": string(fk.Match),
				"conislocal": true, "coninhcount": 0, "connoinherit": true,
				"conkey": int2s(attnums(fk.Columns)), "confkey": int2s(attnums(fk.RefColumns)),
			}
			if u, ok := fluss.ReferencedUnique(p, fk); referenced && ok {
				r["conindid"] = uniqueIndexOID(p.TableID, u.ID) // a UNIQUE constraint's columns
			} else if referenced && p.HasPrimaryKey() {
				r["conindid"] = pkIndexOID(p.TableID)
			}
			if fk.DeleteSetColumns != nil {
				r["confdelsetcols"] = int2s(attnums(fk.DeleteSetColumns))
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// fkeyTables are the tables that have a foreign key or are referenced by
// one: PostgreSQL's relhastriggers (its foreign keys are triggers on both
// tables), which psql's \d asks before it lists them. One pass over the
// snapshot's tables, for all of pg_class's rows.
func fkeyTables(ts []fluss.TableInfo) map[fluss.TablePath]bool {
	out := map[fluss.TablePath]bool{}
	for _, t := range ts {
		for _, fk := range fluss.MetaOf(t.Descriptor).ForeignKeys {
			out[t.Path], out[fk.RefTable] = true, true
		}
	}
	return out
}

// fkeyDef is pg_get_constraintdef of a foreign key's OID.
func (c *Catalog) fkeyDef(ctx context.Context, oid uint32) (string, bool, error) {
	if oid < fkeyOIDBase || oid >= fkeyOIDBase+oidStride {
		return "", false, nil
	}
	ts, _, err := c.allTables(ctx)
	if err != nil {
		return "", false, err
	}
	for _, t := range ts {
		if t.TableID != (int64(oid)-fkeyOIDBase)/64 {
			continue
		}
		numbers := fluss.FKeyNumbers(t.Descriptor)
		for k, fk := range fluss.MetaOf(t.Descriptor).ForeignKeys {
			if fkeyOID(t.TableID, numbers[k]) != oid {
				continue
			}
			refCols := []fluss.Column(nil)
			if p, ok := tableByPath(ts, fk.RefTable); ok {
				refCols = p.Descriptor.Schema.Columns
			}
			ref := quoteIdent(fk.RefTable.Table)
			if !onPath(ctx, fk.RefTable.Database) {
				ref = quoteIdent(fk.RefTable.Database) + "." + ref
			}
			return FKeyDef(fk, t.Descriptor.Schema.Columns, refCols, ref), true, nil
		}
	}
	return "", false, nil
}

// FKeyDef is PostgreSQL's text of a foreign key (pg_get_constraintdef):
// cols and refCols are the two tables' columns, ref the referenced
// table's name as printed.
func FKeyDef(fk fluss.ForeignKey, cols, refCols []fluss.Column, ref string) string {
	names := func(cs []fluss.Column, idx []int) string {
		out := make([]string, len(idx))
		for i, n := range idx {
			if n < len(cs) {
				out[i] = quoteIdent(cs[n].Name)
			}
		}
		return strings.Join(out, ", ")
	}
	var b strings.Builder
	b.WriteString("FOREIGN KEY (" + names(cols, fk.Columns) + ") REFERENCES " + ref + "(" + names(refCols, fk.RefColumns) + ")")
	if fk.Match == 'f' {
		b.WriteString(" MATCH FULL")
	}
	// NO ACTION, the default, is not written
	if a := fkRules[fk.OnUpdate]; a != "" && fk.OnUpdate != 'a' {
		b.WriteString(" ON UPDATE " + a)
	}
	if a := fkRules[fk.OnDelete]; a != "" && fk.OnDelete != 'a' {
		b.WriteString(" ON DELETE " + a)
		if fk.DeleteSetColumns != nil {
			b.WriteString(" (" + names(cols, fk.DeleteSetColumns) + ")")
		}
	}
	if fk.Deferrable {
		b.WriteString(" DEFERRABLE")
	}
	if fk.Deferred {
		b.WriteString(" INITIALLY DEFERRED")
	}
	if fk.NotValid {
		b.WriteString(" NOT VALID")
	}
	return b.String()
}

// information_schema's rows of the foreign keys (beside the primary keys'
// of infoschema.go): table_constraints, key_column_usage (with the
// referenced column's place in the primary key), referential_constraints
// and constraint_column_usage (the referenced columns, as PostgreSQL
// lists them; a primary key's own columns).

// fkInfoRows calls fn with each foreign key of the snapshot, its table
// and its referenced table (ok false when that is gone).
func fkInfoRows(s *snapshot, fn func(t fluss.TableInfo, fk fluss.ForeignKey, p fluss.TableInfo, ok bool)) {
	for _, t := range s.tables {
		for _, fk := range fluss.MetaOf(t.Descriptor).ForeignKeys {
			p, ok := tableByPath(s.tables, fk.RefTable)
			fn(t, fk, p, ok)
		}
	}
}

// fkTableConstraintRows are table_constraints' rows of the foreign keys.
func (c *Catalog) fkTableConstraintRows(s *snapshot) []row {
	var rows []row
	fkInfoRows(s, func(t fluss.TableInfo, fk fluss.ForeignKey, _ fluss.TableInfo, _ bool) {
		rows = append(rows, row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database,
			"constraint_name": fk.Name, "table_catalog": c.opts.Database, "table_schema": t.Path.Database,
			"table_name": t.Path.Table, "constraint_type": "FOREIGN KEY", "is_deferrable": yesNo(fk.Deferrable),
			"initially_deferred": yesNo(fk.Deferred), "enforced": "YES"})
	})
	return rows
}

// fkKeyColumnRows are key_column_usage's rows of the foreign keys.
func (c *Catalog) fkKeyColumnRows(s *snapshot) []row {
	var rows []row
	fkInfoRows(s, func(t fluss.TableInfo, fk fluss.ForeignKey, p fluss.TableInfo, ok bool) {
		for k, col := range fk.Columns {
			r := row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database,
				"constraint_name": fk.Name, "table_catalog": c.opts.Database, "table_schema": t.Path.Database,
				"table_name": t.Path.Table, "column_name": t.Descriptor.Schema.Columns[col].Name, "ordinal_position": k + 1}
			if u, unique := fluss.ReferencedUnique(p, fk); ok && unique {
				if j := slices.Index(u.Columns, fk.RefColumns[k]); j >= 0 {
					r["position_in_unique_constraint"] = j + 1
				}
			} else if ok {
				for j, name := range p.Descriptor.Schema.PrimaryKey {
					if p.ColumnIndex(name) == fk.RefColumns[k] {
						r["position_in_unique_constraint"] = j + 1
					}
				}
			}
			rows = append(rows, r)
		}
	})
	return rows
}

// fkRules name pg_constraint's confupdtype / confdeltype codes.
var fkRules = map[byte]string{'a': "NO ACTION", 'r': "RESTRICT", 'c': "CASCADE", 'n': "SET NULL", 'd': "SET DEFAULT"}

// infoReferentialRows are referential_constraints' rows.
func (c *Catalog) infoReferentialRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	fkInfoRows(s, func(t fluss.TableInfo, fk fluss.ForeignKey, p fluss.TableInfo, ok bool) {
		match := "NONE"
		if fk.Match == 'f' {
			match = "FULL"
		}
		r := row{"constraint_catalog": c.opts.Database, "constraint_schema": t.Path.Database, "constraint_name": fk.Name,
			"match_option": match, "update_rule": fkRules[fk.OnUpdate], "delete_rule": fkRules[fk.OnDelete]}
		u, unique := fluss.ReferencedUnique(p, fk)
		if ok && !(unique && u.Index) { // (a unique index is no constraint: NULL, as PostgreSQL's)
			name := pkName(p)
			if unique {
				name = u.Name
			}
			r["unique_constraint_catalog"], r["unique_constraint_schema"], r["unique_constraint_name"] = c.opts.Database, p.Path.Database, name
		}
		rows = append(rows, r)
	})
	return rows, nil
}

// infoConstraintColumnRows are constraint_column_usage's rows: each
// primary key's columns, each foreign key's referenced columns.
func (c *Catalog) infoConstraintColumnRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	mk := func(t fluss.TableInfo, column string, schema, name string) row {
		return row{"table_catalog": c.opts.Database, "table_schema": t.Path.Database, "table_name": t.Path.Table, "column_name": column,
			"constraint_catalog": c.opts.Database, "constraint_schema": schema, "constraint_name": name}
	}
	for _, t := range s.tables {
		for _, n := range t.Descriptor.Schema.PrimaryKey {
			rows = append(rows, mk(t, n, t.Path.Database, pkName(t)))
		}
		for _, u := range uniquesOf(t) { // unique.go
			for _, col := range u.Columns {
				if !u.Index {
					rows = append(rows, mk(t, t.Descriptor.Schema.Columns[col].Name, t.Path.Database, u.Name))
				}
			}
		}
	}
	fkInfoRows(s, func(t fluss.TableInfo, fk fluss.ForeignKey, p fluss.TableInfo, ok bool) {
		if !ok {
			return
		}
		for _, col := range fk.RefColumns {
			if col < len(p.Descriptor.Schema.Columns) {
				rows = append(rows, mk(p, p.Descriptor.Schema.Columns[col].Name, t.Path.Database, fk.Name))
			}
		}
	})
	return rows, nil
}
