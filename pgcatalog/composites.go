package pgcatalog

import (
	"github.com/sqlgate/sqlgate/types"
)

// Composite types (CREATE TYPE name AS (f type, ...)): as PostgreSQL
// shows one, pg_type has a row for it (typtype 'c', typrelid its pg_class
// row) and for its array type ("_name"), pg_class a row of relkind 'c'
// whose reltype is the type, and pg_attribute a row per attribute, so
// that psql's \dT and \d name work. Options.CompositeTypes lists them;
// the engine keeps them (engine/compositetypes.go).

// compositeTypes are the composite types now (none without
// Options.CompositeTypes).
func (c *Catalog) compositeTypes() []*types.CompositeType {
	if c.opts.CompositeTypes == nil {
		return nil
	}
	return c.opts.CompositeTypes()
}

// compositeTypeRows are pg_type's rows of the composite types and their
// arrays.
func (c *Catalog) compositeTypeRows() []row {
	var rows []row
	for _, t := range c.compositeTypes() {
		ns := namespaceOID(t.Schema)
		rows = append(rows, typeRow(t.OID, t.Name, ns, -1, false, "c", "C", false, 0, t.ArrayOID, t.RelOID, "d", "x", 0))
		rows = append(rows, compositeArrayRow(t.ArrayOID, t.Name, ns, t.OID))
	}
	return rows
}

// compositeArrayRow is pg_type's row of the array type oid ("_name") of
// the composite type elem (a table's row type, or CREATE TYPE's).
func compositeArrayRow(oid uint32, name string, ns, elem uint32) row {
	a := typeRow(oid, "_"+name, ns, -1, false, "b", "A", false, elem, 0, 0, "d", "x", 0)
	for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
		a[col] = typeProcs[oidTextArray][i]
	}
	return a
}

// compositeClassRows are pg_class's rows of the composite types.
func (c *Catalog) compositeClassRows() []row {
	var rows []row
	for _, t := range c.compositeTypes() {
		r := classBase(t.RelOID, t.Name, namespaceOID(t.Schema), "c", len(t.Fields))
		r["reltype"] = t.OID
		r["relfilenode"] = 0
		rows = append(rows, r)
	}
	return rows
}

// compositeAttributeRows are pg_attribute's rows of the composite types'
// attributes.
func (c *Catalog) compositeAttributeRows() []row {
	var rows []row
	for _, t := range c.compositeTypes() {
		for i, f := range t.Fields {
			rows = append(rows, c.attributeRow(t.RelOID, i+1, f.Name, f.Type.Nullable()))
		}
	}
	return rows
}

// compositeTypeName is the name of the composite type (or array of one)
// oid.
func (c *Catalog) compositeTypeName(oid uint32) (string, bool) {
	for _, t := range c.compositeTypes() {
		switch oid {
		case t.OID:
			return t.Name, true
		case t.ArrayOID:
			return "_" + t.Name, true
		}
	}
	return "", false
}

// compositeTypeOID is the OID of the composite type named name (or
// name[]).
func (c *Catalog) compositeTypeOID(name string, array bool) (uint32, bool) {
	for _, t := range c.compositeTypes() {
		if t.Name == name || t.QualifiedName() == name {
			if array {
				return t.ArrayOID, true
			}
			return t.OID, true
		}
	}
	return 0, false
}

// formatCompositeType is format_type's name of the composite type (or
// array of one) oid, from the store's registry (Options.Types), which
// holds CREATE TYPE's composites and the row types of the tables
// statements have named.
func (cat *Catalog) formatCompositeType(oid uint32) (string, bool) {
	reg := cat.opts.Types
	if c := reg.Composite(oid); c != nil {
		return quoteTypeName(c.Schema, c.Name), true
	}
	if c := reg.Composite(oid - 1); c != nil && c.ArrayOID == oid {
		return quoteTypeName(c.Schema, c.Name) + "[]", true
	}
	if elem, ok := types.TableRowTypeOfArray(oid); ok {
		if c := reg.Composite(elem); c != nil {
			return quoteTypeName(c.Schema, c.Name) + "[]", true
		}
	}
	return "", false
}

// compositeByRel is the composite type whose pg_class row is oid, nil
// when there is none.
func (c *Catalog) compositeByRel(oid uint32) *types.CompositeType {
	if oid < firstUserOID {
		return nil
	}
	for _, t := range c.compositeTypes() {
		if t.RelOID == oid {
			return t
		}
	}
	return nil
}
