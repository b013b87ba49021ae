// Package txnstore is the store as one transaction sees it: the
// transaction's uncommitted writes, held per table, laid over the store's
// committed rows until COMMIT hands them to the store at once. Its name
// says what it is: a fluss.Table (Table) that is the store's table plus a
// transaction's pending state, and the transaction (Txn) that owns those
// tables, its savepoints, its row locks and its commit. It was the engine's
// (engine/txn.go, txnspill.go, txnprefix.go) and is a package of its own
// so that it can be read and tested without a session: it knows nothing
// of SQL, sessions or settings, which the engine keeps (engine/txn.go:
// BEGIN READ ONLY, the block's DDL, CHECK constraints through Checker).
//
// Every write statement runs inside a transaction: the session's explicit
// block (BEGIN ... COMMIT) or, outside one, an implicit transaction that the
// statement commits when it succeeds. Writes never reach the store before
// COMMIT; they are held here, per table, as validated Arrow records, and
// Txn.Commit hands the tables' final state to the store in one call (one
// table: the table's own write, which shares the store's group commit;
// several: fluss.AtomicWriter), so a transaction — or a statement of many
// batches — is durable and visible entirely or not at all, and ROLLBACK or
// a failed statement simply forgets it (Txn.Release). A table dropped and
// created again under its name since the transaction opened it fails the
// commit (55000), and so does, with 40001, a table that gained a CHECK
// constraint after the transaction's rows were checked (checksAdded).
//
// Reads inside the transaction see the committed state of the store at the
// moment each scan starts (read committed), or the transaction's snapshot
// (repeatable read: the caller sets Txn.Snap), with the transaction's own
// pending writes laid over it: a Table answers Scan, Lookup and ScanPrefix
// by merging the two (read.go, prefix.go), under any projection.
//
// Savepoints (txn.go) copy each table's pending state; ROLLBACK TO
// restores it and keeps the savepoint, as PostgreSQL does.
//
// Row locks (locks.go; package rowlock, when the store is
// fluss.RowLockable): every row a transaction writes is locked first
// (exec.RowLocker, implemented by Table), and the locks are released only
// once COMMIT has made the writes durable and visible, or at ROLLBACK, a
// failed statement outside a block, or the end of the session. A statement
// that meets a row another transaction locked waits for it, then re-reads
// it (the engine's second pass of an UPDATE or DELETE, see exec.Recheck),
// so that two transactions writing the same key never lose either's
// change. Under REPEATABLE READ a locked row changed since the snapshot
// fails with 40001.
//
// Transactions larger than memory stage their writes on disk (spill.go).
//
// The common transaction (one table, one row written by key, read back)
// is kept to a few allocations: the first backing arrays of a Txn's and a
// Table's lists, its first one-row record and the first row read back live
// inside them; tables are found by a search of the short list until there
// are many (Txn.Lookup); a lookup of the one row a table's only write holds
// compares keys without indexing it (lazyHit).
//
// TRUNCATE inside a transaction (truncate.go) hides the store's rows of
// the table from the transaction until COMMIT deletes them, in the same
// atomic group as the rows written after it; what a rollback must undo
// outside the overlay (a TRUNCATE's sequence restarts) is registered with
// OnRollback, and what COMMIT must do after its writes, under the
// transaction's locks (the engine's DROP TABLE in a block), with AtCommit.
//
// Files: txn.go (Txn: tables, limit, savepoints, commit), table.go (Table:
// its pending state and writes, and what COMMIT writes of it), read.go
// (Lookup, Scan and the merging reader), prefix.go (ScanPrefix), locks.go
// (row locks and REPEATABLE READ's conflicts), spill.go (staging on disk),
// truncate.go (TRUNCATE, OnRollback, AtCommit), frozen.go (Frozen: a read-only copy
// of a table as the transaction reads it now, the snapshot a statement
// with data-modifying WITH queries reads).
package txnstore
