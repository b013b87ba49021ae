package engine

import (
	"context"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The session's transactions: a block's (BEGIN ... COMMIT, txcontrol.go)
// or a statement's implicit one (writeTxn, finishImplicit, and a
// pipeline's held one: HoldImplicit, EndImplicit), and an error's abort of
// a block (failed). Their pending writes, laid over the store's
// tables until COMMIT, are package txnstore's (its doc says how a
// transaction holds, reads, locks, stages and commits them); what is here
// is what a transaction block keeps besides: BEGIN READ ONLY, whether a
// statement ran yet (REPEATABLE READ's snapshot, rr.go), the DDL a
// ROLLBACK cannot undo (txddl.go), and each table's CHECK constraints
// (coldefs.go).

// txn is one transaction of the session: a block's, or the implicit one
// of a statement or a pipeline (session.writeTxn).
type txn struct {
	// Txn is embedded by value, so that a transaction costs the engine
	// one allocation, as when the overlay was the engine's own.
	txnstore.Txn
	// readOnly is BEGIN READ ONLY.
	readOnly bool
	// chained are the modes AND CHAIN carried into this block (zero: a
	// BEGIN's block, the defaults). PostgreSQL sets a BEGIN's and a SET
	// TRANSACTION's modes as transaction-local settings, which a failure
	// undoes, but restores the chained modes directly: they are what a
	// failed block still has at its COMMIT / ROLLBACK AND CHAIN.
	chained transactionModes
	// queried: a statement other than SET, SHOW and the transaction
	// statements ran (SET TRANSACTION ISOLATION LEVEL is refused after it).
	queried bool
	// ddl is each DDL statement the block ran, with its inverse when it
	// has one (txddl.go); ddlRunning the running one's text and ddlUndo
	// the inverse it has so far; ddlAt[i] is len(ddl) when savepoint i was
	// made. created are the tables the block made, marked until COMMIT
	// (createdMark).
	ddl        []blockChange
	ddlRunning string
	ddlUndo    *blockChange
	ddlAt      []int
	created    []fluss.TablePath
	// first is the first table the transaction opens (openPending), in
	// the transaction's allocation: most transactions write one table.
	first     pendingTable
	firstUsed bool
	// tables is the transaction's lower.Tables (runtimeTables), kept here
	// so that handing it to a statement's runtime, three times per UPDATE,
	// does not box a new txnTables each time.
	tables txnTables
	// carry is the rows the running ALTER TABLE carries along
	// (uniquecarry.go); nil: none.
	carry *carried
}

// savepoint is SAVEPOINT name.
func (tx *txn) savepoint(name string) error {
	if err := tx.Savepoint(name); err != nil {
		return err
	}
	tx.ddlAt = append(tx.ddlAt, len(tx.ddl))
	return nil
}

// rollbackTo is ROLLBACK TO savepoint i: it returns the DDL statements
// run since, for the caller to undo (txddl.go undoChanges).
func (tx *txn) rollbackTo(i int) (done []blockChange) {
	done = slices.Clone(tx.ddl[tx.ddlAt[i]:])
	tx.ddl = tx.ddl[:tx.ddlAt[i]]
	tx.RollbackTo(i)
	tx.ddlAt = tx.ddlAt[:i+1]
	return done
}

// releaseSavepoint is RELEASE SAVEPOINT of savepoint i.
func (tx *txn) releaseSavepoint(i int) {
	tx.ReleaseSavepoint(i)
	tx.ddlAt = tx.ddlAt[:i]
}

// pendingTable is a table a transaction writes: the overlay's view of it
// (txnstore.Table, embedded by value so that both are one allocation) and
// its CHECK constraints, which the overlay runs over every row written
// (checks; checksBound once they were looked up, coldefs.go). The overlay
// keeps the pendingTable as the table's Checker, which is how writeTable
// finds it again. base is the overlay's Base, for COPY's bulk path
// (copy.go), kept by openPending and followRename.
type pendingTable struct {
	txnstore.Table
	base        fluss.Table
	checks      *tableChecks
	checksBound bool
	// fk is the table's foreign keys, own and referencing it (fk.go);
	// nil: none.
	fk *fkTable
	// uq is the table's unique constraints (unique.go); nil: none.
	uq *uniqueTable
	// prechecked is the batch whose CHECK constraints checkFirst ran
	// (unique.go), which Check then does not run again
	prechecked arrow.RecordBatch
	// failedRow is the row of the last batch written whose CHECK
	// constraint failed (-1: none): exec.Insert's sequence journal keeps
	// the calls of the rows up to it (FailedRow).
	failedRow int
}

// CheckRows implements exec.RowChecker.
func (pt *pendingTable) CheckRows(ctx context.Context, rec arrow.RecordBatch) (int, error) {
	return pt.checks.checkRow(ctx, rec)
}

// FailedRow implements exec.RowFailer.
func (pt *pendingTable) FailedRow() int { return pt.failedRow }

// Check implements txnstore.Checker.
func (pt *pendingTable) Check(ctx context.Context, rec arrow.RecordBatch) error {
	if pt.prechecked == nil || pt.prechecked != rec {
		row, err := pt.checks.checkRow(ctx, rec)
		pt.failedRow = row
		if err != nil {
			return err
		}
	}
	pt.fk.noteRows(pt.Info(), rec) // fk.go
	return nil
}

// pending returns the transaction's pendingTable of the table with id, nil
// when it has none.
func (tx *txn) pending(id int64) (*pendingTable, error) {
	ot := tx.Lookup(id)
	if ot == nil {
		return nil, nil
	}
	pt, ok := ot.Checker().(*pendingTable)
	if !ok { // every table the engine opens is opened by openPending
		return nil, sqlerr.New(sqlerr.InternalError, "table %q has no pending state of the engine's", ot.Info().Path.Table)
	}
	return pt, nil
}

// openPending opens the transaction's view of base, which it has none of.
func (tx *txn) openPending(base fluss.Table) *pendingTable {
	var pt *pendingTable
	if tx.firstUsed {
		pt = &pendingTable{}
	} else {
		pt, tx.firstUsed = &tx.first, true
	}
	tx.Open(&pt.Table, base, pt)
	pt.base, pt.failedRow = pt.Base(), -1
	return pt
}

// HoldImplicit implements pgwire.ImplicitTransactions: the statements
// that run outside a transaction block from now until EndImplicit share
// one implicit transaction, as PostgreSQL's do up to Sync. Its start is
// the transaction's start (now()).
func (s *session) HoldImplicit() {
	if s.held {
		return
	}
	s.held = true
	if s.txStatus == 'I' {
		s.txStart = time.Now()
	}
}

// EndImplicit implements pgwire.ImplicitTransactions: it commits the held
// implicit transaction (its writes become visible to other sessions only
// now) or rolls it back.
func (s *session) EndImplicit(ctx context.Context, commit bool) (err error) {
	// Advisory locks the held statements took for their transaction end
	// with it, whether or not they wrote (advisory.go).
	defer s.EndStatementTransaction()
	if s.tx == nil {
		// notify.go: the implicit transaction's NOTIFYs and LISTENs go
		// with it (a block it opened keeps them)
		defer func() {
			if commit && err == nil {
				s.commitNotifications()
			} else {
				s.dropNotifications()
			}
		}()
	}
	if s.tx == nil && s.held {
		// The settings the implicit transaction changed end with it
		// (settingstack.go); a block it opened (BEGIN) keeps them.
		defer func() { s.endSettingLevels(commit && err == nil, 1, 1) }()
	}
	s.held = false
	if s.tx == nil { // fk.go: the implicit transaction's deferred checks
		err := s.fkEndImplicit(ctx, commit && s.implicit != nil)
		if err != nil {
			s.dropImplicit()
			return err
		}
	}
	if s.txStatus == 'I' {
		if err := s.endCursors(ctx, commit); err != nil { // cursors.go
			s.dropImplicit()
			return err
		}
	}
	tx := s.implicit
	if tx == nil {
		return nil
	}
	s.implicit = nil
	defer tx.Release()
	if !commit {
		return nil
	}
	return tx.Commit(s.commitContext(ctx), s.eng.store)
}

// dropImplicit rolls back the implicit transaction.
func (s *session) dropImplicit() {
	if s.implicit != nil {
		s.implicit.Release()
		s.implicit = nil
	}
}

// chain opens a new transaction block at once (COMMIT / ROLLBACK AND
// CHAIN) when on.
func (s *session) chain(on bool) {
	if !on {
		return
	}
	s.txStatus = 'T'
	s.txStart = time.Now()
	s.tx = s.newTxn()
}

// chainWith is AND CHAIN when on: a new block at once, with modes (zero:
// the defaults), which it keeps as its chained modes.
func (s *session) chainWith(on bool, modes transactionModes) {
	if !on {
		return
	}
	s.chain(true)
	s.setTransactionModes(modes)
	s.tx.chained = modes
}

// newTxn starts a transaction's state, with the session's lock owner.
func (s *session) newTxn() *txn {
	tx := &txn{}
	tx.Init(s.eng.opts.TransactionMemoryLimit, txnstore.SpillLimit(s.eng.opts.TransactionSpillBytes))
	if s.eng.locks != nil {
		if s.rowLocks == nil {
			s.rowLocks = s.eng.locks.NewTxn(int32(s.info.ProcessID))
		}
		tx.Locks = s.rowLocks
	}
	return tx
}

// endTxn forgets the open transaction block.
func (s *session) endTxn() {
	s.fkEndTransaction()  // fk.go
	s.dropNotifications() // notify.go
	if s.tx != nil {
		s.tx.Release()
		s.tx = nil
	}
	s.txStatus = 'I'
	s.setTransactionModes(transactionModes{}) // txcontrol.go
}

// writeTxn is the transaction a write joins: the open block, or an
// implicit one that the statement commits (finishImplicit).
func (s *session) writeTxn() *txn {
	if s.tx != nil {
		return s.tx
	}
	if s.implicit == nil {
		s.implicit = s.newTxn()
		s.implicit.readOnly = s.settings["default_transaction_read_only"] == "on"
	}
	return s.implicit
}

// finishImplicit commits the statement's implicit transaction when the
// statement succeeded (err == nil) and forgets it either way. A held one
// stays open after a success (EndImplicit commits it) and is rolled back
// whole by an error, as PostgreSQL aborts the pipeline's transaction.
func (s *session) finishImplicit(ctx context.Context, err error) error {
	tx := s.implicit
	if tx == nil {
		return err
	}
	if s.held {
		if err != nil {
			s.dropImplicit()
		}
		return err
	}
	s.implicit = nil
	defer tx.Release()
	if err != nil {
		return err
	}
	return tx.Commit(s.commitContext(ctx), s.eng.store)
}

// runtimeTables is what a statement's executor reads: inside a
// transaction, the tables it wrote show its pending writes.
func (s *session) runtimeTables() lower.Tables {
	tx := s.tx
	if tx == nil {
		tx = s.implicit
	}
	if tx == nil {
		return s.eng.runtime
	}
	if tx.tables.tx == nil {
		tx.tables = txnTables{tables: s.eng.tables, tx: tx}
	}
	return &tx.tables
}

// FailTransaction implements pgwire.TransactionFailer: an error pgwire
// reported itself (a bad Bind, a missing portal) fails an open block too.
func (s *session) FailTransaction() {
	if s.tx == nil {
		s.dropNotifications() // notify.go: the statement's transaction failed
	}
	if s.txStatus == 'T' {
		s.txStatus = 'E'
		s.abortLocks()
	}
}

// failed marks an open transaction block as failed, as PostgreSQL does after
// any error inside one.
func (s *session) failed(err error) error {
	if s.tx == nil {
		s.dropNotifications() // notify.go: the statement's transaction failed
	}
	if s.txStatus == 'T' {
		s.txStatus = 'E'
		s.abortLocks()
	}
	return err
}

// abortLocks releases the row locks of a block that an error aborted, as
// PostgreSQL does when it aborts the transaction (the block itself lasts
// until ROLLBACK): nothing of it can commit any more. With a savepoint,
// ROLLBACK TO could resume the block and commit its earlier writes, so the
// locks taken before the innermost savepoint are kept, but the failed
// subtransaction's own undos run now (FailSavepoint: the row locks and
// advisory locks taken since the innermost savepoint go at the error, as
// PostgreSQL's AbortSubTransaction releases them).
func (s *session) abortLocks() {
	switch {
	case s.tx == nil:
	case s.tx.Savepoints() == 0:
		s.tx.Unlock(false)
	default:
		s.tx.FailSavepoint()
	}
}
