package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// Returned collects the RETURNING rows of a write (Insert, Update,
// Delete) as batches of Schema, in the order the rows were written.
type Returned struct {
	Schema  *arrow.Schema
	Batches []arrow.RecordBatch
}

// add appends the columns cols of n rows.
func (r *Returned) add(cols []arrow.Array, n int64) {
	if n == 0 {
		return
	}
	r.Batches = append(r.Batches, array.NewRecordBatch(r.Schema, cols, n))
}

// addFrom appends b's columns from at on, as many as r's schema has (a
// write's RETURNING values among its source's columns).
func (r *Returned) addFrom(b arrow.RecordBatch, at int) {
	r.add(b.Columns()[at:at+r.Schema.NumFields()], b.NumRows())
}

// Release drops the batches not handed out.
func (r *Returned) Release() {
	if r == nil {
		return
	}
	for _, b := range r.Batches {
		b.Release()
	}
	r.Batches = nil
}

// rowKey is a row's value of columns cols, as a map key: equal keys give
// equal strings as the store's key encoding makes them (format.AppendKey),
// so a float's -0 is 0 and every NaN one NaN (float8eq).
func rowKey(b arrow.RecordBatch, row int, cols []int) string {
	var sb []byte
	for _, c := range cols {
		v := valueAt(b.Column(c), row)
		switch f := v.(type) {
		case float64:
			if f == 0 {
				v = float64(0)
			}
		case float32:
			if f == 0 {
				v = float32(0)
			}
		}
		sb = fmt.Appendf(sb, "%v\x00", v)
	}
	return string(sb)
}

// firstPerKey keeps the rows of b whose key (columns cols) no earlier row
// had, marking them in seen: UPDATE ... FROM and DELETE ... USING write a
// target row once however many rows of the other tables it matched, as
// PostgreSQL does.
func firstPerKey(ec *EvalContext, b arrow.RecordBatch, cols []int, seen map[string]bool) (arrow.RecordBatch, error) {
	keep := make([]int32, 0, b.NumRows())
	for r := 0; r < int(b.NumRows()); r++ {
		k := rowKey(b, r, cols)
		if seen[k] {
			continue
		}
		seen[k] = true
		keep = append(keep, int32(r))
	}
	return takeRows(ec, b, keep)
}

// absentRows returns the rows of rec an ON CONFLICT DO NOTHING upsert
// writes: those whose key the table does not hold and no earlier row of
// the statement proposed (seen), which is what the table's Upsert with
// IgnoreExisting keeps.
func absentRows(ctx context.Context, ec *EvalContext, t fluss.Table, rec arrow.RecordBatch, seen map[string]bool) (arrow.RecordBatch, error) {
	keep, _, err := absentIndexes(ctx, t, rec, seen)
	if err != nil {
		return nil, err
	}
	return takeRows(ec, rec, keep)
}

// absentIndexes are the rows of rec (ascending) whose key t does not hold
// and seen does not, marked in seen; and the key's columns in rec.
func absentIndexes(ctx context.Context, t fluss.Table, rec arrow.RecordBatch, seen map[string]bool) ([]int32, []int, error) {
	info := t.Info()
	schema := info.ArrowSchema()
	var keyCols []int
	var keyFields []arrow.Field
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		i := info.ColumnIndex(k)
		keyCols = append(keyCols, i)
		keyFields = append(keyFields, schema.Field(i))
	}
	keyArrs := make([]arrow.Array, len(keyCols))
	for i, c := range keyCols {
		keyArrs[i] = rec.Column(c)
	}
	keys := array.NewRecordBatch(arrow.NewSchema(keyFields, nil), keyArrs, rec.NumRows())
	found, err := t.Lookup(ctx, keys, keyCols)
	keys.Release()
	if err != nil {
		return nil, nil, err
	}
	exists := map[string]bool{}
	if found != nil {
		idx := make([]int, len(keyCols))
		for i := range idx {
			idx[i] = i
		}
		for r := 0; r < int(found.NumRows()); r++ {
			exists[rowKey(found, r, idx)] = true
		}
		found.Release()
	}
	keep := make([]int32, 0, rec.NumRows())
	for r := 0; r < int(rec.NumRows()); r++ {
		k := rowKey(rec, r, keyCols)
		if exists[k] || seen[k] {
			continue
		}
		seen[k] = true
		keep = append(keep, int32(r))
	}
	return keep, keyCols, nil
}

// evalReturning evaluates exprs over rec's rows into ret.
func evalReturning(ec *EvalContext, exprs []Expr, rec arrow.RecordBatch, ret *Returned) error {
	if rec.NumRows() == 0 {
		return nil
	}
	cols := make([]arrow.Array, len(exprs))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, e := range exprs {
		var err error
		if cols[i], err = e.Eval(ec, rec); err != nil {
			return err
		}
	}
	ret.add(cols, rec.NumRows())
	return nil
}
