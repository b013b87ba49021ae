package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
)

// RelationSize implements functions.CatalogInfo: the bytes the store
// keeps for a relation (fluss.TableSizer), split as PostgreSQL's size
// functions split them. A table's main fork is its data files (the
// bucket logs), its indexes its primary-key state's share of the
// key-value store and the hidden index tables of its UNIQUE constraints;
// a primary-key index's main fork is that state, a unique index's its
// index table's files and state. Views, system catalogs and the
// relations of a store that cannot tell (a Fluss cluster) take 0.
func (c *Catalog) RelationSize(ctx context.Context, oid uint32) (functions.RelationSize, bool, error) {
	sizer, _ := c.store.(fluss.TableSizer)
	if t, u, found, err := c.uniqueByOID(ctx, oid, uniqueIndexOIDBase); found || err != nil { // unique.go
		if err != nil || sizer == nil {
			return functions.RelationSize{}, found, err
		}
		n, err := tableBytes(ctx, sizer, fluss.IndexTablePath(t.TableID, u.ID))
		return functions.RelationSize{Main: n}, true, err
	}
	t, index, spec, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || spec != nil || sizer == nil {
		return functions.RelationSize{}, ok, err
	}
	if _, isView := c.viewByOID(oid); isView {
		return functions.RelationSize{}, true, nil
	}
	size, found, err := sizer.TableSize(ctx, t.Path)
	if err != nil || !found {
		return functions.RelationSize{}, true, err
	}
	if index {
		return functions.RelationSize{Main: size.Key}, true, nil
	}
	out := functions.RelationSize{Main: size.Data, Indexes: size.Key}
	for _, u := range uniquesOf(t) {
		n, err := tableBytes(ctx, sizer, fluss.IndexTablePath(t.TableID, u.ID))
		if err != nil {
			return functions.RelationSize{}, true, err
		}
		out.Indexes += n
	}
	return out, true, nil
}

// DatabaseSize implements functions.CatalogInfo: the store's bytes on
// disk (0 when the store cannot tell).
func (c *Catalog) DatabaseSize(ctx context.Context) (int64, error) {
	if sizer, ok := c.store.(fluss.TableSizer); ok {
		return sizer.StoreSize(ctx)
	}
	return 0, nil
}

// tableBytes is all the table at path takes: its data and its key state.
func tableBytes(ctx context.Context, sizer fluss.TableSizer, path fluss.TablePath) (int64, error) {
	size, _, err := sizer.TableSize(ctx, path)
	return size.Data + size.Key, err
}
