package txnstore

import "github.com/sqlgate/sqlgate/fluss"

// Frozen returns a copy of the table as the transaction reads it now, for
// reading only: later writes of the transaction do not show in it. A
// statement with data-modifying WITH queries reads the tables they write
// through these (PostgreSQL's snapshot of the statement's start: no part
// of the statement sees another part's writes). The copy holds the
// pending records it reads; Release lets them go.
func (pt *Table) Frozen() (*Table, error) {
	pt.mu.Lock()
	staged := pt.bulk != nil
	pt.mu.Unlock()
	if staged {
		return nil, pt.staged("reading")
	}
	st := pt.snapshot()
	f := &Table{base: st.base, newest: pt.newest, info: pt.info, schema: pt.schema, keyIdx: pt.keyIdx, keyTypes: pt.keyTypes,
		truncated: st.truncated, appended: st.appended, read: true}
	copies := make(map[*pendingRec]*pendingRec, len(st.recs))
	for i, r := range st.recs {
		c := &pendingRec{rec: r.rec, del: r.del, ignoreExisting: r.ignoreExisting, current: st.currents[i], force: r.force}
		r.rec.Retain()
		copies[r] = c
		f.recs = append(f.recs, c)
	}
	if len(st.rows) > 0 {
		f.rows = make(map[string]slot, len(st.rows))
		for k, s := range st.rows {
			f.rows[k] = slot{rec: copies[s.rec], row: s.row}
		}
	}
	for _, a := range f.appended {
		a.Retain()
	}
	return f, nil
}

// Release lets the records a Frozen copy holds go.
func (pt *Table) Release() {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	for _, r := range pt.recs {
		r.rec.Release()
	}
	for _, a := range pt.appended {
		a.Release()
	}
	pt.recs, pt.appended, pt.rows = nil, nil, nil
	pt.base = emptyTable{info: pt.info, schema: pt.schema}
}

// FrozenAt is Frozen over snap's view of the committed rows: the
// transaction's table as a statement that began when snap was taken read
// it (a READ COMMITTED write's re-check reads the tables besides its
// target so, engine's firstRead). A base snap does not hold is read as
// it is.
func (pt *Table) FrozenAt(snap fluss.Snapshot) (*Table, error) {
	f, err := pt.Frozen()
	if err != nil {
		return nil, err
	}
	if b, ok := snap.Table(f.base); ok {
		f.base = b
	}
	return f, nil
}
