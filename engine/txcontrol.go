package engine

import (
	"context"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Transaction control statements: BEGIN, COMMIT, ROLLBACK (each AND
// CHAIN), SAVEPOINT, RELEASE and ROLLBACK TO, DISCARD. The transactions
// they open and end are txn.go's; isolation levels are rowlocks.go's.

// execBegin is BEGIN / START TRANSACTION: it opens a block (a BEGIN
// inside one does nothing but warn, as PostgreSQL's; in a failed one it
// is refused like every statement but those that end the block).
func (s *session) execBegin(tx *sql.TxStmt) (pgwire.Result, error) {
	switch s.txStatus {
	case 'E':
		return nil, sqlerr.TransactionAborted()
	case 'T':
		// PostgreSQL warns and still applies the BEGIN's modes to the
		// open block, as SET TRANSACTION would (with its checks).
		if tx != nil && (tx.Isolation != "" || tx.ReadOnly || tx.ReadWrite || tx.Deferrable || tx.NotDeferrable) {
			modes := *tx
			modes.Chain, modes.Savepoint, modes.GID = false, "", ""
			if err := s.setTransaction(&sql.SetStmt{Tx: &modes}); err != nil { // rowlocks.go
				return nil, err
			}
		}
		return warningResult("BEGIN", sqlerr.New(sqlerr.ActiveSQLTransaction, "there is already a transaction in progress")), nil
	}
	if s.txStatus == 'I' {
		if err := s.beginIsolation(tx); err != nil {
			return nil, err
		}
		s.txStatus = 'T'
		if s.implicit != nil {
			// BEGIN inside an implicit transaction (a pipeline, a
			// Query string) makes it the block, with what it wrote.
			s.tx, s.implicit = s.implicit, nil
		} else {
			s.txStart = time.Now()
			s.tx = s.newTxn()
		}
		s.tx.readOnly = tx != nil && tx.ReadOnly ||
			(tx == nil || !tx.ReadWrite) && s.settings["default_transaction_read_only"] == "on"
		s.setSetting("transaction_read_only", onOff(s.tx.readOnly))
		s.setSetting("transaction_deferrable", onOff(tx != nil && tx.Deferrable ||
			(tx == nil || !tx.NotDeferrable) && s.settings["default_transaction_deferrable"] == "on"))
	}
	return beginTag, nil
}

// transactionModes are a block's isolation level, access mode and
// deferrability as their settings show them: what AND CHAIN carries into
// the next block.
type transactionModes struct{ isolation, readOnly, deferrable string }

func (s *session) transactionModes() transactionModes {
	return transactionModes{s.settings["transaction_isolation"], s.settings["transaction_read_only"], s.settings["transaction_deferrable"]}
}

// setTransactionModes sets the modes the transaction_* settings show:
// m, or with m zero the session's defaults (the end of a block).
func (s *session) setTransactionModes(m transactionModes) {
	if m == (transactionModes{}) {
		m = transactionModes{s.setting("default_transaction_isolation"), s.setting("default_transaction_read_only"), s.setting("default_transaction_deferrable")}
	}
	s.setSetting("transaction_isolation", m.isolation)
	s.setSetting("transaction_read_only", m.readOnly)
	s.setSetting("transaction_deferrable", m.deferrable)
	if s.tx != nil {
		s.tx.readOnly = m.readOnly == "on"
	}
}

// execCommit is COMMIT [AND CHAIN] (END): it commits the block, or rolls
// back an aborted one, or commits the implicit transaction it runs in.
func (s *session) execCommit(ctx context.Context, tx *sql.TxStmt) (pgwire.Result, error) {
	chain := tx != nil && tx.Chain
	level := s.settingLevel()
	inBlock := s.tx != nil
	if !inBlock && chain {
		return nil, outsideTransactionBlock("COMMIT AND CHAIN")
	}
	if err := s.endCursors(ctx, s.txStatus == 'T'); err != nil { // cursors.go
		s.endTxn()
		s.endSettingLevels(false, level, 1) // settingstack.go
		return nil, err
	}
	if s.txStatus == 'E' {
		var ddl []blockChange
		var base transactionModes
		if s.tx != nil {
			ddl, base = s.tx.ddl, s.tx.chained
		}
		// AND CHAIN after a failed block keeps only the modes chained
		// into it (txn.chained): the failure undid its BEGIN's and SET
		// TRANSACTION's, as PostgreSQL's.
		s.endTxn()
		s.endSettingLevels(false, level, 1)
		s.chainWith(chain, base)                       // txn.go
		return s.rolledBack(ctx, "ROLLBACK", ddl), nil // txddl.go
	}
	var ddl []blockChange
	if s.tx != nil {
		ddl = s.tx.ddl
	}
	if s.tx != nil || s.implicit != nil {
		err := s.fkCommit(ctx) // fk.go: the deferred foreign key checks
		s.fkEndTransaction()
		if err == nil && s.tx != nil {
			err = s.unmarkCreated(ctx, s.tx) // txddl.go: its tables outlive a crash now
		}
		if err != nil {
			s.endTxn()
			s.endSettingLevels(false, level, 1)
			return nil, s.commitFailed(ctx, ddl, err) // txddl.go
		}
	}
	block := s.tx
	modes := s.transactionModes()
	s.tx = nil
	s.txStatus = 'I'
	s.setTransactionModes(transactionModes{})
	if block == nil {
		// COMMIT outside a block commits the implicit transaction it
		// runs in, as PostgreSQL does (with a warning).
		block, s.implicit = s.implicit, nil
	}
	if block != nil {
		err := block.Commit(s.commitContext(ctx), s.eng.store)
		block.Release()
		if err != nil {
			s.endSettingLevels(false, level, 1)
			return nil, s.commitFailed(ctx, ddl, err)
		}
	}
	s.endSettingLevels(true, level, 1)
	s.commitNotifications() // notify.go: once the commit is durable
	if block != nil {
		s.chainWith(chain, modes)
	}
	if !inBlock {
		// COMMIT outside a block (in an implicit transaction it commits
		// that) warns, as PostgreSQL's EndTransactionBlock does.
		return warningResult("COMMIT", noTransactionInProgress()), nil
	}
	return commitTag, nil
}

// noTransactionInProgress is the warning of COMMIT, ROLLBACK and PREPARE
// TRANSACTION outside a transaction block.
func noTransactionInProgress() *sqlerr.Error {
	return sqlerr.New(sqlerr.NoActiveSQLTransaction, "there is no transaction in progress")
}

// warningResult is a statement's tag after a WARNING.
func warningResult(tag string, w *sqlerr.Error) pgwire.Result {
	return &noticeTagResult{tagResult: tagResult{tag: tag}, notices: []*sqlerr.Error{warningOf(w)}}
}

// execRollback is ROLLBACK [AND CHAIN] (ABORT): it forgets the block or
// the implicit transaction, warning of the DDL it could not undo.
func (s *session) execRollback(ctx context.Context, tx *sql.TxStmt) (pgwire.Result, error) {
	inBlock := s.tx != nil
	if !inBlock && tx != nil && tx.Chain {
		return nil, outsideTransactionBlock("ROLLBACK AND CHAIN")
	}
	var ddl []blockChange
	if s.tx != nil {
		ddl = s.tx.ddl
	}
	level := s.settingLevel()
	modes := s.transactionModes()
	if s.txStatus == 'E' && s.tx != nil {
		modes = s.tx.chained // as execCommit's after a failed block
	}
	s.endTxn()
	s.dropImplicit()
	s.endSettingLevels(false, level, 1) // settingstack.go
	_ = s.endCursors(ctx, false)        // a rollback reads nothing: no error
	s.chainWith(tx != nil && tx.Chain, modes)
	if !inBlock {
		return warningResult("ROLLBACK", noTransactionInProgress()), nil
	}
	return s.rolledBack(ctx, "ROLLBACK", ddl), nil // txddl.go
}

// execPrepareTransaction is PREPARE TRANSACTION 'gid' with PostgreSQL's
// default max_prepared_transactions = 0: sqlgate has no two-phase commit,
// so, as PostgreSQL with prepared transactions disabled, the block is
// rolled back and the statement fails (55000); outside a block it only
// warns, and a failed block just ends.
func (s *session) execPrepareTransaction(ctx context.Context) (pgwire.Result, error) {
	status := s.txStatus
	inBlock, implicit := s.tx != nil, s.tx == nil && s.held
	if _, err := s.execRollback(ctx, nil); err != nil {
		return nil, err
	}
	disabled := sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "prepared transactions are disabled").
		WithHint("Set max_prepared_transactions to a nonzero value.")
	switch {
	case implicit:
		// The implicit transaction is prepared, after the warning that
		// no block is open: that fails as a block's would.
		return nil, &warnedError{warnings: []*sqlerr.Error{warningOf(noTransactionInProgress())}, err: disabled}
	case !inBlock:
		return warningResult("ROLLBACK", noTransactionInProgress()), nil
	case status == 'E':
		return tagOnly("ROLLBACK"), nil
	}
	return nil, disabled
}

// warnedError is an error its statement sends after warnings
// (pgwire.Noticer).
type warnedError struct {
	warnings []*sqlerr.Error
	err      error
}

func (e *warnedError) Error() string            { return e.err.Error() }
func (e *warnedError) Unwrap() error            { return e.err }
func (e *warnedError) Notices() []*sqlerr.Error { return e.warnings }

// warningOf gives w a WARNING's severity.
func warningOf(w *sqlerr.Error) *sqlerr.Error {
	w.Severity = "WARNING"
	return w
}

// execFinishPrepared is COMMIT PREPARED / ROLLBACK PREPARED 'gid': no
// transaction is ever prepared here (execPrepareTransaction), so gid names
// none (42704); inside a transaction block either is 25001, as
// PostgreSQL's PreventInTransactionBlock.
func (s *session) execFinishPrepared(kind sql.Kind, gid string) (pgwire.Result, error) {
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if s.inTransaction() { // fk.go
		verb := "COMMIT PREPARED"
		if kind == sql.RollbackPrepared {
			verb = "ROLLBACK PREPARED"
		}
		return nil, sqlerr.New(sqlerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", verb)
	}
	return nil, sqlerr.New(sqlerr.UndefinedObject, "prepared transaction with identifier \"%s\" does not exist", gid)
}

// execDiscard is DISCARD: TEMP drops the session's temporary tables,
// SEQUENCES forgets currval's and lastval's values, PLANS has nothing to
// forget (no plan outlives its statement but a prepared one, which
// PostgreSQL keeps too), and ALL does all of that, closes the cursors,
// resets every setting, deallocates every prepared statement, releases
// the session's advisory locks and runs UNLISTEN *, as
// PostgreSQL's DISCARD ALL (a pool's reset query), outside a block only.
func (s *session) execDiscard(what string) (pgwire.Result, error) {
	switch what {
	case "all":
		if s.inTransaction() { // fk.go
			return nil, sqlerr.New(sqlerr.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
		}
		s.cursors.closeAll()
		if _, err := s.execSet(&sql.SetStmt{ResetAll: true}); err != nil { // setshow.go
			return nil, err
		}
		if _, err := s.deallocate(&sql.DeallocateStmt{All: true}); err != nil { // sqlprepare.go
			return nil, err
		}
		s.dropTempSchema()             // temptables.go
		s.seqs.discard()               // sequences.go
		s.advisory.UnlockAllAdvisory() // advisory.go
		s.unlistenAll()                // notify.go
	case "temp":
		s.dropTempSchema()
	case "sequences":
		s.seqs.discard()
	}
	return tagOnly("DISCARD " + strings.ToUpper(what)), nil
}

// execSavepoint is SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO SAVEPOINT.
func (s *session) execSavepoint(ctx context.Context, kind sql.Kind, tx *sql.TxStmt) (pgwire.Result, error) {
	// A savepoint exists only in a block: what it restores is the
	// overlay's pending state (txnstore) and the block's DDL mark (txn.go).
	if s.txStatus == 'I' || s.tx == nil {
		return nil, outsideTransactionBlock(savepointStatement(kind))
	}
	name := ""
	if tx != nil {
		name = tx.Savepoint
	}
	level := s.settingLevel()
	if kind == sql.RollbackToSavepoint {
		i, err := s.tx.FindSavepoint(name)
		if err != nil {
			return nil, err
		}
		// Savepoint i opened nesting level i+2 (settingstack.go): its
		// levels abort, and it begins again, with the access mode it
		// had.
		s.endSettingLevels(false, level, i+2)
		s.tx.readOnly = s.settings["transaction_read_only"] == "on"
		done := s.tx.rollbackTo(i)
		s.ntf.pending.RollbackTo(i) // notify.go
		s.cursorsRolledBackTo(i)    // cursors.go
		s.txStatus = 'T'
		return s.rolledBack(ctx, "ROLLBACK", done), nil // txddl.go
	}
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if kind == sql.ReleaseSavepoint {
		i, err := s.tx.FindSavepoint(name)
		if err != nil {
			return nil, err
		}
		s.endSettingLevels(true, level, i+2)
		s.tx.releaseSavepoint(i)
		s.ntf.pending.Release(i) // notify.go
	} else if err := s.tx.savepoint(name); err != nil {
		return nil, err
	} else {
		s.ntf.pending.Savepoint()
	}
	return tagOnly(savepointVerb(kind)), nil
}

// savepointStatement names the statement in its errors, as PostgreSQL
// does (the tag is savepointVerb's).
func savepointStatement(k sql.Kind) string {
	switch k {
	case sql.ReleaseSavepoint:
		return "RELEASE SAVEPOINT"
	case sql.RollbackToSavepoint:
		return "ROLLBACK TO SAVEPOINT"
	}
	return "SAVEPOINT"
}

func savepointVerb(k sql.Kind) string {
	switch k {
	case sql.ReleaseSavepoint:
		return "RELEASE"
	case sql.RollbackToSavepoint:
		return "ROLLBACK"
	}
	return "SAVEPOINT"
}
