package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The session's transactions. Their pending writes, laid over the store's
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
	// queried: a statement other than SET, SHOW and the transaction
	// statements ran (SET TRANSACTION ISOLATION LEVEL is refused after it).
	queried bool
	// ddl is the text of each DDL statement the block ran, which its
	// ROLLBACK cannot undo (txddl.go); ddlRunning the running one;
	// ddlAt[i] is len(ddl) when savepoint i was made.
	ddl        []string
	ddlRunning string
	ddlAt      []int
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
// run since, which it could not undo.
func (tx *txn) rollbackTo(i int) (done []string) {
	done = tx.ddl[tx.ddlAt[i]:]
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
}

// Check implements txnstore.Checker.
func (pt *pendingTable) Check(ctx context.Context, rec arrow.RecordBatch) error {
	return pt.checks.check(ctx, rec)
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
	pt := &pendingTable{}
	tx.Open(&pt.Table, base, pt)
	pt.base = pt.Base()
	return pt
}
