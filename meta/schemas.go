package meta

// Schema is what sqlgate keeps of a schema (a Fluss database) beyond the
// store's list of databases: its owner, stored as one row "schema/<name>"
// so that it persists and, on a cluster, is shared by every server. A
// schema without a row belongs to the bootstrap superuser (as every schema
// did before owners were kept); DROP SCHEMA deletes the row.
type Schema struct {
	Name  string `json:"name"`
	Owner string `json:"owner"`
}

// SchemaOwner is the recorded owner of schema name ("" when none is).
func (m *Store) SchemaOwner(name string) string {
	return m.cur.Load().schemas[name].Owner
}
