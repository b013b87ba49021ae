// Package access owns table privileges: who owns each table and what
// SELECT / INSERT / UPDATE / DELETE / TRUNCATE (and REFERENCES, TRIGGER,
// kept for PostgreSQL's sake) each role was granted, persisted in one JSON
// file (mode 0600, replaced atomically) so that GRANT and REVOKE survive
// restarts.
//
// It decides nothing about superusers or logins (the engine asks its Roles
// for those) and knows no SQL: the engine checks each statement's tables
// against it and runs GRANT/REVOKE through it. Tables are keyed by their
// Fluss table id, so a table dropped and created again under the same name
// does not inherit the old grants.
package access
