package functions

import (
	"context"
	"fmt"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The functions about where a relation's rows would be kept (PostgreSQL
// 15 §9.27.7: pg_relation_filenode, pg_relation_filepath,
// pg_filenode_relation) and how much a tablespace holds
// (pg_tablespace_size). sqlgate keeps rows in Fluss, not in files: the
// answers follow pg_class as it shows a relation (relkind, relfilenode,
// reltablespace), so that a tool that joins them with pg_class gets
// PostgreSQL's agreement between the two.

// CatalogRows is implemented by a CatalogInfo that can read its system
// catalogs' rows (pgcatalog does): a row is column name to value, oids
// as uint32 and integers as int.
type CatalogRows interface {
	// CatalogRow is the row of pg_catalog.name whose oid column is oid.
	CatalogRow(ctx context.Context, name string, oid uint32) (row map[string]any, ok bool, err error)
	// EachCatalogRow calls each with the rows of pg_catalog.name until it
	// returns false.
	EachCatalogRow(ctx context.Context, name string, each func(row map[string]any) bool) error
}

func catalogRowsOf(c CatalogInfo) (CatalogRows, error) {
	if r, ok := c.(CatalogRows); ok {
		return r, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "this catalog cannot list its rows")
}

// rowUint32 reads an oid (or integer) column of a catalog row.
func rowUint32(r map[string]any, col string) uint32 {
	switch v := r[col].(type) {
	case uint32:
		return v
	case int:
		return uint32(v)
	case int64:
		return uint32(v)
	}
	return 0
}

// rowString reads a text, name or "char" column of a catalog row.
func rowString(r map[string]any, col string) string {
	s, _ := r[col].(string)
	return s
}

// relationFile is where PostgreSQL would keep a relation's main fork: its
// filenode (a mapped catalog's, whose pg_class.relfilenode is 0, is its
// OID, what the relation map holds until VACUUM FULL) and tablespace.
// hasStorage is false for the kinds RELKIND_HAS_STORAGE excludes (views,
// composite types, partitioned tables and indexes, foreign tables).
type relationFile struct {
	filenode, tablespace uint32
	shared, hasStorage   bool
}

func relFile(ctx context.Context, c CatalogInfo, oid uint32) (relationFile, bool, error) {
	cr, err := catalogRowsOf(c)
	if err != nil {
		return relationFile{}, false, err
	}
	r, ok, err := cr.CatalogRow(ctx, "pg_class", oid)
	if err != nil || !ok {
		return relationFile{}, false, err
	}
	f := relationFile{filenode: rowUint32(r, "relfilenode"), tablespace: rowUint32(r, "reltablespace"), shared: r["relisshared"] == true}
	switch rowString(r, "relkind") {
	case "r", "i", "S", "t", "m":
		f.hasStorage = true
	}
	if f.filenode == 0 {
		f.filenode = oid // a mapped catalog
	}
	return f, true, nil
}

func relFileFuncs() []*Func {
	reg := types.RegOf(types.RegClass)
	return []*Func{
		// NULL for a relation without storage and for an OID that names
		// no relation
		{Name: "pg_relation_filenode", Args: []types.T{reg}, Ret: tOid, Strict: true, Kernel: withCatalog(tOid, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			f, ok, err := relFile(ctx, c, oidArg(a[0]))
			if err != nil || !ok || !f.hasStorage {
				return nil, err
			}
			return int64(f.filenode), nil
		})},
		// relpath(): global/<filenode> in pg_global, base/<database
		// oid>/<filenode> in the database's default tablespace, the only
		// two sqlgate has
		{Name: "pg_relation_filepath", Args: []types.T{reg}, Ret: tText, Strict: true, Kernel: withCatalog(tText, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			f, ok, err := relFile(ctx, c, oidArg(a[0]))
			if err != nil || !ok || !f.hasStorage {
				return nil, err
			}
			if f.tablespace == globalTablespaceOID {
				return fmt.Sprintf("global/%d", f.filenode), nil
			}
			return fmt.Sprintf("base/%d/%d", DatabaseOID(sessionOf(ctx).Database), f.filenode), nil
		})},
		{Name: "pg_filenode_relation", Args: []types.T{tOid, tOid}, Ret: reg, Strict: true, Kernel: withCatalog(reg, filenodeRelation)},
		{Name: "pg_tablespace_size", Args: []types.T{tOid}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			return tablespaceSize(ctx, c, oidArg(a[0]))
		})},
		{Name: "pg_tablespace_size", Args: []types.T{tName}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			p, err := privilegeCatalog(c)
			if err != nil {
				return nil, err
			}
			oid, ok := p.LookupTablespace(a[0].(string))
			if !ok {
				return nil, sqlerr.New(sqlerr.UndefinedObject, "tablespace %q does not exist", a[0].(string))
			}
			return tablespaceSize(ctx, c, oid)
		})},
	}
}

// filenodeRelation is pg_filenode_relation(tablespace, filenode), as
// RelidByRelfilenode finds it: the relation with storage whose pg_class
// row names that tablespace (0 or pg_default: the database's) and
// filenode, else the mapped catalog with that filenode, shared when the
// tablespace is pg_global; NULL for filenode 0 or none.
func filenodeRelation(ctx context.Context, c CatalogInfo, a []any) (any, error) {
	spc, node := oidArg(a[0]), oidArg(a[1])
	if node == 0 {
		return nil, nil
	}
	if spc == defaultTablespaceOID {
		spc = 0
	}
	cr, err := catalogRowsOf(c)
	if err != nil {
		return nil, err
	}
	var found, mapped uint32
	err = cr.EachCatalogRow(ctx, "pg_class", func(r map[string]any) bool {
		switch rowString(r, "relkind") {
		case "r", "i", "S", "t", "m":
		default:
			return true
		}
		oid := rowUint32(r, "oid")
		switch rowUint32(r, "relfilenode") {
		case 0:
			if oid == node && (r["relisshared"] == true) == (spc == globalTablespaceOID) {
				mapped = oid
			}
		case node:
			if rowUint32(r, "reltablespace") == spc {
				found = oid
				return false
			}
		}
		return true
	})
	switch {
	case err != nil:
		return nil, err
	case found != 0:
		return int64(found), nil
	case mapped != 0:
		return int64(mapped), nil
	}
	return nil, nil
}

// tablespaceSize is pg_tablespace_size: what the tablespace's databases
// hold, 0 for sqlgate's database in pg_default (and
// pg_global's shared catalogs, which take no space either); NULL for an
// OID that is no tablespace, whose directory PostgreSQL does not find.
func tablespaceSize(_ context.Context, c CatalogInfo, oid uint32) (any, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return nil, err
	}
	if !p.TablespaceExists(oid) {
		return nil, nil
	}
	return int64(0), nil
}
