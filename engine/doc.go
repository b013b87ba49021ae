// Package engine drives the pipeline for one session: it parses SQL (sql/),
// binds it (binder/), lowers it to a blueprint (lower/) and runs it (exec/)
// against a fluss.Store, and it holds the session's state: settings,
// transaction status and prepared plans. It implements pgwire.Backend, so the
// wire server moves statements and batches without knowing any of this.
//
// It is the only package that sees every stage; it holds no logic of its
// own beyond sequencing them and the session statements (SET, SHOW, BEGIN,
// COMMIT, ROLLBACK) that never reach the binder.
//
// Outside a transaction block each statement's writes are its own implicit
// transaction, committed when it ends; while pgwire holds the implicit
// transaction (pgwire.ImplicitTransactions: a pipeline up to Sync, a Query
// string of several statements) the statements share one, committed at
// EndImplicit and rolled back whole by an error, as in PostgreSQL; a BEGIN
// inside it makes it the transaction block.
//
// A prepared statement is bound and planned once and keeps its plan, as
// PostgreSQL's plan cache does: a catalog change (any DDL bumps
// Engine.catalog) or a search_path change binds and plans it again before
// it runs (statement.replan), failing with 0A000 "cached plan must not
// change result type" when its result columns would change. Privileges
// are checked at every execution, so a REVOKE reaches prepared statements.
package engine
