package rowlock

// Moved rows: where a row went when a committed transaction changed its
// primary key. PostgreSQL's UPDATE writes a row's new version with a link
// from the old one (the ctid chain), whatever columns changed, and a
// statement that waited for the row follows that link to the newest
// version and re-checks it (EvalPlanQual). Rows are stored by primary key
// here, so an UPDATE of the key is a delete of the old key and a write of
// the new one; the link is this log instead: the moving transaction names
// each move (Txn.Moved), its commit records them with its sequence number,
// and a statement that finds its locked row gone asks where it went
// (Manager.Moved). A DELETE ends a row's chain (Txn.Deleted): the log
// says so, and a statement that waited for the row skips it even when an
// INSERT put a new row at its key, as in PostgreSQL no link joins two rows
// that are not versions of one another (heap_lock_tuple's TM_Deleted).
//
// The log is bounded: past Options.MaxMoves entries its older half is forgotten,
// and a question about a commit older than what is kept is answered
// MoveForgotten (the caller fails with 40001 rather than guess).

// move is a logged move of one row.
type move struct {
	to  string
	seq uint64
	// gone: the row was deleted (to is "")
	gone bool
}

// pendingMove is a move named by a transaction that has not committed.
type pendingMove struct {
	table    int64
	from, to string
	set      int // the statement's (Txn.Moved's call)
	gone     bool
}

// MoveState is the answer of Manager.Moved.
type MoveState uint8

const (
	// NotMoved: no commit after the sequence number asked about moved it.
	NotMoved MoveState = iota
	// RowMoved: a commit moved it (to the key and at the sequence number
	// returned).
	RowMoved
	// MoveForgotten: the log no longer reaches back that far.
	MoveForgotten
	// RowDeleted: a commit deleted it (at the sequence number returned).
	RowDeleted
)

// Moved records that one statement of the transaction moves the rows of
// table with the key encodings from to the key encodings to (an UPDATE of
// the primary key: the moves happen at once, so a swap of two keys is two
// moves); they are logged when the transaction commits (logMoves).
func (t *Txn) Moved(table int64, from, to []string) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	t.moveSets++
	for i, k := range from {
		t.moves = append(t.moves, pendingMove{table: table, from: k, to: to[i], set: t.moveSets})
	}
}

// Deleted records that one statement of the transaction deletes the rows
// of table with the key encodings keys: a row's chain ends there, logged
// with the moves when the transaction commits.
func (t *Txn) Deleted(table int64, keys []string) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	t.moveSets++
	for _, k := range keys {
		t.moves = append(t.moves, pendingMove{table: table, from: k, set: t.moveSets, gone: true})
	}
}

// MovesMark is where the transaction's moves stand, for RollbackMoves.
func (t *Txn) MovesMark() int {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	return len(t.moves)
}

// RollbackMoves forgets the moves recorded since mark (ROLLBACK TO
// SAVEPOINT: the rows stay where they were).
func (t *Txn) RollbackMoves(mark int) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if mark < len(t.moves) {
		t.moves = t.moves[:mark]
	}
}

// Moved reports where a commit after since moved the row (table, key):
// the key it moved to and that commit's sequence number. Of several moves
// of the key it answers the first after since; following the row further
// asks again about the key it went to, after that sequence number.
func (m *Manager) Moved(table int64, key string, since uint64) (string, uint64, MoveState) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mv := range m.moves[resKey{table: table, key: key}] {
		if mv.seq > since {
			if mv.gone {
				return "", mv.seq, RowDeleted
			}
			return mv.to, mv.seq, RowMoved
		}
	}
	if since < m.movesForgotten {
		return "", 0, MoveForgotten
	}
	return "", 0, NotMoved
}

// logMoves logs t's moves as committed at seq: each row's, from the key
// it had before the transaction to the key the transaction leaves it at (a
// row one statement moved onto a key and a later one moved on is one
// move). The caller holds m.mu.
func (m *Manager) logMoves(t *Txn, seq uint64) {
	if m.moves == nil {
		m.moves = map[resKey][]move{}
	}
	var rows []pendingMove // one per row moved, as far as it went
	at := map[resKey]int{} // its index in rows by its current key
	for i := 0; i < len(t.moves); {
		set := t.moves[i].set
		j := i
		for j < len(t.moves) && t.moves[j].set == set {
			j++
		}
		// a set's moves are simultaneous: find each row before moving any
		idx := make([]int, j-i)
		for n, mv := range t.moves[i:j] {
			k, ok := at[resKey{table: mv.table, key: mv.from}]
			if !ok {
				k = len(rows)
				rows = append(rows, pendingMove{table: mv.table, from: mv.from})
			}
			idx[n] = k
		}
		for _, mv := range t.moves[i:j] {
			delete(at, resKey{table: mv.table, key: mv.from})
		}
		for n, mv := range t.moves[i:j] {
			rows[idx[n]].to, rows[idx[n]].gone = mv.to, mv.gone
			if !mv.gone {
				at[resKey{table: mv.table, key: mv.to}] = idx[n]
			}
		}
		i = j
	}
	for _, mv := range rows {
		if mv.from == mv.to && !mv.gone {
			continue // moved back
		}
		k := resKey{table: mv.table, key: mv.from}
		m.moves[k] = append(m.moves[k], move{to: mv.to, seq: seq, gone: mv.gone})
		m.moveOrder = append(m.moveOrder, k)
	}
	if len(m.moveOrder) <= m.opts.MaxMoves {
		return
	}
	// forget the older half, oldest first (each key's moves are in commit
	// order, as moveOrder is)
	drop := m.moveOrder[:len(m.moveOrder)/2]
	for _, k := range drop {
		l := m.moves[k]
		if l[0].seq > m.movesForgotten {
			m.movesForgotten = l[0].seq
		}
		if len(l) == 1 {
			delete(m.moves, k)
		} else {
			m.moves[k] = l[1:]
		}
	}
	m.moveOrder = append(m.moveOrder[:0:0], m.moveOrder[len(drop):]...)
}

// clearMoves forgets the transaction's moves. The caller holds m.mu.
func (t *Txn) clearMoves() {
	t.moves = t.moves[:0]
	t.moveSets = 0
}

// Written rows. The stamps (Manager.Changed) say whether a row MAY have
// been written since a sequence number: keys share their slots, and a
// table locked whole stamps all its rows. A REPEATABLE READ INSERT ... ON
// CONFLICT needs to know: PostgreSQL fails it (ExecCheckTupleVisible, 40001)
// when the conflicting row's version is newer than the snapshot, even when
// its values are the snapshot's. This log, bounded as the moves' is, says
// for a row written by a commit it still reaches back to.

// writeEntry is one logged write: the row and its commit's sequence
// number, for forgetting the log's older half.
type writeEntry struct {
	k   resKey
	seq uint64
}

// logWrite logs that the commit seq wrote the row k. The caller holds m.mu.
func (m *Manager) logWrite(k resKey, seq uint64) {
	if m.written == nil {
		m.written = map[resKey]uint64{}
	}
	m.written[k] = seq
	m.writeOrder = append(m.writeOrder, writeEntry{k: k, seq: seq})
	if len(m.writeOrder) <= m.opts.MaxMoves {
		return
	}
	drop := m.writeOrder[:len(m.writeOrder)/2]
	for _, w := range drop {
		if w.seq > m.writesForgotten {
			m.writesForgotten = w.seq
		}
		if m.written[w.k] == w.seq {
			delete(m.written, w.k)
		}
	}
	m.writeOrder = append(m.writeOrder[:0:0], m.writeOrder[len(drop):]...)
}

// Written reports whether a commit after since wrote the row (table, key)
// (its row lock held for writing: an INSERT, UPDATE or DELETE of it, not a
// re-check that passed over it), and known: false when the log no longer
// reaches back to since (then only Changed can tell, and it may be wrong
// the other way).
func (m *Manager) Written(table int64, key string, since uint64) (written, known bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if seq, ok := m.written[resKey{table: table, key: key}]; ok && seq > since {
		return true, true
	}
	if m.tableStamps[table] > since || since < m.writesForgotten {
		return false, false
	}
	return false, true
}
