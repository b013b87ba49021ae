package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TableScan reads a consistent snapshot of a table, decoding only the
// projected columns.
type TableScan struct {
	Table   fluss.Table
	Options fluss.ScanOptions
	Out     *arrow.Schema
	reader  fluss.RecordReader
}

func (o *TableScan) Schema() *arrow.Schema { return o.Out }
func (o *TableScan) Close() {
	if o.reader != nil {
		o.reader.Close()
		o.reader = nil
	}
}

func (o *TableScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.reader == nil {
		r, err := o.Table.Scan(ctx, o.Options)
		if err != nil {
			return nil, err
		}
		o.reader = r
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	b, err := o.reader.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	// The store names and types columns as the table does; re-label with
	// the blueprint's schema so downstream nodes see their own field names.
	out := array.NewRecordBatch(o.Out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}

// Lookup reads the rows of a primary-key table whose full key equals one of
// Keys (each a constant or parameter per key column), projected.
type Lookup struct {
	EC         *EvalContext
	Table      fluss.Table
	Keys       [][]Expr
	Projection []int
	Out        *arrow.Schema
	done       bool
}

func (o *Lookup) Schema() *arrow.Schema { return o.Out }
func (o *Lookup) Close()                {}
func (o *Lookup) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	info := o.Table.Info()
	full := info.ArrowSchema()
	var fields []arrow.Field
	for _, name := range info.Descriptor.Schema.PrimaryKey {
		fields = append(fields, full.Field(info.ColumnIndex(name)))
	}
	keySchema := arrow.NewSchema(fields, nil)
	bld := array.NewRecordBuilder(o.EC.Mem, keySchema)
	defer bld.Release()
	rows := 0
	for _, key := range o.Keys {
		vals := make([]any, len(key))
		null := false
		for i, e := range key {
			v, err := EvalScalar(o.EC, e)
			if err != nil {
				return nil, err
			}
			if v == nil {
				null = true // key = NULL matches nothing
			}
			vals[i] = v
		}
		if null {
			continue
		}
		for i, v := range vals {
			appendValue(bld.Field(i), v)
		}
		rows++
	}
	if rows == 0 {
		return nil, nil
	}
	keys := bld.NewRecordBatch()
	defer keys.Release()
	b, err := o.Table.Lookup(ctx, keys, o.Projection)
	if err != nil || b == nil {
		return nil, err
	}
	if b.NumRows() == 0 {
		b.Release()
		return nil, nil
	}
	out := array.NewRecordBatch(o.Out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}

// Insert writes every batch of Source into a table (Append for log tables,
// Upsert for primary-key tables) and returns the row count as its result.
type Insert struct {
	Table          fluss.Table
	Source         Operator
	IgnoreExisting bool
	Rows           int64
}

// Run drains Source into the table. Each batch is one durable write.
func (o *Insert) Run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := info.ArrowSchema()
	for {
		b, err := o.Source.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		rec := array.NewRecordBatch(schema, b.Columns(), b.NumRows())
		b.Release()
		var res fluss.WriteResult
		if info.HasPrimaryKey() {
			res, err = o.Table.Upsert(ctx, rec, fluss.UpsertOptions{IgnoreExisting: o.IgnoreExisting})
		} else {
			res, err = o.Table.Append(ctx, rec)
		}
		rec.Release()
		if err != nil {
			return err
		}
		o.Rows += res.Rows
	}
}

// cancelled maps a context error to 57014.
func cancelled(err error) error {
	if se := sqlerr.As(err); se != nil {
		return se
	}
	return sqlerr.Wrap(err, sqlerr.QueryCanceled, "canceling statement due to user request")
}

// Update upserts the new rows Source yields into a primary-key table. When
// KeyChanged, each batch also carries the old keys (after the table's
// columns): then every row is read first, the new keys are checked for
// collisions (23505, as PostgreSQL's unique primary key reports), all old
// keys are deleted and all new rows written — so that SET id = id + 1
// cannot clobber a row it has not moved yet.
type Update struct {
	EC         *EvalContext
	Table      fluss.Table
	Source     Operator
	KeyChanged bool
	Rows       int64
}

// Run drains Source into the table.
func (o *Update) Run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := info.ArrowSchema()
	ncols := len(schema.Fields())
	if !o.KeyChanged {
		for {
			b, err := o.Source.Next(ctx)
			if err != nil || b == nil {
				return err
			}
			rec := array.NewRecordBatch(schema, b.Columns()[:ncols], b.NumRows())
			b.Release()
			_, err = o.Table.Upsert(ctx, rec, fluss.UpsertOptions{})
			n := rec.NumRows()
			rec.Release()
			if err != nil {
				return err
			}
			o.Rows += n
		}
	}
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	for {
		b, err := o.Source.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		batches = append(batches, b)
	}
	if len(batches) == 0 {
		return nil
	}
	pk := info.Descriptor.Schema.PrimaryKey
	keyOf := func(b arrow.RecordBatch, row int, cols []int) string {
		var sb []byte
		for _, c := range cols {
			sb = fmt.Appendf(sb, "%v\x00", valueAt(b.Column(c), row))
		}
		return string(sb)
	}
	newKeyCols := make([]int, len(pk))
	oldKeyCols := make([]int, len(pk))
	for i, k := range pk {
		newKeyCols[i] = info.ColumnIndex(k)
		oldKeyCols[i] = ncols + i
	}
	oldKeys, newKeys := map[string]bool{}, map[string]bool{}
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			oldKeys[keyOf(b, r, oldKeyCols)] = true
		}
	}
	var fs []arrow.Field
	for _, c := range newKeyCols {
		fs = append(fs, schema.Field(c))
	}
	keySchema := arrow.NewSchema(fs, nil)
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			k := keyOf(b, r, newKeyCols)
			if newKeys[k] {
				return duplicateKey(info)
			}
			newKeys[k] = true
		}
		// A new key that exists and is not being moved away collides.
		cols := make([]arrow.Array, len(newKeyCols))
		for i, c := range newKeyCols {
			cols[i] = b.Column(c)
		}
		probe := array.NewRecordBatch(keySchema, cols, b.NumRows())
		found, err := o.Table.Lookup(ctx, probe, newKeyCols)
		probe.Release()
		if err != nil {
			return err
		}
		if found != nil {
			idx := make([]int, len(newKeyCols))
			for i := range idx {
				idx[i] = i
			}
			for r := 0; r < int(found.NumRows()); r++ {
				if !oldKeys[keyOf(found, r, idx)] {
					found.Release()
					return duplicateKey(info)
				}
			}
			found.Release()
		}
	}
	for _, b := range batches {
		keys := array.NewRecordBatch(keySchema, b.Columns()[ncols:], b.NumRows())
		_, err := o.Table.Delete(ctx, keys)
		keys.Release()
		if err != nil {
			return err
		}
	}
	for _, b := range batches {
		rec := array.NewRecordBatch(schema, b.Columns()[:ncols], b.NumRows())
		_, err := o.Table.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil {
			return err
		}
		o.Rows += b.NumRows()
	}
	return nil
}

func duplicateKey(info fluss.TableInfo) error {
	return sqlerr.New(sqlerr.UniqueViolation, "duplicate key value violates unique constraint %q", info.Path.Table+"_pkey")
}

// Delete deletes the keys Source yields from a primary-key table.
type Delete struct {
	Table  fluss.Table
	Source Operator
	Rows   int64
}

// Run drains Source into deletes, one durable write per batch.
func (o *Delete) Run(ctx context.Context) error {
	defer o.Source.Close()
	info := o.Table.Info()
	schema := info.ArrowSchema()
	var fs []arrow.Field
	for _, k := range info.Descriptor.Schema.PrimaryKey {
		fs = append(fs, schema.Field(info.ColumnIndex(k)))
	}
	keySchema := arrow.NewSchema(fs, nil)
	for {
		b, err := o.Source.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		keys := array.NewRecordBatch(keySchema, b.Columns(), b.NumRows())
		b.Release()
		res, err := o.Table.Delete(ctx, keys)
		keys.Release()
		if err != nil {
			return err
		}
		o.Rows += res.Rows
	}
}
