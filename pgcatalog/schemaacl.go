package pgcatalog

import (
	"context"
	"sort"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
)

// Schema privileges (GRANT ... ON SCHEMA: pg_namespace.nspacl) and
// ALTER DEFAULT PRIVILEGES (pg_default_acl), as the engine keeps them in
// the metadata store (engine/schemaprivs.go).

// SchemaPrivileges is implemented by the Roles that keep schemas' grants
// and default privileges (the engine's metadata store).
type SchemaPrivileges interface {
	Schema(name string) (meta.Schema, bool)
	DefaultACLs() map[string]meta.DefaultACL
}

// pgDefaultACLOIDBase is where pg_default_acl's OIDs start (one per list,
// in the order of their keys).
const pgDefaultACLOIDBase = 3_900_000_000

func (c *Catalog) schemaPrivileges() SchemaPrivileges {
	sp, _ := c.opts.Roles.(SchemaPrivileges)
	return sp
}

// userSchemaACL is a schema's nspacl: NULL (its owner's default) until
// GRANT / REVOKE changed it, then the owner's USAGE and CREATE and the
// grants, each granted by the owner.
func (c *Catalog) userSchemaACL(name, owner string) any {
	sp := c.schemaPrivileges()
	if sp == nil {
		return nil
	}
	sc, _ := sp.Schema(name)
	if !sc.ACLSet {
		return nil
	}
	items := access.ObjectACL{{Grantee: owner, Privs: access.SchemaLetters}}.Items(owner)
	items = append(items, sc.ACL.Items(owner)...)
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = it
	}
	return out
}

// publicSchemaACL is public's nspacl: PostgreSQL 15's until changed.
func (c *Catalog) publicSchemaACL() []any {
	if acl, ok := c.userSchemaACL(fluss.DefaultDatabase, "pg_database_owner").([]any); ok {
		return acl
	}
	return c.schemaACL("pg_database_owner")
}

// defaultACLRows is pg_default_acl.
func (c *Catalog) defaultACLRows(_ context.Context, _ *snapshot) ([]row, error) {
	sp := c.schemaPrivileges()
	if sp == nil {
		return nil, nil
	}
	lists := sp.DefaultACLs()
	keys := make([]string, 0, len(lists))
	for k := range lists {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var rows []row
	for i, k := range keys {
		d := lists[k]
		ns := uint32(0)
		if d.Schema != "" {
			ns = namespaceOID(d.Schema)
		}
		items := d.ACL.Items(d.Role)
		acl := make([]any, len(items))
		for j, it := range items {
			acl[j] = it
		}
		rows = append(rows, row{"oid": uint32(pgDefaultACLOIDBase + i), "defaclrole": c.roleOID(d.Role), "defaclnamespace": ns,
			"defaclobjtype": d.ObjType, "defaclacl": acl})
	}
	return rows, nil
}

// initPrivRows are pg_init_privs' rows for the schemas initdb made with
// an ACL (pg_catalog's and public's, as PostgreSQL 15's initdb leaves
// them): pg_dump dumps a system schema's ACL as the GRANTs and REVOKEs
// from these to its nspacl, so without them it would write GRANT USAGE ON
// SCHEMA pg_catalog TO PUBLIC.
func (c *Catalog) initPrivRows() []row {
	return []row{
		{"objoid": nsPgCatalog, "classoid": classPgNamespace, "objsubid": 0, "privtype": "i", "initprivs": c.schemaACL(c.opts.User)},
		{"objoid": nsPublic, "classoid": classPgNamespace, "objsubid": 0, "privtype": "i", "initprivs": c.schemaACL("pg_database_owner")},
	}
}
