// Package engine is sqlgate's session layer: it drives the pipeline for
// one session — it parses SQL (sql/), binds it (binder/), lowers it to a
// blueprint (lower/) and runs it (exec/) against a fluss.Store — and it
// holds the session's state: settings, transaction status, prepared plans
// and cursors. It implements pgwire.Backend, so the wire server moves
// statements and batches without knowing any of this.
//
// Besides sequencing the stages it runs what never reaches the binder
// (session, transaction, schema, privilege and role statements, cursors,
// SUBSCRIBE, COPY) and what a statement's writes need around the executor
// (transactions, row locks, CHECK constraints, sequences, metadata). A
// transaction's pending writes are package txnstore's (engine/txnstore):
// the store's tables as one transaction sees them, with their savepoints,
// row locks, staging on disk and commit.
//
// A connection's life: Engine.NewSession (engine.go) makes a session
// (session.go) with its settings (settings.go). Each statement text goes
// through Session.Prepare (prepare.go): parsed into statements, each bound
// and planned by prepareOne, which routes each kind to its preparation
// (a query's plan and row description, a write's plan, prepareDDL for the
// schema statements, prepareCopy, cursors...). statement.Execute
// (session.go) refreshes the metadata (metadata.go), runs execute, which
// only routes: to the handlers of the statements that never reach the
// binder (SET/SHOW: setshow.go; BEGIN, COMMIT, ROLLBACK, SAVEPOINT,
// DISCARD: txcontrol.go; DDL: ddlstmts.go (COMMENT ON objects other than
// tables: comments.go; ALTER TABLE's catalog-only actions: pgstorage.go);
// GRANT: privileges.go; roles:
// roles.go; sequences; Python functions; WHERE CURRENT OF; COPY to and from
// files; SUBSCRIBE; LISTEN, UNLISTEN and NOTIFY: notify.go; LOCK TABLE:
// locktable.go), refusing everything else in an aborted block
// (sqlerr.TransactionAborted, 25P02), and to execBound for a bound
// statement: replanned if the catalog or search_path changed, authorized
// (privileges.go), given its execution state (execState, results.go: one
// allocation, which also holds its memory account, an UPDATE's Recheck and
// the plan's first project-over-lookup operators) and routed by runBound to its handler (queries and EXPLAIN:
// query.go; INSERT/UPDATE/DELETE: write.go; CREATE/DROP TABLE:
// tablestmts.go; views: views.go; TRUNCATE, DESCRIBE: ddl.go). Execute
// then ends the statement's implicit transaction (txn.go: finishImplicit)
// and marks an open block failed on an error (failed). Results (results.go)
// stream to pgwire; Session.Close ends cursors and rolls back what is
// open.
//
// The files, by concern:
//   - the session and its statements: engine.go (Engine, Options,
//     NewSession), session.go (session, statement, Execute, the routing,
//     replan, parameters), prepare.go, results.go, params.go (parameter
//     values and types), settings.go, setshow.go, settingstack.go (SET
//     and SET LOCAL undone with their transaction), logsettings.go,
//     synccommit.go, backend.go (kernel backend requests), plansummary.go,
//     tableaccess.go, regnames.go, errors.go (the errors raised in several
//     places, each built once), skipnames.go (the IF EXISTS notices and
//     missing-object errors named as PostgreSQL prints the name: the
//     schema first, types as written, DROP FUNCTION's argument types as
//     TypeNameToString), droproutines.go (DROP PROCEDURE / ROUTINE /
//     AGGREGATE / TRIGGER / POLICY / RULE of objects sqlgate keeps none
//     of; DROP FUNCTION f1, f2 of several routines, all or none), typepath.go (user types found over search_path);
//   - transactions: txn.go (the session's transactions and their
//     lifecycle; pendingTable), txcontrol.go, txddl.go (DDL in a block),
//     txundo.go (the inverses a ROLLBACK runs of a block's DDL),
//     notify.go (what a transaction's LISTEN, UNLISTEN, NOTIFY and
//     pg_notify queued, handed to the server's hub, package notify, when
//     it commits, dropped when it rolls back; the session's listener,
//     which pgwire reads through pgwire.Notifier),
//     rowlocks.go (lock settings, isolation levels, SELECT ... FOR UPDATE),
//     rr.go (REPEATABLE READ's snapshot), coldefs.go (defaults and CHECK
//     constraints), fk.go (FOREIGN KEY enforcement: the events a write
//     queues, run at the end of its statement or at COMMIT; SET
//     CONSTRAINTS), fkindex.go (the store's foreign keys, indexed once per
//     catalog count for every session), fkddl.go (foreign keys and DDL: ALTER TABLE's ADD /
//     VALIDATE / DROP CONSTRAINT, DROP TABLE, TRUNCATE, RENAME), fkunique.go
//     (foreign keys to a UNIQUE constraint's columns: the referenced rows
//     found by their values in the constraint's index, the referenced
//     table's old rows kept), unique.go (UNIQUE constraints beyond the
//     primary key, on log tables too: each row written checked against
//     the constraint's hidden index table, written in the same
//     transaction; its keys locked), uniqueddl.go (their index tables and
//     DDL: CREATE TABLE, ALTER TABLE ... ADD UNIQUE / DROP CONSTRAINT,
//     CREATE UNIQUE INDEX, DROP INDEX, DROP TABLE, TRUNCATE; the one index
//     build, fillIndex; the start's sweep of index tables no constraint
//     names), uniquecarry.go (ADD PRIMARY KEY / UNIQUE / FOREIGN KEY /
//     CHECK, SET NOT NULL and CREATE UNIQUE INDEX of a table whose rows
//     the block inserted, its rows carried along), and
//     package txnstore (the pending writes);
//   - writes and queries: write.go, returning.go, explainwrite.go,
//     merge.go (MERGE: its join run once, then its writes over its rows),
//     modifyingwith.go (data-modifying WITH queries: each run to its end,
//     before the main statement when it reads it, else after it, against
//     the statement's snapshot, its RETURNING rows a relation the rest of
//     the statement reads), query.go, currentof.go, partitions.go (partition pruning's EXPLAIN,
//     SHOW / ADD / DROP PARTITION), pgpartitions.go (PostgreSQL's PARTITION
//     BY LIST tables: CREATE TABLE ... PARTITION OF, the rows' partition
//     checks, DROP TABLE, TRUNCATE, ATTACH PARTITION, COPY and LOCK TABLE
//     of a partition, ALTER TABLE of a partition or of its parent),
//     pgpartdefault.go (the DEFAULT partition, over the Fluss partitions
//     no partition names, and DETACH PARTITION);
//   - schema and metadata: tablestmts.go, ddl.go, ddlstmts.go,
//     ddllock.go (the table lock every DDL statement that changes,
//     replaces or drops a table takes before it reads the table, and the
//     locks every other statement takes on the tables it reads and
//     writes before it runs), locktable.go (LOCK TABLE), altertable.go,
//     rewrite.go, rewritecopy.go, rewritefollow.go (what a rewrite's
//     swap leaves to do, recorded with it and finished at the next start
//     after a crash), rewritegate.go, addpk.go, rename.go, cascade.go, schemas.go, temptables.go, tempfunctions.go,
//     views.go, matview.go (materialized views), metadata.go, privileges.go, roles.go, sequences.go,
//     owners.go (ALTER ... OWNER TO of tables, views, sequences, types and
//     schemas), identity.go (ALTER COLUMN ADD / SET GENERATED and DROP
//     IDENTITY), pyfunctions.go, sqlfunctions.go, tables.go (what the binder and executor see);
//   - cursors and streams: cursors.go, cursorparams.go, cursorscroll.go,
//     cursorstore.go, subscribe.go, subscribecursor.go, sqlprepare.go,
//     preparedstmts.go, functionquery.go (the query a function is given
//     as text, ts_stat's and ts_rewrite's: functions.Session.Query);
//   - COPY: copy.go, copyfile.go, copyprogress.go, filetables.go.
//
// The schema-management statements that do not reach the binder
// (ddlstmts.go): schemas as Fluss databases
// and search_path resolution of unqualified names (schemas.go, the
// binder's SchemaResolver), ALTER TABLE onto fluss.TableAlterer
// (altertable.go; its SET / DROP DEFAULT and ADD / VALIDATE / DROP
// CONSTRAINT ... CHECK change sqlgate's metadata, altercheck.go checking
// the stored rows against an added constraint; altercolumn.go ADD COLUMN's
// DEFAULT, which gives the stored rows its value, and NOT NULL, and ALTER
// COLUMN SET / DROP NOT NULL; ALTER COLUMN TYPE, DROP COLUMN, RENAME
// COLUMN, DROP NOT NULL of CREATE TABLE's NOT NULL and ADD PRIMARY KEY of
// a log table (addpk.go) by table rewrite: rewrite.go, its copy
// rewritecopy.go, onto fluss.TableReplacer; the
// copy runs outside the server-wide DDL lock, the table's writers waiting
// at rewritegate.go),  ALTER TABLE | VIEW ... RENAME TO (rename.go: views in
// the metadata, tables onto fluss.TableRenamer), ALTER INDEX and ADD
// UNIQUE USING INDEX (alterindex.go: the primary key's, UNIQUE
// constraints', unique and materialized views' indexes, found by name,
// renamed in their metadata), CREATE / DROP / ALTER INDEX of indexes
// that are not unique (ddlindex.go: catalog objects of the metadata
// store, which follow their table), ALTER TABLE ... RENAME CONSTRAINT
// (renameconstraint.go), SQL-level PREPARE/EXECUTE/DEALLOCATE (sqlprepare.go),
// cursors (DECLARE, FETCH, MOVE, CLOSE and pg_cursors: cursors.go, whose
// comment says how they stream and end with transactions; BINARY and $n
// parameters: cursorparams.go; UPDATE / DELETE ... WHERE CURRENT OF:
// currentof.go), SUBSCRIBE (subscribe.go: a table's
// changelog followed as it commits, the query run over each batch of
// changes; its cursors: subscribecursor.go)
// and temporary tables in the session's pg_temp_N (temptables.go) and
// temporary functions, pg_temp.f, kept in the session (tempfunctions.go). A
// statement's kernel backend request (the sqlgate.backend setting, or a
// /*+ backend(...) */ hint naming backends per family and node kind:
// backend.go) reaches the plan's nodes through lower.Runtime.Backends;
// EXPLAIN [ANALYZE] of a write runs through explainwrite.go.
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
//
// DDL inside a transaction block (txddl.go) runs at once, since Fluss's
// catalog is not transactional: the block remembers it with its inverse
// (txundo.go), which a ROLLBACK runs (never cancelled halfway, as
// PostgreSQL's abort is not); one without an inverse is named in
// the ROLLBACK's WARNING. A cancel (statement_timeout, a cancel request,
// the connection's end) stops DDL only before its commit point: a table
// rewrite past its swap finishes, under context.WithoutCancel, so the
// table is as before the statement or as after it, and 57014 means
// before (ddlcancel_internal_test.go). DDL on a
// table the block holds rows for is refused until COMMIT, but for a
// statement that only adds constraints or a unique index to a table
// whose rows the block inserted, which carries the rows along (uniquecarry.go:
// pg_restore --single-transaction); VACUUM refuses
// a block (25001), as PostgreSQL's does. TRUNCATE in a block is
// transactional (ddl.go truncateInBlock, txnstore/truncate.go): the table
// is locked whole and reads empty to the block until COMMIT empties it.
// So is DROP TABLE in a block on a store with row locks (tablestmts.go
// dropInBlock): the table is locked ACCESS EXCLUSIVE to the block's end,
// gone at once for the session (session.hidden, which its catalog lookups
// honour), and dropped at COMMIT (txnstore's AtCommit, under the lock);
// ROLLBACK keeps it. A later statement that needs its name or schema free
// (CREATE TABLE, RENAME to it, DROP SCHEMA) runs the drop then, and it is
// then DDL a ROLLBACK warns about (it has no inverse).
//
// Metadata (metadata.go, views.go, privileges.go, roles.go, pyfunctions.go,
// sqlfunctions.go, enumtypes.go): views, owners, grants, roles, the
// functions CREATE FUNCTION ... LANGUAGE python makes (run by a
// pyudf.Pool) and LANGUAGE sql makes (checked against the binder when
// created, expanded by it where called; statements bind against
// Engine.UDFs, the Go UDFs and these) and the enum types CREATE
// TYPE ... AS ENUM makes (published to the store's types.Registry,
// Engine.Types, which the server shares with pgcatalog and the binder
// reaches through binder.TypesCatalog; resolved by name through
// binder.TypeCatalog; a table's descriptor names an enum column's type by
// OID, and withTypes, tables.go, binds it to the registry where the
// binder and COPY read it) and the domains CREATE DOMAIN makes
// (domains.go: published to the registry with the check of their
// constraints that writes and casts run, types.Domain.Validate; resolved
// by name through binder.DomainCatalog) and the composite types CREATE
// TYPE ... AS (...) makes (compositetypes.go: kept beside the enums,
// published to the registry, resolved by name through
// binder.CompositeCatalog) live in a meta.Store. A function's signature
// names user-defined types by name (pyfunctions.go's signatureType); ALTER
// TYPE / ALTER DOMAIN ... RENAME TO and ALTER FUNCTION ... RENAME TO
// rewrite the name in every stored text that names it (typerename.go,
// functionrename.go: defaults, generated columns, checks, views, domain
// checks, function signatures and bodies) or refuse 0A000 naming the
// object; ALTER SEQUENCE ... RENAME TO / SET SCHEMA (and ALTER TABLE ...
// RENAME TO of a sequence) rewrites the regclass constants naming the
// sequence the same way (sequencerename.go). The tables' texts such a
// rename rewrites are recorded in its metadata commit and written after
// it, and a crash between leaves the record to the next start
// (followups.go). Each statement that changes them
// commits once through meta.Store.Update, a new table carries its owner in
// its own properties, and each statement first refreshes the metadata (one
// lookup on a cluster), so that changes made through another server apply.
//
// Table locks (ddllock.go): ALTER TABLE, TRUNCATE and DROP TABLE lock
// their table whole (PostgreSQL's ACCESS EXCLUSIVE) before they read it,
// until their transaction ends, waiting for its writers; a write takes
// the table's intent lock (ROW EXCLUSIVE) before it runs and is bound
// again if a DDL statement it waited for changed the catalog. Reads take
// no table lock.
//
// Row locks (rowlocks.go, txnstore/locks.go): when the store is fluss.RowLockable the
// engine keeps one rowlock.Manager for all sessions; each session's
// transactions lock what they write (and what SELECT ... FOR UPDATE
// returns) and release it after COMMIT made the writes visible, or at
// ROLLBACK, an error in the block, or the session's end. An UPDATE or
// DELETE that met rows changed under it runs its plan a second time over
// those rows only (recheckSource), reading the tables besides its target
// (and its target in a subquery) as it first read them (firstRead: a store
// snapshot taken before the first pass reads); a joined one (FROM, USING, MERGE)
// re-checks each such row's newest version with the rows of the other
// tables it had joined (joinedRecheckPasses, mergeRecheck), as
// PostgreSQL's EvalPlanQual; a row a concurrent UPDATE moved to another
// key is followed there (the lock manager's move log, exec's
// RowLocker.Follow). REPEATABLE READ (rr.go), on a store
// that is fluss.Snapshotter and takes row locks, reads one snapshot taken
// at the block's first statement and fails a write to a row changed since
// with 40001 (an ON CONFLICT over a row deleted since inserts, txnstore's
// LockUpsert; a foreign key's action that meets a referencing row
// committed since fails, fkActionCrossCheck); SERIALIZABLE is refused (0A000); on a store without row
// locks, read-modify-write statements and REPEATABLE READ are.
//
// Column defaults, CHECK constraints and sequences (coldefs.go,
// sequences.go): INSERT's defaults are bound into its plan, COPY fills
// omitted columns with them, and every row a transaction writes passes
// the table's CHECK constraints (pendingTable.Check, which txnstore calls)
// before it is kept. The session's sequences journal their nextval and
// setval calls while the executor marks a batch (sessionSequences.Mark),
// and take back calls the executor says PostgreSQL never made (a failing
// batch's, the rows after a failed INSERT's row: Rewind, through the
// store's fluss.SequenceRewinder when no one drew a value since). Stored generated columns (generated.go) are
// computed by the binder's plans for INSERT and UPDATE, and by COPY FROM
// over each record it builds, before NOT NULL and CHECK read it.
// Sequences live in the store when it is a fluss.SequenceStore (the
// embedded store and a Fluss cluster), and nextval is not rolled back, as
// in PostgreSQL. A store without sequences refuses them, and SERIAL and
// identity columns with them, with 0A000.
//
// What the server's observers read of a statement (server/activity,
// server/stmtlog): TableAccess (tableaccess.go) names the stored tables it
// scanned, looked up by key or wrote, for pg_stat_user_tables;
// PlanSummary (plansummary.go) is its plan in one line for the slow-query
// log; log_min_duration_statement (logsettings.go) is a superuser-only
// setting whose default the server sets (Options.Settings).
// synchronous_commit (synccommit.go) has PostgreSQL's values; when it is
// off at a commit, the commit's context tells the store not to wait for
// the sync (fluss.WithoutSyncWait).
// Server-side files (copyfile.go, filetables.go): COPY ... FROM 'file' /
// TO 'file' runs the statement of the same COPY from STDIN / to STDOUT
// over a file of --file-dir (package fileio), superusers only, and
// reports its bytes and rows as it goes (Options.CopyProgress:
// pg_stat_progress_copy, type FILE); read_parquet, read_arrow and read_csv
// are the binder's FileCatalog, opened by the plan's file_scan when it
// runs.
package engine
