// Package views owns the stored views of CREATE VIEW: each view's name
// (a database and a name, like a table), the text of its SELECT as the
// user wrote it, its output columns (names and types, fixed when it was
// created, as PostgreSQL fixes them) and the relations it names directly
// (its dependencies, which DROP TABLE and DROP VIEW consult).
//
// Views are not a Fluss concept: the server keeps them in the metadata
// store (package meta), which persists a Store's Snapshot with the
// owners, grants and users, in one commit per statement, in a file beside
// the embedded store or in a table of the cluster. Open(path) reads (and
// writes) the views file of older versions, which meta migrates once;
// Open("") and Restore give the in-memory stores meta works on.
//
// It knows no SQL: the engine binds a definition before storing it and
// binds it again (through the binder) each time a query names the view.
// It enforces PostgreSQL's CREATE OR REPLACE VIEW rule (columns may only
// be appended; existing ones keep their names and types, 42P16).
//
// A view's options (options.go: check_option, security_barrier,
// security_invoker) are kept as pg_class.reloptions shows them, and
// checked as PostgreSQL checks them (ApplyOptions).
//
// A materialized view is a view with a Matview (matview.go): the Fluss
// table holding its rows, the one a refresh replaced, and its indexes.
// A partition of a PostgreSQL-partitioned table (CREATE TABLE p PARTITION
// OF t) is a view with a Partition: its parent and the Fluss partition
// it names; the engine and the catalog show it as a table.
//
// Each view has a persistent id (never reused); its OID and its key in
// the privileges store (access.Store, where tables use their Fluss table
// id) derive from it: ACLKey is the negative id, so the two never collide.
package views
