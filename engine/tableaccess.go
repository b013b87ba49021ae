package engine

import (
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/server/activity"
)

// TableAccess implements activity.TableAccessor: the stored tables the
// statement read, each by a scan or by a key lookup (its plan's access
// path), and the one it wrote, for pg_stat_user_tables and
// pg_stat_database.
func (ps *statement) TableAccess() []activity.TableAccess {
	target, write := int64(-1), ""
	switch b := ps.bound.(type) {
	case *binder.Insert:
		target, write = b.Table.TableID, "ins"
	case *binder.Update:
		target, write = b.Table.TableID, "upd"
	case *binder.Delete:
		target, write = b.Table.TableID, "del"
	}
	if ps.CopyIn() && len(ps.cols) > 0 {
		target, write = int64(ps.cols[0].TableOID)-int64(tableOID(1))+1, "ins"
	}
	lookups := lookupTables(ps.plan)
	var out []activity.TableAccess
	for _, r := range ps.reads {
		if r.view || r.id == target && write == "ins" {
			continue // an INSERT's target is written, not read
		}
		out = append(out, activity.TableAccess{TableID: r.id, Index: lookups[r.path.Table]})
	}
	if write != "" {
		out = append(out, activity.TableAccess{TableID: target, Write: write})
	}
	return out
}

// lookupTables are the tables a plan reads by key (lookup and prefix
// lookup nodes), by name, as EXPLAIN names them.
func lookupTables(n lower.Node) map[string]bool {
	var out map[string]bool
	var walk func(n lower.Node)
	walk = func(n lower.Node) {
		if n == nil {
			return
		}
		if kind, details := n.Explain(); kind == "lookup" || kind == "prefix_lookup" {
			if _, rest, ok := strings.Cut(details, "table="); ok {
				name, _, _ := strings.Cut(rest, " ")
				if out == nil {
					out = map[string]bool{}
				}
				out[name] = true
			}
		}
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(n)
	return out
}

// TableAccess implements activity.TableAccessor for a statement of a
// multi-statement string (bound when it ran).
func (l *lazyStatement) TableAccess() []activity.TableAccess {
	if ps, err := l.bind(); err == nil {
		return ps.TableAccess()
	}
	return nil
}
