package activity

import (
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
)

// TableAccess is one stored table a statement touched: read (by a scan,
// or by a key lookup when Index) or written (Write "ins", "upd" or "del").
type TableAccess struct {
	TableID int64
	Index   bool
	Write   string
}

// TableAccessor is implemented by statements that report the tables they
// touched (the engine's), for pg_stat_user_tables.
type TableAccessor interface {
	TableAccess() []TableAccess
}

// TableCounters are one table's counters since the server started, as
// pg_stat_user_tables shows them. Tuples are counted from the statements'
// results: the rows a read returned, the rows a write reports.
type TableCounters struct {
	SeqScan, SeqTupRead, IdxScan, IdxTupFetch int64
	Inserted, Updated, Deleted                int64
	LastSeqScan, LastIdxScan, LastWrite       time.Time
}

// DatabaseCounters are one database's counters, as pg_stat_database shows
// them.
type DatabaseCounters struct {
	Commits, Rollbacks         int64
	Returned, Fetched          int64
	Inserted, Updated, Deleted int64
	Sessions                   int64
	ActiveTime                 time.Duration
}

// TableStats returns a table's counters (zero when nothing touched it).
func (r *Registry) TableStats(tableID int64) TableCounters {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	if c := r.tables[tableID]; c != nil {
		return *c
	}
	return TableCounters{}
}

// DatabaseStats returns a database's counters.
func (r *Registry) DatabaseStats(name string) DatabaseCounters {
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	if c := r.databases[name]; c != nil {
		return *c
	}
	return DatabaseCounters{}
}

// database returns name's counters; statsMu held.
func (r *Registry) database(name string) *DatabaseCounters {
	c := r.databases[name]
	if c == nil {
		c = &DatabaseCounters{}
		r.databases[name] = c
	}
	return c
}

// count records a finished statement: its transaction's outcome when it
// ran outside a block (an implicit transaction), COMMIT and ROLLBACK, and
// the tables it touched, in d (the session's database's counters).
func (r *Registry) count(d *DatabaseCounters, inBlock bool, ev pgwire.StatementEvent) {
	verb, _, _ := strings.Cut(ev.Tag, " ")
	r.statsMu.Lock()
	defer r.statsMu.Unlock()
	d.ActiveTime += ev.Duration
	switch {
	case ev.Err != nil && !inBlock:
		d.Rollbacks++
	case ev.Err != nil:
	case verb == "COMMIT":
		d.Commits++
	case verb == "ROLLBACK":
		d.Rollbacks++
	case !inBlock:
		d.Commits++
	}
	if ev.Err != nil {
		return
	}
	var acc []TableAccess
	if ta, ok := ev.Stmt.(TableAccessor); ok {
		acc = ta.TableAccess()
	}
	if len(acc) == 0 {
		return // BEGIN, COMMIT: no table's last access to stamp
	}
	now := time.Now()
	reads := 0
	for _, a := range acc {
		if a.Write == "" {
			reads++
		}
	}
	for _, a := range acc {
		t := r.tables[a.TableID]
		if t == nil {
			t = &TableCounters{}
			r.tables[a.TableID] = t
		}
		switch a.Write {
		case "ins":
			t.Inserted += ev.Rows
			d.Inserted += ev.Rows
			t.LastWrite = now
		case "upd":
			t.Updated += ev.Rows
			d.Updated += ev.Rows
			t.LastWrite = now
		case "del":
			t.Deleted += ev.Rows
			d.Deleted += ev.Rows
			t.LastWrite = now
		default:
			// A statement reading one table returned its rows from it;
			// with several, the rows cannot be told apart.
			var rows int64
			if reads == 1 && (verb == "SELECT" || verb == "COPY" || verb == "FETCH") {
				rows = ev.Rows
			}
			if a.Index {
				t.IdxScan++
				t.IdxTupFetch += rows
				t.LastIdxScan = now
				d.Fetched += rows
			} else {
				t.SeqScan++
				t.SeqTupRead += rows
				t.LastSeqScan = now
				d.Returned += rows
			}
		}
	}
}
