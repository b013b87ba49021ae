package arrowrec

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Record is an arrow.RecordBatch over a fixed list of columns. The zero
// value is not usable: Init it.
type Record struct {
	refs   atomic.Int64
	schema *arrow.Schema
	rows   int64
	cols   []arrow.Array
	// kept: the columns outlive the last Release (InitKept).
	kept bool
}

// Init makes r a record of schema whose columns are cols, each rows long,
// holding one reference (the caller's). r takes over the caller's reference
// to every column and releases them with its last reference; cols is kept,
// not copied. The columns must match schema: Init does not check them, as
// arrow's NewRecordBatch does, since its callers build both together.
func (r *Record) Init(schema *arrow.Schema, cols []arrow.Array, rows int64) {
	r.schema, r.cols, r.rows = schema, cols, rows
	r.refs.Store(1)
}

// InitKept makes r a record like Init, except that its columns stay with
// r's owner: the last Release leaves them alone, the record is then free,
// and Claim hands it out again with one reference. Its owner rewrites the
// columns' memory between a Claim and handing the record out, so whoever
// receives it must keep nothing of it (no column, no value) past its
// Release. The record starts free.
func (r *Record) InitKept(schema *arrow.Schema, cols []arrow.Array, rows int64) {
	r.schema, r.cols, r.rows, r.kept = schema, cols, rows, true
}

// Claim takes a free kept record (InitKept): it returns true, and r holds
// one reference, when nobody held r.
func (r *Record) Claim() bool { return r.kept && r.refs.CompareAndSwap(0, 1) }

// ReplaceColumn replaces column i of a claimed kept record (its owner grew the
// column), releasing the column it held.
func (r *Record) ReplaceColumn(i int, col arrow.Array) {
	r.cols[i].Release()
	r.cols[i] = col
}

func (r *Record) Retain() { r.refs.Add(1) }

func (r *Record) Release() {
	if r.refs.Add(-1) == 0 && !r.kept {
		for _, c := range r.cols {
			c.Release()
		}
	}
}

func (r *Record) Schema() *arrow.Schema    { return r.schema }
func (r *Record) NumRows() int64           { return r.rows }
func (r *Record) NumCols() int64           { return int64(len(r.cols)) }
func (r *Record) Columns() []arrow.Array   { return r.cols }
func (r *Record) Column(i int) arrow.Array { return r.cols[i] }
func (r *Record) ColumnName(i int) string  { return r.schema.Field(i).Name }

// The methods no lookup calls go through arrow's own record.

func (r *Record) MarshalJSON() ([]byte, error) {
	rec := r.record()
	defer rec.Release()
	return rec.MarshalJSON()
}

func (r *Record) SetColumn(i int, col arrow.Array) (arrow.RecordBatch, error) {
	rec := r.record()
	defer rec.Release()
	return rec.SetColumn(i, col)
}

func (r *Record) NewSlice(i, j int64) arrow.RecordBatch {
	rec := r.record()
	defer rec.Release()
	return rec.NewSlice(i, j)
}

// record is r as arrow's own record (which retains the columns).
func (r *Record) record() arrow.RecordBatch {
	return array.NewRecordBatch(r.schema, r.cols, r.rows)
}

var _ arrow.RecordBatch = (*Record)(nil)
