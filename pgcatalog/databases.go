package pgcatalog

import (
	"context"
	"hash/fnv"
	"slices"

	"github.com/sqlgate/sqlgate/functions"
)

// databaseOIDOf is a database's OID: databaseOID for the server's own
// (Options.Database), else a hash of the name in the range role OIDs use
// for names, so that every session sees the same OID for one name.
func (c *Catalog) databaseOIDOf(name string) uint32 {
	if name == "" || name == c.opts.Database {
		return databaseOID
	}
	h := fnv.New32a()
	h.Write([]byte("database:" + name))
	return 1<<31 | h.Sum32()>>1
}

// allDatabaseRows is pg_database: the server's database, the one the
// asking session connected to (sqlgate accepts any database name, and
// current_database() must have its row, as clients look it up there), and
// those other live sessions connected to, each owned by the bootstrap
// superuser.
func (c *Catalog) allDatabaseRows(ctx context.Context, _ *snapshot) ([]row, error) {
	names := []string{c.opts.Database}
	if s, ok := functions.SessionIn(ctx); ok && s.Database != "" {
		names = append(names, s.Database)
	}
	if c.opts.Activity != nil {
		for _, a := range c.opts.Activity.List() {
			if a.Database != "" {
				names = append(names, a.Database)
			}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	tmpl := c.databaseRows()[0]
	rows := make([]row, 0, len(names))
	for _, n := range names {
		r := row{}
		for k, v := range tmpl {
			r[k] = v
		}
		r["oid"], r["datname"] = c.databaseOIDOf(n), n
		rows = append(rows, r)
	}
	return rows, nil
}
