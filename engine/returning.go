package engine

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/pgwire"
)

// returningColumns describes a RETURNING list to the client (nil: the
// statement returns no rows, and Describe answers NoData).
func returningColumns(r *binder.Returning) []pgwire.ResultColumn {
	if r == nil {
		return nil
	}
	cols := make([]pgwire.ResultColumn, len(r.Cols))
	for i, c := range r.Cols {
		cols[i] = pgwire.ResultColumn{Name: c.Name, Type: c.T, TableOID: tableOID(c.TableID), ColumnNumber: int16(c.Ordinal)}
	}
	return cols
}

// returned is where a write collects its RETURNING rows (nil without
// RETURNING; the exec operators then collect nothing).
func (ps *statement) returned() *exec.Returned {
	if ps.cols == nil {
		return nil
	}
	fields := make([]arrow.Field, len(ps.cols))
	for i, c := range ps.cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	return &exec.Returned{Schema: arrow.NewSchema(fields, nil)}
}

// writeResult is a write's result: its RETURNING rows, if any, then its
// command tag. The write has finished (and its rows are held by the
// transaction) before the first row is sent, as in PostgreSQL, whose
// RETURNING rows also come from the statement's own writes.
func writeResult(tag string, ret *exec.Returned) pgwire.Result {
	if ret == nil {
		return tagOnly(tag)
	}
	return &returnedResult{tag: tag, ret: ret}
}

type returnedResult struct {
	tag string
	ret *exec.Returned
}

func (r *returnedResult) Next(context.Context) (arrow.RecordBatch, error) {
	if len(r.ret.Batches) == 0 {
		return nil, nil
	}
	b := r.ret.Batches[0]
	r.ret.Batches = r.ret.Batches[1:]
	return b, nil
}

func (r *returnedResult) Tag() string { return r.tag }
func (r *returnedResult) Close()      { r.ret.Release() }
