package pgcatalog

import (
	"context"
	"github.com/sqlgate/sqlgate/views"
	"hash/fnv"
	"sync"

	"github.com/sqlgate/sqlgate/fluss"
)

// Schemas other than public are Fluss databases created with CREATE SCHEMA.
// Their OIDs derive from their names (userSchemaOID), so that every server
// and every restart agree without storing them; schemaNames remembers the
// names the catalog has listed, for NamespaceName.

// userSchemaOID is the OID of schema name (not public): FNV-1a of the name
// folded into [2^30, 2^31), far above every relation, type and view OID
// (firstUserOID + a few oidStrides).
func userSchemaOID(name string) uint32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return 1<<30 | h.Sum32()&(1<<30-1)
}

// schemaNames maps the OIDs of the user schemas seen to their names.
type schemaNames struct{ m sync.Map }

func (s *schemaNames) note(names []string) {
	for _, n := range names {
		if n != fluss.DefaultDatabase {
			s.m.Store(userSchemaOID(n), n)
		}
	}
}

func (s *schemaNames) name(oid uint32) (string, bool) {
	v, ok := s.m.Load(oid)
	if !ok {
		return "", false
	}
	return v.(string), true
}

// databases lists the store's databases (noting their OIDs).
func (c *Catalog) databases(ctx context.Context) ([]string, error) {
	names, err := c.store.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	c.schemas.note(names)
	return names, nil
}

// allTables lists the tables of every database.
func (c *Catalog) allTables(ctx context.Context) ([]fluss.TableInfo, []string, error) {
	dbs, err := c.databases(ctx)
	if err != nil {
		return nil, nil, err
	}
	var out []fluss.TableInfo
	for _, db := range dbs {
		ts, err := c.store.ListTables(ctx, db)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range ts {
			if !views.IsBacking(t.Path.Table) { // a materialized view's rows (matviews.go)
				out = append(out, t)
			}
		}
	}
	return out, dbs, nil
}

// userNamespaceRows are pg_namespace's rows of the schemas besides public.
func (c *Catalog) userNamespaceRows(dbs []string) []row {
	var rows []row
	for _, db := range dbs {
		if db == fluss.DefaultDatabase {
			continue
		}
		owner := c.schemaOwner(db)
		rows = append(rows, row{"oid": userSchemaOID(db), "nspname": db, "nspowner": c.roleOID(owner), "nspacl": c.userSchemaACL(db, owner)}) // schemaacl.go
	}
	return rows
}

// allNamespaceRows is pg_namespace: the system schemas, public, and the
// schemas created with CREATE SCHEMA.
func (c *Catalog) allNamespaceRows(_ context.Context, s *snapshot) ([]row, error) {
	return append(c.namespaceRows(), c.userNamespaceRows(s.schemas)...), nil
}

// allSchemataRows is information_schema.schemata: the system schemas,
// public and the schemas created with CREATE SCHEMA.
func (c *Catalog) allSchemataRows(_ context.Context, s *snapshot) ([]row, error) {
	rows := c.schemataRows()
	for _, db := range s.schemas {
		if db != fluss.DefaultDatabase {
			rows = append(rows, row{"catalog_name": c.opts.Database, "schema_name": db, "schema_owner": c.schemaOwner(db)})
		}
	}
	return rows, nil
}
