package engine

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// VirtualTables serves relations that are not stored: PostgreSQL's
// pg_catalog and information_schema, computed from the live catalog.
type VirtualTables interface {
	// Table returns the virtual relation schema.name; ok is false if there
	// is none.
	Table(ctx context.Context, schema, name string) (t fluss.Table, ok bool)
}

// tables is what the binder and the executor see: the store's tables, and
// the virtual catalog relations. An unqualified name is looked up in
// "public" first and then in pg_catalog (PostgreSQL searches pg_catalog
// first; sqlgate's user tables never shadow a catalog name the other way
// round because CREATE TABLE refuses pg_ names).
type tables struct {
	store   fluss.Store
	virtual VirtualTables
	// schemas caches the store's databases for search_path resolution
	// (schemas.go); nil resolves every unqualified name to public.
	schemas *schemaCache
	// engineTypes makes tables a binder.TypeCatalog (and DomainCatalog,
	// CompositeCatalog): every expression bound over the tables alone (a
	// column's DEFAULT for COPY, a CHECK, a generation expression) names
	// the user-defined types, qualified or not, as a statement does.
	engineTypes
}

func (t tables) virtualTable(ctx context.Context, p fluss.TablePath) (fluss.Table, bool) {
	if t.virtual == nil {
		return nil, false
	}
	switch p.Database {
	case "pg_catalog", "information_schema":
		return t.virtual.Table(ctx, p.Database, p.Table)
	case fluss.DefaultDatabase:
		if v, ok := t.virtual.Table(ctx, "pg_catalog", p.Table); ok {
			return v, true
		}
	}
	// a sequence read as a relation (SELECT last_value FROM s)
	return t.virtual.Table(ctx, p.Database, p.Table)
}

// GetTable implements binder.Catalog.
func (t tables) GetTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	info, err := t.store.GetTable(ctx, p)
	if err == nil {
		return withTypes(t.Types(), info), nil
	}
	if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return info, err
	}
	if v, ok := t.virtualTable(ctx, p); ok {
		return v.Info(), nil
	}
	return info, err
}

// storeTable is the store's table p (its GetTable), its enum columns
// bound to the engine's registry (withTypes): the statements that read a
// table's columns outside the binder's catalog (COPY, ALTER TABLE's
// defaults and CHECKs) find an enum's labels through them.
func (e *Engine) storeTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	info, err := e.store.GetTable(ctx, p)
	if err != nil {
		return info, err
	}
	return withTypes(e.typeReg, info), nil
}

// withTypes is info with reg resolving the enum types of its columns,
// which the store's descriptor names by OID alone
// (types.Registry.Bind). The descriptor's columns are copied when one
// changes: the store's stay as they are.
func withTypes(reg *types.Registry, info fluss.TableInfo) fluss.TableInfo {
	cols := info.Descriptor.Schema.Columns
	for i := range cols {
		if reg.Binds(cols[i].Type) {
			continue
		}
		out := slices.Clone(cols)
		for j := i; j < len(out); j++ {
			out[j].Type = reg.Bind(out[j].Type)
		}
		info.Descriptor.Schema.Columns = out
		break
	}
	return info
}

// Table implements lower.Tables.
func (t tables) Table(ctx context.Context, p fluss.TablePath) (fluss.Table, error) {
	tb, err := t.store.Table(ctx, p)
	if err == nil || sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return tb, err
	}
	if v, ok := t.virtualTable(ctx, p); ok {
		return v, nil
	}
	return tb, err
}

// EstimateRows implements lower.Stats from the store's metadata.
func (t tables) EstimateRows(ctx context.Context, p fluss.TablePath) (int64, bool) {
	tb, err := t.Table(ctx, p)
	if err != nil {
		return 0, false
	}
	if e, ok := tb.(fluss.RowEstimator); ok {
		return e.EstimateRows(), true
	}
	return 0, false
}

var _ lower.DistinctStats = tables{}

// EstimateDistinct implements lower.DistinctStats from the store's sketches.
func (t tables) EstimateDistinct(ctx context.Context, p fluss.TablePath, column int) (int64, bool) {
	tb, err := t.Table(ctx, p)
	if err != nil {
		return 0, false
	}
	if e, ok := tb.(fluss.DistinctEstimator); ok {
		return e.EstimateDistinct(column)
	}
	return 0, false
}

// txnTables is tables as a transaction sees them: a table it has written
// answers with its pending writes laid over the store's rows.
type txnTables struct {
	tables
	tx *txn
}

// Table implements lower.Tables.
func (t txnTables) Table(ctx context.Context, p fluss.TablePath) (fluss.Table, error) {
	tb, err := t.tables.Table(ctx, p)
	if err != nil {
		return nil, err
	}
	info := tb.Info()
	if pt := t.tx.Lookup(info.TableID); pt != nil && pt.Info().Path == info.Path {
		return pt, nil
	}
	if t.tx.Snap != nil {
		// REPEATABLE READ: the transaction's snapshot (a catalog view
		// comes back as it is).
		tb, _ = t.tx.Snap.Table(tb)
	}
	return tb, nil
}

// scanEach scans t with opts and calls f with each batch, in order, until
// the scan ends, f fails or f says stop. f owns the batch (releases or
// keeps it): the one loop of every DDL that reads a whole table (a
// rewrite's copy, a foreign key's or a unique index's validation, an
// index's keys).
func scanEach(ctx context.Context, t fluss.Table, opts fluss.ScanOptions, f func(arrow.RecordBatch) (stop bool, err error)) error {
	r, err := t.Scan(ctx, opts)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		b, err := r.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		if stop, err := f(b); err != nil || stop {
			return err
		}
	}
}

// userTables are the tables of every database but the system one (its
// metadata table), for the DDL that looks for what names an object: a
// type's columns, the texts a rename rewrites.
func (s *session) userTables(ctx context.Context) ([]fluss.TableInfo, error) {
	dbs, err := s.eng.store.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	var out []fluss.TableInfo
	for _, db := range dbs {
		if db == fluss.SystemDatabase {
			continue
		}
		ts, err := s.eng.store.ListTables(ctx, db)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	return out, nil
}
