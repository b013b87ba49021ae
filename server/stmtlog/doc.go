// Package stmtlog is the server's statement log, a pgwire.Observer
// writing through log/slog: the slow-query log (statements running at
// least log_min_duration_statement, PostgreSQL's setting, which the server
// defaults from --log-min-duration-statement and a superuser may SET per
// session) with the statement's text, duration, rows, SQLSTATE and plan
// summary; and every error sent to a client, once, with its SQLSTATE.
//
// Parameter values are not logged unless Options.LogParameters is set
// (--log-parameters): they are often what a deployment must not keep.
//
// It must not: parse SQL, or hold anything of a statement past its event.
package stmtlog
