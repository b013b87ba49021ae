package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
)

// One system catalog row by its OID, for the functions that identify an
// object or a relation's storage from its catalog rows
// (functions.CatalogRows: pg_identify_object, pg_relation_filenode and
// their kin). The row is the one a scan of the catalog shows, built by
// the same generator.

var _ functions.CatalogRows = (*Catalog)(nil)

// CatalogRow implements functions.CatalogRows: the row of catalog
// pg_catalog.name whose oid column is oid, as column name to value
// (oids as uint32, integers as int, text as string).
func (c *Catalog) CatalogRow(ctx context.Context, name string, oid uint32) (map[string]any, bool, error) {
	var found map[string]any
	err := c.eachCatalogRow(ctx, name, func(r map[string]any) bool {
		if rowOID(r) == oid {
			found = r
			return false
		}
		return true
	})
	return found, found != nil, err
}

// EachCatalogRow implements functions.CatalogRows: every row of catalog
// pg_catalog.name until each returns false.
func (c *Catalog) EachCatalogRow(ctx context.Context, name string, each func(map[string]any) bool) error {
	return c.eachCatalogRow(ctx, name, each)
}

func (c *Catalog) eachCatalogRow(ctx context.Context, name string, each func(map[string]any) bool) error {
	gen, ok := c.rows[name]
	if !ok {
		return nil
	}
	s, err := c.snapshot(ctx)
	if err != nil {
		return err
	}
	rows, err := gen(ctx, s)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !each(r) {
			return nil
		}
	}
	return nil
}
