package engine

import (
	"context"
	"time"

	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Transaction control statements: BEGIN, COMMIT, ROLLBACK (each AND
// CHAIN), SAVEPOINT, RELEASE and ROLLBACK TO, DISCARD. The transactions
// they open and end are txn.go's; isolation levels are rowlocks.go's.

// execBegin is BEGIN / START TRANSACTION: it opens a block (a BEGIN
// inside one does nothing, as PostgreSQL warns).
func (s *session) execBegin(tx *sql.TxStmt) (pgwire.Result, error) {
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
	}
	return beginTag, nil
}

// execCommit is COMMIT [AND CHAIN] (END): it commits the block, or rolls
// back an aborted one, or commits the implicit transaction it runs in.
func (s *session) execCommit(ctx context.Context, tx *sql.TxStmt) (pgwire.Result, error) {
	chain := tx != nil && tx.Chain
	if err := s.endCursors(ctx, s.txStatus == 'T'); err != nil { // cursors.go
		s.endTxn()
		return nil, err
	}
	if s.txStatus == 'E' {
		var ddl []string
		if s.tx != nil {
			ddl = s.tx.ddl
		}
		s.endTxn()
		s.chain(chain)
		return notUndone("ROLLBACK", ddl), nil // txddl.go
	}
	if s.tx != nil || s.implicit != nil {
		err := s.fkCommit(ctx) // fk.go: the deferred foreign key checks
		s.fkEndTransaction()
		if err != nil {
			s.endTxn()
			return nil, err
		}
	}
	block := s.tx
	s.tx = nil
	s.txStatus = 'I'
	s.setSetting("transaction_isolation", s.setting("default_transaction_isolation"))
	if block == nil {
		// COMMIT outside a block commits the implicit transaction it
		// runs in, as PostgreSQL does (with a warning).
		block, s.implicit = s.implicit, nil
	}
	if block != nil {
		defer block.Release()
		if err := block.Commit(s.commitContext(ctx), s.eng.store); err != nil {
			return nil, err
		}
		s.chain(chain)
		if chain {
			s.tx.readOnly = block.readOnly
		}
	}
	return commitTag, nil
}

// execRollback is ROLLBACK [AND CHAIN] (ABORT): it forgets the block or
// the implicit transaction, warning of the DDL it could not undo.
func (s *session) execRollback(ctx context.Context, tx *sql.TxStmt) (pgwire.Result, error) {
	var readOnly bool
	var ddl []string
	if s.tx != nil {
		readOnly, ddl = s.tx.readOnly, s.tx.ddl
	}
	s.endTxn()
	s.dropImplicit()
	_ = s.endCursors(ctx, false) // a rollback reads nothing: no error
	if tx != nil && tx.Chain {
		s.chain(true)
		s.tx.readOnly = readOnly
	}
	return notUndone("ROLLBACK", ddl), nil // txddl.go
}

// execDiscard is DISCARD: ALL closes the session's cursors; the rest
// holds nothing here.
func (s *session) execDiscard(what string) (pgwire.Result, error) {
	if what == "all" {
		s.cursors.closeAll()
	}
	return tagOnly("DISCARD ALL"), nil
}

// execSavepoint is SAVEPOINT, RELEASE SAVEPOINT and ROLLBACK TO SAVEPOINT.
func (s *session) execSavepoint(kind sql.Kind, tx *sql.TxStmt) (pgwire.Result, error) {
	// A savepoint exists only in a block: what it restores is the
	// overlay's pending state (txnstore) and the block's DDL mark (txn.go).
	if s.txStatus == 'I' || s.tx == nil {
		return nil, outsideTransactionBlock(savepointVerb(kind))
	}
	name := ""
	if tx != nil {
		name = tx.Savepoint
	}
	if kind == sql.RollbackToSavepoint {
		i, err := s.tx.FindSavepoint(name)
		if err != nil {
			return nil, err
		}
		done := s.tx.rollbackTo(i)
		s.cursorsRolledBackTo(i) // cursors.go
		s.txStatus = 'T'
		return notUndone("ROLLBACK", done), nil // txddl.go
	}
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	if kind == sql.ReleaseSavepoint {
		i, err := s.tx.FindSavepoint(name)
		if err != nil {
			return nil, err
		}
		s.tx.releaseSavepoint(i)
	} else if err := s.tx.savepoint(name); err != nil {
		return nil, err
	}
	return tagOnly(savepointVerb(kind)), nil
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
