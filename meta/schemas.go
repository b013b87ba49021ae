package meta

import "github.com/sqlgate/sqlgate/access"

// Schema is what sqlgate keeps of a schema (a Fluss database) beyond the
// store's list of databases: its owner, stored as one row "schema/<name>"
// so that it persists and, on a cluster, is shared by every server. A
// schema without a row belongs to the bootstrap superuser (as every schema
// did before owners were kept); DROP SCHEMA deletes the row.
type Schema struct {
	Name  string `json:"name"`
	Owner string `json:"owner"`
	// ACL is the schema's grants to roles other than its owner once
	// GRANT / REVOKE ON SCHEMA changed them (ACLSet); the owner holds
	// USAGE and CREATE, shown first. Without ACLSet the schema has
	// PostgreSQL's default privileges (the owner's; and USAGE for PUBLIC
	// on public).
	ACL    access.ObjectACL `json:"acl,omitempty"`
	ACLSet bool             `json:"acl_set,omitempty"`
}

// Schema is a schema's row (zero, false when it has none).
func (m *Store) Schema(name string) (Schema, bool) {
	sc, ok := m.cur.Load().schemas[name]
	return sc, ok
}

// DefaultACL is one ALTER DEFAULT PRIVILEGES list (pg_default_acl): the
// privileges objects of ObjType ("r" tables, "S" sequences, "f"
// functions, "T" types, "n" schemas) that Role creates get, in Schema ("":
// in every schema). A schema's list only adds to the global one, as in
// PostgreSQL. Kept as rows "defacl/<role>/<schema>/<objtype>".
type DefaultACL struct {
	Role    string           `json:"role"`
	Schema  string           `json:"schema,omitempty"`
	ObjType string           `json:"objtype"`
	ACL     access.ObjectACL `json:"acl"`
}

// DefaultACLKey is a DefaultACL's key in Tx.DefaultACLs.
func DefaultACLKey(role, schema, objType string) string {
	return role + "/" + schema + "/" + objType
}

// DefaultACLs lists the default privileges by DefaultACLKey (read them,
// do not change them).
func (m *Store) DefaultACLs() map[string]DefaultACL {
	return m.cur.Load().defaultACLs
}

// SchemaOwner is the recorded owner of schema name ("" when none is).
func (m *Store) SchemaOwner(name string) string {
	return m.cur.Load().schemas[name].Owner
}
