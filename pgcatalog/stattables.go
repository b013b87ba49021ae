package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
)

// tableOpener is the store's side of fluss.Store the statistics read: a
// table's row estimate (fluss.RowEstimator) needs its handle.
type tableOpener interface {
	Table(ctx context.Context, path fluss.TablePath) (fluss.Table, error)
}

// liveRows estimates a table's rows from the store's metadata (no scan);
// ok is false when the store keeps no estimate.
func (c *Catalog) liveRows(ctx context.Context, t fluss.TableInfo) (int64, bool) {
	op, ok := c.store.(tableOpener)
	if !ok {
		return 0, false
	}
	tb, err := op.Table(ctx, t.Path)
	if err != nil {
		return 0, false
	}
	if e, ok := tb.(fluss.RowEstimator); ok {
		return e.EstimateRows(), true
	}
	return 0, false
}

// statTableRows is pg_stat_user_tables and pg_stat_all_tables: the
// server's counters of each table since it started (Activity.TableStats:
// scans by kind, the rows they returned, the rows written) and the store's
// live row estimate. sqlgate never vacuums or analyzes: those counters
// stay 0 and their times NULL, and nothing is dead.
func (c *Catalog) statTableRows(ctx context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		r := row{"relid": RelationOID(t.TableID), "schemaname": t.Path.Database, "relname": t.Path.Table}
		for _, n := range []string{"seq_scan", "seq_tup_read", "n_tup_ins", "n_tup_upd", "n_tup_del",
			"n_tup_hot_upd", "n_live_tup", "n_dead_tup", "n_mod_since_analyze", "n_ins_since_vacuum",
			"vacuum_count", "autovacuum_count", "analyze_count", "autoanalyze_count"} {
			r[n] = 0
		}
		if t.HasPrimaryKey() {
			r["idx_scan"], r["idx_tup_fetch"] = 0, 0
		}
		if c.opts.Activity != nil {
			st := c.opts.Activity.TableStats(t.TableID)
			r["seq_scan"], r["seq_tup_read"] = int(st.SeqScan), int(st.SeqTupRead)
			if t.HasPrimaryKey() {
				r["idx_scan"], r["idx_tup_fetch"] = int(st.IdxScan), int(st.IdxTupFetch)
			}
			r["n_tup_ins"], r["n_tup_upd"], r["n_tup_del"] = int(st.Inserted), int(st.Updated), int(st.Deleted)
			r["n_mod_since_analyze"] = int(st.Inserted + st.Updated + st.Deleted)
			r["n_ins_since_vacuum"] = int(st.Inserted)
		}
		if n, ok := c.liveRows(ctx, t); ok {
			r["n_live_tup"] = int(n)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// statUserIndexRows is pg_stat_user_indexes and pg_stat_all_indexes: a
// primary-key table's index is read by its key lookups.
func (c *Catalog) statUserIndexRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		if !t.HasPrimaryKey() {
			continue
		}
		r := row{"relid": RelationOID(t.TableID), "indexrelid": pkIndexOID(t.TableID), "schemaname": t.Path.Database,
			"relname": t.Path.Table, "indexrelname": pkName(t), "idx_scan": 0, "idx_tup_read": 0, "idx_tup_fetch": 0}
		if c.opts.Activity != nil {
			st := c.opts.Activity.TableStats(t.TableID)
			r["idx_scan"], r["idx_tup_read"], r["idx_tup_fetch"] = int(st.IdxScan), int(st.IdxTupFetch), int(st.IdxTupFetch)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// statioTableRows is pg_statio_user_tables: sqlgate counts no buffer
// reads per table (its block cache is the store's, for all tables), so
// every count is 0, and a table without a primary key has no index.
func (c *Catalog) statioTableRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		r := row{"relid": RelationOID(t.TableID), "schemaname": t.Path.Database, "relname": t.Path.Table,
			"heap_blks_read": 0, "heap_blks_hit": 0}
		if t.HasPrimaryKey() {
			r["idx_blks_read"], r["idx_blks_hit"] = 0, 0
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// statDatabaseRows is pg_stat_database: a row for shared objects (datid
// 0) and one per database, with the sessions connected now and the
// server's counters of transactions and rows.
func (c *Catalog) statDatabaseRows(ctx context.Context, s *snapshot) ([]row, error) {
	dbs, err := c.allDatabaseRows(ctx, s)
	if err != nil {
		return nil, err
	}
	zero := func(r row, cols ...string) {
		for _, col := range cols {
			switch col {
			case "blk_read_time", "blk_write_time", "session_time", "active_time", "idle_in_transaction_time":
				r[col] = 0.0 // double precision, in milliseconds
			default:
				r[col] = 0
			}
		}
	}
	shared := row{"datid": 0}
	zero(shared, "numbackends", "xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched",
		"tup_inserted", "tup_updated", "tup_deleted", "blk_read_time", "blk_write_time")
	rows := []row{shared}
	backends := map[string]int{}
	if c.opts.Activity != nil {
		for _, a := range c.opts.Activity.List() {
			backends[a.Database]++
		}
	}
	for _, d := range dbs {
		name := d["datname"].(string)
		r := row{"datid": d["oid"], "datname": name, "numbackends": backends[name]}
		zero(r, "xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched", "tup_inserted",
			"tup_updated", "tup_deleted", "conflicts", "temp_files", "temp_bytes", "deadlocks", "blk_read_time",
			"blk_write_time", "session_time", "active_time", "idle_in_transaction_time", "sessions", "sessions_abandoned",
			"sessions_fatal", "sessions_killed")
		if c.opts.Activity != nil {
			st := c.opts.Activity.DatabaseStats(name)
			r["xact_commit"], r["xact_rollback"] = int(st.Commits), int(st.Rollbacks)
			r["tup_returned"], r["tup_fetched"] = int(st.Returned), int(st.Fetched)
			r["tup_inserted"], r["tup_updated"], r["tup_deleted"] = int(st.Inserted), int(st.Updated), int(st.Deleted)
			r["sessions"] = int(st.Sessions)
			r["active_time"] = float64(st.ActiveTime.Microseconds()) / 1000
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// RelationStatistic implements functions.RelationStatistics: the
// pg_stat_get_* counters of a table's OID (its scans, the rows they
// returned, the rows written, the live estimate) or of its primary-key
// index's (the key lookups), as the pg_stat views show them.
func (c *Catalog) RelationStatistic(ctx context.Context, oid uint32, name string) (int64, bool) {
	if c.opts.Activity == nil || oid < firstUserOID {
		return 0, false
	}
	t, index, _, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || t.TableID == 0 {
		return 0, false
	}
	st := c.opts.Activity.TableStats(t.TableID)
	if index {
		switch name {
		case "numscans":
			return st.IdxScan, true
		case "tuples_returned", "tuples_fetched":
			return st.IdxTupFetch, true
		}
		return 0, true
	}
	switch name {
	case "numscans":
		return st.SeqScan, true
	case "tuples_returned":
		return st.SeqTupRead, true
	case "tuples_fetched":
		return st.IdxTupFetch, true
	case "tuples_inserted", "ins_since_vacuum":
		return st.Inserted, true
	case "tuples_updated":
		return st.Updated, true
	case "tuples_deleted":
		return st.Deleted, true
	case "mod_since_analyze":
		return st.Inserted + st.Updated + st.Deleted, true
	case "live_tuples":
		n, _ := c.liveRows(ctx, t)
		return n, true
	}
	return 0, true
}
