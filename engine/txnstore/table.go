package txnstore

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

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
	// one backs current for a one-row record (newPendingRec).
	one [1]bool
}

// newPendingRec is the pending state of rec's n rows, none current yet.
// The current flags of a one-row record (an UPDATE by key) live in the
// record's own allocation, the table's first such record in the table's.
// The caller holds mu.
func (pt *Table) newPendingRec(rec arrow.RecordBatch, n int, ignoreExisting bool) *pendingRec {
	var pr *pendingRec
	if n == 1 && !pt.firstRecUsed {
		pr, pt.firstRecUsed = &pt.firstRec, true
	} else {
		pr = &pendingRec{}
	}
	pr.rec, pr.ignoreExisting = rec, ignoreExisting
	if n == 1 {
		pr.current = pr.one[:]
	} else {
		pr.current = make([]bool, n)
	}
	return pr
}

// appendRec appends pr to recs (the table's recs or lazy), into the table's
// inline array buf while it is nil.
func appendRec(recs []*pendingRec, buf *[1]*pendingRec, pr *pendingRec) []*pendingRec {
	if recs == nil {
		recs = buf[:0]
	}
	return append(recs, pr)
}

// indexLazy indexes the table's first records if they were kept without
// keys. A table's first plain upserts (a COPY's or an INSERT's batches) are
// kept that way: when nothing reads the table or writes it otherwise before
// COMMIT, their keys are never needed here, and the store orders duplicates
// within its writes itself. The caller holds mu.
func (pt *Table) indexLazy() error {
	lazy := pt.lazy
	pt.lazy = nil
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	var err error
	for _, pr := range lazy {
		var kc keyColumnsBuf
		cols := pt.keyColumns(kc[:0], pr.rec)
		for i := range pr.current {
			if buf, err = pt.keyOf(buf, cols, i); err != nil {
				return err
			}
			if old, had := pt.rows[string(buf)]; had {
				old.rec.current[old.row] = false
			}
			pt.setRow(string(buf), slot{rec: pr, row: i})
		}
	}
	return nil
}

// setRow records k's pending state, making the table's key index on first
// use: a table whose only write is one plain upsert, read back by its key
// (lazyHit), never needs one. The caller holds mu.
func (pt *Table) setRow(k string, s slot) {
	if pt.rows == nil {
		pt.rows = map[string]slot{}
	}
	pt.rows[k] = s
}

// slot is where a key's pending state lives.
type slot struct {
	rec *pendingRec
	row int
}

// pendingState is a Table's content at a savepoint.
type pendingState struct {
	rows     map[string]slot
	recs     []*pendingRec
	currents [][]bool
	// appended is the log table's appended records (a TRUNCATE after the
	// savepoint drops them from the table's own list).
	appended []arrow.RecordBatch
	// base and truncated are the table's read base and TRUNCATE mark
	// (truncate.go), which ROLLBACK TO brings back.
	base      fluss.Table
	truncated bool
}

// Table is a table as the transaction sees it: the store's table
// with the pending writes over it. It implements fluss.Table; its writes
// only change the transaction.
type Table struct {
	tx *Txn
	// base is what the transaction reads (its snapshot under REPEATABLE
	// READ), newest the table's newest committed state.
	base, newest fluss.Table
	info         fluss.TableInfo
	schema       *arrow.Schema
	keyIdx       []int
	keyTypes     []types.T
	// keyIdxBuf and keyTypesBuf back keyIdx and keyTypes for keys of up
	// to two columns, and recsBuf and lazyBuf the first record of recs and
	// lazy: the table's own allocation holds what a transaction writing
	// one row by key allocated four times more.
	keyIdxBuf   [2]int
	keyTypesBuf [2]types.T
	recsBuf     [1]*pendingRec
	lazyBuf     [1]*pendingRec
	// firstRec is the table's first pending record of one row, and
	// firstRow the first row Lookup slices out (pendingRow), each used
	// once, in the table's allocation: a transaction updating one row by
	// key and reading it back.
	firstRec     pendingRec
	firstRecUsed bool
	firstRow     pendingRow
	firstRowUsed bool

	mu sync.Mutex
	// primary-key tables: the pending state of each touched key, by its
	// Fluss key encoding, and the records in write order; lazy is the
	// first record while it is not indexed (indexLazy).
	rows map[string]slot
	recs []*pendingRec
	lazy []*pendingRec
	// bulk, once the transaction staged the table's writes on disk, is
	// the store's bulk writer that holds them (spill.go).
	bulk fluss.BulkUpsert
	// read: the transaction read the table through this view, which a
	// running statement may go on doing, so its writes are not staged.
	read bool
	// log tables: appended records.
	appended []arrow.RecordBatch
	// checker checks every row written before it is kept (the engine's
	// CHECK constraints); nil: none.
	checker Checker
	// truncated: the transaction truncated the table (truncate.go); base
	// is then an empty table.
	truncated bool
}

// Checker checks the rows written to a table before the transaction keeps
// them: a failure fails the write, and the rows are not kept.
type Checker interface {
	Check(ctx context.Context, rec arrow.RecordBatch) error
}

// Info implements fluss.Table.
func (pt *Table) Info() fluss.TableInfo { return pt.info }

// Base returns the store's table as the transaction reads it (its
// snapshot's under REPEATABLE READ).
func (pt *Table) Base() fluss.Table {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.base
}

// Checker returns the checker the table was opened with.
func (pt *Table) Checker() Checker { return pt.checker }

// HasWrites reports whether the transaction holds rows for the table.
func (pt *Table) HasWrites() bool {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return len(pt.recs) > 0 || len(pt.appended) > 0 || len(pt.lazy) > 0 || pt.bulk != nil || pt.truncated
}

// Rebase points the table's pending rows at the table's new name and its
// reads at t, the table's new state (ALTER TABLE ... RENAME TO inside the
// transaction: COMMIT then writes the renamed table, same id).
func (pt *Table) Rebase(info fluss.TableInfo, t fluss.Table) {
	pt.mu.Lock()
	pt.info, pt.base, pt.newest = info, t, t
	pt.mu.Unlock()
}

func (pt *Table) snapshot() pendingState {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if err := pt.indexLazy(); err != nil {
		// Keys were encoded once already when the store validated them;
		// an error here would be a bug, and the savepoint then keeps the
		// record unindexed, which restore handles.
		pt.lazy = nil
	}
	st := pendingState{rows: make(map[string]slot, len(pt.rows)), recs: append([]*pendingRec(nil), pt.recs...), appended: append([]arrow.RecordBatch(nil), pt.appended...),
		base: pt.base, truncated: pt.truncated}
	for k, v := range pt.rows {
		st.rows[k] = v
	}
	for _, r := range pt.recs {
		st.currents = append(st.currents, append([]bool(nil), r.current...))
	}
	return st
}

func (pt *Table) restore(st pendingState) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.rows = st.rows
	pt.recs = st.recs
	pt.lazy = nil
	for i, r := range pt.recs {
		r.current = st.currents[i]
	}
	pt.appended = st.appended
	pt.base, pt.truncated = st.base, st.truncated
}

// keyOf encodes the primary key of row i of cols (the key columns, in key
// order) as the store does, so that equal keys are equal strings.
func (pt *Table) keyOf(buf []byte, cols []arrow.Array, i int) ([]byte, error) {
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

// keyColumns appends rec's key columns, in key order, to dst (a caller's
// array on its stack: the list was one allocation per write).
func (pt *Table) keyColumns(dst []arrow.Array, rec arrow.RecordBatch) []arrow.Array {
	for _, c := range pt.keyIdx {
		dst = append(dst, rec.Column(c))
	}
	return dst
}

// keyColumnsBuf is the stack array callers of keyColumns pass.
type keyColumnsBuf [4]arrow.Array

// Append implements fluss.Table for log tables.
func (pt *Table) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	if pt.info.HasPrimaryKey() {
		return pt.base.Append(ctx, rec) // the store's error
	}
	v, err := fluss.ValidateRecordAs(pt.info, pt.schema, rec)
	if err != nil {
		return fluss.WriteResult{}, err
	}
	if pt.checker != nil {
		err = pt.checker.Check(ctx, v)
	}
	if err == nil {
		err = pt.tx.checkWrite(pt)
	}
	if err == nil {
		err = pt.LockAppend(ctx) // locks.go
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
func (pt *Table) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
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
	if pt.checker != nil {
		err = pt.checker.Check(ctx, v)
	}
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
	pt.mu.Lock()
	pr := pt.newPendingRec(v, n, opts.IgnoreExisting)
	if !opts.IgnoreExisting && len(pt.recs) == len(pt.lazy) {
		for i := range pr.current {
			pr.current[i] = true
		}
		pt.recs = appendRec(pt.recs, &pt.recsBuf, pr)
		pt.lazy = appendRec(pt.lazy, &pt.lazyBuf, pr)
		pt.mu.Unlock()
		return fluss.WriteResult{Rows: int64(n)}, pt.tx.maybeSpill(ctx, pt)
	}
	err = pt.indexLazy()
	pt.mu.Unlock()
	if err != nil {
		return fluss.WriteResult{}, err
	}
	keys := make([]string, n)
	var kc keyColumnsBuf
	cols := pt.keyColumns(kc[:0], v)
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
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
		pt.setRow(k, slot{rec: pr, row: i})
		written++
	}
	pt.recs = append(pt.recs, pr)
	pt.mu.Unlock()
	return fluss.WriteResult{Rows: written}, pt.tx.maybeSpill(ctx, pt)
}

// existing reports which of keys (of the rows of rec) exist in the store
// and are not pending: the pending ones are judged by the caller.
func (pt *Table) existing(ctx context.Context, rec arrow.RecordBatch, keys []string) (map[string]bool, error) {
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
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
	for i := 0; i < int(found.NumRows()); i++ {
		if buf, err = pt.keyOf(buf, found.Columns(), i); err != nil {
			return nil, err
		}
		out[string(buf)] = true
	}
	return out, nil
}

// keyRecord builds a record of the key columns cols of rec's rows idx.
func (pt *Table) keyRecord(rec arrow.RecordBatch, cols []int, idx []int) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(pt.keyIdx))
	for i, c := range pt.keyIdx {
		fields[i] = pt.schema.Field(c)
	}
	return buildRows(arrow.NewSchema(fields, nil), func(col int) arrow.Array { return rec.Column(cols[col]) }, idx)
}

// Delete implements fluss.Table for primary-key tables.
func (pt *Table) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
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
	var keyBuf [64]byte // key encodings on the stack while short
	buf := keyBuf[:0]
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
		pt.setRow(k, slot{rec: pr, row: i})
		deleted++
	}
	pt.recs = append(pt.recs, pr)
	return fluss.WriteResult{Rows: deleted}, nil
}

// writes appends the table's final pending state to ws as store writes:
// each record whose rows are all current as it is, the others reduced to
// their current rows. (Appended to the transaction's list, rather than
// returned in a list of the table's own, to save COMMIT a copy.) On an
// error it has released ws.
func (pt *Table) writes(ws []fluss.TableWrite) ([]fluss.TableWrite, error) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
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

// Appended returns the rows the transaction appended to a log table, each
// record retained for the caller, and whether they are all of its pending
// state: false when it staged them on disk or truncated the table (a DDL
// statement that carries the transaction's rows along, engine's
// uniquecarry.go, cannot then).
func (pt *Table) Appended() ([]arrow.RecordBatch, bool) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if pt.info.HasPrimaryKey() || pt.bulk != nil || pt.truncated || len(pt.recs) > 0 || len(pt.lazy) > 0 {
		return nil, false
	}
	out := make([]arrow.RecordBatch, len(pt.appended))
	for i, r := range pt.appended {
		r.Retain()
		out[i] = r
	}
	return out, true
}

// Upserted returns the rows of a primary-key table that are the
// transaction's pending state of their keys (written and not deleted
// or replaced since), each record retained for the caller (a slice of a
// pending record when only some of its rows are), and whether they are
// all of its pending state: false when it staged them on disk or
// truncated the table. Over a table whose stored rows are none, they are
// the table as the transaction sees it (a DDL statement that carries the
// transaction's rows along, engine's uniquecarry.go).
func (pt *Table) Upserted() ([]arrow.RecordBatch, bool) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if !pt.info.HasPrimaryKey() || pt.bulk != nil || pt.truncated {
		return nil, false
	}
	if err := pt.indexLazy(); err != nil {
		return nil, false // (keys the store validated once already)
	}
	var out []arrow.RecordBatch
	for _, pr := range pt.recs {
		if pr.del {
			continue
		}
		for i := 0; i < len(pr.current); {
			if !pr.current[i] {
				i++
				continue
			}
			j := i
			for j < len(pr.current) && pr.current[j] {
				j++
			}
			if i == 0 && j == len(pr.current) {
				pr.rec.Retain()
				out = append(out, pr.rec)
			} else {
				out = append(out, pr.rec.NewSlice(int64(i), int64(j)))
			}
			i = j
		}
	}
	return out, true
}
