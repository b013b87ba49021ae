package pgcatalog

import (
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/functions"
)

var _ functions.Databases = (*Catalog)(nil)

// databaseOIDOf is a database's OID (functions.DatabaseOID); "" is the
// server's own (Options.Database).
func (c *Catalog) databaseOIDOf(name string) uint32 {
	if name == "" {
		name = c.opts.Database
	}
	return functions.DatabaseOID(name)
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

// DatabaseNames implements functions.Databases: pg_database's rows
// (pg_tablespace_databases of pg_default, which holds them all, and
// pg_describe_object).
func (c *Catalog) DatabaseNames(ctx context.Context) (map[uint32]string, error) {
	rows, err := c.allDatabaseRows(ctx, nil)
	if err != nil {
		return nil, err
	}
	names := make(map[uint32]string, len(rows))
	for _, r := range rows {
		names[r["oid"].(uint32)] = r["datname"].(string)
	}
	return names, nil
}
