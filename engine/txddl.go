package engine

import (
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
// there. Fluss's catalog is not transactional: a schema change takes effect
// at once, is seen by every session, and stays when the block is rolled
// back. sqlgate says so instead of pretending: the block remembers the DDL
// it ran, and a ROLLBACK (or ROLLBACK TO SAVEPOINT, or the COMMIT of a
// failed block) that cannot undo it sends a WARNING naming each statement.
// PostgreSQL clients show or log a WARNING and go on, as they do for a
// NOTICE.
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
	if s.tx != nil {
		s.tx.ddlRunning = s.stmtText
	}
	return nil
}

// ddlFinished records the DDL statement that blockDDL let run, once it
// succeeded (err == nil).
func (s *session) ddlFinished(err error) {
	if s.tx == nil || s.tx.ddlRunning == "" {
		return
	}
	if err == nil {
		s.tx.ddl = append(s.tx.ddl, s.tx.ddlRunning)
	}
	s.tx.ddlRunning = ""
}

// warningCode is PostgreSQL's SQLSTATE 01000 (warning).
const warningCode sqlerr.Code = "01000"

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
		WithDetail("sqlgate applies DDL at once (Fluss's catalog is not transactional); still in effect: %s", strings.Join(names, "; ")).
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
