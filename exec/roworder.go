package exec

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// PostgreSQL evaluates a row's expressions before it reads the next row, so
// when two rows would each fail, the statement's error is the first row's
// (and, of that row's expressions, the first one to fail), and a cursor or a
// portal run with a row limit returns the rows before it. A batch evaluates
// each expression over every row first: the error it meets may be a later
// row's, and no row of the batch comes out. failedAt puts that right for a
// projection or a filter whose expressions may be evaluated again (they call
// nothing volatile: Project.Replayable, Filter.Replayable).

// rowFailure is the first failing row of a batch whose evaluation failed:
// the rows before it evaluate; err is that row's own error.
type rowFailure struct {
	row int64
	err error
}

// failedAt finds, after eval failed over all of b with batchErr, the first
// row of b that fails on its own, by evaluating prefixes of b (errors of
// scalar expressions are the row's own, so a prefix fails exactly when it
// holds a failing row). ok is false when b has one row, when the error is
// not a row's (a cancel), or when no single row fails: batchErr stands.
func failedAt(b arrow.RecordBatch, batchErr error, eval func(arrow.RecordBatch) error) (f rowFailure, ok bool) {
	n := b.NumRows()
	if n < 2 || !rowLocal(batchErr) {
		return rowFailure{}, false
	}
	lo, hi := int64(0), n // the prefix of lo rows evaluates, that of hi fails
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if tryEval(b, 0, mid, eval) != nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	err := tryEval(b, lo, lo+1, eval)
	if err == nil || !rowLocal(err) {
		return rowFailure{}, false
	}
	return rowFailure{row: lo, err: err}, true
}

// tryEval evaluates rows [from, to) of b.
func tryEval(b arrow.RecordBatch, from, to int64, eval func(arrow.RecordBatch) error) error {
	s := b.NewSlice(from, to)
	defer s.Release()
	return eval(s)
}

// rowLocal reports whether err is a row's value's error (a data
// exception, a failed cast...) rather than the statement's (a cancel, a
// timeout, memory).
func rowLocal(err error) bool {
	var se *sqlerr.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlerr.QueryCanceled, sqlerr.OutOfMemory, sqlerr.ProgramLimitExceeded, sqlerr.AdminShutdown:
		return false
	}
	return true
}

// Volatile expressions (nextval, setval, random(), clock_timestamp() ...)
// cannot be evaluated again as they are: the sequence would advance
// twice. A projection or filter calling them marks the session's sequence
// journal around a batch (functions.SequenceMark); when the batch fails,
// what its nextval calls drew is taken back (functions.RewindSequences)
// and the batch is evaluated again a row at a time, each row's
// expressions in order, as PostgreSQL evaluates them: the rows before the
// failing one come out, and the sequences stand where PostgreSQL's do
// (the failing row's calls before its failing expression made). When the
// journal cannot take its calls back (a setval, another session's
// nextval since) the batch's error stands.
//
// A consumer that wants only some rows now (a cursor's FETCH, a portal
// run with a row limit) says so through Demander: a volatile projection
// or filter then evaluates no more input rows than that, keeping the rest
// for later, as PostgreSQL runs its plan only as far as the rows fetched.

// Demander is an operator that can be told how many rows its consumer
// wants from its next Next (0: no bound).
type Demander interface {
	Demand(rows int64)
}

// demandInput passes a demand on to in, when it takes one.
func demandInput(in Operator, rows int64) {
	if d, ok := in.(Demander); ok {
		d.Demand(rows)
	}
}

// rowsAhead is the input a volatile operator read but has not evaluated
// yet, because its consumer wanted fewer rows.
type rowsAhead struct {
	demand int64
	rest   arrow.RecordBatch
}

// next is the rest kept from before, else in's next batch, cut to the
// demand (volatile: the operator's expressions call something volatile).
func (r *rowsAhead) next(ctx context.Context, in Operator, volatile bool) (arrow.RecordBatch, error) {
	b := r.rest
	r.rest = nil
	if b == nil {
		var err error
		if b, err = in.Next(ctx); err != nil || b == nil {
			return b, err
		}
	}
	if volatile && r.demand > 0 && b.NumRows() > r.demand {
		r.rest = b.NewSlice(r.demand, b.NumRows())
		head := b.NewSlice(0, r.demand)
		b.Release()
		b = head
	}
	return b, nil
}

func (r *rowsAhead) release() {
	if r.rest != nil {
		r.rest.Release()
		r.rest = nil
	}
}

// sequenceMark marks the session's sequence journal before a volatile
// batch; end ends it.
func sequenceMark(ec *EvalContext) (mark int, end func()) {
	ctx := ec.Ctx
	if ctx == nil {
		return -1, func() {}
	}
	m, ok := functions.SequenceMark(ctx)
	if !ok {
		return -1, func() {}
	}
	return m, func() { functions.SequenceUnmark(ctx, m) }
}

// replayable reports whether a volatile batch that failed with err may be
// evaluated again a row at a time: the error is a row's, and what its
// calls drew since mark is taken back.
func replayable(ec *EvalContext, mark int, b arrow.RecordBatch, err error) bool {
	if mark < 0 || b.NumRows() < 2 || !rowLocal(err) {
		return false
	}
	return functions.RewindSequences(ec.Ctx, mark, -1, 0)
}

// replayRows evaluates o's expressions over b a row at a time: the
// rows before the first failing one, and its error (nil: none failed).
func (o *Project) replayRows(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	var outs []arrow.RecordBatch
	defer func() {
		for _, r := range outs {
			r.Release()
		}
	}()
	var failed error
	for i := range b.NumRows() {
		s := b.NewSlice(i, i+1)
		r, err := o.projectAll(s)
		s.Release()
		if err != nil {
			failed = err
			break
		}
		outs = append(outs, r)
	}
	if len(outs) == 0 {
		return nil, failed
	}
	out, err := concatBatches(o.EC.Mem, o.Out, outs)
	if err != nil {
		return nil, err
	}
	o.pending = failed
	return out, nil
}

// replayMask evaluates o's condition over b a row at a time: the mask of
// the rows before the first failing one, and its error.
func (o *Filter) replayMask(b arrow.RecordBatch) (int64, arrow.Array, error) {
	bld := array.NewBooleanBuilder(o.EC.Mem)
	defer bld.Release()
	var failed error
	for i := range b.NumRows() {
		s := b.NewSlice(i, i+1)
		m, err := o.Cond.Eval(o.EC, s)
		s.Release()
		if err != nil {
			failed = err
			break
		}
		if mb, ok := m.(*array.Boolean); ok && mb.IsValid(0) {
			bld.Append(mb.Value(0))
		} else {
			bld.AppendNull()
		}
		m.Release()
	}
	return int64(bld.Len()), bld.NewArray(), failed
}

// concatBatches joins batches of one schema into one.
func concatBatches(mem memory.Allocator, schema *arrow.Schema, bs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	var rows int64
	for _, b := range bs {
		rows += b.NumRows()
	}
	cols := make([]arrow.Array, schema.NumFields())
	for c := range cols {
		parts := make([]arrow.Array, len(bs))
		for i, b := range bs {
			parts[i] = b.Column(c)
		}
		a, err := array.Concatenate(parts, mem)
		if err != nil {
			for _, done := range cols[:c] {
				done.Release()
			}
			return nil, err
		}
		cols[c] = a
	}
	return ownedRecord(schema, cols, rows), nil
}

// RowFailer is a table that can say which row of the last batch written
// to it failed a constraint (-1: none known), so that a failed INSERT
// keeps the sequence calls of the rows up to it only.
type RowFailer interface {
	FailedRow() int
}
