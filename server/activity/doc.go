// Package activity is the server's registry of sessions: one Backend per
// PostgreSQL connection (and per Flight SQL connection), kept up to date by
// pgwire's Observer events, read by pg_stat_activity (package pgcatalog)
// and reached by pg_cancel_backend and pg_terminate_backend with
// PostgreSQL 15's privilege rules (Registry.Signal).
//
// It owns: the registry (made by the server, one per server: no
// package-level state), each session's state, query, xact_start,
// query_start and state_change as PostgreSQL keeps them, the privilege
// check and the wording of its errors, and the progress of running COPY
// statements (pg_stat_progress_copy, progress.go).
//
// It must not: parse SQL, read tables or hold a session's lock while it
// calls out (a Backend's fields are guarded by its own mutex, taken only
// to copy them).
package activity
