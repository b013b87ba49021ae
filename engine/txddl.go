package engine

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// DDL inside a transaction block.
//
// Migration tools send their DDL inside BEGIN ... COMMIT (Alembic's
// transactional_ddl on PostgreSQL, dbt, and psycopg2, which opens a block
// before the first statement unless autocommit is on), so sqlgate runs it
// there, and undoes it as PostgreSQL does: a failed migration leaves
// nothing behind. Fluss's catalog is not transactional, so a schema change
// takes effect at once (other sessions see it before COMMIT); the block
// remembers each DDL statement it ran with the statement's lossless
// inverse (undoWith, txundo.go), and a ROLLBACK, a ROLLBACK TO SAVEPOINT
// (the statements run since) or the COMMIT of a failed block (or a COMMIT
// that fails) runs the inverses, newest first, once the block's rows are
// gone (undoChanges): a created table, sequence, view, materialized view
// or schema is dropped (a table the block created holds only the block's
// rows), a created function, procedure, type or domain and a COMMENT ON
// are restored in the metadata as they were, a rename is renamed back,
// ALTER TABLE's ADD COLUMN / ADD CONSTRAINT and CREATE UNIQUE INDEX drop
// what they added and SET / DROP DEFAULT, SET / DROP NOT NULL and
// SET / RESET restore the table's properties. A statement without an
// inverse (a DROP other than DROP TABLE's, DROP COLUMN, ALTER COLUMN TYPE,
// ALTER SEQUENCE, GRANT, ...) or whose inverse fails (one that a later
// change without one stands in the way of) stays in effect, and the
// ROLLBACK sends a WARNING naming each such statement. A table the block
// creates carries a mark until COMMIT (createdProperty): a crash in
// between leaves the mark, and the next start drops the table.
//
// The block's pending rows (package txnstore) were validated against the schema of
// their table, so a statement that changes or drops a table the
// transaction has written rows to is refused (0A000) until COMMIT (but
// for a statement that only adds constraints or a unique index to a
// table whose rows the block inserted, which carries the rows:
// uniquecarry.go); one
// that changes a table the transaction only read makes the transaction
// forget its view of that table, so the later statements see the new
// schema. A read-only block refuses DDL (25006), and so does a REPEATABLE
// READ one, whose snapshot (rr.go) cannot hold tables made after it.
// VACUUM refuses a block (25001), as PostgreSQL's does. TRUNCATE is not
// DDL here: inside a block it is the transaction's own, undone by a
// ROLLBACK (ddl.go truncateInBlock); nor is DROP TABLE on a store with row
// locks, which drops at COMMIT (tablestmts.go dropInBlock) and may follow
// the block's rows to the table.

// blockDDL lets the DDL statement what run in the current transaction:
// touches reports the tables it changes or drops (nil: none that exist).
// Inside a block, the statement is remembered once it succeeds
// (ddlFinished) for the warning of a later ROLLBACK.
func (s *session) blockDDL(what string, touches func(fluss.TablePath) bool) error {
	tx := s.tx
	if tx == nil {
		tx = s.implicit // a pipeline's held transaction holds rows too
	}
	if s.tx == nil && s.settings["default_transaction_read_only"] == "on" {
		return readOnlyTransaction(what) // the statement's own transaction is read-only
	}
	if s.tx != nil {
		if s.tx.readOnly {
			return readOnlyTransaction(what)
		}
		if s.settings["transaction_isolation"] == "repeatable read" {
			return sqlerr.New(sqlerr.FeatureNotSupported, "%s cannot run inside a REPEATABLE READ transaction", what).
				WithDetail("The transaction's snapshot cannot hold a schema change made after it.").
				WithHint("Run the DDL in a READ COMMITTED transaction or outside a transaction block.")
		}
	}
	if tx != nil && touches != nil {
		for _, pt := range append([]*txnstore.Table(nil), tx.Tables()...) {
			if !touches(pt.Info().Path) || s.carriedOf(pt.Info().TableID) != nil { // uniquecarry.go: rows the statement carries along
				continue
			}
			if pt.Truncated() {
				return sqlerr.New(sqlerr.FeatureNotSupported, "%s cannot run after this transaction truncated table \"%s\"", what, pt.Info().Path.Table).
					WithDetail("sqlgate applies DDL at once (Fluss's catalog is not transactional), and the TRUNCATE this transaction holds empties the table as it is now at COMMIT.").
					WithHint("COMMIT the TRUNCATE first, or run the DDL before it.")
			}
			if pt.HasWrites() {
				return sqlerr.New(sqlerr.FeatureNotSupported, "%s cannot run after this transaction wrote rows to table \"%s\"", what, pt.Info().Path.Table).
					WithDetail("sqlgate applies DDL at once (Fluss's catalog is not transactional), and the rows this transaction holds were written for the table as it is now.").
					WithHint("COMMIT the rows first, or run the DDL before writing them.")
			}
			tx.Forget(pt)
		}
	}
	if s.tx != nil && s.tx.ddlRunning == "" { // (a statement's own internal statements join it)
		s.tx.ddlRunning, s.tx.ddlUndo = s.stmtText, nil
	}
	return nil
}

// ddlFinished records the DDL statement that blockDDL let run, once it
// succeeded (err == nil), with the inverse it gave (undoWith): none, and
// it is one a ROLLBACK warns of. A statement that failed after a change
// it gave the inverse of (CREATE TABLE AS, whose rows failed) is recorded
// with it too: the ROLLBACK that ends its failed block undoes the change.
func (s *session) ddlFinished(err error) {
	if s.tx == nil || s.tx.ddlRunning == "" {
		return
	}
	if u := s.tx.ddlUndo; err != nil && u != nil && len(u.undo) > 0 && !u.none {
		s.tx.ddl = append(s.tx.ddl, blockChange{stmt: s.tx.ddlRunning, undo: u.undo})
	}
	if err == nil {
		c := blockChange{stmt: s.tx.ddlRunning}
		if u := s.tx.ddlUndo; u != nil {
			c = *u
			c.stmt = s.tx.ddlRunning
		}
		if !c.nothing {
			s.tx.ddl = append(s.tx.ddl, c)
		}
	}
	s.tx.ddlRunning, s.tx.ddlUndo = "", nil
}

// blockChange is a DDL statement a transaction block ran: its text, and
// its inverse (nil: it has none, and a ROLLBACK warns that it stays).
type blockChange struct {
	stmt string
	undo []func(context.Context) error
	// nothing: the statement changed nothing (IF NOT EXISTS met the
	// object), so there is nothing to undo or warn of.
	nothing bool
	// none: the statement has no inverse, whatever the statements it runs
	// itself give (noInverse).
	none bool
}

// undoWith gives the running DDL statement of a block the inverse fn of
// a change it made; a statement that makes several gives one for each,
// in order, and the ROLLBACK runs them newest first. Outside a block it
// does nothing.
func (s *session) undoWith(fn func(context.Context) error) {
	tx := s.tx
	if tx == nil || tx.ddlRunning == "" || s.undoing || tx.ddlUndo != nil && tx.ddlUndo.none {
		return
	}
	if tx.ddlUndo == nil {
		tx.ddlUndo = &blockChange{}
	}
	tx.ddlUndo.undo = append(tx.ddlUndo.undo, fn)
}

// undoStatement is undoWith of the statement text, run as sqlgate's own
// statement (runInternal) outside the block.
func (s *session) undoStatement(text string) {
	s.undoWith(func(ctx context.Context) error {
		_, err := s.runInternal(ctx, text)
		return err
	})
}

// noInverse says that the running DDL statement of a block has no
// inverse, though statements it runs itself (runInternal) would give
// theirs: undone alone they would lose what the statement moved (DETACH
// PARTITION's rows, copied into a table its CREATE TABLE made).
func (s *session) noInverse() {
	if tx := s.tx; tx != nil && tx.ddlRunning != "" {
		tx.ddlUndo = &blockChange{none: true}
	}
}

// changedNothing says that the running DDL statement of a block made no
// change (its IF NOT EXISTS met the object): a ROLLBACK has nothing of it
// to undo or to warn of.
func (s *session) changedNothing() {
	if tx := s.tx; tx != nil && tx.ddlRunning != "" && tx.ddlUndo == nil && !s.undoing {
		tx.ddlUndo = &blockChange{nothing: true}
	}
}

// undoChanges undoes changes, newest first, once the transaction's own
// rows are gone (after endTxn, or the overlay's RollbackTo): each
// statement's inverses run as sqlgate's own statements outside the block
// (s.tx is nil while they run, s.undoing set). It returns the texts, in
// the order they ran, of the statements it could not undo: those without
// an inverse and those whose inverse failed (as one that runs after a
// change it cannot undo may).
func (s *session) undoChanges(ctx context.Context, changes []blockChange) []string {
	if len(changes) == 0 {
		return nil
	}
	tx, status := s.tx, s.txStatus
	s.tx, s.undoing, s.undoBlock = nil, true, tx
	defer func() { s.tx, s.undoing, s.undoBlock, s.txStatus = tx, false, nil, status }()
	if tx != nil {
		// a savepoint's: what the block read of the tables changes may
		// (its writes to them came after the savepoint, gone already)
		for _, pt := range append([]*txnstore.Table(nil), tx.Tables()...) {
			if !pt.HasWrites() && !pt.Truncated() {
				tx.Forget(pt)
			}
		}
	}
	s.txStatus = 'I'
	// The undo is not cancelled halfway, as PostgreSQL's abort is not: a
	// cancel (or statement_timeout, or the connection's end) during the
	// ROLLBACK would leave the block's DDL partly undone.
	ctx = context.WithoutCancel(ctx)
	var left []string
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		ok := len(c.undo) > 0
		for j := len(c.undo) - 1; j >= 0 && ok; j-- {
			if err := c.undo[j](ctx); err != nil {
				s.eng.log.Warn("undoing a transaction block's schema change", "statement", shortStatement(c.stmt), "error", err)
				ok = false
			}
		}
		if !ok {
			left = append(left, c.stmt)
		}
	}
	slices.Reverse(left)
	return left
}

// warningCode is PostgreSQL's SQLSTATE 01000 (warning).
const warningCode sqlerr.Code = "01000"

// rolledBack is the result of a ROLLBACK (tag) of the block's DDL
// statements changes: undone (undoChanges), and a WARNING naming those it
// could not undo.
func (s *session) rolledBack(ctx context.Context, tag string, changes []blockChange) pgwire.Result {
	return notUndone(tag, s.undoChanges(ctx, changes))
}

// notUndone is the result of a ROLLBACK (tag) that could not undo the DDL
// statements ddl: the tag, after a WARNING naming them.
func notUndone(tag string, ddl []string) pgwire.Result {
	if len(ddl) == 0 {
		return tagOnly(tag)
	}
	names := make([]string, len(ddl))
	for i, d := range ddl {
		names[i] = shortStatement(d)
	}
	w := sqlerr.New(warningCode, "%d schema change(s) of this transaction were not rolled back", len(ddl)).
		WithDetail("sqlgate has no inverse for these (Fluss's catalog is not transactional); still in effect: %s", strings.Join(names, "; ")).
		WithHint("Undo them with the inverse statements if they are not wanted.")
	return warningResult(tag, w) // txcontrol.go
}

// shortStatement is a statement's text on one line, cut to a readable
// length for a warning.
func shortStatement(text string) string {
	t := strings.Join(strings.Fields(strings.TrimSuffix(strings.TrimSpace(text), ";")), " ")
	const max = 120
	if r := []rune(t); len(r) > max {
		t = string(r[:max]) + "..."
	}
	return t
}

// pathIn reports the tables of paths.
func pathIn(paths []fluss.TablePath) func(fluss.TablePath) bool {
	return func(p fluss.TablePath) bool {
		for _, q := range paths {
			if p == q {
				return true
			}
		}
		return false
	}
}

// inDatabases reports the tables of the databases dbs (DROP SCHEMA ...
// CASCADE drops them).
func inDatabases(dbs []string) func(fluss.TablePath) bool {
	return func(p fluss.TablePath) bool {
		for _, db := range dbs {
			if p.Database == db {
				return true
			}
		}
		return false
	}
}

// commitFailed is a failed COMMIT's error (err) once the block's DDL is
// undone, as its rows are: with a WARNING naming what could not be.
func (s *session) commitFailed(ctx context.Context, changes []blockChange, err error) error {
	left := s.undoChanges(ctx, changes)
	if len(left) == 0 {
		return err
	}
	return &warnedError{warnings: notUndone("", left).(*noticeTagResult).notices, err: err}
}

// createdProperty marks a table a transaction block created (a custom
// property of its descriptor, the block's token) until the block commits
// (unmarkCreated). A crash ends the block without its ROLLBACK: the next
// start of a server alone on its store drops every table still marked
// (Engine.dropUncommittedTables), as PostgreSQL's recovery forgets an
// uncommitted CREATE TABLE.
const createdProperty = "sqlgate.created-in-block"

// markCreated gives desc, a table the session's block is about to create,
// the block's mark (no block: desc as it is).
func (s *session) markCreated(desc fluss.TableDescriptor) fluss.TableDescriptor {
	if s.tx == nil || s.undoing {
		return desc
	}
	desc.CustomProperties = maps.Clone(desc.CustomProperties)
	if desc.CustomProperties == nil {
		desc.CustomProperties = map[string]string{}
	}
	desc.CustomProperties[createdProperty] = strconv.Itoa(int(s.info.ProcessID))
	return desc
}

// noteCreated records that the block created the table at p (marked by
// markCreated), whose mark its COMMIT clears, and the inverse, which drops
// it (a table the block made holds only the block's rows).
func (s *session) noteCreated(p fluss.TablePath) {
	if s.tx == nil || s.undoing {
		return
	}
	s.tx.created = append(s.tx.created, p)
	s.undoStatement("DROP TABLE IF EXISTS " + quoteIdent(p.Database) + "." + quoteIdent(p.Table) + " CASCADE")
}

// withoutOwnMark is desc without the mark of the session's block
// (markCreated): a table the committing block made anew (a TRUNCATE of
// a table it created) must not carry it into the commit, or a crash
// before the commit's AtCommit would drop, at the next start, a table
// whose block's rows in other tables stay committed. A mark of another
// session's open block stays.
func (s *session) withoutOwnMark(desc fluss.TableDescriptor) fluss.TableDescriptor {
	if desc.CustomProperties[createdProperty] != strconv.Itoa(int(s.info.ProcessID)) {
		return desc
	}
	desc.CustomProperties = maps.Clone(desc.CustomProperties)
	delete(desc.CustomProperties, createdProperty)
	return desc
}

// unmarkCreated clears the mark of the tables tx created, before its rows
// commit: a crash after leaves them (empty), never drops a committed one.
// A TRUNCATE in the block makes a table anew at the commit, from the
// descriptor the block read, which recreation gives without the block's
// own mark (withoutOwnMark).
func (s *session) unmarkCreated(ctx context.Context, tx *txn) error {
	if len(tx.created) == 0 {
		return nil
	}
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil
	}
	for _, p := range tx.created {
		info, err := s.eng.store.GetTable(ctx, p)
		if err != nil || info.Descriptor.CustomProperties[createdProperty] == "" {
			continue // dropped or renamed since (a rename's new path is noted too)
		}
		if _, err := alt.AlterTable(ctx, p, []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: createdProperty}}); err != nil {
			return err
		}
	}
	return nil
}

// dropUncommittedTables drops, when the server starts, the tables a
// transaction block created and a crash left marked (createdProperty),
// before any session. Only on a store this server is alone on: on a
// cluster another server's block may be running.
func (e *Engine) dropUncommittedTables() {
	ctx := context.Background()
	dbs, ok := e.soleSchemas(ctx) // temptables.go
	if !ok {
		return
	}
	s := &session{eng: e}
	s.usableFn = s.schemaUsable
	for _, db := range dbs {
		ts, err := e.store.ListTables(ctx, db)
		if err != nil {
			continue
		}
		for _, t := range ts {
			if t.Descriptor.CustomProperties[createdProperty] == "" {
				continue
			}
			if err := s.dropTable(ctx, t, true); err != nil {
				e.log.Error("dropping a table an uncommitted transaction block created", "table", t.Path.String(), "error", err)
				continue
			}
			_ = s.dropOwnedSequences(ctx, t.Path)
		}
	}
}
