package fileio

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// Exporter shapes a query's batches for a Parquet or Arrow file. Columns
// of the types Fluss stores (and so Parquet and Arrow readers know) keep
// their Arrow types; the others (interval, time with time zone, numeric
// without a precision, oid and the reg* types, PostgreSQL's vectors) have
// sqlgate-internal representations no other reader could decode, so they
// are written as their PostgreSQL text.
type Exporter struct {
	cols []Column
	text []bool
	out  *arrow.Schema
	loc  *time.Location
	mem  memory.Allocator
}

// NewExporter prepares the columns' output schema; loc renders zoned values.
func NewExporter(cols []Column, loc *time.Location, mem memory.Allocator) *Exporter {
	e := &Exporter{cols: cols, text: make([]bool, len(cols)), loc: loc, mem: mem}
	fs := make([]arrow.Field, len(cols))
	for i, c := range cols {
		t := c.Type.ArrowType()
		if !Portable(c.Type) {
			e.text[i] = true
			t = arrow.BinaryTypes.String
		}
		fs[i] = arrow.Field{Name: c.Name, Type: t, Nullable: !c.Type.NotNull}
	}
	e.out = arrow.NewSchema(fs, nil)
	return e
}

// Portable reports whether t's Arrow type means the same to other readers.
func Portable(t types.T) bool {
	if t.Variant.IsReg() || t.Variant.IsVector() || t.Variant.IsRecord() {
		return false
	}
	switch t.Kind {
	case types.Interval, types.TimeTZ, types.Oid:
		return false
	case types.Decimal:
		return t.Precision > 0
	case types.Array:
		return Portable(*t.Elem)
	case types.Map:
		return Portable(*t.Key) && Portable(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if !Portable(f.Type) {
				return false
			}
		}
	}
	return true
}

// Schema is the file's schema.
func (e *Exporter) Schema() *arrow.Schema { return e.out }

// Apply returns rec in the file's schema (a new reference).
func (e *Exporter) Apply(rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, len(e.cols))
	for i := range e.cols {
		if !e.text[i] {
			cols[i] = rec.Column(i)
			cols[i].Retain()
			continue
		}
		b := array.NewStringBuilder(e.mem)
		a := rec.Column(i)
		for r := 0; r < a.Len(); r++ {
			v := types.ValueAt(a, r)
			if v == nil {
				b.AppendNull()
				continue
			}
			b.Append(types.FormatTextIn(v, e.cols[i].Type, e.loc))
		}
		cols[i] = b.NewArray()
		b.Release()
	}
	out := array.NewRecordBatch(e.out, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return out
}
