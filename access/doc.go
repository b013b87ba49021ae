// Package access owns table privileges: who owns each table and what
// SELECT / INSERT / UPDATE / DELETE / TRUNCATE (and REFERENCES, TRIGGER,
// kept for PostgreSQL's sake) each role was granted. The server keeps
// them in the metadata store (package meta), which persists a Store's
// Snapshot in one commit per statement with the views and users;
// Open(path) reads (and writes) the privileges file of older versions,
// which meta migrates once. A table's owner is also written into the
// table itself (meta.OwnerProperty) and adopted from there (Adopt).
//
// It decides nothing about superusers or logins (the engine asks its Roles
// for those) and knows no SQL: the engine checks each statement's tables
// against it and runs GRANT/REVOKE through it. Tables are keyed by their
// Fluss table id, so a table dropped and created again under the same name
// does not inherit the old grants.
package access
