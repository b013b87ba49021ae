package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
)

// The lookups the has_*_privilege functions need beyond CatalogInfo
// (functions.PrivilegeCatalog): what kind of relation an OID is and in
// which schema, a relation's columns, languages, tablespaces and roles by
// name. They read the same rows pg_class, pg_attribute, pg_language,
// pg_tablespace and pg_authid show.

var _ functions.PrivilegeCatalog = (*Catalog)(nil)

// RelationKind implements functions.PrivilegeCatalog: relkind ("r", "v",
// "i", "S") and the schema's name.
func (c *Catalog) RelationKind(ctx context.Context, oid uint32) (kind, schema string, ok bool, err error) {
	if q, ok, err := c.sequenceByOID(ctx, oid); err != nil || ok {
		return "S", q.Path.Database, ok, err
	}
	t, index, sp, ok, err := c.relation(ctx, oid)
	switch {
	case err != nil || !ok:
		return "", "", false, err
	case sp != nil:
		return string(sp.kind), sp.schema, true, nil
	case index:
		return "i", t.Path.Database, true, nil
	}
	if v, isView := c.viewByOID(oid); isView && !v.IsPartition() {
		return "v", t.Path.Database, true, nil
	}
	return "r", t.Path.Database, true, nil
}

// columnNames are a relation's user columns in attnum order.
func (c *Catalog) columnNames(ctx context.Context, oid uint32) ([]string, bool, error) {
	if _, isSeq, err := c.sequenceByOID(ctx, oid); err != nil || isSeq { // coldefs.go
		var names []string
		for _, col := range seqRelationCols { // seqrelation.go: what a sequence read as a relation shows
			names = append(names, col.name)
		}
		return names, isSeq, err
	}
	t, index, sp, ok, err := c.relation(ctx, oid)
	if err != nil || !ok {
		return nil, false, err
	}
	var names []string
	switch {
	case sp != nil:
		for _, col := range sp.cols {
			names = append(names, col.name)
		}
	case index:
		names = append(names, t.Descriptor.Schema.PrimaryKey...)
	default:
		for _, col := range t.Descriptor.Schema.Columns {
			names = append(names, col.Name)
		}
	}
	return names, true, nil
}

// ColumnNumber implements functions.PrivilegeCatalog: the attnum of a
// column (a system column's negative one too), ok false when the relation
// has no such column.
func (c *Catalog) ColumnNumber(ctx context.Context, reloid uint32, name string) (int, bool, error) {
	names, ok, err := c.columnNames(ctx, reloid)
	if err != nil || !ok {
		return 0, false, err
	}
	for i, n := range names {
		if n == name {
			return i + 1, true, nil
		}
	}
	for _, a := range systemAttributes {
		if a.name == name {
			return a.attnum, true, nil
		}
	}
	return 0, false, nil
}

// HasColumn implements functions.PrivilegeCatalog.
func (c *Catalog) HasColumn(ctx context.Context, reloid uint32, attnum int) (bool, error) {
	names, ok, err := c.columnNames(ctx, reloid)
	if err != nil || !ok {
		return false, err
	}
	if attnum > 0 {
		return attnum <= len(names), nil
	}
	for _, a := range systemAttributes {
		if a.attnum == attnum {
			return true, nil
		}
	}
	return false, nil
}

// rowOID reads a row's oid column (an int or a uint32, as the row
// builders write them).
func rowOID(r row) uint32 {
	switch v := r["oid"].(type) {
	case uint32:
		return v
	case int:
		return uint32(v)
	}
	return 0
}

func lookupRow(rows []row, nameKey, name string) (uint32, bool) {
	for _, r := range rows {
		if r[nameKey] == name {
			return rowOID(r), true
		}
	}
	return 0, false
}

func rowByOID(rows []row, oid uint32) bool {
	for _, r := range rows {
		if rowOID(r) == oid {
			return true
		}
	}
	return false
}

// LookupLanguage implements functions.PrivilegeCatalog.
func (c *Catalog) LookupLanguage(name string) (uint32, bool) {
	return lookupRow(languageRows(), "lanname", name)
}

// LanguageExists implements functions.PrivilegeCatalog.
func (c *Catalog) LanguageExists(oid uint32) bool { return rowByOID(languageRows(), oid) }

// LookupTablespace implements functions.PrivilegeCatalog.
func (c *Catalog) LookupTablespace(name string) (uint32, bool) {
	return lookupRow(tablespaceRows(), "spcname", name)
}

// TablespaceExists implements functions.PrivilegeCatalog.
func (c *Catalog) TablespaceExists(oid uint32) bool { return rowByOID(tablespaceRows(), oid) }

// LookupRole implements functions.PrivilegeCatalog.
func (c *Catalog) LookupRole(name string) (uint32, bool) {
	if name == "pg_database_owner" {
		return dbOwnerRoleOID, true
	}
	for _, r := range c.roles() {
		if r.Name == name {
			return c.roleOID(name), true
		}
	}
	return 0, false
}

var _ functions.CollationCatalog = (*Catalog)(nil)

// CollationExists implements functions.CollationCatalog.
func (c *Catalog) CollationExists(oid uint32) bool { return rowByOID(collationRows(), oid) }

var _ functions.AppendOnlyTables = (*Catalog)(nil)

// AppendOnly implements functions.AppendOnlyTables: a table without a
// primary key is a Fluss log table, which takes INSERT only.
func (c *Catalog) AppendOnly(ctx context.Context, oid uint32) (bool, error) {
	t, index, sp, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || index || sp != nil {
		return false, err
	}
	if _, isView := c.viewByOID(oid); isView {
		return false, nil
	}
	return !t.HasPrimaryKey(), nil
}

var _ functions.ColumnNames = (*Catalog)(nil)

// ColumnName implements functions.ColumnNames: the name of a relation's
// column attnum (1-based).
func (c *Catalog) ColumnName(ctx context.Context, reloid uint32, attnum int) (string, bool, error) {
	names, ok, err := c.columnNames(ctx, reloid)
	if err != nil || !ok || attnum < 1 || attnum > len(names) {
		return "", false, err
	}
	return names[attnum-1], true, nil
}
