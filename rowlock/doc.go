// Package rowlock is the lock manager of one sqlgate server: the row locks
// that make concurrent read-modify-write statements lose no update, with
// PostgreSQL 15's row-lock modes and waiting rules.
//
// A Manager is shared by every session of a server (it is concurrency state,
// not storage: nothing of it survives a restart, so after a crash nothing is
// locked). Each session holds one Txn, the owner of the locks of its current
// transaction; Txn.Release ends them all, after the transaction's writes are
// durable and visible (committed) or forgotten (rolled back, disconnected).
//
// What it provides:
//
//   - Row locks by (table id, Fluss key encoding of the primary key) in the
//     four modes of PostgreSQL (FOR KEY SHARE, FOR SHARE, FOR NO KEY UPDATE,
//     FOR UPDATE) with PostgreSQL's conflict table. A request that conflicts
//     with another transaction's lock waits (Block), fails with 55P03
//     (NoWait) or is skipped (SkipLocked) — but FOR KEY SHARE waits for a
//     holder that wrote the row without changing its key and then changed
//     it (keyAfterWrite), as PostgreSQL's; a wait ends on grant, on the
//     statement's context (cancel, statement_timeout) or on lock_timeout
//     (55P03).
//   - Deadlock detection as PostgreSQL runs it: a wait that has lasted
//     deadlock_timeout looks for a cycle through itself in the waits-for
//     graph and, finding one, fails with 40P01, its detail naming each
//     process, what it waits for and its statement, in PostgreSQL's words.
//     So the same transaction of a deadlock fails as in PostgreSQL.
//   - Waiting for writers (AwaitWriters): INSERT ... ON CONFLICT's check
//     of a key waits, taking no lock, for the transactions that wrote
//     the row (a lock taken with Request.Write) and have not ended, as
//     PostgreSQL's speculative insertion waits for an in-progress
//     inserter, updater or deleter and lets mere lockers through; pg_locks
//     shows it waiting for the writer's transaction id. A wait (of a lock
//     too) reports Result.Overwritten when a transaction that had written
//     the row committed meanwhile: the row is another version, even with
//     the same values. A request that stops on a write
//     (Request.StopOnWrite: a REPEATABLE READ write's) leaves the queue
//     unlocked then (Outcome Stopped), rather than wait for the row's next
//     holder.
//     Unwait gives back a lock a wait obtained of a row found deleted.
//     A release grants the lock waiters first (a write's as a write) and
//     then lets AwaitWriters' waiters look, so a writer woken with an
//     upsert's check by one commit is waited for.
//   - Version stamps: a commit stamps the keys it wrote with a sequence
//     number; Changed tells a statement whether a row may have changed since
//     the sequence number it read at its start. Stamps live in a fixed-size
//     table of hashed slots, so memory is bounded and a collision can only
//     say "changed" when nothing changed (a needless re-read), never the
//     reverse.
//   - Moved rows (moves.go): a commit that changed rows' primary keys logs
//     where each went, so that a statement that waited for such a row
//     follows it to its new key, as PostgreSQL follows a row's update chain;
//     a commit that deleted rows logs that their chains end there
//     (Txn.Deleted), even when a row with the key was inserted again.
//     Unwrite makes a write's row lock a lock only (a re-check passed
//     over the row). Written answers exactly, from a bounded log of the
//     rows each commit wrote, what Changed may only guess: whether a row
//     has a version newer than a snapshot even with the same values.
//   - Savepoints (savepoint.go): after LocksMark, each row lock taken or
//     raised is logged; RollbackLocks (ROLLBACK TO SAVEPOINT) ends those
//     taken since the mark and lowers those raised, as PostgreSQL's
//     subtransaction abort ends the row locks of its xid.
//   - Bounded memory: a transaction that holds many row locks of one table
//     takes the whole table instead when no other transaction holds locks in
//     it (escalation, never waited for), and the server refuses more than
//     Options.MaxLocks row locks with 53200.
//   - Advisory locks (advisory.go): PostgreSQL's pg_advisory_lock family,
//     share and exclusive, counted per call, held by a session's
//     transaction owner (until the transaction ends) or by its session
//     owner (NewSessionTxn: until unlocked). A session's two owners never
//     conflict with each other and are one process to the deadlock search,
//     so a cycle through a row lock and an advisory lock is found.
//   - Locks lists what is held and awaited, for pg_locks.
//   - Table locks in PostgreSQL's eight modes (ACCESS SHARE ... ACCESS
//     EXCLUSIVE) with its conflict table; a transaction holds any set of
//     them per table (pg_locks shows a row per mode). A table's queue is
//     fair as PostgreSQL's: a request that conflicts with an earlier
//     waiter waits behind it (readers arriving after a waiting ALTER TABLE
//     wait for it), unless the requester already holds a lock of the
//     table.
//
// Lock order. A statement locks its rows in the order its plan reads them,
// as PostgreSQL's does; what differs is that order. PostgreSQL's scan
// reads the heap: rows in the order their current versions were placed,
// an UPDATE putting the new version wherever free space is (the same page
// for a HOT update, at a new line pointer after the others; else the page
// the free space map names, which vacuum and page pruning refill). The
// embedded store keeps one row per primary key, ordered by key, and its
// scan returns them so. Matching the heap would take the store keeping
// where each version would have landed, which depends on fill factor, row
// width, pruning and autovacuum's timing: it is not a rule two servers
// can share. So after rows were updated a multi-row statement can reach
// a row another transaction holds at another point than PostgreSQL's
// does, having locked more or fewer rows before it waits, and when that
// ends in a deadlock, which transaction's wait closes the cycle, the one
// the deadlock search fails (40P01), can differ (tests/difftest's
// interleaving tester counts different victims apart).
//
// Row locks are taken under their table's ROW SHARE (SELECT ... FOR
// UPDATE) or ROW EXCLUSIVE (a write) lock, so that a table lock
// (escalation or a bulk write's EXCLUSIVE, DDL's ACCESS EXCLUSIVE) and row
// locks exclude each other through the same queues and the same deadlock
// graph.
package rowlock
