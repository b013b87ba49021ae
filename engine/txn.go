package engine

import (
	"context"
	"encoding/binary"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Transactions.
//
// Every write statement runs inside a transaction: the session's explicit
// block (BEGIN ... COMMIT) or, outside one, an implicit transaction that the
// statement commits when it succeeds. Writes never reach the store before
// COMMIT; they are held here, per table, as validated Arrow records, and
// COMMIT hands the table's final state to the store in one atomic call
// (fluss.AtomicWriter), so a transaction — or a statement of many batches —
// is durable and visible entirely or not at all, and ROLLBACK or a failed
// statement simply forgets it.
//
// Reads inside the transaction see the committed state of the store at the
// moment each scan starts (read committed), or the transaction's snapshot
// (repeatable read, rr.go), with the transaction's own pending writes laid
// over it: a pendingTable answers Scan and Lookup by merging the two.
//
// Row locks (package rowlock, when the store is fluss.RowLockable): every
// row a transaction writes is locked first (exec.RowLocker, implemented by
// pendingTable), and the locks are released only once COMMIT has made the
// writes durable and visible (commit), or at ROLLBACK, a failed statement
// outside a block, or the end of the session. A statement that meets a row
// another transaction locked waits for it, then re-reads it (the engine's
// second pass of an UPDATE or DELETE, see exec.Recheck), so that two
// transactions writing the same key never lose either's change.

// txn is one transaction's pending writes.
type txn struct {
	tables map[int64]*pendingTable
	order  []*pendingTable
	// bytes estimates the memory the pending records hold; limit bounds it.
	bytes, limit int64
	// spillAt is the size from which the writes are staged on disk when
	// they may be (txnspill.go; 0: never); spilled is the table staged.
	spillAt int64
	spilled *pendingTable
	// savepoints, innermost last.
	savepoints []savepoint
	// readOnly is BEGIN READ ONLY.
	readOnly bool
	// all is every record the transaction retained, released at its end.
	all []arrow.RecordBatch

	// locks owns the transaction's row locks (nil: the store takes none).
	// The running statement sets since (the lock manager's commit
	// sequence when it started reading: a row stamped later may have
	// changed under it), stmt (its text) and lockTimeout (lock_timeout).
	locks                        *rowlock.Txn
	since                        uint64
	stmt                         string
	lockTimeout, deadlockTimeout time.Duration

	// queried: a statement other than SET, SHOW and the transaction
	// statements ran (SET TRANSACTION ISOLATION LEVEL is refused after it).
	queried bool
	// snap is a REPEATABLE READ transaction's snapshot, taken at its first
	// statement (rr.go); snapSeq is the lock manager's commit sequence
	// read just before it, so every commit the snapshot misses is stamped
	// later than snapSeq.
	snap    fluss.Snapshot
	snapSeq uint64

	// ddl is the text of each DDL statement the block ran, which its
	// ROLLBACK cannot undo (txddl.go); ddlRunning the running one.
	ddl        []string
	ddlRunning string
}

type savepoint struct {
	name   string
	tables map[int64]pendingState
	bytes  int64
	ddl    int // len(txn.ddl) when it was made
}

func newTxn(limit int64) *txn {
	return &txn{tables: map[int64]*pendingTable{}, limit: limit}
}

// unlock releases the transaction's row locks: committed says its writes
// are durable and visible, so the rows it wrote are stamped as changed.
func (tx *txn) unlock(committed bool) {
	if tx.locks != nil {
		tx.locks.Release(committed)
	}
}

// release drops the transaction's records and, if it still holds them,
// its row locks (a rollback).
func (tx *txn) release() {
	tx.discardStaged()
	tx.unlock(false)
	if tx.snap != nil {
		tx.snap.Close()
		tx.snap = nil
	}
	for _, r := range tx.all {
		r.Release()
	}
	tx.all = nil
	tx.tables = map[int64]*pendingTable{}
	tx.order = nil
}

// table returns the pending view of base, creating it on first use.
func (tx *txn) table(base fluss.Table) *pendingTable {
	info := base.Info()
	if pt := tx.tables[info.TableID]; pt != nil {
		return pt
	}
	pt := &pendingTable{tx: tx, base: base, newest: base, info: info, schema: tableSchema(info)}
	if tx.snap != nil {
		// A REPEATABLE READ transaction reads its snapshot; newest
		// confirms a conflict (rr.go).
		pt.base, _ = tx.snap.Table(base)
	}
	pt.rows = map[string]slot{}
	for _, name := range info.Descriptor.Schema.PrimaryKey {
		i := info.ColumnIndex(name)
		pt.keyIdx = append(pt.keyIdx, i)
		pt.keyTypes = append(pt.keyTypes, info.Descriptor.Schema.Columns[i].Type)
	}
	tx.tables[info.TableID] = pt
	tx.order = append(tx.order, pt)
	return pt
}

// tableSchema is info.ArrowSchema(), built once per version of the table's
// schema (kept in its ArrowSchemas): a transaction's first write to a
// table built it again for every transaction, and every validated write
// another.
func tableSchema(info fluss.TableInfo) *arrow.Schema {
	return info.ArrowSchemas.Get([]byte{'w'}, info.ArrowSchema)
}

// keep records r as held by the transaction, counting it against the limit.
func (tx *txn) keep(r arrow.RecordBatch) error {
	tx.all = append(tx.all, r)
	return tx.charge(r)
}

// charge counts r against the limit of uncommitted writes: what the
// transaction holds, or what a streaming COPY has handed the store before
// its commit.
func (tx *txn) charge(r arrow.RecordBatch) error {
	tx.bytes += recordBytes(r)
	if tx.limit > 0 && tx.bytes > tx.limit {
		return sqlerr.New(sqlerr.OutOfMemory, "out of memory").
			WithDetail("The transaction holds more than %d bytes of uncommitted writes.", tx.limit).
			WithHint("Commit in smaller transactions (or COPY in smaller parts).")
	}
	return nil
}

// savepoint records the current state under name.
func (tx *txn) savepoint(name string) error {
	if tx.spilled != nil {
		return tx.spilled.staged("SAVEPOINT in a transaction writing")
	}
	sp := savepoint{name: name, tables: map[int64]pendingState{}, bytes: tx.bytes, ddl: len(tx.ddl)}
	for id, pt := range tx.tables {
		sp.tables[id] = pt.snapshot()
	}
	tx.savepoints = append(tx.savepoints, sp)
	return nil
}

// findSavepoint returns the index of the innermost savepoint called name.
func (tx *txn) findSavepoint(name string) (int, error) {
	for i := len(tx.savepoints) - 1; i >= 0; i-- {
		if tx.savepoints[i].name == name {
			return i, nil
		}
	}
	return 0, sqlerr.New(sqlerr.InvalidSavepointSpecification, "savepoint \"%s\" does not exist", name)
}

// rollbackTo restores savepoint i (which stays defined, as in PostgreSQL)
// and forgets the savepoints made after it.
func (tx *txn) rollbackTo(i int) {
	sp := tx.savepoints[i]
	tx.savepoints = tx.savepoints[:i+1]
	kept := tx.order[:0]
	for _, pt := range tx.order {
		st, ok := sp.tables[pt.info.TableID]
		if !ok { // first written after the savepoint
			delete(tx.tables, pt.info.TableID)
			continue
		}
		pt.restore(st)
		// The savepoint's copy must survive a second ROLLBACK TO.
		sp.tables[pt.info.TableID] = pt.snapshot()
		kept = append(kept, pt)
	}
	tx.order = kept
	tx.bytes = sp.bytes
}

// release forgets savepoint i and the ones after it (RELEASE SAVEPOINT).
func (tx *txn) releaseSavepoint(i int) {
	tx.savepoints = tx.savepoints[:i]
}

// writes lists what COMMIT sends to the store, table by table.
func (tx *txn) writes() ([]fluss.TableWrite, error) {
	var out []fluss.TableWrite
	for _, pt := range tx.order {
		ws, err := pt.writes()
		if err != nil {
			releaseWrites(out)
			return nil, err
		}
		out = append(out, ws...)
	}
	return out, nil
}

func releaseWrites(ws []fluss.TableWrite) {
	for _, w := range ws {
		w.Rec.Release()
	}
}

// commit makes the transaction's writes durable and visible: one write
// through the table's own call (which shares the store's group commit with
// other sessions), several through the store's atomic group.
func (tx *txn) commit(ctx context.Context, store fluss.Store) (err error) {
	// The row locks outlive the write: a waiter re-reads the row once the
	// write is visible.
	defer func() { tx.unlock(err == nil) }()
	if tx.spilled != nil {
		return tx.commitStaged(ctx)
	}
	ws, err := tx.writes()
	if err != nil {
		return err
	}
	defer releaseWrites(ws)
	switch len(ws) {
	case 0:
		return nil
	case 1:
		w := ws[0]
		t, err := store.Table(ctx, w.Path)
		if err != nil {
			return err
		}
		if t.Info().TableID != w.TableID {
			return droppedTable(w.Path)
		}
		_, err = w.Apply(ctx, t)
		return err
	}
	aw, ok := store.(fluss.AtomicWriter)
	if !ok {
		return sqlerr.New(sqlerr.FeatureNotSupported, "this store cannot commit several writes atomically").
			WithHint("Write one table per transaction, in one statement.")
	}
	_, err = aw.WriteAtomically(ctx, ws)
	return err
}

func droppedTable(p fluss.TablePath) error {
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created during the transaction", p.Table)
}

// pendingRec is one record written by the transaction: rows to upsert or
// append, or (del) the keys of rows to delete.
type pendingRec struct {
	rec            arrow.RecordBatch
	del            bool
	ignoreExisting bool
	// current[i]: row i is still the pending state of its key (a later
	// write of the same key clears it; an ON CONFLICT DO NOTHING row whose
	// key existed never sets it).
	current []bool
	// force[i] (ignoreExisting records only): row i replaced a key this
	// transaction deleted, so COMMIT writes it unconditionally.
	force []bool
}

// indexLazy indexes the table's first records if they were kept without
// keys. A table's first plain upserts (a COPY's or an INSERT's batches) are
// kept that way: when nothing reads the table or writes it otherwise before
// COMMIT, their keys are never needed here, and the store orders duplicates
// within its writes itself. The caller holds mu.
func (pt *pendingTable) indexLazy() error {
	lazy := pt.lazy
	pt.lazy = nil
	var buf []byte
	var err error
	for _, pr := range lazy {
		cols := pt.keyColumns(pr.rec)
		for i := range pr.current {
			if buf, err = pt.keyOf(buf, cols, i); err != nil {
				return err
			}
			if old, had := pt.rows[string(buf)]; had {
				old.rec.current[old.row] = false
			}
			pt.rows[string(buf)] = slot{rec: pr, row: i}
		}
	}
	return nil
}

// slot is where a key's pending state lives.
type slot struct {
	rec *pendingRec
	row int
}

// pendingState is a pendingTable's content at a savepoint.
type pendingState struct {
	rows     map[string]slot
	recs     []*pendingRec
	currents [][]bool
	appended int
}

// pendingTable is a table as the transaction sees it: the store's table
// with the pending writes over it. It implements fluss.Table; its writes
// only change the transaction.
type pendingTable struct {
	tx *txn
	// base is what the transaction reads (its snapshot under REPEATABLE
	// READ), newest the table's newest committed state.
	base, newest fluss.Table
	info         fluss.TableInfo
	schema       *arrow.Schema
	keyIdx       []int
	keyTypes     []types.T

	mu sync.Mutex
	// primary-key tables: the pending state of each touched key, by its
	// Fluss key encoding, and the records in write order; lazy is the
	// first record while it is not indexed (indexLazy).
	rows map[string]slot
	recs []*pendingRec
	lazy []*pendingRec
	// bulk, once the transaction staged the table's writes on disk, is
	// the store's bulk writer that holds them (txnspill.go).
	bulk fluss.BulkUpsert
	// read: the transaction read the table through this view, which a
	// running statement may go on doing, so its writes are not staged.
	read bool
	// log tables: appended records.
	appended []arrow.RecordBatch
	// checks are the table's CHECK constraints, which every written row
	// passes (coldefs.go); checksBound once they were looked up.
	checks      *tableChecks
	checksBound bool
}

func (pt *pendingTable) Info() fluss.TableInfo { return pt.info }

func (pt *pendingTable) snapshot() pendingState {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if err := pt.indexLazy(); err != nil {
		// Keys were encoded once already when the store validated them;
		// an error here would be a bug, and the savepoint then keeps the
		// record unindexed, which restore handles.
		pt.lazy = nil
	}
	st := pendingState{rows: make(map[string]slot, len(pt.rows)), recs: append([]*pendingRec(nil), pt.recs...), appended: len(pt.appended)}
	for k, v := range pt.rows {
		st.rows[k] = v
	}
	for _, r := range pt.recs {
		st.currents = append(st.currents, append([]bool(nil), r.current...))
	}
	return st
}

func (pt *pendingTable) restore(st pendingState) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.rows = st.rows
	pt.recs = st.recs
	pt.lazy = nil
	for i, r := range pt.recs {
		r.current = st.currents[i]
	}
	pt.appended = pt.appended[:st.appended]
}

// keyOf encodes the primary key of row i of cols (the key columns, in key
// order) as the store does, so that equal keys are equal strings.
func (pt *pendingTable) keyOf(buf []byte, cols []arrow.Array, i int) ([]byte, error) {
	for k, c := range cols {
		if c.IsNull(i) { // a primary-key column is NOT NULL
			name := pt.info.Descriptor.Schema.Columns[pt.keyIdx[k]].Name
			return nil, sqlerr.NullInNotNull(name, pt.info.Path.Table)
		}
	}
	b, err := format.AppendKey(buf[:0], pt.keyTypes, cols, i)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key of %s: %v", pt.info.Path.Table, err)
	}
	return b, nil
}

func (pt *pendingTable) keyColumns(rec arrow.RecordBatch) []arrow.Array {
	cols := make([]arrow.Array, len(pt.keyIdx))
	for i, c := range pt.keyIdx {
		cols[i] = rec.Column(c)
	}
	return cols
}

// Append implements fluss.Table for log tables.
func (pt *pendingTable) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if pt.info.HasPrimaryKey() {
		return pt.base.Append(ctx, rec) // the store's error
	}
	v, err := fluss.ValidateRecordAs(pt.info, pt.schema, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	err = pt.checks.check(ctx, v)
	if err == nil {
		err = pt.tx.checkWrite(pt)
	}
	if err != nil {
		v.Release()
		return fluss.WriteResult{}, err
	}
	if pt.bulk != nil {
		defer v.Release()
		return pt.addStaged(ctx, v)
	}
	if err := pt.tx.keep(v); err != nil {
		return fluss.WriteResult{}, err
	}
	pt.mu.Lock()
	pt.appended = append(pt.appended, v)
	pt.mu.Unlock()
	return fluss.WriteResult{Rows: v.NumRows()}, pt.tx.maybeSpill(ctx, pt)
}

// Upsert implements fluss.Table for primary-key tables.
func (pt *pendingTable) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	if !pt.info.HasPrimaryKey() {
		return pt.base.Upsert(ctx, rec, opts) // the store's error
	}
	if opts.TargetColumns != nil {
		return fluss.WriteResult{}, sqlerr.NotSupported("partial updates inside a transaction")
	}
	v, err := fluss.ValidateRecordAs(pt.info, pt.schema, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	err = pt.checks.check(ctx, v)
	if err == nil {
		err = pt.tx.checkWrite(pt)
	}
	if err != nil {
		v.Release()
		return fluss.WriteResult{}, err
	}
	if pt.bulk != nil {
		defer v.Release()
		if opts.IgnoreExisting {
			return fluss.WriteResult{}, pt.staged("INSERT ... ON CONFLICT into")
		}
		return pt.addStaged(ctx, v)
	}
	if err := pt.tx.keep(v); err != nil {
		return fluss.WriteResult{}, err
	}
	n := int(v.NumRows())
	pr := &pendingRec{rec: v, ignoreExisting: opts.IgnoreExisting, current: make([]bool, n)}
	pt.mu.Lock()
	if !opts.IgnoreExisting && len(pt.recs) == len(pt.lazy) {
		for i := range pr.current {
			pr.current[i] = true
		}
		pt.recs = append(pt.recs, pr)
		pt.lazy = append(pt.lazy, pr)
		pt.mu.Unlock()
		return fluss.WriteResult{Rows: int64(n)}, pt.tx.maybeSpill(ctx, pt)
	}
	err = pt.indexLazy()
	pt.mu.Unlock()
	if err != nil {
		return fluss.WriteResult{}, err
	}
	keys := make([]string, n)
	cols := pt.keyColumns(v)
	var buf []byte
	for i := 0; i < n; i++ {
		if buf, err = pt.keyOf(buf, cols, i); err != nil {
			return fluss.WriteResult{}, err
		}
		keys[i] = string(buf)
	}
	var exists map[string]bool
	if opts.IgnoreExisting {
		if exists, err = pt.existing(ctx, v, keys); err != nil {
			return fluss.WriteResult{}, err
		}
	}
	pt.mu.Lock()
	var written int64
	for i, k := range keys {
		old, had := pt.rows[k]
		if opts.IgnoreExisting {
			if had && !old.rec.del || !had && exists[k] {
				continue
			}
			if had { // over this transaction's own delete
				if pr.force == nil {
					pr.force = make([]bool, n)
				}
				pr.force[i] = true
			}
		}
		if had {
			old.rec.current[old.row] = false
		}
		pr.current[i] = true
		pt.rows[k] = slot{rec: pr, row: i}
		written++
	}
	pt.recs = append(pt.recs, pr)
	pt.mu.Unlock()
	return fluss.WriteResult{Rows: written}, pt.tx.maybeSpill(ctx, pt)
}

// existing reports which of keys (of the rows of rec) exist in the store
// and are not pending: the pending ones are judged by the caller.
func (pt *pendingTable) existing(ctx context.Context, rec arrow.RecordBatch, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	pt.mu.Lock()
	pt.read = true
	if pt.bulk != nil {
		pt.mu.Unlock()
		return nil, pt.staged("reading")
	}
	if err := pt.indexLazy(); err != nil {
		pt.mu.Unlock()
		return nil, err
	}
	var ask []int
	for i, k := range keys {
		if _, pending := pt.rows[k]; !pending {
			ask = append(ask, i)
		}
	}
	pt.mu.Unlock()
	if len(ask) == 0 {
		return out, nil
	}
	probe, err := pt.keyRecord(rec, pt.keyIdx, ask)
	if err != nil {
		return nil, err
	}
	defer probe.Release()
	proj := make([]int, len(pt.keyIdx))
	copy(proj, pt.keyIdx)
	found, err := pt.base.Lookup(ctx, probe, proj)
	if err != nil || found == nil {
		return out, err
	}
	defer found.Release()
	var buf []byte
	for i := 0; i < int(found.NumRows()); i++ {
		if buf, err = pt.keyOf(buf, found.Columns(), i); err != nil {
			return nil, err
		}
		out[string(buf)] = true
	}
	return out, nil
}

// keyRecord builds a record of the key columns cols of rec's rows idx.
func (pt *pendingTable) keyRecord(rec arrow.RecordBatch, cols []int, idx []int) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(pt.keyIdx))
	for i, c := range pt.keyIdx {
		fields[i] = pt.schema.Field(c)
	}
	return buildRows(arrow.NewSchema(fields, nil), func(col int) arrow.Array { return rec.Column(cols[col]) }, idx)
}

// Delete implements fluss.Table for primary-key tables.
func (pt *pendingTable) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	if !pt.info.HasPrimaryKey() {
		return pt.base.Delete(ctx, keys) // the store's error
	}
	if int(keys.NumCols()) != len(pt.keyIdx) {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.InternalError, "delete from %s: %d key columns, expected %d", pt.info.Path.Table, keys.NumCols(), len(pt.keyIdx))
	}
	if pt.bulk != nil {
		return fluss.WriteResult{}, pt.staged("deleting from")
	}
	if err := pt.tx.checkWrite(pt); err != nil {
		return fluss.WriteResult{}, err
	}
	keys.Retain()
	if err := pt.tx.keep(keys); err != nil {
		return fluss.WriteResult{}, err
	}
	n := int(keys.NumRows())
	pr := &pendingRec{rec: keys, del: true, current: make([]bool, n)}
	ks := make([]string, n)
	var buf []byte
	var err error
	for i := 0; i < n; i++ {
		if buf, err = pt.keyOf(buf, keys.Columns(), i); err != nil {
			return fluss.WriteResult{}, err
		}
		ks[i] = string(buf)
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if err := pt.indexLazy(); err != nil {
		return fluss.WriteResult{}, err
	}
	var deleted int64
	for i, k := range ks {
		old, had := pt.rows[k]
		if had {
			if old.rec.del {
				continue // deleted already
			}
			old.rec.current[old.row] = false
		}
		// The keys of a DELETE come from rows the statement read, so a key
		// without a pending state exists in the store.
		pr.current[i] = true
		pt.rows[k] = slot{rec: pr, row: i}
		deleted++
	}
	pt.recs = append(pt.recs, pr)
	return fluss.WriteResult{Rows: deleted}, nil
}

// Lookup implements fluss.Table: pending keys answer from the transaction,
// the others from the store.
func (pt *pendingTable) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	if !pt.info.HasPrimaryKey() {
		return pt.base.Lookup(ctx, keys, projection)
	}
	pt.mu.Lock()
	pt.read = true
	if pt.bulk != nil {
		pt.mu.Unlock()
		return nil, pt.staged("reading")
	}
	if err := pt.indexLazy(); err != nil {
		pt.mu.Unlock()
		return nil, err
	}
	if len(pt.rows) == 0 {
		pt.mu.Unlock()
		return pt.base.Lookup(ctx, keys, projection)
	}
	var buf []byte
	var err error
	var ask []int
	var hits []slot
	for i := 0; i < int(keys.NumRows()); i++ {
		if buf, err = pt.keyOf(buf, keys.Columns(), i); err != nil {
			pt.mu.Unlock()
			return nil, err
		}
		s, pending := pt.rows[string(buf)]
		switch {
		case !pending:
			ask = append(ask, i)
		case !s.rec.del:
			hits = append(hits, s)
		}
	}
	// The records stay alive while they are copied, even if a write of
	// the statement stages the table meanwhile (txnspill.go).
	held := retainSlots(hits)
	defer releaseAll(held)
	pt.mu.Unlock()
	out := pt.projected(projection)
	if len(ask) == 0 && len(hits) == 1 {
		// One key, written by the transaction (an UPDATE's row read back
		// by the SELECT after it): its pending row, sliced out of the
		// record that holds it, without copying it into a new one.
		return sliceRow(out, hits[0], projectionOrAll(projection, len(pt.schema.Fields()))), nil
	}
	var fromStore arrow.RecordBatch
	if len(ask) > 0 {
		all := make([]int, keys.NumCols())
		for i := range all {
			all[i] = i
		}
		probe, err := buildRows(keys.Schema(), keys.Column, ask)
		if err != nil {
			return nil, err
		}
		fromStore, err = pt.base.Lookup(ctx, probe, projection)
		probe.Release()
		if err != nil {
			return nil, err
		}
	}
	if len(hits) == 0 {
		return fromStore, nil
	}
	if fromStore != nil {
		defer fromStore.Release()
	}
	return appendRows(out, fromStore, projectionOrAll(projection, len(pt.schema.Fields())), hits)
}

// Scan implements fluss.Table: the store's rows whose keys are not pending,
// then the pending rows (or, for a log table, the store's rows then the
// appended ones), as they are when the scan starts.
func (pt *pendingTable) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return pt.scan(ctx, opts, nil, pt.base.Scan)
}

// scan is Scan over the store rows that baseScan reads, with only the
// pending rows keep accepts (nil: all of them).
func (pt *pendingTable) scan(ctx context.Context, opts fluss.ScanOptions, keep func(slot) bool,
	baseScan func(context.Context, fluss.ScanOptions) (fluss.RecordReader, error)) (fluss.RecordReader, error) {
	pt.mu.Lock()
	pt.read = true
	if pt.bulk != nil {
		pt.mu.Unlock()
		return nil, pt.staged("reading")
	}
	if err := pt.indexLazy(); err != nil {
		pt.mu.Unlock()
		return nil, err
	}
	proj := projectionOrAll(opts.Projection, len(pt.schema.Fields()))
	r := &pendingReader{out: pt.projected(opts.Projection), proj: proj, limit: opts.Limit}
	if pt.info.HasPrimaryKey() {
		if len(pt.rows) == 0 {
			pt.mu.Unlock()
			return baseScan(ctx, opts)
		}
		r.hidden = make(map[string]struct{}, len(pt.rows))
		for k := range pt.rows {
			r.hidden[k] = struct{}{}
		}
		for _, pr := range pt.recs {
			if pr.del {
				continue
			}
			for i, cur := range pr.current {
				if cur && (keep == nil || keep(slot{rec: pr, row: i})) {
					r.pending = append(r.pending, slot{rec: pr, row: i})
				}
			}
		}
		// The store scan must also read the key columns to hide the
		// pending keys; they are dropped from its output.
		r.scanProj = append([]int(nil), proj...)
		for _, k := range pt.keyIdx {
			at := -1
			for j, c := range r.scanProj {
				if c == k {
					at = j
				}
			}
			if at < 0 {
				at = len(r.scanProj)
				r.scanProj = append(r.scanProj, k)
			}
			r.keyAt = append(r.keyAt, at)
		}
		r.keyTypes = pt.keyTypes
	} else {
		if len(pt.appended) == 0 {
			pt.mu.Unlock()
			return baseScan(ctx, opts)
		}
		r.appended = append([]arrow.RecordBatch(nil), pt.appended...)
		r.scanProj = proj
	}
	// The reader keeps the pending records it reads alive: a write of the
	// same statement may stage the table (txnspill.go) before it is done.
	r.held = append(retainSlots(r.pending), r.appended...)
	for _, a := range r.appended {
		a.Retain()
	}
	pt.mu.Unlock()
	base, err := baseScan(ctx, fluss.ScanOptions{Projection: r.scanProj, BatchRows: opts.BatchRows})
	if err != nil {
		r.Close()
		return nil, err
	}
	r.base = base
	return r, nil
}

// ScanChangelog reads the store's changelog: pending writes have no
// changelog until they commit.
func (pt *pendingTable) ScanChangelog(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	cs, ok := pt.base.(fluss.ChangelogScanner)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "table %q has no readable changelog", pt.info.Path.Table)
	}
	return cs.ScanChangelog(ctx, opts)
}

// writes returns the table's final pending state as store writes: each
// record whose rows are all current as it is, the others reduced to their
// current rows.
func (pt *pendingTable) writes() ([]fluss.TableWrite, error) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	var ws []fluss.TableWrite
	add := func(kind fluss.WriteKind, src arrow.RecordBatch, idx []int, ignoreExisting bool) error {
		if len(idx) == 0 {
			return nil
		}
		rec := src
		if len(idx) == int(src.NumRows()) {
			rec.Retain()
		} else {
			var err error
			if rec, err = buildRows(src.Schema(), src.Column, idx); err != nil {
				return err
			}
		}
		ws = append(ws, fluss.TableWrite{Path: pt.info.Path, TableID: pt.info.TableID, Kind: kind, Rec: rec,
			Opts: fluss.UpsertOptions{IgnoreExisting: ignoreExisting}})
		return nil
	}
	for _, r := range pt.appended {
		r.Retain()
		ws = append(ws, fluss.TableWrite{Path: pt.info.Path, TableID: pt.info.TableID, Kind: fluss.WriteAppend, Rec: r})
	}
	for _, pr := range pt.recs {
		// Current rows, split into those written only if absent and
		// those written unconditionally.
		var ifAbsent, always []int
		for i, cur := range pr.current {
			switch {
			case !cur:
			case pr.ignoreExisting && (pr.force == nil || !pr.force[i]):
				ifAbsent = append(ifAbsent, i)
			default:
				always = append(always, i)
			}
		}
		kind := fluss.WriteUpsert
		if pr.del {
			kind = fluss.WriteDelete
		}
		if err := add(kind, pr.rec, ifAbsent, true); err != nil {
			releaseWrites(ws)
			return nil, err
		}
		if err := add(kind, pr.rec, always, false); err != nil {
			releaseWrites(ws)
			return nil, err
		}
	}
	return ws, nil
}

// pendingReader merges a store scan with pending rows.
type pendingReader struct {
	out      *arrow.Schema
	proj     []int // table columns of the output
	scanProj []int // table columns the store scan reads
	keyAt    []int // positions of the key columns in the store scan
	keyTypes []types.T
	limit    int64
	emitted  int64
	base     fluss.RecordReader
	hidden   map[string]struct{}
	pending  []slot
	appended []arrow.RecordBatch
	done     bool
	held     []arrow.RecordBatch // retained until Close
}

func (r *pendingReader) Schema() *arrow.Schema { return r.out }

func (r *pendingReader) Close() {
	if r.base != nil {
		r.base.Close()
		r.base = nil
	}
	releaseAll(r.held)
	r.held = nil
}

func (r *pendingReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if r.limit > 0 && r.emitted >= r.limit {
			return nil, nil
		}
		b, err := r.next(ctx)
		if err != nil || b == nil {
			return b, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		if r.limit > 0 && r.emitted+b.NumRows() > r.limit {
			cut := b.NewSlice(0, r.limit-r.emitted)
			b.Release()
			b = cut
		}
		r.emitted += b.NumRows()
		return b, nil
	}
}

func (r *pendingReader) next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.base != nil {
		b, err := r.base.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b != nil {
			defer b.Release()
			return r.filterStore(b)
		}
		r.base.Close()
		r.base = nil
	}
	if len(r.appended) > 0 {
		a := r.appended[0]
		r.appended = r.appended[1:]
		cols := make([]arrow.Array, len(r.proj))
		for i, c := range r.proj {
			cols[i] = a.Column(c)
		}
		return array.NewRecordBatch(r.out, cols, a.NumRows()), nil
	}
	if !r.done && len(r.pending) > 0 {
		r.done = true
		return appendRows(r.out, nil, r.proj, r.pending)
	}
	return nil, nil
}

// filterStore drops the store rows whose keys are pending and the extra
// key columns.
func (r *pendingReader) filterStore(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if r.hidden == nil {
		cols := b.Columns()[:len(r.proj)]
		return array.NewRecordBatch(r.out, cols, b.NumRows()), nil
	}
	keyCols := make([]arrow.Array, len(r.keyAt))
	for i, at := range r.keyAt {
		keyCols[i] = b.Column(at)
	}
	var keep []int
	var buf []byte
	var err error
	for i := 0; i < int(b.NumRows()); i++ {
		if buf, err = format.AppendKey(buf[:0], r.keyTypes, keyCols, i); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key: %v", err)
		}
		if _, hide := r.hidden[string(buf)]; !hide {
			keep = append(keep, i)
		}
	}
	if len(keep) == int(b.NumRows()) {
		return array.NewRecordBatch(r.out, b.Columns()[:len(r.proj)], b.NumRows()), nil
	}
	return buildRows(r.out, b.Column, keep)
}

// projectionOrAll returns proj, or every column index when it is nil.
func projectionOrAll(proj []int, n int) []int {
	if proj != nil {
		return proj
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// projected is projectSchema of the table's schema, kept in the table's
// ArrowSchemas per projection (a prepared SELECT reads the same one at
// every execution).
func (pt *pendingTable) projected(proj []int) *arrow.Schema {
	if proj == nil {
		return pt.schema
	}
	var buf [64]byte
	key := append(buf[:0], 'w')
	for _, c := range proj {
		key = binary.AppendUvarint(key, uint64(c))
	}
	return pt.info.ArrowSchemas.Get(key, func() *arrow.Schema { return projectSchema(pt.schema, proj) })
}

// sliceRow is the pending row sl projected to the table columns proj, as a
// one-row record of schema s sharing the pending record's buffers.
func sliceRow(s *arrow.Schema, sl slot, proj []int) arrow.RecordBatch {
	cols := make([]arrow.Array, len(proj))
	for i, c := range proj {
		cols[i] = array.NewSlice(sl.rec.rec.Column(c), int64(sl.row), int64(sl.row)+1)
	}
	out := array.NewRecordBatch(s, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	return out
}

func projectSchema(s *arrow.Schema, proj []int) *arrow.Schema {
	if proj == nil {
		return s
	}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		fields[i] = s.Field(c)
	}
	return arrow.NewSchema(fields, nil)
}

// buildRows copies rows idx of the columns col(0..) into a record of schema s.
func buildRows(s *arrow.Schema, col func(int) arrow.Array, idx []int) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for c := range s.Fields() {
		src, fb := col(c), b.Field(c)
		fb.Reserve(len(idx))
		for _, i := range idx {
			if err := format.AppendFrom(fb, src, i); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// appendRows returns first's rows (if any) followed by the pending rows,
// projected to the table columns proj.
func appendRows(s *arrow.Schema, first arrow.RecordBatch, proj []int, rows []slot) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for c, tc := range proj {
		fb := b.Field(c)
		if first != nil {
			for i := 0; i < int(first.NumRows()); i++ {
				if err := format.AppendFrom(fb, first.Column(c), i); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
				}
			}
		}
		for _, sl := range rows {
			if err := format.AppendFrom(fb, sl.rec.rec.Column(tc), sl.row); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row: %v", err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// LockInsert implements exec.RowLocker: an insert or upsert locks the keys
// it writes FOR UPDATE; a large one locks the whole table instead when no
// other transaction holds locks in it.
func (pt *pendingTable) LockInsert(ctx context.Context, rec arrow.RecordBatch) error {
	tx := pt.tx
	if tx.locks == nil || !pt.info.HasPrimaryKey() {
		return nil
	}
	// A null key is refused as the store refuses it, naming the row,
	// before keyOf meets it.
	if err := fluss.CheckNotNull(pt.info, rec.Columns()); err != nil {
		return err
	}
	n := int(rec.NumRows())
	cols := pt.keyColumns(rec)
	var buf []byte
	var err error
	if n >= tx.locks.Manager().EscalateAt() && tx.locks.LockTable(pt.info.TableID, pt.info.Path.Table, tx.stmt, true) {
		if tx.snap == nil {
			return nil
		}
		// REPEATABLE READ: the table is held, but a key may have been
		// written since the snapshot (rr.go).
		m := tx.locks.Manager()
		for i := 0; i < n; i++ {
			if buf, err = pt.keyOf(buf, cols, i); err != nil {
				return err
			}
			if m.Changed(pt.info.TableID, string(buf), tx.snapSeq) {
				if err := pt.snapshotConflict(ctx, string(buf), false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	since := uint64(0)
	if tx.snap != nil {
		since = tx.snapSeq
	}
	for i := 0; i < n; i++ {
		if buf, err = pt.keyOf(buf, cols, i); err != nil {
			return err
		}
		res, err := tx.locks.Lock(ctx, pt.lockRequest(string(buf), rowlock.Update, since))
		if err != nil {
			return err
		}
		if res.Changed && tx.snap != nil {
			if err := pt.snapshotConflict(ctx, string(buf), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// LockRows implements exec.RowLocker.
func (pt *pendingTable) LockRows(ctx context.Context, keys []string, how exec.RowLock) ([]exec.LockState, error) {
	tx := pt.tx
	if tx.locks == nil {
		return nil, nil
	}
	var states []exec.LockState
	for i, k := range keys {
		req := pt.lockRequest(k, how.Mode, tx.since)
		req.Wait, req.Write = how.Wait, how.Write
		res, err := tx.locks.Lock(ctx, req)
		if err != nil {
			return nil, err
		}
		st := exec.LockFresh
		switch {
		case res.Outcome == rowlock.Skipped:
			st = exec.LockSkipped
		case res.Changed:
			st = exec.LockChanged
			if tx.snap != nil {
				// REPEATABLE READ cannot re-read the row: a real change
				// since the snapshot fails the statement (rr.go).
				if err := pt.snapshotConflict(ctx, k, how.Write); err != nil {
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

func (pt *pendingTable) lockRequest(key string, mode rowlock.Mode, since uint64) rowlock.Request {
	tx := pt.tx
	return rowlock.Request{Table: pt.info.TableID, Name: pt.info.Path.Table, Key: key, Mode: mode,
		Timeout: tx.lockTimeout, DeadlockTimeout: tx.deadlockTimeout, Write: true, Since: since, Statement: tx.stmt}
}

// retainSlots retains the distinct records the slots point into and
// returns them.
func retainSlots(slots []slot) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	var last *pendingRec
	seen := map[*pendingRec]bool{}
	for _, sl := range slots {
		if sl.rec == last || seen[sl.rec] {
			continue
		}
		last = sl.rec
		seen[sl.rec] = true
		sl.rec.rec.Retain()
		out = append(out, sl.rec.rec)
	}
	return out
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}
