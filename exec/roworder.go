package exec

import (
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
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
