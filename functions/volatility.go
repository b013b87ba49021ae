package functions

import "strings"

// volatileInPostgres are the built-in functions sqlgate has that
// PostgreSQL 15 marks volatile (pg_proc.provolatile = 'v'): their value
// may change within a statement. Func.Volatile is wider (it also holds the
// stable ones, now() and the catalog lookups, which are never folded
// into constants); the rules that follow PostgreSQL's volatility, such as
// which WITH queries run once, need this narrower set. A name is here
// when every overload of it is volatile: ts_rewrite's query form is, but
// its substitution form is immutable.
var volatileInPostgres = map[string]bool{
	"clock_timestamp": true, "currval": true, "gen_random_uuid": true, "lastval": true, "nextval": true,
	"pg_blocking_pids": true, "pg_cancel_backend": true, "pg_database_size": true, "pg_indexes_size": true,
	"pg_is_in_recovery": true, "pg_jit_available": true, "pg_relation_size": true, "pg_table_size": true,
	"pg_terminate_backend": true, "pg_total_relation_size": true, "random": true, "set_config": true,
	"setval": true, "timeofday": true, "setseed": true, "pg_tablespace_size": true, "pg_sequence_last_value": true,
	"pg_sleep": true, "pg_sleep_for": true, "pg_sleep_until": true,
	"pg_advisory_lock": true, "pg_advisory_lock_shared": true, "pg_advisory_xact_lock": true,
	"pg_advisory_xact_lock_shared": true, "pg_try_advisory_lock": true, "pg_try_advisory_lock_shared": true,
	"pg_try_advisory_xact_lock": true, "pg_try_advisory_xact_lock_shared": true, "pg_advisory_unlock": true,
	"pg_advisory_unlock_shared": true, "pg_advisory_unlock_all": true,
	"pg_notify": true, "pg_notification_queue_usage": true,
	"current_query": true, "pg_current_logfile": true, "pg_reload_conf": true, "pg_rotate_logfile": true,
	"pg_xact_commit_timestamp": true, "txid_status": true,
}

// VolatileInPostgres reports whether PostgreSQL 15 marks the built-in
// function name volatile.
func VolatileInPostgres(name string) bool { return volatileInPostgres[strings.ToLower(name)] }
