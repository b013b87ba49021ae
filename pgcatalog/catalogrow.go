package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
)

// One system catalog row by its OID, for the functions that identify an
// object or a relation's storage from its catalog rows
// (functions.CatalogRows: pg_identify_object, pg_relation_filenode and
// their kin). The row is the one a scan of the catalog shows, built by
// the same generator. A catalog's rows are generated once per statement
// and kept, indexed by OID, in the statement's memo (functions.Memoized):
// SELECT pg_relation_filenode(oid) FROM pg_class asks once per row, and
// generating pg_class for each would make it quadratic in the number of
// tables.

var _ functions.CatalogRows = (*Catalog)(nil)

// catalogRowsKey is the statement memo's key for one catalog's rows.
type catalogRowsKey struct {
	c    *Catalog
	name string
}

// catalogRows are one catalog's rows as a statement saw them, with the
// first row of each OID.
type catalogRows struct {
	rows  []row
	byOID map[uint32]row
}

// CatalogRow implements functions.CatalogRows: the row of catalog
// pg_catalog.name whose oid column is oid, as column name to value
// (oids as uint32, integers as int, text as string).
func (c *Catalog) CatalogRow(ctx context.Context, name string, oid uint32) (map[string]any, bool, error) {
	cr, err := c.catalogRows(ctx, name)
	if err != nil || cr == nil {
		return nil, false, err
	}
	r, ok := cr.byOID[oid]
	return r, ok, nil
}

// EachCatalogRow implements functions.CatalogRows: every row of catalog
// pg_catalog.name until each returns false.
func (c *Catalog) EachCatalogRow(ctx context.Context, name string, each func(map[string]any) bool) error {
	cr, err := c.catalogRows(ctx, name)
	if err != nil || cr == nil {
		return err
	}
	for _, r := range cr.rows {
		if !each(r) {
			return nil
		}
	}
	return nil
}

// catalogRows generates catalog name's rows, once per statement; nil for
// a name that is no catalog.
func (c *Catalog) catalogRows(ctx context.Context, name string) (*catalogRows, error) {
	gen, ok := c.rows[name]
	if !ok {
		return nil, nil
	}
	v, err := functions.Memoized(ctx, catalogRowsKey{c, name}, func() (any, error) {
		s, err := c.snapshot(ctx)
		if err != nil {
			return nil, err
		}
		rows, err := gen(ctx, s)
		if err != nil {
			return nil, err
		}
		cr := &catalogRows{rows: rows, byOID: make(map[uint32]row, len(rows))}
		for _, r := range rows {
			if oid := rowOID(r); oid != 0 {
				if _, dup := cr.byOID[oid]; !dup {
					cr.byOID[oid] = r
				}
			}
		}
		return cr, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*catalogRows), nil
}
