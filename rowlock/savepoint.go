package rowlock

// lockUndo is a row lock's state before the transaction took or raised
// it after a savepoint: had false when it held none.
type lockUndo struct {
	rk   resKey
	prev held
	had  bool
}

// logLock records rk's state before a Lock changed it. The caller holds
// m.mu.
func (t *Txn) logLock(rk resKey, prev held, had bool) {
	if h := t.held[rk]; had && h.mode == prev.mode && h.write == prev.write {
		return // unchanged: nothing to restore
	}
	t.lockLog = append(t.lockLog, lockUndo{rk: rk, prev: prev, had: had})
}

// LocksMark is where the transaction's row locks stand, for
// RollbackLocks (SAVEPOINT): from the first mark until the transaction
// ends, each row lock taken or raised is logged.
func (t *Txn) LocksMark() int {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	t.marked = true
	return len(t.lockLog)
}

// RollbackLocks ends the row locks taken since mark and lowers those
// raised since to their mode at mark (ROLLBACK TO SAVEPOINT), waking their
// waiters: PostgreSQL's row locks of a subtransaction are its xid's (or a
// multixact member's), which its abort ends, so a lock held before the
// savepoint keeps its mode then. A lock no longer held row by row (the
// table was taken whole) is left as it is.
func (t *Txn) RollbackLocks(mark int) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(t.lockLog) - 1; i >= mark; i-- {
		t.undoLock(t.lockLog[i])
	}
	if mark < len(t.lockLog) {
		clear(t.lockLog[mark:])
		t.lockLog = t.lockLog[:mark]
	}
}

// undoLock puts the row lock e.rk back as it was (e): released when the
// transaction held none, else lowered to its mode then, waking its
// waiters. A lock no longer held row by row (the table was taken whole) is
// left as it is. The caller holds m.mu.
func (t *Txn) undoLock(e lockUndo) {
	m := t.m
	if _, ok := t.held[e.rk]; !ok {
		return
	}
	if !e.had {
		t.releaseOne(e.rk)
		t.perTable[e.rk.table]--
		return
	}
	t.held[e.rk] = e.prev
	r := m.res[e.rk]
	if r == nil {
		return
	}
	if j := r.holderIndex(t); j >= 0 {
		r.holders[j].mode = e.prev.mode
	}
	m.wake(r)
}

// Unwait gives back what the transaction's Lock of the row (table, key)
// obtained by waiting for another transaction, when the row turned out
// gone (that transaction deleted it): PostgreSQL's heap_lock_tuple locks
// no deleted row, so a later writer of the key must not wait for this
// transaction. A lock not obtained by waiting is kept.
func (t *Txn) Unwait(table int64, key string) {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	rk := resKey{table: table, key: key}
	if e, ok := t.waited[rk]; ok {
		delete(t.waited, rk)
		t.undoLock(e)
	}
}
