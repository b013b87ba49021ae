package pgcatalog

import (
	"context"
	"time"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/server/activity"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Activity is the server's session registry (package server/activity):
// pg_stat_activity and pg_stat_progress_copy read it, pg_cancel_backend
// and pg_terminate_backend reach its sessions (Catalog.SignalBackend).
type Activity interface {
	List() []activity.Row
	Copies() []activity.CopyRow
	// MaySee reports whether caller may see what owner's sessions run
	// (a superuser, or the same user), as PostgreSQL's
	// HAS_PGSTAT_PERMISSIONS.
	MaySee(caller, owner string) bool
	Signal(ctx context.Context, caller string, pid int32, terminate bool, timeout time.Duration) (bool, error)
	// TableStats and DatabaseStats are the server's counters
	// (pg_stat_user_tables, pg_stat_database; stattables.go).
	TableStats(tableID int64) activity.TableCounters
	DatabaseStats(name string) activity.DatabaseCounters
}

// activityRows is pg_stat_activity: one row per session of the server. A
// session of another user shows its identity only (query "<insufficient
// privilege>") unless the caller is a superuser, as in PostgreSQL 15.
func (c *Catalog) activityRows(ctx context.Context, _ *snapshot) ([]row, error) {
	if c.opts.Activity == nil {
		return nil, nil
	}
	caller := functions.CurrentSession(ctx).User
	var rows []row
	for _, a := range c.opts.Activity.List() {
		r := row{"pid": int(a.PID), "datname": a.Database, "usesysid": c.roleOID(a.User), "usename": a.User,
			"application_name": a.ApplicationName, "backend_type": a.BackendType}
		if a.Database != "" {
			r["datid"] = c.databaseOIDOf(a.Database)
		}
		if !c.opts.Activity.MaySee(caller, a.User) {
			r["query"] = "<insufficient privilege>"
			rows = append(rows, r)
			continue
		}
		if a.ClientAddr != "" {
			r["client_addr"] = a.ClientAddr
		}
		if a.ClientPort != 0 {
			r["client_port"] = a.ClientPort
		}
		setTime := func(col string, t time.Time) {
			if !t.IsZero() {
				r[col] = t
			}
		}
		setTime("backend_start", a.BackendStart)
		setTime("xact_start", a.XactStart)
		setTime("query_start", a.QueryStart)
		setTime("state_change", a.StateChange)
		if a.WaitEventType != "" {
			r["wait_event_type"], r["wait_event"] = a.WaitEventType, a.WaitEvent
		}
		r["state"], r["query"] = a.State, a.Query
		rows = append(rows, r)
	}
	return rows, nil
}

// progressCopyRows is pg_stat_progress_copy: the COPY statements running
// now, with the bytes and rows they have moved so far.
func (c *Catalog) progressCopyRows(ctx context.Context, _ *snapshot) ([]row, error) {
	if c.opts.Activity == nil {
		return nil, nil
	}
	caller := functions.CurrentSession(ctx).User
	var rows []row
	for _, p := range c.opts.Activity.Copies() {
		if !c.opts.Activity.MaySee(caller, p.User) {
			continue // PostgreSQL shows other users' progress to those who may see their activity only
		}
		r := row{"pid": int(p.PID), "datid": c.databaseOIDOf(p.Database), "datname": p.Database,
			"command": p.Command, "type": p.Type, "bytes_processed": int(p.BytesProcessed), "bytes_total": int(p.BytesTotal),
			"tuples_processed": int(p.TuplesProcessed), "tuples_excluded": int(p.TuplesExcluded)}
		r["relid"] = p.RelationOID
		rows = append(rows, r)
	}
	return rows, nil
}

// SignalBackend implements functions.BackendSignals: pg_cancel_backend
// and pg_terminate_backend on behalf of the session ctx carries.
func (c *Catalog) SignalBackend(ctx context.Context, pid int32, terminate bool, timeout time.Duration) (bool, error) {
	if c.opts.Activity == nil {
		return false, sqlerr.New(sqlerr.FeatureNotSupported, "signalling other sessions is not available here")
	}
	return c.opts.Activity.Signal(ctx, functions.CurrentSession(ctx).User, pid, terminate, timeout)
}
