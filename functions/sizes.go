package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// RelationSize is a relation's bytes on disk as PostgreSQL's size
// functions split them: Main its main fork (pg_relation_size), Indexes
// its indexes' (pg_indexes_size). sqlgate's relations have no TOAST
// table, free space map, visibility map or init fork, so pg_table_size
// is Main and pg_total_relation_size Main and Indexes.
type RelationSize struct {
	Main, Indexes int64
}

// DatabaseSizer is implemented by a CatalogInfo that can say how many
// bytes sqlgate's one database takes (pg_database_size; 0 without it).
type DatabaseSizer interface {
	DatabaseSize(ctx context.Context) (int64, error)
}

// sizeFuncs are PostgreSQL's object size functions. Their relation is a
// regclass, as PostgreSQL declares it, so that a literal names the
// relation ('t' is read as regclass input: 42P01 for a missing one); a
// relation OID that names nothing is NULL. The text overloads stand for
// PostgreSQL's implicit text to regclass cast (pg_relation_size(col) of a
// text column).
func sizeFuncs() []*Func {
	regclass := types.RegOf(types.RegClass)
	var fs []*Func
	for _, f := range []struct {
		name string
		size func(RelationSize) int64
	}{
		{"pg_relation_size", func(r RelationSize) int64 { return r.Main }},
		{"pg_table_size", func(r RelationSize) int64 { return r.Main }},
		{"pg_indexes_size", func(r RelationSize) int64 { return r.Indexes }},
		{"pg_total_relation_size", func(r RelationSize) int64 { return r.Main + r.Indexes }},
	} {
		size := f.size
		fs = append(fs,
			&Func{Name: f.name, Args: []types.T{regclass}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				return relationSizeOf(ctx, c, oidArg(a[0]), size)
			})},
			&Func{Name: f.name, Args: []types.T{tText}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				oid, err := relationByName(ctx, c, a[0].(string))
				if err != nil {
					return nil, err
				}
				return relationSizeOf(ctx, c, oid, size)
			})})
	}
	fs = append(fs,
		// pg_relation_size(rel, fork): a missing relation is NULL before
		// the fork's name is looked at (PostgreSQL's try_relation_open,
		// then forkname_to_number)
		&Func{Name: "pg_relation_size", Args: []types.T{regclass, tText}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			r, ok, err := c.RelationSize(ctx, oidArg(a[0]))
			if err != nil || !ok {
				return nil, err
			}
			switch a[1].(string) {
			case "main":
				return r.Main, nil
			case "fsm", "vm", "init":
				return int64(0), nil // forks sqlgate's relations have none of
			}
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid fork name").
				WithHint("%s", `Valid fork names are "main", "fsm", "vm", and "init".`)
		})},
		&Func{Name: "pg_database_size", Args: []types.T{tName}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			if !isOwnDatabase(ctx, c, a[0].(string)) {
				return nil, sqlerr.New(sqlerr.InvalidCatalogName, "database %q does not exist", a[0].(string))
			}
			return databaseSize(ctx, c)
		})},
		&Func{Name: "pg_database_size", Args: []types.T{tOid}, Ret: tInt8, Strict: true, Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			if !isOwnDatabaseOID(ctx, c, oidArg(a[0])) {
				return nil, nil // no such database: NULL, as on PostgreSQL
			}
			return databaseSize(ctx, c)
		})},
	)
	return fs
}

// relationSizeOf is the part size picks of relation oid's sizes, NULL
// when no relation has the OID.
func relationSizeOf(ctx context.Context, c CatalogInfo, oid uint32, size func(RelationSize) int64) (any, error) {
	r, ok, err := c.RelationSize(ctx, oid)
	if err != nil || !ok {
		return nil, err
	}
	return size(r), nil
}

// databaseSize is sqlgate's database's bytes on disk.
func databaseSize(ctx context.Context, c CatalogInfo) (any, error) {
	if d, ok := c.(DatabaseSizer); ok {
		return d.DatabaseSize(ctx)
	}
	return int64(0), nil
}
