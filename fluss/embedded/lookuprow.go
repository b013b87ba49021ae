package embedded

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

var _ fluss.RowLookuper = (*tableHandle)(nil)

// LookupRow implements fluss.RowLookuper: Lookup's one-key path (a seek of a
// cached iterator, itercache.go), with the row decoded into the caller's
// builders instead of a one-row record, so that a caller that keeps its
// builders allocates nothing per lookup here.
func (h *tableHandle) LookupRow(ctx context.Context, keys arrow.RecordBatch, i int, dst []array.Builder) (bool, error) {
	if err := h.requirePK("look up rows of"); err != nil {
		return false, err
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	t := h.t
	if len(dst) != len(t.colTypes) {
		return false, sqlerr.New(sqlerr.InvalidParameterValue, "a row of \"%s\" has %d columns but %d builders were given", t.info.Path.Table, len(t.colTypes), len(dst))
	}
	for f, b := range dst {
		if b != nil && !sameType(b.Type(), t.schema.Field(f).Type) {
			return false, sqlerr.New(sqlerr.DatatypeMismatch, "column %d of \"%s\" has Arrow type %s but its builder has %s", f, t.info.Path.Table, t.schema.Field(f).Type, b.Type())
		}
	}
	if i < 0 || int64(i) >= keys.NumRows() {
		return false, sqlerr.New(sqlerr.InvalidParameterValue, "key row %d is out of range (%d keys)", i, keys.NumRows())
	}
	plan, err := projectionFor(t, nil)
	if err != nil {
		return false, err
	}
	conv, err := h.keyRecord(keys)
	if err != nil {
		return false, err
	}
	defer conv.Release()
	var keyBuf [64]byte
	key, err := encodeOneKey(t, conv, i, keyBuf[:0])
	if err != nil {
		return false, err
	}
	v, found, r, err := h.s.readPoint(key)
	defer r.done()
	if err != nil {
		return false, ioErr(err, "looking up %s", t.info.Path)
	}
	if !found {
		return false, nil
	}
	dec, _ := plan.decs.Get().(*format.RowDecoder)
	if dec == nil {
		dec = format.NewRowDecoder(t.colTypes)
	}
	row, derr := t.storedRow(v)
	if derr == nil {
		dec.Bind(dst)
		_, derr = dec.Decode(row)
	}
	dec.Bind(plan.none)
	plan.decs.Put(dec)
	if derr != nil {
		return false, corrupt("stored row of %s is unreadable: %v", t.info.Path, derr)
	}
	return true, nil
}
