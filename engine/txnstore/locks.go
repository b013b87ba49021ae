package txnstore

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/rowlock"
)

// LockInsert implements exec.RowLocker: an insert or upsert locks the keys
// it writes FOR UPDATE; a large one locks the whole table instead when no
// other transaction holds locks in it.
func (pt *Table) LockInsert(ctx context.Context, rec arrow.RecordBatch) error {
	tx := pt.tx
	if tx.Locks == nil {
		return nil
	}
	if !pt.info.HasPrimaryKey() {
		return nil // (no key: Append takes the table's intent lock, LockAppend)
	}
	// A null key is refused as the store refuses it, naming the row,
	// before keyOf meets it.
	if err := fluss.CheckNotNull(pt.info, rec.Columns()); err != nil {
		return err
	}
	n := int(rec.NumRows())
	var kc keyColumnsBuf
	cols := pt.keyColumns(kc[:0], rec)
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	if n >= tx.Locks.Manager().EscalateAt() && tx.Locks.LockTable(pt.info.TableID, pt.info.Path.Table, tx.Stmt, true) {
		if tx.Snap == nil {
			return nil
		}
		// REPEATABLE READ: the table is held, but a key may have been
		// written since the snapshot (snapshotConflict).
		m := tx.Locks.Manager()
		for i := 0; i < n; i++ {
			if buf, err = pt.keyOf(buf, cols, i); err != nil {
				return err
			}
			if m.Changed(pt.info.TableID, string(buf), tx.SnapSeq) {
				if err := pt.snapshotConflict(ctx, string(buf), false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	since := uint64(0)
	if tx.Snap != nil {
		since = tx.SnapSeq
	}
	for i := 0; i < n; i++ {
		if buf, err = pt.keyOf(buf, cols, i); err != nil {
			return err
		}
		res, err := tx.Locks.Lock(ctx, pt.lockRequest(string(buf), rowlock.Update, since))
		if err != nil {
			return err
		}
		if res.Changed && tx.Snap != nil {
			if err := pt.snapshotConflict(ctx, string(buf), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// LockUpsert implements exec.RowLocker: INSERT ... ON CONFLICT's locks, as
// PostgreSQL's ExecInsert takes them. Each key first waits for the
// transactions that wrote its row and have not ended, taking no lock
// (check_exclusion_or_unique_constraint's wait for an in-progress
// inserter, updater or deleter; a row locker is not waited for). Then DO
// NOTHING locks a key only when no row has it (the row it inserts) and
// DO UPDATE locks the key in how.Mode (ExecOnConflictUpdate's lock, which
// waits for lockers too). Under REPEATABLE READ, a row there that is not
// the snapshot's version fails with 40001 (ExecCheckTupleVisible), even
// when a commit since wrote it with the same values (rowlock's Written;
// when its log no longer reaches back, the values tell), as does DO
// UPDATE's row that a transaction it waited for to lock it wrote
// (heap_lock_tuple's TM_Updated and TM_Deleted); a row deleted since the
// snapshot is no conflict: its key is written over the snapshot's row
// (onSnapshotRow). A large upsert locks the whole table instead, as
// LockInsert.
func (pt *Table) LockUpsert(ctx context.Context, rec arrow.RecordBatch, how exec.UpsertLock) error {
	tx := pt.tx
	if tx.Locks == nil || !pt.info.HasPrimaryKey() {
		return nil
	}
	n := int(rec.NumRows())
	pt.mu.Lock()
	staged := pt.bulk != nil
	pt.mu.Unlock()
	if staged || n >= tx.Locks.Manager().EscalateAt() {
		return pt.LockInsert(ctx, rec)
	}
	if err := fluss.CheckNotNull(pt.info, rec.Columns()); err != nil {
		return err
	}
	var kc keyColumnsBuf
	cols := pt.keyColumns(kc[:0], rec)
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	for i := 0; i < n; i++ {
		if buf, err = pt.keyOf(buf, cols, i); err != nil {
			return err
		}
		if err := pt.lockUpsertKey(ctx, string(buf), how); err != nil {
			return err
		}
	}
	return nil
}

// lockUpsertKey is LockUpsert's work for one key encoding.
func (pt *Table) lockUpsertKey(ctx context.Context, key string, how exec.UpsertLock) error {
	tx := pt.tx
	pending, err := pt.pendingKey(key)
	if err != nil {
		return err
	}
	if pending {
		// the transaction wrote the key: it holds its lock
		if how.DoNothing {
			return nil
		}
		_, err := tx.Locks.Lock(ctx, pt.lockRequest(key, how.Mode, 0))
		return err
	}
	first, err := tx.Locks.AwaitWriters(ctx, pt.lockRequest(key, how.Mode, 0))
	if err != nil {
		return err
	}
	there, err := pt.newestHolds(ctx, key)
	if err != nil {
		return err
	}
	var lock rowlock.Result
	if !how.DoNothing || !there {
		if lock, err = tx.Locks.Lock(ctx, pt.lockRequest(key, how.Mode, 0)); err != nil {
			return err
		}
		if lock.Outcome == rowlock.Waited {
			if there, err = pt.newestHolds(ctx, key); err != nil {
				return err
			}
		}
	}
	if tx.Snap == nil {
		return nil
	}
	switch {
	case lock.Overwritten && !how.DoNothing && !there:
		return exec.ConcurrentDelete()
	case lock.Overwritten && !how.DoNothing, there && first.Overwritten:
		return exec.SerializationFailure()
	case there:
		if !tx.Locks.Manager().Changed(pt.info.TableID, key, tx.SnapSeq) {
			return nil
		}
		if pt.writtenSinceSnapshot(key) {
			// the conflicting row is a version newer than the snapshot,
			// even with the snapshot's values (ExecCheckTupleVisible)
			return exec.SerializationFailure()
		}
		return pt.snapshotConflict(ctx, key, false)
	}
	return pt.onSnapshotRow(ctx, key)
}

// goneSince reports whether the row with the key encoding key, which the
// transaction has not written, is not in the newest committed state.
func (pt *Table) goneSince(ctx context.Context, key string) (bool, error) {
	pending, err := pt.pendingKey(key)
	if err != nil || pending {
		return false, err
	}
	there, err := pt.newestHolds(ctx, key)
	return !there, err
}

// pendingKey reports whether the transaction wrote the key encoding key
// (a COPY's staged table: as if it had, its rows not indexed).
func (pt *Table) pendingKey(key string) (bool, error) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.bulk != nil {
		return true, nil
	}
	if err := pt.indexLazy(); err != nil {
		return false, err
	}
	_, pending := pt.rows[key]
	return pending, nil
}

// newestHolds reports whether the newest committed state of the table has
// a row with the key encoding key.
func (pt *Table) newestHolds(ctx context.Context, key string) (bool, error) {
	return holds(ctx, pt.newest, pt.info, pt.keyIdx, key)
}

// onSnapshotRow lays, under REPEATABLE READ, a delete of the row with the
// key encoding key over the snapshot when the snapshot has the row (a
// commit since deleted it), so that the upsert that found no row of the
// key in the newest state, and inserts it, reads no row there either.
func (pt *Table) onSnapshotRow(ctx context.Context, key string) error {
	there, err := holds(ctx, pt.base, pt.info, pt.keyIdx, key)
	if err != nil || !there {
		return err
	}
	probe, err := exec.KeyBatch(memory.DefaultAllocator, pt.info, []string{key})
	if err != nil {
		return err
	}
	defer probe.Release()
	_, err = pt.Delete(ctx, probe)
	return err
}

// LockRows implements exec.RowLocker.
func (pt *Table) LockRows(ctx context.Context, keys []string, how exec.RowLock) ([]exec.LockState, error) {
	tx := pt.tx
	if tx.Locks == nil {
		return nil, nil
	}
	var states []exec.LockState
	for i, k := range keys {
		if tx.Snap != nil && tx.Locks.Manager().Changed(pt.info.TableID, k, tx.SnapSeq) {
			// a change committed since the snapshot fails the statement
			// before it waits for the row's holder, as PostgreSQL's
			// heap_lock_tuple finds the snapshot's version updated by a
			// committed transaction (TM_Updated) before it looks at the
			// newer version's lockers
			if err := pt.lockConflict(ctx, k, how); err != nil {
				return nil, err
			}
		}
		if tx.Snap == nil && tx.Since != 0 && tx.Locks.Manager().Changed(pt.info.TableID, k, tx.Since) {
			// READ COMMITTED: a row a commit deleted or moved since the
			// statement read it is not waited for at its key (which a
			// new row's inserter may hold): PostgreSQL's heap_lock_tuple
			// meets the version the statement read deleted (TM_Deleted:
			// skipped) or updated (TM_Updated: followed, Follow)
			gone, err := pt.goneSince(ctx, k)
			if err != nil {
				return nil, err
			}
			if gone || pt.deletedSince(k) {
				if states == nil {
					states = make([]exec.LockState, len(keys))
				}
				states[i] = exec.LockChanged
				if !gone {
					states[i] = exec.LockGone
				}
				continue
			}
		}
		req := pt.lockRequest(k, how.Mode, tx.Since)
		// A REPEATABLE READ write stops waiting once a writer of the row
		// commits (it fails then, below), as PostgreSQL's heap_update
		// meets the version it read updated. A locking SELECT (a foreign
		// key's check too) does not: heap_lock_tuple first locks the
		// newer versions as well (follow_updates), waiting for a
		// transaction that holds one (a waiter woken before it), and
		// fails only once it has them.
		req.Wait, req.Write, req.StopOnWrite = how.Wait, how.Write, tx.Snap != nil && how.Write
		res, err := tx.Locks.Lock(ctx, req)
		if err != nil {
			return nil, err
		}
		st := exec.LockFresh
		switch {
		case res.Outcome == rowlock.Skipped:
			st = exec.LockSkipped
		case res.Changed && tx.Snap == nil && pt.deletedSince(k):
			// READ COMMITTED: the row waited for was deleted, whatever
			// now has its key: no version of it is locked
			st = exec.LockGone
			tx.Locks.Unwait(pt.info.TableID, k)
		case res.Changed:
			st = exec.LockChanged
			if res.Overwritten {
				st = exec.LockRewritten
			}
			if tx.Snap != nil {
				// REPEATABLE READ cannot re-read the row: a real change
				// since the snapshot fails the statement, and so does
				// any write of the transaction it waited for (PostgreSQL's
				// TM_Updated after a wait, even for FOR KEY SHARE and a
				// rewrite with the same values)
				err := pt.lockConflict(ctx, k, how)
				if err == nil && res.Overwritten {
					err = exec.SerializationFailure()
				}
				if err != nil {
					return nil, err
				}
				st = exec.LockFresh
			}
		}
		if st != exec.LockFresh && states == nil {
			states = make([]exec.LockState, len(keys))
		}
		if states != nil {
			states[i] = st
		}
	}
	return states, nil
}

// lockConflict is REPEATABLE READ's check of a row LockRows locks as how
// says: snapshotConflict, or keyShareConflict for FOR KEY SHARE. A row a
// commit since wrote with the snapshot's values is a newer version all
// the same, which fails any lock but FOR KEY SHARE (heap_lock_tuple's
// TM_Updated).
func (pt *Table) lockConflict(ctx context.Context, key string, how exec.RowLock) error {
	err := pt.snapshotConflict(ctx, key, how.Write)
	switch {
	case err != nil && how.Mode == rowlock.KeyShare:
		err = pt.keyShareConflict(ctx, key)
	case err == nil && how.Mode != rowlock.KeyShare && pt.writtenSinceSnapshot(key):
		err = exec.SerializationFailure()
	}
	return err
}

// writtenSinceSnapshot reports whether a commit since the snapshot wrote
// the row with the key encoding key, as far as rowlock's log of written
// rows reaches back (beyond it, only the values can tell: false).
func (pt *Table) writtenSinceSnapshot(key string) bool {
	written, known := pt.tx.Locks.Manager().Written(pt.info.TableID, key, pt.tx.SnapSeq)
	return written && known
}

func (pt *Table) lockRequest(key string, mode rowlock.Mode, since uint64) rowlock.Request {
	tx := pt.tx
	return rowlock.Request{Table: pt.info.TableID, Name: pt.info.Path.Table, Key: key, Mode: mode,
		Timeout: tx.LockTimeout, DeadlockTimeout: tx.DeadlockTimeout, Write: true, Since: since, Statement: tx.Stmt}
}

// snapshotConflict fails with 40001 when the row of pt with the key
// encoding key differs between the transaction's snapshot and the newest
// committed state. write says an UPDATE or DELETE asks, which PostgreSQL
// answers "concurrent delete" for a deleted row (not for one moved to
// another key: that is an update); a row lock or an insert says
// "concurrent update" either way.
// A row a commit since deleted (rowlock's move log) is deleted even when
// a row with the same key, or the same values, was inserted since.
func (pt *Table) snapshotConflict(ctx context.Context, key string, write bool) error {
	change, err := pt.tx.Snap.RowChanged(ctx, pt.newest, []byte(key))
	st := pt.chainSinceSnapshot(key)
	switch {
	case err != nil:
		return err
	case write && (st == rowlock.RowDeleted || change == fluss.RowDeleted && st != rowlock.RowMoved):
		return exec.ConcurrentDelete()
	case change != fluss.RowUnchanged || st == rowlock.RowDeleted:
		return exec.SerializationFailure()
	}
	return nil
}

// keyShareConflict is snapshotConflict for a FOR KEY SHARE lock (a
// foreign key's check too): PostgreSQL's heap_lock_tuple grants KeyShare
// over a version a concurrent transaction updated without touching its
// key columns (HEAP_KEYS_UPDATED unset: the columns of the table's unique
// indexes), so only a deleted row, one moved to another key, or one of a
// table with UNIQUE columns besides its key (whose change sqlgate does
// not tell apart) fails with 40001.
func (pt *Table) keyShareConflict(ctx context.Context, key string) error {
	change, err := pt.tx.Snap.RowChanged(ctx, pt.newest, []byte(key))
	switch {
	case err != nil:
		return err
	case change != fluss.RowUpdated || pt.chainSinceSnapshot(key) != rowlock.NotMoved || len(fluss.MetaOf(pt.info.Descriptor).Uniques) > 0:
		return exec.SerializationFailure()
	}
	// updated, not inserted since the snapshot: the snapshot has it
	// (the base a REPEATABLE READ table reads)
	there, err := pt.holdsRow(ctx, key)
	if err != nil || there {
		return err
	}
	return exec.SerializationFailure()
}

// chainSinceSnapshot is what rowlock's move log says a commit since the
// snapshot did with the row with the key encoding key: moved it to
// another key (an update: PostgreSQL says "concurrent update"), deleted
// it (even if its key has a row again), or neither.
func (pt *Table) chainSinceSnapshot(key string) rowlock.MoveState {
	_, _, st := pt.tx.Locks.Manager().Moved(pt.info.TableID, key, pt.tx.SnapSeq)
	return st
}

// deletedSince reports whether a transaction that committed since the
// statement started deleted the row with the key encoding key (rowlock's
// move log), which the transaction has not written itself: the row the
// statement read is gone, even if the key has a row again.
func (pt *Table) deletedSince(key string) bool {
	_, _, st := pt.tx.Locks.Manager().Moved(pt.info.TableID, key, pt.tx.Since)
	if st != rowlock.RowDeleted {
		return false
	}
	pending, err := pt.pendingKey(key)
	return err == nil && !pending
}

// LockAppend takes the lock a log table's append holds until the
// transaction ends: the table's intent lock (rowlock's LockIntent), as
// PostgreSQL's INSERT holds ROW EXCLUSIVE. There is no key to lock, but
// whatever locks the table whole (a rewrite, an index build of ALTER TABLE
// ... ADD UNIQUE, TRUNCATE in a block) then waits for the transaction, and
// it for them: without it a rewrite copied the table without this
// transaction's rows (its COMMIT failed with 40001), and a row appended
// between an index build's read and its constraint had no index entry.
func (pt *Table) LockAppend(ctx context.Context) error {
	tx := pt.tx
	if tx.Locks == nil || pt.info.HasPrimaryKey() {
		return nil
	}
	return tx.Locks.LockIntent(ctx, rowlock.Request{Table: pt.info.TableID, Name: pt.info.Path.Table,
		Timeout: tx.LockTimeout, DeadlockTimeout: tx.DeadlockTimeout, Statement: tx.Stmt})
}

// Moving implements exec.RowLocker: the moves are logged by the lock
// manager when the transaction commits (rowlock's moves.go).
func (pt *Table) Moving(from, to []string) {
	tx := pt.tx
	if tx.Locks == nil {
		return
	}
	tx.Locks.Moved(pt.info.TableID, from, to)
}

// Deleting implements exec.RowLocker: the deletes are logged by the lock
// manager when the transaction commits (rowlock's moves.go).
func (pt *Table) Deleting(keys []string) {
	if tx := pt.tx; tx.Locks != nil {
		tx.Locks.Deleted(pt.info.TableID, keys)
	}
}

// Unwritten implements exec.RowLocker: a row lock of keys the transaction
// has not written (no pending row) is a lock only (rowlock's Unwrite).
func (pt *Table) Unwritten(keys []string) {
	tx := pt.tx
	if tx.Locks == nil {
		return
	}
	for _, k := range keys {
		if pending, err := pt.pendingKey(k); err == nil && !pending {
			tx.Locks.Unwrite(pt.info.TableID, k)
		}
	}
}

// Follow implements exec.RowLocker: a row that a transaction committed
// after the statement started moved to another key (an UPDATE of its
// primary key, rowlock's move log) is followed, move after move, to its
// newest key, each key on the way locked as how says, as PostgreSQL
// follows a row's update chain; the lock of the key the row left (or a
// row deleted) is given back (unlockGone). A REPEATABLE READ transaction follows
// nothing (a change fails it, LockRows).
func (pt *Table) Follow(ctx context.Context, key string, how exec.RowLock) (string, error) {
	tx := pt.tx
	if tx.Locks == nil || tx.Snap != nil {
		return "", nil
	}
	m := tx.Locks.Manager()
	cur, since := key, tx.Since
	for {
		to, seq, st := m.Moved(pt.info.TableID, cur, since)
		if st == rowlock.NotMoved || st == rowlock.RowDeleted {
			break // (a row deleted is read as gone at its key)
		}
		if st == rowlock.MoveForgotten {
			// The log no longer reaches back to the statement's start:
			// a row still there did not move; a row gone may have, and
			// rather than lose its newest version the statement fails.
			there, err := pt.holdsRow(ctx, cur)
			if err != nil || there {
				return "", err
			}
			return "", exec.SerializationFailure()
		}
		req := pt.lockRequest(to, how.Mode, 0)
		req.Wait, req.Write = how.Wait, how.Write
		res, err := tx.Locks.Lock(ctx, req)
		if err != nil {
			return "", err
		}
		if res.Outcome == rowlock.Skipped {
			return "", nil // SKIP LOCKED: the row is passed over
		}
		cur, since = to, seq
	}
	if err := pt.unlockGone(ctx, key); err != nil || cur == key {
		return "", err
	}
	return cur, nil
}

// unlockGone gives back the lock a wait obtained of the row with the key
// encoding key, when it is gone from the newest committed state (its
// holder deleted it or moved it to another key) and the transaction has
// not written it: PostgreSQL locks no deleted row, and the newer version
// of a moved one is at its new key (rowlock's Unwait).
func (pt *Table) unlockGone(ctx context.Context, key string) error {
	if gone, err := pt.goneSince(ctx, key); err != nil || !gone {
		return err
	}
	pt.tx.Locks.Unwait(pt.info.TableID, key)
	return nil
}

// holdsRow reports whether the transaction sees a row with the key
// encoding key.
func (pt *Table) holdsRow(ctx context.Context, key string) (bool, error) {
	return holds(ctx, pt, pt.info, pt.keyIdx, key)
}

// holds reports whether t (of info, its key columns keyIdx) has a row with
// the key encoding key.
func holds(ctx context.Context, t fluss.Table, info fluss.TableInfo, keyIdx []int, key string) (bool, error) {
	probe, err := exec.KeyBatch(memory.DefaultAllocator, info, []string{key})
	if err != nil {
		return false, err
	}
	defer probe.Release()
	proj := make([]int, len(keyIdx))
	copy(proj, keyIdx)
	found, err := t.Lookup(ctx, probe, proj)
	if err != nil || found == nil {
		return false, err
	}
	defer found.Release()
	return found.NumRows() > 0, nil
}
