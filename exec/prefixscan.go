package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// PrefixScan reads the rows of a primary-key table whose bucket-key columns
// equal one of Keys (each a constant or parameter per bucket-key column),
// projected: a prefix lookup. A table that cannot look up by prefix is
// scanned whole; the plan keeps its filter above this node, so either way
// the query's rows are the same.
type PrefixScan struct {
	EC      *EvalContext
	Table   fluss.Table
	Keys    [][]Expr
	Options fluss.ScanOptions
	Out     *arrow.Schema
	// KeySchema is the bucket-key columns' schema (BucketKeySchemaOf).
	KeySchema *arrow.Schema
	reader    fluss.RecordReader
	done      bool
}

// BucketKeySchemaOf is the schema of a table's bucket-key columns, in
// bucket-key order: what PrefixScan sends the table.
func BucketKeySchemaOf(info fluss.TableInfo) *arrow.Schema {
	full := info.ArrowSchema()
	var fields []arrow.Field
	for _, name := range info.Descriptor.BucketKey {
		fields = append(fields, full.Field(info.ColumnIndex(name)))
	}
	return arrow.NewSchema(fields, nil)
}

func (o *PrefixScan) Schema() *arrow.Schema { return o.Out }

func (o *PrefixScan) Close() {
	if o.reader != nil {
		o.reader.Close()
		o.reader = nil
	}
}

func (o *PrefixScan) open(ctx context.Context) error {
	ps, ok := o.Table.(fluss.PrefixScanner)
	if !ok {
		r, err := o.Table.Scan(ctx, o.Options)
		o.reader = r
		return err
	}
	bld := array.NewRecordBuilder(o.EC.Mem, o.KeySchema)
	defer bld.Release()
	rows := 0
	for _, key := range o.Keys {
		vals := make([]any, len(key))
		null := false
		for i, e := range key {
			v, err := EvalScalar(o.EC, e)
			if err != nil {
				return err
			}
			vals[i] = v
			null = null || v == nil // key = NULL matches nothing
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
		o.done = true
		return nil
	}
	keys := bld.NewRecordBatch()
	defer keys.Release()
	r, err := ps.ScanPrefix(ctx, keys, o.Options)
	o.reader = r
	return err
}

func (o *PrefixScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	if o.reader == nil {
		if err := o.open(ctx); err != nil || o.done {
			return nil, err
		}
	}
	b, err := o.reader.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	out := array.NewRecordBatch(o.Out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}
