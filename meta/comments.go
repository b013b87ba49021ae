package meta

import "strings"

// Comments are COMMENT ON's texts for the objects whose own rows (or whose
// store) have no place for one: views, sequences, types, domains,
// schemas, roles, constraints and indexes, one row "comment/<key>" each (a
// table's and a column's comment live in the table's descriptor, a
// function's in its row). The key names the object by what never changes
// while it lives: CommentKey(kind, id...) with
//
//	schema/<name>, view/<view id>, sequence/<sequence id>, type/<oid>,
//	domain/<oid>, constraint/<table id>/<name>, index/<table id>/<name>,
//	role/<name>
//
// Ids and OIDs are never reused, so the comment of a dropped view,
// sequence or table's constraint names nothing and is never shown again;
// DROP TYPE, DROP DOMAIN and DROP SCHEMA delete their types' and domains'
// (pg_description lists every row); a schema's and a role's are keyed by
// name, so DROP SCHEMA and DROP ROLE delete them.

// Comment kinds (CommentKey's first argument).
const (
	CommentSchema     = "schema"
	CommentView       = "view"
	CommentSequence   = "sequence"
	CommentType       = "type"
	CommentDomain     = "domain"
	CommentConstraint = "constraint"
	CommentIndex      = "index"
	CommentRole       = "role"
)

// CommentKey is the key of an object's comment.
func CommentKey(kind string, id ...string) string {
	return kind + "/" + strings.Join(id, "/")
}

// Comment is an object's comment ("" when it has none).
func (m *Store) Comment(key string) string {
	return m.cur.Load().comments[key]
}

// Comments lists every comment by key (read it, do not change it).
func (m *Store) Comments() map[string]string {
	return m.cur.Load().comments
}
