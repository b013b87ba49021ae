package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// FOREIGN KEY enforcement. A foreign key is its table's metadata
// (fluss.ForeignKey); a table a transaction writes learns, when it is
// opened for a write (attachFKeys), its own foreign keys and those that
// reference it. Its writes then note what the constraints must check, as
// PostgreSQL's RI triggers queue their events:
//   - the rows written to a table with foreign keys (pendingTable.Check:
//     INSERT, UPDATE, ON CONFLICT, COPY), whose keys must be in the
//     referenced tables;
//   - the keys deleted from, or moved away (an UPDATE of the key) in, a
//     referenced table (pendingTable.Delete / Upsert), whose referencing
//     rows the constraint's action handles.
//
// At the end of the statement (fkEndStatement) the events run in the
// order they were queued, as PostgreSQL fires its RI triggers, a run of
// them at a time (the batches of one write of one table: one read of the
// referencing table per run, a lookup when its key is the foreign key's
// columns): a CASCADE, SET NULL or SET DEFAULT action writes the
// referencing rows (whose own events join the queue's end), RESTRICT and
// NO ACTION fail if a row still references the key, and the rows written
// are checked against the referenced tables. A DEFERRABLE constraint
// whose checks are deferred (INITIALLY DEFERRED, SET CONSTRAINTS) keeps
// its NO ACTION and row checks until COMMIT (of a block, or of the
// implicit transaction of a Query string of several statements or of a
// pipeline), where the checks of one constraint run together; its
// actions are not deferred (PostgreSQL 15's action triggers are not
// deferrable).
//
// Every check reads the tables as the transaction sees them, so an event
// of a write a later one undid (a row updated again, a savepoint rolled
// back) finds nothing wrong.

// foreignKeyViolationCode is PostgreSQL's foreign_key_violation.
const foreignKeyViolationCode sqlerr.Code = "23503"

// fkRef is a foreign key with the table it is on.
type fkRef struct {
	child fluss.TablePath
	fk    fluss.ForeignKey
}

// fkTable is what a written table's foreign keys need: its own, those
// that reference it, and the statement's pairing of an UPDATE's moved
// keys (deleted, then written again in the same order).
type fkTable struct {
	s          *session
	own        []fluss.ForeignKey
	referenced []fkRef
	// moving: the table's writes are an UPDATE's, whose deletes are the
	// old keys of the rows its next upserts write (exec.Update).
	moving   bool
	unpaired []arrow.RecordBatch
	// unpairedOld are the rows of unpaired's keys as they were (aligned;
	// when oldRows: a foreign key references the table's UNIQUE columns,
	// whose old values the key alone does not give).
	unpairedOld []arrow.RecordBatch
	// oldRows: a foreign key references columns of the table other than
	// its primary key (a UNIQUE constraint's), so its events carry the
	// written and deleted rows as they were (fkEvent.oldRows).
	oldRows bool
}

// attachFKeys gives a table opened for a write (verb) its foreign keys.
func (s *session) attachFKeys(ctx context.Context, pt *pendingTable, verb string) error {
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return err
	}
	if len(idx.own) == 0 { // no foreign keys in the store: nothing per write
		pt.fk = nil
		return nil
	}
	info := pt.Info()
	own, refs := idx.own[info.Path], idx.referencing[info.Path]
	if len(own) == 0 && len(refs) == 0 {
		pt.fk = nil
		return nil
	}
	s.fkq.active = true
	if pt.fk == nil {
		pt.fk = &fkTable{s: s}
	}
	// (an UPDATE's pairing lasts to the end of its statement: a lock a
	// check takes on the same table mid-statement keeps it)
	pt.fk.own, pt.fk.referenced = own, refs
	pt.fk.oldRows = slices.ContainsFunc(refs, func(r fkRef) bool { return !fkRefsKey(info, r.fk) })
	pt.fk.moving = pt.fk.moving || verb == "UPDATE"
	return nil
}

// fkEvent is one queued event: rows written to a table with foreign keys
// (rows), or keys deleted from a referenced table (oldKeys, its primary
// key's columns), with the rows that replaced them when an UPDATE moved
// them (newRows, aligned; nil for a delete). oldRows, when a foreign key
// references the table's UNIQUE columns (fkTable.oldRows), are the rows
// of oldKeys as they were (aligned): an UPDATE that changes such a
// column in place queues the event too, with the key unchanged.
type fkEvent struct {
	table fluss.TableInfo
	// fks are table's own foreign keys, a rows event's checks (the
	// fkTable's, read once per catalog version)
	fks                       []fluss.ForeignKey
	rows                      arrow.RecordBatch
	oldKeys, newRows, oldRows arrow.RecordBatch
}

func (e fkEvent) release() {
	for _, r := range []arrow.RecordBatch{e.rows, e.oldKeys, e.newRows, e.oldRows} {
		if r != nil {
			r.Release()
		}
	}
}

// fkQueue is the session's queued events: the running statement's, and
// the deferred checks its transaction keeps until COMMIT.
type fkQueue struct {
	events   []fkEvent
	deferred []fkCheck
	// active: the transaction opened a table with foreign keys, whose
	// statement ends have work (fkEndStatement looks no further without).
	active bool
	// setDeferred: SET CONSTRAINTS's choices in the transaction, by
	// constraint name ("" for ALL, which resets the names chosen before).
	setDeferred map[string]bool
}

// fkCheck is a check NO ACTION or a referencing row needs: of the rows
// written to child (rows) against fk, or of the referenced values deleted
// from (or moved in) a referenced table (refVals, referenced by fk of
// ref.child: one column per ref.fk.RefColumns, in its order).
type fkCheck struct {
	table   fluss.TableInfo
	fk      fluss.ForeignKey
	rows    arrow.RecordBatch
	ref     fkRef
	refVals arrow.RecordBatch
}

// noteRows queues rows written to a table with foreign keys.
func (f *fkTable) noteRows(info fluss.TableInfo, rec arrow.RecordBatch) {
	if f == nil || len(f.own) == 0 || rec.NumRows() == 0 {
		return
	}
	rec.Retain()
	f.s.fkq.events = append(f.s.fkq.events, fkEvent{table: info, fks: f.own, rows: rec})
}

// Delete implements fluss.Table: the keys deleted from a referenced table
// are queued (held for pairing while an UPDATE moves them).
func (pt *pendingTable) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	var old arrow.RecordBatch
	if pt.fk != nil && pt.fk.oldRows && keys.NumRows() > 0 {
		var err error
		if old, _, err = pt.rowsAsWere(ctx, keys); err != nil { // fkunique.go
			return fluss.WriteResult{}, err
		}
	}
	res, err := pt.deleteRows(ctx, keys) // unique.go
	if err != nil || pt.fk == nil || len(pt.fk.referenced) == 0 || keys.NumRows() == 0 {
		if old != nil {
			old.Release()
		}
		return res, err
	}
	keys.Retain()
	if pt.fk.moving {
		pt.fk.unpaired = append(pt.fk.unpaired, keys)
		pt.fk.unpairedOld = append(pt.fk.unpairedOld, old)
	} else {
		pt.fk.s.fkq.events = append(pt.fk.s.fkq.events, fkEvent{table: pt.Info(), oldKeys: keys, oldRows: old})
	}
	return res, nil
}

// Upsert implements fluss.Table: an UPDATE's rows written after it
// deleted their old keys are paired with them.
// The moved keys' event goes before the rows' own (queued by Check while
// the upsert runs): PostgreSQL fires an updated row's referenced-side
// triggers (RI_ConstraintTrigger_a_*) before its referencing-side checks
// (_c_*), which matters to a row referencing itself.
func (pt *pendingTable) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	var at int
	var inPlace fkEvent // the rows an UPDATE changes in place, when oldRows
	if pt.fk != nil {
		at = len(pt.fk.s.fkq.events)
		if pt.fk.oldRows && !opts.IgnoreExisting && rec.NumRows() > 0 {
			var err error
			if inPlace, err = pt.replacedRows(ctx, rec); err != nil { // fkunique.go
				return fluss.WriteResult{}, err
			}
		}
	}
	res, err := pt.upsertRows(ctx, rec, opts) // unique.go
	if inPlace.oldKeys != nil {
		if err != nil {
			inPlace.release()
		} else {
			pt.fk.s.fkq.events = slices.Insert(pt.fk.s.fkq.events, at, inPlace)
			at++
		}
	}
	if err != nil || pt.fk == nil || len(pt.fk.unpaired) == 0 {
		return res, err
	}
	old, oldRows := pt.fk.unpaired[0], pt.fk.unpairedOld[0]
	if old.NumRows() != rec.NumRows() {
		return res, nil // not the UPDATE's pairing: left to fkEndStatement as deletes
	}
	pt.fk.unpaired, pt.fk.unpairedOld = pt.fk.unpaired[1:], pt.fk.unpairedOld[1:]
	rec.Retain()
	pt.fk.s.fkq.events = slices.Insert(pt.fk.s.fkq.events, at, fkEvent{table: pt.Info(), oldKeys: old, newRows: rec, oldRows: oldRows})
	return res, nil
}

// flushUnpaired queues the keys no upsert paired as deletes.
func (s *session) flushUnpaired() {
	tx := s.tx
	if tx == nil {
		tx = s.implicit
	}
	if tx == nil {
		return
	}
	for _, ot := range tx.Tables() {
		pt, ok := ot.Checker().(*pendingTable)
		if !ok || pt.fk == nil {
			continue
		}
		for i, k := range pt.fk.unpaired {
			s.fkq.events = append(s.fkq.events, fkEvent{table: pt.Info(), oldKeys: k, oldRows: pt.fk.unpairedOld[i]})
		}
		pt.fk.unpaired, pt.fk.unpairedOld = nil, nil
		pt.fk.moving = false
	}
}

// fkDropStatement forgets a failed statement's events (and, outside a
// transaction, its deferred checks).
func (s *session) fkDropStatement() {
	for _, e := range s.fkq.events {
		e.release()
	}
	s.fkq.events = nil
	if !s.inTransaction() {
		releaseChecks(s.fkq.deferred)
		s.fkq.deferred = nil
	}
	tx := s.tx
	if tx == nil {
		tx = s.implicit
	}
	if tx == nil || !s.fkq.active {
		return
	}
	for _, ot := range tx.Tables() {
		if pt, ok := ot.Checker().(*pendingTable); ok && pt.fk != nil {
			for i, k := range pt.fk.unpaired {
				k.Release()
				if o := pt.fk.unpairedOld[i]; o != nil {
					o.Release()
				}
			}
			pt.fk.unpaired, pt.fk.unpairedOld, pt.fk.moving = nil, nil, false
		}
	}
}

// fkEndTransaction forgets the transaction's deferred checks and SET
// CONSTRAINTS choices.
func (s *session) fkEndTransaction() {
	s.fkDropStatement()
	for _, c := range s.fkq.deferred {
		c.release()
	}
	s.fkq.deferred, s.fkq.setDeferred, s.fkq.active = nil, nil, false
}

func (c fkCheck) release() {
	if c.rows != nil {
		c.rows.Release()
	}
	if c.refVals != nil {
		c.refVals.Release()
	}
}

// isDeferred reports whether fk's checks wait for COMMIT now.
func (s *session) isDeferred(fk fluss.ForeignKey) bool {
	if !fk.Deferrable {
		return false
	}
	if d, ok := s.fkq.setDeferred[fk.Name]; ok {
		return d
	}
	if d, ok := s.fkq.setDeferred[""]; ok {
		return d
	}
	return fk.Deferred
}

// fkEndStatement runs the statement's queued events (see the top of the
// file) in order, a run of them at a time: the events of one write of
// one table (the record batches of a statement's rows, or of its deleted
// or moved keys), handled together so that each check or action reads the
// referencing table once per run, not once per batch or key.
func (s *session) fkEndStatement(ctx context.Context) error {
	if !s.fkq.active && len(s.fkq.events) == 0 {
		return nil
	}
	s.flushUnpaired()
	for i := 0; i < len(s.fkq.events); {
		if i > 1000000 {
			return sqlerr.New(sqlerr.InternalError, "foreign key actions did not end")
		}
		j := i + 1
		for j < len(s.fkq.events) && sameRun(s.fkq.events[i], s.fkq.events[j]) {
			j++
		}
		// (the run's actions append their own events: a copy of the run)
		if err := s.fkRun(ctx, slices.Clone(s.fkq.events[i:j])); err != nil {
			return err
		}
		i = j
	}
	for _, e := range s.fkq.events {
		e.release()
	}
	s.fkq.events = nil
	if !s.inTransaction() {
		return s.fkRunDeferred(ctx) // the statement's own transaction commits
	}
	return nil
}

// sameRun reports whether b continues a's run: the same table and kind
// of event (rows written, keys deleted, keys moved).
func sameRun(a, b fkEvent) bool {
	kind := func(e fkEvent) int {
		switch {
		case e.rows != nil:
			return 0
		case e.newRows == nil:
			return 1
		}
		return 2
	}
	return a.table.Path == b.table.Path && a.table.TableID == b.table.TableID && kind(a) == kind(b) &&
		(a.oldRows == nil) == (b.oldRows == nil)
}

// fkRun runs one run of events, as PostgreSQL fires the RI triggers of
// their rows at the end of the statement: for the rows written, each
// foreign key's check; for the keys deleted or moved, each referencing
// foreign key's action (in the order of fkIndex.referencing): CASCADE,
// SET NULL and SET DEFAULT write the referencing rows (whose events join
// the queue's end), RESTRICT and NO ACTION check that no row still
// references a key. A check of a deferred constraint waits for COMMIT.
func (s *session) fkRun(ctx context.Context, run []fkEvent) error {
	e := run[0]
	if e.rows != nil {
		rows, err := concatRecords(eventRecords(run, func(e fkEvent) arrow.RecordBatch { return e.rows }))
		if err != nil {
			return err
		}
		defer rows.Release()
		return s.fkRowChecks(ctx, e.table, e.fks, rows)
	}
	var err error
	if e.oldKeys, err = concatRecords(eventRecords(run, func(e fkEvent) arrow.RecordBatch { return e.oldKeys })); err != nil {
		return err
	}
	defer e.oldKeys.Release()
	if e.oldRows != nil {
		if e.oldRows, err = concatRecords(eventRecords(run, func(e fkEvent) arrow.RecordBatch { return e.oldRows })); err != nil {
			return err
		}
		defer e.oldRows.Release()
	}
	if e.newRows != nil {
		if e.newRows, err = concatRecords(eventRecords(run, func(e fkEvent) arrow.RecordBatch { return e.newRows })); err != nil {
			return err
		}
		defer e.newRows.Release()
	}
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return err
	}
	for _, ref := range idx.referencing[e.table.Path] {
		action := ref.fk.OnDelete
		if e.newRows != nil {
			action = ref.fk.OnUpdate
		}
		refVals, newRows, err := movedKeys(e, ref.fk)
		if err != nil {
			return err
		}
		if refVals == nil {
			continue // an UPDATE that left the referenced values as they were
		}
		switch action {
		case 'r':
			err = s.fkNoReference(ctx, ref, e.table, refVals, false)
		case 'a':
			err = s.fkCheckNow(ctx, fkCheck{table: e.table, ref: ref, refVals: refVals})
		default:
			err = s.fkAction(ctx, ref, e.table, action, refVals, newRows)
		}
		refVals.Release()
		if newRows != nil {
			newRows.Release()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// fkRowChecks checks rows written to table against its foreign keys fks
// (those deferred kept for COMMIT): the error is the first failing row's,
// of the first key it fails, as PostgreSQL fires the triggers row by row.
func (s *session) fkRowChecks(ctx context.Context, table fluss.TableInfo, fks []fluss.ForeignKey, rows arrow.RecordBatch) error {
	first, firstErr := -1, error(nil)
	for _, fk := range fks {
		if s.isDeferred(fk) {
			if err := s.fkCheckNow(ctx, fkCheck{table: table, fk: fk, rows: rows}); err != nil {
				return err
			}
			continue
		}
		r, err := s.fkOrphan(ctx, table, fk, rows)
		if err != nil && r < 0 {
			return err // not a violation
		}
		if err != nil && (first < 0 || r < first) {
			first, firstErr = r, err
		}
	}
	return firstErr
}

// fkCheckNow runs check c, or keeps it for COMMIT when its constraint is
// deferred (retaining its rows): of a statement's own transaction too,
// whose deferred checks run after its others (fkEndStatement).
func (s *session) fkCheckNow(ctx context.Context, c fkCheck) error {
	fk := c.fk
	if c.refVals != nil {
		fk = c.ref.fk
	}
	if s.isDeferred(fk) {
		for _, r := range []arrow.RecordBatch{c.rows, c.refVals} {
			if r != nil {
				r.Retain()
			}
		}
		s.fkq.deferred = append(s.fkq.deferred, c)
		return nil
	}
	return s.runFKCheck(ctx, c)
}

// inTransaction reports whether the statement runs in a transaction that
// outlasts it: a block, or the implicit transaction of a pipeline or of a
// Query string of several statements, which PostgreSQL commits (and runs
// the deferred checks of) at Sync or at the string's end.
func (s *session) inTransaction() bool { return s.tx != nil || s.held }

// concatRecords is recs (at least one, of one table's columns) as one
// record.
func concatRecords(recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	first := recs[0]
	if len(recs) == 1 {
		first.Retain()
		return first, nil
	}
	var n int64
	for _, r := range recs {
		n += r.NumRows()
		if !r.Schema().Equal(first.Schema()) {
			return valuesConcat(recs) // a representation differs: value by value
		}
	}
	cols := make([]arrow.Array, first.NumCols())
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for k, r := range recs {
			parts[k] = r.Column(c)
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			releaseArrays(cols[:c])
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "joining a foreign key's events: %v", err)
		}
		cols[c] = col
	}
	rec := array.NewRecordBatch(first.Schema(), cols, n)
	releaseArrays(cols)
	return rec, nil
}

func releaseArrays(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}

// valuesConcat is concatRecords value by value, into the first record's
// schema.
func valuesConcat(recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	var rows [][]any
	for _, rec := range recs {
		for r := 0; r < int(rec.NumRows()); r++ {
			row := make([]any, rec.NumCols())
			for c := range row {
				row[c] = types.ValueAt(rec.Column(c), r)
			}
			rows = append(rows, row)
		}
	}
	return buildRows(recs[0].Schema(), rows)
}

// eventRecords is one record of each event of run.
func eventRecords(run []fkEvent, of func(fkEvent) arrow.RecordBatch) []arrow.RecordBatch {
	out := make([]arrow.RecordBatch, len(run))
	for k, e := range run {
		out[k] = of(e)
	}
	return out
}

// mergeChecks joins checks of the same constraint and kind (the rows of
// one table against one foreign key, or the keys of one table against one
// referencing foreign key) into one, in the order of their first: the
// deferred checks of a transaction's statements, run at COMMIT with one
// read of each table instead of one per statement. checks are released.
func mergeChecks(checks []fkCheck) ([]fkCheck, error) {
	if len(checks) < 2 {
		return checks, nil
	}
	type group struct {
		c    fkCheck
		recs []arrow.RecordBatch
	}
	var order []string
	groups := map[string]*group{}
	for _, c := range checks {
		key := fmt.Sprintf("r\x00%s\x00%d\x00%s", c.table.Path, c.table.TableID, c.fk.Name)
		rec := c.rows
		if c.refVals != nil {
			key = fmt.Sprintf("k\x00%s\x00%d\x00%s\x00%s", c.table.Path, c.table.TableID, c.ref.child, c.ref.fk.Name)
			rec = c.refVals
		}
		g, ok := groups[key]
		if !ok {
			g = &group{c: c}
			groups[key] = g
			order = append(order, key)
		}
		g.recs = append(g.recs, rec)
	}
	out := make([]fkCheck, 0, len(order))
	var err error
	for _, key := range order {
		g := groups[key]
		if err != nil {
			continue
		}
		var rec arrow.RecordBatch
		if rec, err = concatRecords(g.recs); err != nil {
			continue
		}
		c := g.c
		if c.refVals != nil {
			c.refVals = rec
		} else {
			c.rows = rec
		}
		out = append(out, c)
	}
	releaseChecks(checks)
	if err != nil {
		releaseChecks(out)
		return nil, err
	}
	return out, nil
}

// runFKCheck runs one check.
func (s *session) runFKCheck(ctx context.Context, c fkCheck) error {
	if c.refVals != nil {
		return s.fkNoReference(ctx, c.ref, c.table, c.refVals, true)
	}
	if c.rows != nil {
		return s.fkParentsExist(ctx, c.table, c.fk, c.rows)
	}
	return nil
}

// fkCommit runs the transaction's deferred checks, before COMMIT.
func (s *session) fkCommit(ctx context.Context) error {
	if err := s.fkEndStatement(ctx); err != nil {
		return err
	}
	return s.fkRunDeferred(ctx)
}

// fkRunDeferred runs (and forgets) the deferred checks, those of one
// constraint together.
func (s *session) fkRunDeferred(ctx context.Context) error {
	if len(s.fkq.deferred) == 0 {
		return nil
	}
	checks, err := mergeChecks(s.fkq.deferred)
	s.fkq.deferred = nil
	if err != nil {
		return err
	}
	defer func() {
		for _, c := range checks {
			c.release()
		}
	}()
	// A table's rows checked against several of its foreign keys fail on
	// the first row failing one, as PostgreSQL's deferred triggers fire
	// row by row: the checks of the rows of one table (merged alike, so
	// with the same rows in the same order) all run, and the earliest
	// failing row's error is the one returned.
	var first error
	var firstRow int
	var firstTable fluss.TablePath
	var firstRows int64
	for _, c := range checks {
		c, ok, err := s.refreshCheck(ctx, c)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if c.rows == nil {
			if first != nil {
				return first
			}
			if err := s.runFKCheck(ctx, c); err != nil {
				return err
			}
			continue
		}
		if first != nil && (c.table.Path != firstTable || c.rows.NumRows() != firstRows) {
			return first
		}
		r, err := s.fkOrphan(ctx, c.table, c.fk, c.rows)
		if err != nil && r < 0 {
			return err // not a violation
		}
		if err != nil && (first == nil || r < firstRow) {
			first, firstRow, firstTable, firstRows = err, r, c.table.Path, c.rows.NumRows()
		}
	}
	return first
}

// refreshCheck is deferred check c with its foreign key read again, by
// name, from the catalog as COMMIT finds it: a DDL of another session
// since the check was queued may have rewritten the referenced table
// (its columns renumbered: the key's referenced positions moved,
// rewritefollow.go moveReference) or the referencing one, or dropped the key. As in
// PostgreSQL, a dropped key (or table) has nothing left to check (ok
// false); so has a table the transaction wrote that was rewritten since
// (its queued rows hold the old columns' positions, and its COMMIT fails
// with 40001: txnstore).
func (s *session) refreshCheck(ctx context.Context, c fkCheck) (fkCheck, bool, error) {
	current := func(p fluss.TablePath, id int64) (fluss.TableInfo, bool, error) {
		info, err := s.eng.storeTable(ctx, p)
		if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			return info, false, nil
		}
		if err != nil {
			return info, false, err
		}
		return info, id == 0 || info.TableID == id, nil
	}
	if c.refVals != nil { // values deleted from c.table, which c.ref.child references
		parent, ok, err := current(c.table.Path, c.table.TableID)
		if !ok || err != nil {
			return c, false, err
		}
		child, ok, err := current(c.ref.child, 0)
		if !ok || err != nil {
			return c, false, err
		}
		fk, _, ok := fkNamed(child.Descriptor, c.ref.fk.Name) // fkddl.go
		if !ok || fk.RefTable != c.table.Path {
			return c, false, nil
		}
		c.table, c.ref.fk = parent, fk
		return c, true, nil
	}
	child, ok, err := current(c.table.Path, c.table.TableID)
	if !ok || err != nil {
		return c, false, err
	}
	fk, _, ok := fkNamed(child.Descriptor, c.fk.Name)
	if !ok {
		return c, false, nil
	}
	c.table, c.fk = child, fk
	return c, true, nil
}

// fkEndImplicit ends the foreign keys' part of a held implicit
// transaction: its deferred checks run when it commits (commit), and are
// forgotten with its SET CONSTRAINTS choices either way.
func (s *session) fkEndImplicit(ctx context.Context, commit bool) error {
	var err error
	if commit {
		err = s.fkCommit(ctx)
	}
	s.fkEndTransaction()
	return err
}

// movedKeys returns the referenced values of a parent event that matter
// to fk (one column per fk.RefColumns, in its order): a delete's all, an
// UPDATE's those that changed (with their new rows); nil when none did.
// Values with a NULL (a UNIQUE column's) are left out: no row references
// them.
func movedKeys(e fkEvent, fk fluss.ForeignKey) (refVals, newRows arrow.RecordBatch, err error) {
	pk := keyIndexes(e.table)
	src, cols := e.oldKeys, make([]int, len(fk.RefColumns)) // where each referenced value is read
	if fkRefsKey(e.table, fk) {
		for k, c := range fk.RefColumns {
			cols[k] = slices.Index(pk, c)
		}
	} else {
		if e.oldRows == nil {
			return nil, nil, sqlerr.New(sqlerr.InternalError, "foreign key %q: the old rows of %q were not kept", fk.Name, e.table.Path.Table)
		}
		src = e.oldRows
		copy(cols, fk.RefColumns)
	}
	if e.newRows == nil && src == e.oldKeys {
		refVals, err := projectRows(e.oldKeys, cols) // a delete's keys: every one, none NULL
		return refVals, nil, err
	}
	var keep []int
	for r := 0; r < int(src.NumRows()); r++ {
		changed := e.newRows == nil
		null := false
		for k, c := range fk.RefColumns {
			v := types.ValueAt(src.Column(cols[k]), r)
			null = null || v == nil
			if e.newRows != nil && !sameValue(v, types.ValueAt(e.newRows.Column(c), r)) {
				changed = true
			}
		}
		if changed && !null {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		return nil, nil, nil
	}
	kept, err := takeRows(src, keep)
	if err != nil {
		return nil, nil, err
	}
	defer kept.Release()
	if refVals, err = projectRows(kept, cols); err != nil {
		return nil, nil, err
	}
	if e.newRows != nil {
		if newRows, err = takeRows(e.newRows, keep); err != nil {
			refVals.Release()
			return nil, nil, err
		}
	}
	return refVals, newRows, nil
}

// keyIndexes are the column indexes of info's primary key, in key order.
func keyIndexes(info fluss.TableInfo) []int {
	var out []int
	for _, n := range info.Descriptor.Schema.PrimaryKey {
		out = append(out, info.ColumnIndex(n))
	}
	return out
}

// sameValue compares two physical values as a key compares them.
func sameValue(a, b any) bool { return keyText(a) == keyText(b) }

// keyText is a value's form in the sets of keys the checks build: a
// float's -0 is 0, as the store's key encoding makes it (format.AppendKey;
// fmt prints every NaN as NaN).
func keyText(v any) string {
	switch f := v.(type) {
	case nil:
		return "\x00null"
	case float64:
		if f == 0 {
			v = float64(0)
		}
	case float32:
		if f == 0 {
			v = float32(0)
		}
	}
	return fmt.Sprintf("%T:%v", v, v)
}

// takeRows copies rows idx of rec.
func takeRows(rec arrow.RecordBatch, idx []int) (arrow.RecordBatch, error) {
	rows := make([][]any, len(idx))
	for k, r := range idx {
		row := make([]any, rec.NumCols())
		for c := range row {
			row[c] = types.ValueAt(rec.Column(c), r)
		}
		rows[k] = row
	}
	return buildRows(rec.Schema(), rows)
}

// buildRows builds a record of schema from physical values.
func buildRows(schema *arrow.Schema, rows [][]any) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, row := range rows {
		for c, v := range row {
			if err := types.AppendValue(b.Field(c), v); err != nil {
				return nil, err
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// readTable is a table as the transaction sees it (its pending writes
// over the store's rows).
func (s *session) readTable(ctx context.Context, p fluss.TablePath) (fluss.Table, error) {
	return s.runtimeTables().Table(ctx, p)
}

// fkParentsExist checks that every row of rows (written to table) has its
// key of fk in the referenced table: 23503 for the first that does not
// (unless the row is no longer the table's: a later write replaced it).
func (s *session) fkParentsExist(ctx context.Context, table fluss.TableInfo, fk fluss.ForeignKey, rows arrow.RecordBatch) error {
	_, err := s.fkOrphan(ctx, table, fk, rows)
	return err
}

// fkOrphan is fkParentsExist that also returns the row of its 23503 (the
// first row of rows that fails fk), so that a write's checks against its
// table's foreign keys report the first failing row, as PostgreSQL's
// triggers, fired row by row, do.
func (s *session) fkOrphan(ctx context.Context, table fluss.TableInfo, fk fluss.ForeignKey, rows arrow.RecordBatch) (int, error) {
	parent, err := s.readTable(ctx, fk.RefTable)
	if err != nil {
		return -1, err
	}
	pinfo := parent.Info()
	mixed := -1 // MATCH FULL's first row mixing NULL and non-NULL values
	var need [][]any
	var needRows []int
	seen := map[string]bool{}
	for r := 0; r < int(rows.NumRows()); r++ {
		vals := make([]any, len(fk.Columns))
		nulls := 0
		for k, c := range fk.Columns {
			vals[k] = types.ValueAt(rows.Column(c), r)
			if vals[k] == nil {
				nulls++
			}
		}
		switch {
		case nulls == len(vals):
			continue
		case nulls > 0 && fk.Match == 'f':
			if mixed < 0 && s.rowStillThere(ctx, table, rows, r) {
				mixed = r
			}
			continue
		case nulls > 0:
			continue // MATCH SIMPLE: a NULL in any column passes
		}
		key := make([]any, len(vals)) // in fk.RefColumns' order
		for k, c := range fk.RefColumns {
			key[k] = convertKey(vals[k], pinfo.Descriptor.Schema.Columns[c].Type)
		}
		t := rowKeyText(key)
		if seen[t] {
			continue
		}
		seen[t] = true
		need = append(need, key)
		needRows = append(needRows, r)
	}
	mixedErr := func() (int, error) {
		if mixed < 0 {
			return -1, nil
		}
		return mixed, sqlerr.New(foreignKeyViolationCode, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", table.Path.Table, fk.Name).
			WithDetail("MATCH FULL does not allow mixing of null and nonnull key values.")
	}
	if len(need) == 0 {
		return mixedErr()
	}
	found, err := s.parentHolds(ctx, fk.RefTable, fk, need, true) // fkunique.go
	if err != nil {
		return -1, err
	}
	for k, key := range need {
		if found[rowKeyText(key)] {
			continue
		}
		r := needRows[k]
		if mixed >= 0 && mixed < r {
			break
		}
		if !s.rowStillThere(ctx, table, rows, r) {
			continue
		}
		return r, sqlerr.New(foreignKeyViolationCode, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", table.Path.Table, fk.Name).
			WithDetail("Key (%s)=(%s) is not present in table \"%s\".", columnNames(table, fk.Columns), s.rowValues(table, rows, fk.Columns, r), pinfo.Path.Table)
	}
	return mixedErr()
}

// convertKey converts a referencing value to the referenced column's
// physical type where the two differ (an integer referencing a float).
func convertKey(v any, t types.T) any {
	if n, ok := v.(int64); ok && (t.Kind == types.Float32 || t.Kind == types.Float64) {
		return float64(n)
	}
	return v
}

// rowKeyText is a whole key's text.
func rowKeyText(vals []any) string {
	var sb strings.Builder
	for _, v := range vals {
		sb.WriteString(keyText(v))
		sb.WriteByte(0)
	}
	return sb.String()
}

// keyRecord is keys (values of info's primary key, in key order) as a
// record of the key's columns: what Lookup and a row lock take.
func keyRecord(info fluss.TableInfo, keys [][]any) (arrow.RecordBatch, error) {
	pk := keyIndexes(info)
	schema := info.ArrowSchema()
	fs := make([]arrow.Field, len(pk))
	for j, c := range pk {
		fs[j] = schema.Field(c)
		fs[j].Nullable = true
	}
	return buildRows(arrow.NewSchema(fs, nil), keys)
}

// lookupRows looks keys (in the table's key order) up in t, projected
// (nil: every column); nil when none is found.
func lookupRows(ctx context.Context, t fluss.Table, info fluss.TableInfo, keys [][]any, projection []int) (arrow.RecordBatch, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	rec, err := keyRecord(info, keys)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return t.Lookup(ctx, rec, projection)
}

// lookupKeys looks keys (in the table's key order) up in t and returns
// the set of those found.
func lookupKeys(ctx context.Context, t fluss.Table, info fluss.TableInfo, keys [][]any) (map[string]bool, error) {
	pk := keyIndexes(info)
	got, err := lookupRows(ctx, t, info, keys, pk)
	if err != nil {
		return nil, err
	}
	found := map[string]bool{}
	if got == nil {
		return found, nil
	}
	defer got.Release()
	for r := 0; r < int(got.NumRows()); r++ {
		key := make([]any, len(pk))
		for j := range pk {
			key[j] = types.ValueAt(got.Column(j), r)
		}
		found[rowKeyText(key)] = true
	}
	return found, nil
}

// rowStillThere reports whether row r of rows (written to table) is still
// the table's row as written: a later write of the statement or
// transaction may have replaced or deleted it, and its check is then
// moot, as PostgreSQL's RI trigger skips a row version no longer live. A
// table without a primary key cannot be asked, and keeps every row.
func (s *session) rowStillThere(ctx context.Context, table fluss.TableInfo, rows arrow.RecordBatch, r int) bool {
	if !table.HasPrimaryKey() {
		return true
	}
	t, err := s.readTable(ctx, table.Path)
	if err != nil {
		return true
	}
	pk := keyIndexes(table)
	key := make([]any, len(pk))
	for j, c := range pk {
		key[j] = types.ValueAt(rows.Column(c), r)
	}
	rec, err := keyRecord(table, [][]any{key})
	if err != nil {
		return true
	}
	defer rec.Release()
	got, err := t.Lookup(ctx, rec, nil)
	if err != nil || got == nil {
		return err != nil
	}
	defer got.Release()
	if got.NumRows() == 0 {
		return false
	}
	for c := 0; c < int(rows.NumCols()) && c < int(got.NumCols()); c++ {
		if !sameValue(types.ValueAt(rows.Column(c), r), types.ValueAt(got.Column(c), 0)) {
			return false
		}
	}
	return true
}

// columnNames lists columns idx of table, as a key's DETAIL names them.
func columnNames(table fluss.TableInfo, idx []int) string {
	names := make([]string, len(idx))
	for k, c := range idx {
		names[k] = table.Descriptor.Schema.Columns[c].Name
	}
	return strings.Join(names, ", ")
}

// rowValues prints columns idx of row r of rows in their text forms.
func (s *session) rowValues(table fluss.TableInfo, rows arrow.RecordBatch, idx []int, r int) string {
	loc, st := s.location(), s.style()
	vals := make([]string, len(idx))
	for k, c := range idx {
		vals[k] = exec.DetailValue(types.ValueAt(rows.Column(c), r), table.Descriptor.Schema.Columns[c].Type, loc, st)
	}
	return strings.Join(vals, ", ")
}

// fkReferencing returns the rows of ref's table whose key of ref.fk is
// one of refVals (the referenced table's values, a column per
// ref.fk.RefColumns): the matching rows and, for each, the index of its
// key in refVals.
func (s *session) fkReferencing(ctx context.Context, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch) (fluss.TableInfo, arrow.RecordBatch, []int, error) {
	child, err := s.readTable(ctx, ref.child)
	if err != nil {
		return fluss.TableInfo{}, nil, nil, err
	}
	return s.referencingIn(ctx, child, ref, parent, refVals)
}

// referencingIn is fkReferencing over the rows of child (a view of ref's
// table): one read of it for all of refVals, a lookup of them when the
// foreign key's columns are child's primary key, else a scan.
func (s *session) referencingIn(ctx context.Context, child fluss.Table, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch) (fluss.TableInfo, arrow.RecordBatch, []int, error) {
	cinfo := child.Info()
	wanted := map[string]int{}
	var wantedKeys [][]any // the distinct keys, in ref.fk.Columns' order
	for r := 0; r < int(refVals.NumRows()); r++ {
		key := make([]any, len(ref.fk.Columns))
		for k := range ref.fk.RefColumns {
			key[k] = types.ValueAt(refVals.Column(k), r)
		}
		if _, dup := wanted[rowKeyText(key)]; !dup {
			wanted[rowKeyText(key)] = r
			wantedKeys = append(wantedKeys, key)
		}
	}
	var rows [][]any
	var which []int
	keep := func(b arrow.RecordBatch) {
		for r := 0; r < int(b.NumRows()); r++ {
			key := make([]any, len(ref.fk.Columns))
			for k, c := range ref.fk.Columns {
				key[k] = convertKey(types.ValueAt(b.Column(c), r), parent.Descriptor.Schema.Columns[ref.fk.RefColumns[k]].Type)
			}
			if at, ok := wanted[rowKeyText(key)]; ok {
				row := make([]any, b.NumCols())
				for c := range row {
					row[c] = types.ValueAt(b.Column(c), r)
				}
				rows = append(rows, row)
				which = append(which, at)
			}
		}
	}
	if order, ok := fkIsChildKey(cinfo, parent, ref.fk); ok {
		keys := make([][]any, len(wantedKeys))
		for k, key := range wantedKeys {
			keys[k] = make([]any, len(order))
			for j, o := range order {
				keys[k][j] = key[o]
			}
		}
		got, err := lookupRows(ctx, child, cinfo, keys, nil)
		if err != nil {
			return cinfo, nil, nil, err
		}
		if got != nil {
			keep(got)
			got.Release()
		}
	} else {
		reader, err := child.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			return cinfo, nil, nil, err
		}
		defer reader.Close()
		for {
			b, err := reader.Next(ctx)
			if err != nil {
				return cinfo, nil, nil, err
			}
			if b == nil {
				break
			}
			keep(b)
			b.Release()
		}
	}
	rec, err := buildRows(cinfo.ArrowSchema(), rows)
	if err != nil {
		return cinfo, nil, nil, err
	}
	return cinfo, rec, which, nil
}

// fkIsChildKey reports whether fk's columns are its table's (child's)
// whole primary key, each of the referenced column's type, so that the
// referencing rows of a key are found by a lookup: order[j] is the
// position in fk.Columns of the key's column j.
func fkIsChildKey(child, parent fluss.TableInfo, fk fluss.ForeignKey) (order []int, ok bool) {
	ck := keyIndexes(child)
	if len(ck) != len(fk.Columns) {
		return nil, false
	}
	order = make([]int, len(ck))
	for j, c := range ck {
		k := slices.Index(fk.Columns, c)
		if k < 0 || child.Descriptor.Schema.Columns[c].Type.Kind != parent.Descriptor.Schema.Columns[fk.RefColumns[k]].Type.Kind {
			return nil, false
		}
		order[j] = k
	}
	return order, true
}

// fkNoReference fails with 23503 if a row of ref's table references one
// of refVals of parent: RESTRICT's check, and NO ACTION's (noAction: a
// value the referenced table holds again, an UPDATE having moved another
// row onto it, is referenced rightly).
func (s *session) fkNoReference(ctx context.Context, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch, noAction bool) error {
	vals := refVals
	if noAction {
		all := make([][]any, refVals.NumRows())
		for r := range all {
			all[r] = make([]any, refVals.NumCols())
			for c := range all[r] {
				all[r][c] = types.ValueAt(refVals.Column(c), r)
			}
		}
		found, err := s.parentHolds(ctx, parent.Path, ref.fk, all, false) // fkunique.go
		if err != nil {
			return err
		}
		var gone []int
		for r, k := range all {
			if !found[rowKeyText(k)] {
				gone = append(gone, r)
			}
		}
		if len(gone) == 0 {
			return nil
		}
		if vals, err = takeRows(refVals, gone); err != nil {
			return err
		}
		defer vals.Release()
	}
	_, rows, which, err := s.fkReferencing(ctx, ref, parent, vals)
	if err != nil {
		return err
	}
	defer rows.Release()
	if rows.NumRows() == 0 {
		return s.fkCrossCheck(ctx, ref, parent, vals)
	}
	return s.stillReferenced(ref, parent, vals, which[0])
}

// stillReferenced is the 23503 of a referenced value (row r of refVals)
// that a row of ref's table still references.
func (s *session) stillReferenced(ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch, r int) error {
	vals := make([]string, len(ref.fk.RefColumns))
	loc, st := s.location(), s.style()
	for k, c := range ref.fk.RefColumns {
		v := types.ValueAt(refVals.Column(k), r)
		vals[k] = types.FormatTextStyle(v, parent.Descriptor.Schema.Columns[c].Type, loc, st)
	}
	return sqlerr.New(foreignKeyViolationCode, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"", parent.Path.Table, ref.fk.Name, ref.child.Table).
		WithDetail("Key (%s)=(%s) is still referenced from table \"%s\".", columnNames(parent, ref.fk.RefColumns), strings.Join(vals, ", "), ref.child.Table)
}

// fkAction runs a CASCADE, SET NULL or SET DEFAULT action on the rows of
// ref's table that reference refVals: deletes them (CASCADE of a
// delete), gives them the new key (CASCADE of an update, newRows), NULL
// or their default. The writes queue their own events. parentInfo is
// the referenced table's, whose values refVals are.
func (s *session) fkAction(ctx context.Context, ref fkRef, parentInfo fluss.TableInfo, action byte, refVals, newRows arrow.RecordBatch) error {
	if err := s.fkActionCrossCheck(ctx, ref, parentInfo, refVals); err != nil {
		return err
	}
	cinfo, rows, which, err := s.fkReferencing(ctx, ref, parentInfo, refVals)
	if err != nil {
		return err
	}
	defer rows.Release()
	if rows.NumRows() == 0 {
		return nil
	}
	if !cinfo.HasPrimaryKey() {
		return sqlerr.New(sqlerr.FeatureNotSupported, "cannot run the ON DELETE / ON UPDATE action of foreign key constraint \"%s\": table \"%s\" has no primary key (a Fluss log table is append-only)", ref.fk.Name, cinfo.Path.Table)
	}
	verb := "UPDATE"
	if action == 'c' && newRows == nil {
		verb = "DELETE"
	}
	pt, err := s.writeTable(ctx, verb, cinfo)
	if err != nil {
		return err
	}
	if err := s.attachFKeys(ctx, pt, verb); err != nil {
		return err
	}
	ckeys := keyIndexes(cinfo)
	oldChildKeys, err := projectRows(rows, ckeys)
	if err != nil {
		return err
	}
	defer oldChildKeys.Release()
	if verb == "DELETE" {
		_, err = pt.Delete(ctx, oldChildKeys)
		return err
	}
	set := ref.fk.Columns
	if newRows == nil && ref.fk.DeleteSetColumns != nil {
		set = ref.fk.DeleteSetColumns
	}
	var defaults []arrow.Array
	if action == 'd' {
		if defaults, err = s.fkDefaults(ctx, cinfo, set, int(rows.NumRows())); err != nil {
			return err
		}
		defer func() {
			for _, d := range defaults {
				if d != nil {
					d.Release()
				}
			}
		}()
	}
	var still defaultKeys
	stillAt := -1
	out := make([][]any, rows.NumRows())
	for r := range out {
		row := make([]any, rows.NumCols())
		for c := range row {
			row[c] = types.ValueAt(rows.Column(c), r)
		}
		for k, c := range set {
			switch action {
			case 'n':
				row[c] = nil
			case 'd':
				row[c] = types.ValueAt(defaults[k], r)
			case 'c':
				fkCol := slices.Index(ref.fk.Columns, c)
				row[c] = types.ValueAt(newRows.Column(ref.fk.RefColumns[fkCol]), which[r])
			}
		}
		if action == 'd' {
			if j := still.first(s, ref, parentInfo, row, refVals, which[r]); j >= 0 && (stillAt < 0 || j < stillAt) {
				stillAt = j
			}
		}
		out[r] = row // a NULL in a NOT NULL column is the Upsert's 23502 (fluss.CheckNotNull)
	}
	if stillAt >= 0 {
		// a default is a key this statement deletes or moves, at the row
		// whose action sets it or a later one: PostgreSQL's ri_set
		// (ri_triggers.c) runs each row's SET DEFAULT and then looks again
		// as NO ACTION would (ri_restrict), row by row in the statement's
		// order, so the first such key's row fails with the referenced
		// table's 23503 (a row moved onto an earlier key fails later, in
		// its own check)
		return s.stillReferenced(ref, parentInfo, refVals, stillAt)
	}
	newRec, err := buildRows(cinfo.ArrowSchema(), out)
	if err != nil {
		return err
	}
	defer newRec.Release()
	// the stored generated columns over the columns the action set are
	// computed again, as the UPDATE PostgreSQL's action runs computes them
	if gen, err := s.copyGenerated(ctx, cinfo); err != nil { // generated.go
		return err
	} else if gen != nil {
		cols := slices.Clone(newRec.Columns())
		for _, c := range cols {
			c.Retain()
		}
		err := gen(cols, newRec.NumRows())
		if err == nil {
			regen := array.NewRecordBatch(newRec.Schema(), cols, newRec.NumRows())
			defer regen.Release()
			newRec = regen
		}
		for _, c := range cols {
			c.Release()
		}
		if err != nil {
			return err
		}
	}
	keyMoves := slices.ContainsFunc(set, func(c int) bool { return slices.Contains(ckeys, c) })
	if keyMoves {
		pt.fk.moving = true
		if _, err := pt.Delete(ctx, oldChildKeys); err != nil {
			return err
		}
	}
	_, err = pt.Upsert(ctx, newRec, fluss.UpsertOptions{})
	if pt.fk != nil {
		pt.fk.moving = false
	}
	return err
}

// projectRows copies columns idx of rec.
func projectRows(rec arrow.RecordBatch, idx []int) (arrow.RecordBatch, error) {
	fs := make([]arrow.Field, len(idx))
	cols := make([]arrow.Array, len(idx))
	for k, c := range idx {
		fs[k] = rec.Schema().Field(c)
		cols[k] = rec.Column(c)
	}
	return array.NewRecordBatch(arrow.NewSchema(fs, nil), cols, rec.NumRows()), nil
}

// fkDefaults evaluates the defaults of columns cols of info for n rows
// (NULL for a column without one).
func (s *session) fkDefaults(ctx context.Context, info fluss.TableInfo, cols []int, n int) ([]arrow.Array, error) {
	fill, err := s.copyDefaults(ctx, info, nil) // coldefs.go: a COPY's omitted columns are filled alike
	if err != nil {
		return nil, err
	}
	out := make([]arrow.Array, len(cols))
	for k, c := range cols {
		if fill == nil { // no column has a default
			out[k] = array.MakeArrayOfNull(s.eng.mem, info.Descriptor.Schema.Columns[c].Type.ArrowType(), n)
		} else if out[k], err = fill(c, int64(n)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setConstraints is SET CONSTRAINTS, as PostgreSQL's
// AfterTriggerSetState: a name that is no constraint is 42704, DEFERRED
// of one that is not DEFERRABLE 42809 (IMMEDIATE of it does nothing).
// Outside a transaction it is a WARNING (25P01) after those checks, and
// nothing else; in the implicit transaction of a Query string of several
// statements (or a pipeline) it lasts to that transaction's end. IMMEDIATE
// runs at once the deferred checks of the constraints it makes immediate.
func (s *session) setConstraints(ctx context.Context, c *sql.SetConstraints) (pgwire.Result, error) {
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	idx, err := s.fkIndexNow(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range c.Names {
		fks, ok := idx.byName[n]
		switch {
		case !ok && idx.others[n]:
			if c.Deferred {
				return nil, notDeferrable(n)
			}
		case !ok:
			return nil, sqlerr.New(sqlerr.UndefinedObject, "constraint \"%s\" does not exist", n)
		}
		for _, fk := range fks {
			if c.Deferred && !fk.Deferrable {
				return nil, notDeferrable(n)
			}
		}
	}
	if !s.inTransaction() {
		return warningResult("SET CONSTRAINTS", outsideTransactionBlock("SET CONSTRAINTS")), nil // txcontrol.go
	}
	prior := maps.Clone(s.fkq.setDeferred)
	if c.Names == nil {
		s.fkq.setDeferred = map[string]bool{"": c.Deferred}
	} else {
		if s.fkq.setDeferred == nil {
			s.fkq.setDeferred = map[string]bool{}
		}
		for _, n := range c.Names {
			s.fkq.setDeferred[n] = c.Deferred
		}
	}
	if !c.Deferred {
		var keep []fkCheck
		var run []fkCheck
		for _, ch := range s.fkq.deferred {
			fk := ch.fk
			if ch.refVals != nil {
				fk = ch.ref.fk
			}
			if s.isDeferred(fk) {
				keep = append(keep, ch)
			} else {
				run = append(run, ch)
			}
		}
		s.fkq.deferred = keep
		if run, err = mergeChecks(run); err != nil {
			return nil, err
		}
		for i, ch := range run {
			if err := s.runFKCheck(ctx, ch); err != nil {
				// the statement failed: its mode change is undone and
				// the checks not passed stay deferred, so that after
				// ROLLBACK TO the COMMIT still runs them
				s.fkq.setDeferred = prior
				s.fkq.deferred = append(s.fkq.deferred, run[i:]...)
				releaseChecks(run[:i])
				return nil, err
			}
		}
		releaseChecks(run)
	}
	return tagOnly("SET CONSTRAINTS"), nil
}

// notDeferrable is SET CONSTRAINTS ... DEFERRED's error for a constraint
// that is not DEFERRABLE (PostgreSQL's wrong_object_type).
func notDeferrable(name string) error {
	return sqlerr.New(sqlerr.WrongObjectType, "constraint \"%s\" is not deferrable", name)
}

// releaseChecks releases checks that ran.
func releaseChecks(checks []fkCheck) {
	for _, c := range checks {
		c.release()
	}
}

// defaultKeys finds which keys being deleted or moved a SET DEFAULT
// action's new values reference: for each distinct default (a constant
// default is one for every row), the indexes of refVals it equals, in
// order, computed once.
type defaultKeys map[string][]int

// first is the first index of refVals at or after from that row (the
// referencing row with its defaults set) references, -1 when none.
func (d *defaultKeys) first(s *session, ref fkRef, parent fluss.TableInfo, row []any, refVals arrow.RecordBatch, from int) int {
	if *d == nil {
		*d = defaultKeys{}
	}
	vals := make([]any, len(ref.fk.Columns))
	for k, c := range ref.fk.Columns {
		vals[k] = row[c]
	}
	key := fmt.Sprintf("%#v", vals) // Go syntax: a NULL and the text "<nil>" differ
	at, ok := (*d)[key]
	if !ok {
		for j := 0; j < int(refVals.NumRows()); j++ {
			if s.stillKey(ref, parent, row, refVals, j) {
				at = append(at, j)
			}
		}
		(*d)[key] = at
	}
	if i, _ := slices.BinarySearch(at, from); i < len(at) {
		return at[i]
	}
	return -1
}

// stillKey reports whether row (of ref's table) references key r of
// refVals (the referenced table's values, a column per ref.fk.RefColumns).
func (s *session) stillKey(ref fkRef, parent fluss.TableInfo, row []any, refVals arrow.RecordBatch, r int) bool {
	for k, c := range ref.fk.Columns {
		want := types.ValueAt(refVals.Column(k), r)
		if !sameValue(convertKey(row[c], parent.Descriptor.Schema.Columns[ref.fk.RefColumns[k]].Type), want) {
			return false
		}
	}
	return true
}

// lockKeyShare takes FOR KEY SHARE locks on the rows of the referenced
// table info with keys (in key order), as PostgreSQL's RI check does
// before it reads them: a concurrent DELETE or key UPDATE of such a row
// waits for this transaction (and then finds its referencing rows), and
// this check waits for one already under way (and then reads the row as
// that left it: gone, 23503; under REPEATABLE READ, 40001). A store
// without row locks (a cluster) takes none.
func (s *session) lockKeyShare(ctx context.Context, info fluss.TableInfo, keys [][]any) error {
	if s.eng.locks == nil {
		return nil
	}
	pt, err := s.writeTable(ctx, "SELECT FOR KEY SHARE", info)
	if err != nil {
		return err
	}
	strs, err := keyEncodings(info, keys)
	if err != nil {
		return err
	}
	_, err = pt.LockRows(ctx, strs, exec.RowLock{Mode: rowlock.KeyShare})
	return err
}

// keyEncodings are the store's (and the lock manager's) encodings of the
// primary keys keys (in key order) of info's table.
func keyEncodings(info fluss.TableInfo, keys [][]any) ([]string, error) {
	var kt []types.T
	for _, c := range keyIndexes(info) {
		kt = append(kt, info.Descriptor.Schema.Columns[c].Type)
	}
	rec, err := keyRecord(info, keys)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	strs := make([]string, rec.NumRows())
	for r := range strs {
		b, err := format.AppendKey(nil, kt, rec.Columns(), r)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a key of %s: %v", info.Path.Table, err)
		}
		strs[r] = string(b)
	}
	return strs, nil
}

// fkCrossCheck is REPEATABLE READ's second look for rows of ref's table
// that reference refVals: a row a concurrent transaction committed after
// this one's snapshot (which the check read) would be left referencing
// nothing, so its presence in the newest committed rows fails the check
// (23503), as PostgreSQL's RI query run with the newest snapshot (and the
// transaction's as a crosscheck) does.
func (s *session) fkCrossCheck(ctx context.Context, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch) error {
	at, err := s.fkNewReferencing(ctx, ref, parent, refVals, false)
	if err != nil || at < 0 {
		return err
	}
	return s.stillReferenced(ref, parent, refVals, at)
}

// fkActionCrossCheck is REPEATABLE READ's look, before an ON DELETE or ON
// UPDATE action (fkAction) changes the rows of ref's table that reference
// refVals in its snapshot, for such rows that a concurrent transaction
// committed (inserted or changed) since: PostgreSQL's action finds them
// with the newest snapshot, and its delete or update of a row the
// transaction's snapshot (the crosscheck) does not see fails with 40001.
func (s *session) fkActionCrossCheck(ctx context.Context, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch) error {
	at, err := s.fkNewReferencing(ctx, ref, parent, refVals, true)
	if err != nil || at < 0 {
		return err
	}
	return exec.SerializationFailure()
}

// fkNewReferencing is, under REPEATABLE READ, the row of refVals that a
// row of ref's table referencing it in the newest committed state, but not
// in the transaction's snapshot, references (-1: none, or not REPEATABLE
// READ). changed counts a row the snapshot has with other values as not
// there too.
func (s *session) fkNewReferencing(ctx context.Context, ref fkRef, parent fluss.TableInfo, refVals arrow.RecordBatch, changed bool) (int, error) {
	tx := s.tx
	if tx == nil || tx.Snap == nil {
		return -1, nil
	}
	latest, err := s.eng.store.Table(ctx, ref.child)
	if err != nil {
		return -1, err
	}
	snap, _ := tx.Snap.Table(latest)
	cinfo := latest.Info()
	_, rows, which, err := s.referencingIn(ctx, latest, ref, parent, refVals)
	if err != nil {
		return -1, err
	}
	defer rows.Release()
	if rows.NumRows() == 0 {
		return -1, nil
	}
	if !cinfo.HasPrimaryKey() {
		return which[0], nil
	}
	pk := keyIndexes(cinfo)
	keys := make([][]any, rows.NumRows())
	for r := range keys {
		keys[r] = make([]any, len(pk))
		for j, c := range pk {
			keys[r][j] = types.ValueAt(rows.Column(c), r)
		}
	}
	seen, err := lookupKeys(ctx, snap, cinfo, keys)
	if err != nil {
		return -1, err
	}
	for r, k := range keys {
		if !seen[rowKeyText(k)] {
			return which[r], nil
		}
	}
	if !changed {
		return -1, nil
	}
	enc, err := keyEncodings(cinfo, keys)
	if err != nil {
		return -1, err
	}
	for r, k := range enc {
		if ch, err := tx.Snap.RowChanged(ctx, latest, []byte(k)); err != nil || ch != fluss.RowUnchanged {
			return which[r], err
		}
	}
	return -1, nil
}
