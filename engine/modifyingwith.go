package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Data-modifying statements in WITH (sql.Statement.ModifyingWith):
//
//	WITH moved AS (DELETE FROM a WHERE ... RETURNING *)
//	INSERT INTO b SELECT * FROM moved
//
// Each data-modifying WITH query is a write statement of its own
// (prepareModifyingWith: parsed from its text, bound and planned as the
// statement it is), run once and to its end whether or not anything reads
// it, in the order written: before the main statement when the main
// statement reads it (or reads one that reads it), else after it, as
// PostgreSQL runs the ones nothing reads (orderParts). Its RETURNING
// rows are kept as a relation (withRelation, a binder.FileRelation) that
// the main statement and the later WITH queries read by its name.
//
// All parts read the statement's snapshot, as in PostgreSQL: a table that
// a part writes is read by the other parts as it was when the statement
// started (withSnapshot: the transaction's pending state of the table,
// frozen, txnstore.Table.Frozen), so no part sees another's writes except
// through RETURNING. An UPDATE or DELETE that alone writes its table reads
// it as it is (its rows to change, locks and rechecks are the plain
// statement's), which is the snapshot too. A table may be written by one
// UPDATE, DELETE or INSERT ... ON CONFLICT and any number of plain INSERTs
// (each of them then reads it frozen: an UPDATE does not see the rows an
// INSERT part added); two of the former are refused (0A000): PostgreSQL
// lets only one of two changes of a row take effect, in an order its
// executor decides, which sqlgate does not reproduce. The statement's
// writes are one transaction's, so an error anywhere undoes all of them;
// its command tag is the main statement's.

// modifyingWith is a prepared statement's data-modifying WITH queries.
type modifyingWith struct {
	parts []*withPart
	// mainShared: the main statement writes a table a part writes.
	mainShared bool
	// refs are the parts the statement being bound reads (by name), set
	// while it is bound (recordingCatalog.ModifyingCTE).
	refs []string
}

// withPart is one data-modifying WITH query.
type withPart struct {
	name string
	ps   *statement // the write, prepared
	rel  *withRelation
	// target is the table it writes; plainInsert: an INSERT without ON
	// CONFLICT (several of those may write one table).
	target      fluss.TableInfo
	plainInsert bool
	// shared: another part writes its table too.
	shared bool
	// reads are the earlier parts it reads; first: it runs before the
	// main statement, which reads it or a part that reads it (orderParts).
	reads []string
	first bool
}

// withRelation is a data-modifying WITH query's RETURNING rows, as the
// statement reads them (binder.FileRelation). The rows are the running
// execution's, set when the part has run; a plan keeps the relation, so a
// prepared statement's next execution reads its own.
type withRelation struct {
	name string
	cols []binder.FileColumn
	rows *exec.Returned
}

func (r *withRelation) Columns() []binder.FileColumn { return r.cols }
func (r *withRelation) String() string               { return "WITH query " + r.name }

// Open implements binder.FileRelation: the part's rows, each batch
// retained for the reader.
func (r *withRelation) Open(context.Context) (binder.FileRows, error) {
	if r.rows == nil {
		return &withRows{}, nil
	}
	return &withRows{batches: r.rows.Batches}, nil
}

type withRows struct{ batches []arrow.RecordBatch }

func (w *withRows) Next(context.Context) (arrow.RecordBatch, error) {
	if len(w.batches) == 0 {
		return nil, nil
	}
	b := w.batches[0]
	w.batches = w.batches[1:]
	b.Retain()
	return b, nil
}

func (w *withRows) Close() { w.batches = nil }

// ModifyingCTE implements binder.ModifyingCatalog with the parts prepared
// so far (recordingCatalog.with: the running preparation's).
func (c *recordingCatalog) ModifyingCTE(name string) (binder.FileRelation, bool, bool) {
	if c.with == nil {
		return nil, false, false
	}
	for _, p := range c.with.parts {
		if p.name == name {
			c.with.refs = append(c.with.refs, name)
			return p.rel, p.rel.cols != nil, true
		}
	}
	return nil, false, false
}

// prepareModifyingWith prepares a statement with data-modifying WITH
// queries: each of them, then the main statement, which reads them
// (s.withPrep is the preparation's parts while it runs). The parameters
// are shared: each part is bound with the types the ones before it gave
// them.
func (s *session) prepareModifyingWith(ctx context.Context, st *sql.Statement, declared []types.T) (*statement, error) {
	mw := &modifyingWith{}
	s.withPrep = mw
	defer func() { s.withPrep = nil }()
	params := declared
	for _, m := range st.ModifyingWith {
		p := sql.NewParser()
		p.SetDatabase(s.info.Database)
		parsed, err := m.Parse(p)
		if err != nil {
			return nil, err
		}
		mw.refs = nil
		sub, err := s.prepareOne(ctx, parsed, params)
		if err != nil {
			return nil, err
		}
		part := &withPart{name: m.Name, ps: sub, rel: &withRelation{name: m.Name}, reads: mw.refs}
		w, ok := writeOf(sub.bound)
		if !ok {
			return nil, sqlerr.New(sqlerr.InternalError, "WITH query %q is no INSERT, UPDATE or DELETE", m.Name)
		}
		part.target, part.plainInsert = w.target, w.plainInsert
		if m.Returning {
			part.rel.cols = make([]binder.FileColumn, 0, len(sub.cols))
			for _, c := range sub.cols {
				part.rel.cols = append(part.rel.cols, binder.FileColumn{Name: c.Name, Type: c.Type})
			}
			if len(m.Columns) > len(part.rel.cols) {
				return nil, sqlerr.New(sqlerr.InvalidColumnReference, "WITH query %q has %d columns available but %d columns specified", m.Name, len(part.rel.cols), len(m.Columns)).WithPosition(m.NamePos)
			}
			for i, n := range m.Columns {
				part.rel.cols[i].Name = n
			}
		}
		mw.parts = append(mw.parts, part)
		params = mergeParams(params, sub.params)
	}
	mw.refs = nil
	ps, err := s.prepareOne(ctx, st, params)
	if err != nil {
		return nil, err
	}
	mw.orderParts(mw.refs)
	if err := mw.sharedTargets(ps.bound, st); err != nil {
		return nil, err
	}
	ps.with = mw
	ps.params = mergeParams(params, ps.params)
	return ps, nil
}

// orderParts marks the parts that run before the main statement: those it
// reads (mainReads) and those they read. The others run after it, as
// PostgreSQL runs a data-modifying WITH query nothing reads once the main
// statement is done (the order shows in the values nextval gives them,
// and in which of two INSERTs of a key ON CONFLICT DO NOTHING keeps).
func (mw *modifyingWith) orderParts(mainReads []string) {
	var mark func(name string)
	mark = func(name string) {
		for _, p := range mw.parts {
			if p.name == name && !p.first {
				p.first = true
				for _, r := range p.reads {
					mark(r)
				}
			}
		}
	}
	for _, n := range mainReads {
		mark(n)
	}
}

// sharedTargets refuses a table written by two parts of the statement of
// which more than one is an UPDATE, a DELETE or an INSERT ... ON CONFLICT
// (see the comment at the top), and marks the parts that write a table
// another part writes too (shared: they read it as the statement started).
func (mw *modifyingWith) sharedTargets(main binder.Statement, st *sql.Statement) error {
	type writer struct {
		info        fluss.TableInfo
		plainInsert bool
		pos         int
		shared      *bool
	}
	ws := make([]writer, 0, len(mw.parts)+1)
	for i, p := range mw.parts {
		ws = append(ws, writer{p.target, p.plainInsert, st.ModifyingWith[i].NamePos, &p.shared})
	}
	if w, ok := writeOf(main); ok {
		ws = append(ws, writer{w.target, w.plainInsert, 0, &mw.mainShared})
	}
	for i, a := range ws {
		for _, b := range ws[:i] {
			if a.info.TableID != b.info.TableID {
				continue
			}
			if !a.plainInsert && !b.plainInsert {
				e := sqlerr.New(sqlerr.FeatureNotSupported, "data-modifying statements in WITH that change rows of table %q another part of the statement changes are not supported", a.info.Path.Table).
					WithHint("One UPDATE, DELETE or INSERT ... ON CONFLICT per table, with plain INSERTs besides; PostgreSQL lets only one of two changes of a row take effect.")
				if a.pos > 0 {
					e = e.WithPosition(a.pos)
				}
				return e
			}
			*a.shared, *b.shared = true, true
		}
	}
	return nil
}

// write is what a bound statement writes: its verb as PostgreSQL names
// it, the table it writes, and whether it is a plain INSERT (no ON
// CONFLICT: several of those may write one table).
type write struct {
	verb        string
	target      fluss.TableInfo
	plainInsert bool
}

// writeOf is the write of an INSERT, UPDATE or DELETE; for any other
// statement ok is false and the verb SELECT.
func writeOf(bound binder.Statement) (w write, ok bool) {
	switch b := bound.(type) {
	case *binder.Insert:
		return write{"INSERT", b.Table, !b.OnConflictDoNothing && b.OnConflictUpdate == nil}, true
	case *binder.Update:
		return write{"UPDATE", b.Table, false}, true
	case *binder.Delete:
		return write{"DELETE", b.Table, false}, true
	case *binder.Merge:
		return write{"MERGE", b.Table, false}, true
	}
	return write{verb: "SELECT"}, false
}

// mergeParams is the parameter types of a and b together: a's, longer by
// b's, with b's type where a's is unknown.
func mergeParams(a, b []types.T) []types.T {
	out := append([]types.T(nil), a...)
	for i, t := range b {
		if i >= len(out) {
			out = append(out, t)
		} else if out[i].Kind == types.Unknown {
			out[i] = t
		}
	}
	return out
}

// withSnapshot is how the parts of a statement with data-modifying WITH
// queries read the tables they write: as they were when the statement
// started (frozen), each part but the one writing it (own).
type withSnapshot struct {
	frozen map[fluss.TablePath]fluss.Table
	held   []*txnstore.Table
	own    fluss.TablePath
}

// takeWithSnapshot freezes every table the statement writes.
func (s *session) takeWithSnapshot(ctx context.Context, ps *statement) (*withSnapshot, error) {
	snap := &withSnapshot{frozen: map[fluss.TablePath]fluss.Table{}}
	tables := s.runtimeTables()
	freeze := func(info fluss.TableInfo) error {
		if _, ok := snap.frozen[info.Path]; ok {
			return nil
		}
		tb, err := tables.Table(ctx, info.Path)
		if err != nil {
			return err
		}
		if pt, ok := tb.(*txnstore.Table); ok {
			f, err := pt.Frozen()
			if err != nil {
				return err
			}
			snap.held = append(snap.held, f)
			tb = f
		}
		snap.frozen[info.Path] = tb
		return nil
	}
	for _, p := range ps.with.parts {
		if err := freeze(p.target); err != nil {
			snap.release()
			return nil, err
		}
	}
	if w, ok := writeOf(ps.bound); ok {
		if err := freeze(w.target); err != nil {
			snap.release()
			return nil, err
		}
	}
	return snap, nil
}

func (snap *withSnapshot) release() {
	for _, f := range snap.held {
		f.Release()
	}
	snap.held = nil
}

// over is tables as the running part reads them: the frozen tables, but
// its own target as inner has it.
func (snap *withSnapshot) over(inner lower.Tables) lower.Tables {
	return &withTables{inner: inner, snap: snap, own: snap.own}
}

// withTables is lower.Tables through a withSnapshot.
type withTables struct {
	inner lower.Tables
	snap  *withSnapshot
	own   fluss.TablePath
}

func (w *withTables) Table(ctx context.Context, p fluss.TablePath) (fluss.Table, error) {
	if tb, ok := w.snap.frozen[p]; ok && p != w.own {
		return tb, nil
	}
	return w.inner.Table(ctx, p)
}

// runModifyingWith runs a statement with data-modifying WITH queries:
// each part to its end, then the main statement over their rows. A query
// is read to its end here, before the parts' rows are let go, so its
// result is the rows it read.
func (s *session) runModifyingWith(ctx context.Context, ps *statement, st *execState, backend *exec.BackendRequest) (pgwire.Result, error) {
	if ps.locked != nil {
		return nil, sqlerr.NotSupported("FOR UPDATE or FOR SHARE with data-modifying statements in WITH")
	}
	if tx := s.writeTxn(); tx.readOnly {
		w, _ := writeOf(ps.bound) // PostgreSQL names the main statement
		return nil, readOnlyTransaction(w.verb)
	}
	snap, err := s.takeWithSnapshot(ctx, ps)
	if err != nil {
		return nil, err
	}
	s.withSnap = snap
	defer func() {
		s.withSnap = nil
		snap.release()
		for _, p := range ps.with.parts {
			p.rel.rows.Release()
			p.rel.rows = nil
		}
	}()
	for _, p := range ps.with.parts {
		if !p.first {
			continue
		}
		if err := s.runWithPart(ctx, p, st); err != nil {
			return nil, err
		}
	}
	snap.own = fluss.TablePath{}
	if w, _ := writeOf(ps.bound); (w.verb == "UPDATE" || w.verb == "DELETE") && !ps.with.mainShared {
		snap.own = w.target.Path
	}
	st.rt.Tables, st.rt.Untransacted = snap.over(s.runtimeTables()), false
	res, err := s.runBound(ctx, ps, st, backend)
	if err != nil {
		return nil, err
	}
	if _, ok := ps.bound.(*binder.Query); ok {
		if res, err = drainResult(ctx, res); err != nil {
			return nil, err
		}
	}
	for _, p := range ps.with.parts {
		if p.first {
			continue
		}
		if err := s.runWithPart(ctx, p, st); err != nil {
			res.Close()
			return nil, err
		}
	}
	return res, nil
}

// runWithPart runs one data-modifying WITH query with an execution state
// of its own (its plain WITH queries' rows), keeping its RETURNING rows in
// its relation.
func (s *session) runWithPart(ctx context.Context, p *withPart, st *execState) error {
	if err := s.authorize(p.ps); err != nil {
		return err
	}
	sub := &execState{ec: st.ec, rt: st.rt}
	sub.rt.EC = &sub.ec
	sub.ec.Env = &sub.rt
	sub.rt.CTEs, sub.rt.Scratch = &sub.ctes, &sub.scratch
	sub.rt.Untransacted = false // the reads go through the snapshot
	defer sub.rt.Close()
	s.withSnap.own = fluss.TablePath{}
	if !p.plainInsert && !p.shared {
		s.withSnap.own = p.target.Path
	}
	ret := p.ps.returned()
	_, _, err := s.runWrite(ctx, p.ps, p.ps.bound, &sub.rt, &sub.ec, ret, &sub.recheck)
	if err != nil {
		return err
	}
	p.rel.rows = ret
	return nil
}

// drainResult reads a query's result to its end: its rows and its tag.
func drainResult(ctx context.Context, res pgwire.Result) (pgwire.Result, error) {
	defer res.Close()
	out := &exec.Returned{}
	for {
		b, err := res.Next(ctx)
		if err != nil {
			out.Release()
			return nil, err
		}
		if b == nil {
			break
		}
		out.Batches = append(out.Batches, b)
	}
	return &returnedResult{tag: res.Tag(), ret: out}, nil
}
