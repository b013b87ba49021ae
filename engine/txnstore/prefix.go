package txnstore

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ScanPrefix implements fluss.PrefixScanner within a transaction, as Scan
// does: the store's rows of the bucket keys whose keys are not pending,
// then the pending rows of those bucket keys, so that a prefix lookup sees
// the transaction's own upserts and deletes.
func (pt *Table) ScanPrefix(ctx context.Context, keys arrow.RecordBatch, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	ps, ok := pt.base.(fluss.PrefixScanner)
	if !ok {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "prefix lookups on table \"%s\" are not supported", pt.info.Path.Table)
	}
	if !pt.info.HasPrimaryKey() {
		return ps.ScanPrefix(ctx, keys, opts) // the store's error
	}
	bkIdx := make([]int, len(pt.info.Descriptor.BucketKey))
	bkTypes := make([]types.T, len(bkIdx))
	for i, n := range pt.info.Descriptor.BucketKey {
		bkIdx[i] = pt.info.ColumnIndex(n)
		bkTypes[i] = pt.info.Descriptor.Schema.Columns[bkIdx[i]].Type
	}
	if int(keys.NumCols()) != len(bkIdx) {
		return nil, sqlerr.New(sqlerr.InvalidColumnReference, "the bucket key of \"%s\" has %d columns but %d key columns were given", pt.info.Path.Table, len(bkIdx), keys.NumCols())
	}
	// The bucket keys asked for, by their key encoding; the pending rows
	// are full rows of the table, so theirs encode the same way.
	want := map[string]bool{}
	var buf []byte
	for i := 0; i < int(keys.NumRows()); i++ {
		b, err := format.AppendKey(buf[:0], bkTypes, keys.Columns(), i)
		if err != nil {
			continue // a NULL matches nothing
		}
		buf = b
		want[string(b)] = true
	}
	cols := make([]arrow.Array, len(bkIdx))
	keep := func(s slot) bool {
		for i, c := range bkIdx {
			cols[i] = s.rec.rec.Column(c)
		}
		b, err := format.AppendKey(buf[:0], bkTypes, cols, s.row)
		buf = b
		return err == nil && want[string(b)]
	}
	return pt.scan(ctx, opts, keep, func(ctx context.Context, o fluss.ScanOptions) (fluss.RecordReader, error) {
		return ps.ScanPrefix(ctx, keys, o)
	})
}

var _ fluss.PrefixScanner = (*Table)(nil)
