package remote

import (
	"context"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// replayBucket reads the current rows of a primary-key table's bucket that
// is too large for one LimitScan (maxScanRowsPerBucket) from its changelog:
// every change from the log's first offset up to the high watermark, the
// last +I/+U of each key kept and a -D forgetting it, which is the state
// the tablet server's KV store holds at that offset. Fluss 0.9.1 offers no
// server-side KV scan, and its other full read, a KV snapshot, is RocksDB
// files in remote storage; its own clients replay the changelog after the
// snapshot the same way. The replay is complete only while the log still
// starts at offset 0 (table.log.ttl, 7 days by default, deletes old
// segments): otherwise it fails with 0A000 rather than return part of the
// table. Segments tiered to remote storage are still the log: FetchLog
// reads them (remotelog.go). The projected columns of the
// bucket's rows are returned in primary-key byte order. The decoded changes
// stay in memory until the replay ends: it costs the bucket's changelog,
// not only its current rows.
func (t *table) replayBucket(ctx context.Context, b int32, d *rowDecoder) (arrow.RecordBatch, error) {
	ends, err := t.s.c.ListOffsets(ctx, t.tab, []int32{b}, OffsetLatest, 0)
	if err != nil {
		return nil, t.s.noteTableErr(err, t.info.Path)
	}
	return t.replayBucketTo(ctx, b, d, ends[0], func(start int64) error {
		return sqlerr.New(sqlerr.FeatureNotSupported,
			"a full scan of primary-key table \"%s\" with %d or more rows in bucket %d is not supported once its changelog no longer starts at offset 0 (it starts at %d): Fluss 0.9.1 has no server-side KV scan",
			t.info.Path.Table, t.s.scanRowsPerBucket(), b, start).
			WithHint("Look rows up by primary key or bucket-key prefix.")
	})
}

// replayBucketTo is the replay of bucket b's changelog up to offset end
// (exclusive): the bucket's rows as they were when its log ended there.
// refuse is the error when the log no longer starts at offset 0.
func (t *table) replayBucketTo(ctx context.Context, b int32, d *rowDecoder, end int64, refuse func(start int64) error) (arrow.RecordBatch, error) {
	if end > 0 {
		starts, err := t.s.c.ListOffsets(ctx, t.tab, []int32{b}, OffsetEarliest, 0)
		if err != nil {
			return nil, t.s.noteTableErr(err, t.info.Path)
		}
		if starts[0] != 0 {
			return nil, refuse(starts[0])
		}
	}
	type ref struct {
		rec arrow.RecordBatch
		row int
	}
	state := map[string]ref{}
	var recs []arrow.RecordBatch
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	dec := t.logDecoders()
	pkTs := t.typesOf(t.pk)
	var key []byte
	for off := int64(0); off < end; {
		res, err := t.s.c.FetchLog(ctx, t.tab, b, off, fetchMaxBytes, nil)
		if err != nil {
			return nil, t.s.noteTableErr(err, t.info.Path)
		}
		batches, next, err := cutBatches(res.Records)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "FetchLog of %s bucket %d: %v", t.info.Path, b, err)
		}
		if len(batches) == 0 || next <= off {
			return nil, sqlerr.New(sqlerr.DataCorrupted, "FetchLog of %s bucket %d at offset %d did not advance", t.info.Path, b, off)
		}
		off = next
		for _, raw := range batches {
			h, err := format.ParseHeader(raw)
			if err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", t.info.Path, err)
			}
			if h.RecordCount == 0 || h.BaseOffset >= end {
				continue
			}
			bt, err := dec.decodeBatch(raw, h) // older schemas' rows widened
			if err != nil {
				return nil, err
			}
			recs = append(recs, bt.Record)
			cols := colsOf(bt.Record, t.pk)
			n := min(int(bt.Record.NumRows()), int(end-h.BaseOffset))
			for i := 0; i < n; i++ {
				ct := format.Insert
				if bt.Changes != nil {
					ct = bt.Changes[i]
				}
				if ct == format.UpdateBefore {
					continue // the +U that follows carries the new row
				}
				if key, err = format.AppendKey(key[:0], pkTs, cols, i); err != nil {
					return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "changelog of %s: %v", t.info.Path, err)
				}
				if ct == format.Delete {
					delete(state, string(key))
				} else {
					state[string(key)] = ref{bt.Record, i}
				}
			}
		}
	}
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bs := make([]array.Builder, len(d.proj))
	cols := make([]arrow.Array, len(d.proj))
	defer func() {
		for i := range bs {
			bs[i].Release()
			if cols[i] != nil {
				cols[i].Release()
			}
		}
	}()
	for i, f := range d.schema.Fields() {
		bs[i] = array.NewBuilder(memory.DefaultAllocator, f.Type)
	}
	for _, k := range keys {
		r := state[k]
		for i, p := range d.proj {
			if err := format.AppendFrom(bs[i], r.rec.Column(p), r.row); err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "copying a row of %s: %v", t.info.Path, err)
			}
		}
	}
	for i := range bs {
		cols[i] = bs[i].NewArray()
	}
	return array.NewRecordBatch(d.schema, cols, int64(len(keys))), nil
}

func (s *Store) scanRowsPerBucket() int {
	if s.scanRows > 0 {
		return s.scanRows
	}
	return maxScanRowsPerBucket
}
