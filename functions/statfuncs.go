package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/types"
)

// RelationStatistics is implemented by a CatalogInfo that keeps the
// server's access counters (pgcatalog with the session registry): the
// pg_stat_get_* function name (without the prefix) of a table's or an
// index's OID, as a count. ok false: no such relation or counter
// (PostgreSQL answers 0 then).
type RelationStatistics interface {
	RelationStatistic(ctx context.Context, oid uint32, name string) (n int64, ok bool)
}

// statCounters are the pg_stat_get_*(oid) functions behind the pg_stat
// views that count; statTimes those that are times (sqlgate never
// vacuums or analyzes: NULL).
var (
	statCounters = []string{"numscans", "tuples_returned", "tuples_fetched", "tuples_inserted", "tuples_updated",
		"tuples_deleted", "tuples_hot_updated", "live_tuples", "dead_tuples", "mod_since_analyze", "ins_since_vacuum",
		"blocks_fetched", "blocks_hit", "vacuum_count", "autovacuum_count", "analyze_count", "autoanalyze_count"}
	statTimes = []string{"last_vacuum_time", "last_autovacuum_time", "last_analyze_time", "last_autoanalyze_time"}
)

// statFuncs are the pg_stat_get_* functions of a relation's OID that
// administration clients call (DBeaver, pgAdmin) and the pg_stat views
// are defined with in PostgreSQL.
func statFuncs() []*Func {
	var fs []*Func
	for _, name := range statCounters {
		fs = append(fs, &Func{Name: "pg_stat_get_" + name, Args: []types.T{tOid}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				if rs, ok := c.(RelationStatistics); ok {
					if n, ok := rs.RelationStatistic(ctx, oidArg(a[0]), name); ok {
						return n, nil
					}
				}
				return int64(0), nil
			})})
	}
	for _, name := range statTimes {
		fs = append(fs, &Func{Name: "pg_stat_get_" + name, Args: []types.T{tOid}, Ret: tstzT, Strict: true, Volatile: true,
			Kernel: withCatalog(tstzT, func(context.Context, CatalogInfo, []any) (any, error) { return nil, nil })})
	}
	return fs
}
