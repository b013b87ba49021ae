package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// Enum types (CREATE TYPE ... AS ENUM): pg_type has a row for each (typtype
// 'e') and one for its array type ("_name", OID+1), pg_enum one per label,
// so that psql's \dT and \dT+ and drivers asking pg_type about an OID they
// met in RowDescription (the type's own OID, pgtypes.OIDOf) find them.
// Options.EnumTypes lists them; the engine keeps them (engine/enumtypes.go).

// enumTypes are the enum types now (none without Options.EnumTypes).
func (c *Catalog) enumTypes() []*types.EnumType {
	if c.opts.EnumTypes == nil {
		return nil
	}
	return c.opts.EnumTypes()
}

// enumTypeRows are pg_type's rows of the enum types and their arrays.
func (c *Catalog) enumTypeRows() []row {
	var rows []row
	for _, e := range c.enumTypes() {
		r := typeRow(e.OID, e.Name, namespaceOID(e.Schema), 4, true, "e", "E", false, 0, e.ArrayOID, 0, "i", "p", 0)
		for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
			r[col] = typeProcs[oidAnyEnum][i]
		}
		r["typowner"] = c.roleOID(e.Owner)
		rows = append(rows, r)
		a := typeRow(e.ArrayOID, "_"+e.Name, namespaceOID(e.Schema), -1, false, "b", "A", false, e.OID, 0, 0, "i", "x", 0)
		for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
			a[col] = typeProcs[oidTextArray][i]
		}
		a["typowner"] = r["typowner"]
		rows = append(rows, a)
	}
	return rows
}

// The pg_type OIDs whose I/O functions the enum types' rows show.
const (
	oidAnyEnum   = 3500
	oidTextArray = 1009
)

// enumRows are pg_enum's rows.
func (c *Catalog) enumRows(_ context.Context, _ *snapshot) ([]row, error) {
	var rows []row
	for _, e := range c.enumTypes() {
		for i, l := range e.Labels {
			rows = append(rows, row{"oid": e.LabelOIDs[i], "enumtypid": e.OID, "enumsortorder": float64(e.Sorts[i]), "enumlabel": l})
		}
	}
	return rows, nil
}

// enumTypeName is the name of the enum type (or array of one) oid.
func (c *Catalog) enumTypeName(oid uint32) (string, bool) {
	for _, e := range c.enumTypes() {
		switch oid {
		case e.OID:
			return e.Name, true
		case e.ArrayOID:
			return "_" + e.Name, true
		}
	}
	return "", false
}

// enumTypeOID is the OID of the enum type named name (or name[]).
func (c *Catalog) enumTypeOID(name string, array bool) (uint32, bool) {
	for _, e := range c.enumTypes() {
		if e.Name == name || e.QualifiedName() == name {
			if array {
				return e.ArrayOID, true
			}
			return e.OID, true
		}
	}
	return 0, false
}

// formatEnumType is format_type of an enum type or an array of one, from
// the store's registry (Options.Types).
func (c *Catalog) formatEnumType(oid uint32) (string, bool) {
	if e := c.opts.Types.Enum(oid); e != nil {
		return quoteTypeName(e.Schema, e.Name), true
	}
	if e := c.opts.Types.Enum(oid - 1); e != nil && e.ArrayOID == oid {
		return quoteTypeName(e.Schema, e.Name) + "[]", true
	}
	return "", false
}

// catalogTypes is binder.TypeCatalog over the catalog's enum types: the
// deparser resolves a cast to one ('ok'::app.mood) through it, and
// prints it as format_type does.
type catalogTypes struct{ c *Catalog }

// EnumType is the enum type schema.name; an unqualified name is public's,
// else the only one of that name.
func (t catalogTypes) EnumType(schema, name string) (types.T, bool) {
	var found *types.EnumType
	n := 0
	for _, e := range t.c.enumTypes() {
		switch {
		case e.Name != name:
		case e.Schema == schema || schema == "" && e.Schema == fluss.DefaultDatabase:
			return e.T(), true
		case schema == "":
			found, n = e, n+1
		}
	}
	if n == 1 {
		return found.T(), true
	}
	return types.T{}, false
}
