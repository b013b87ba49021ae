// Package views owns the stored views of CREATE VIEW: each view's name
// (a database and a name, like a table), the text of its SELECT as the
// user wrote it, its output columns (names and types, fixed when it was
// created, as PostgreSQL fixes them) and the relations it names directly
// (its dependencies, which DROP TABLE and DROP VIEW consult), persisted
// in one JSON file (mode 0600, replaced atomically through
// internal/atomicfile) so that views survive restarts.
//
// Views are not a Fluss concept, so they are kept beside the store rather
// than in it: the same file serves the embedded store and a remote
// cluster, as the privileges file does.
//
// It knows no SQL: the engine binds a definition before storing it and
// binds it again (through the binder) each time a query names the view.
// It enforces PostgreSQL's CREATE OR REPLACE VIEW rule (columns may only
// be appended; existing ones keep their names and types, 42P16).
//
// Each view has a persistent id (never reused); its OID and its key in
// the privileges store (access.Store, where tables use their Fluss table
// id) derive from it: ACLKey is the negative id, so the two never collide.
package views
