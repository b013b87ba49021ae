package embedded

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ScanPrefix implements fluss.PrefixScanner: the current rows of a
// primary-key table whose bucket-key columns equal one of keys' rows, read
// from one pebble snapshot.
//
// A bucket key's rows all live in one bucket, so each key reads only its
// bucket's key range ('d' table bucket ...). When the bucket-key columns
// are the leading primary-key columns, in order, the range narrows to the
// rows whose stored key starts with the bucket key's encoding: the
// compacted key encoding writes the key columns one after another, each
// self-delimiting, so a stored key starts with those bytes exactly when its
// leading columns have those values. Otherwise the bucket's rows are read
// and those whose bucket-key fields differ are skipped before decoding.
func (h *tableHandle) ScanPrefix(ctx context.Context, keys arrow.RecordBatch, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return h.scanPrefixIn(ctx, keys, opts, nil)
}

// scanPrefixIn is ScanPrefix, reading held (a transaction's snapshot) when
// not nil.
func (h *tableHandle) scanPrefixIn(ctx context.Context, keys arrow.RecordBatch, opts fluss.ScanOptions, held *readView) (fluss.RecordReader, error) {
	if err := h.requirePK("prefix-scan"); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	t := h.t
	if opts.Limit < 0 {
		return nil, sqlerr.New(sqlerr.InvalidRowCountInLimitClause, "LIMIT must not be negative")
	}
	plan, err := projectionFor(t, opts.Projection)
	if err != nil {
		return nil, err
	}
	conv, err := h.bucketKeyRecord(keys)
	if err != nil {
		return nil, err
	}
	defer conv.Release()
	ranges, err := prefixRanges(t, conv)
	if err != nil {
		return nil, err
	}
	batchRows := opts.BatchRows
	if batchRows <= 0 {
		batchRows = h.s.opts.BatchRows
	}
	snap := held
	if snap == nil {
		snap = h.s.iters.view()
	}
	t.mu.RLock()
	dropped := t.dropped
	t.mu.RUnlock()
	if dropped {
		if held == nil {
			snap.Close()
		}
		return nil, undefinedTable(t.info.Path)
	}
	return &prefixScan{t: t, schema: plan.schema, pos: plan.pos, snap: snap, held: held != nil, ranges: ranges, batchRows: batchRows,
		left: opts.Limit, dec: format.NewRowDecoder(t.colTypes)}, nil
}

// bucketKeyLeads reports whether the bucket-key columns are the first
// primary-key columns in key order.
func bucketKeyLeads(t *tableState) bool {
	for i, p := range t.bkInPK {
		if p != i {
			return false
		}
	}
	return true
}

// prefixRange is one pebble range to read: one bucket key's prefix or,
// when the bucket key does not lead the primary key, a whole bucket with
// the encodings its rows' bucket-key fields must have (every key of the
// bucket, so that a bucket is read once however many keys share it).
type prefixRange struct {
	lower, upper []byte
	bks          map[string]bool // nil: every row of the range matches
}

// prefixRanges returns the ranges of keys' distinct rows, in the order
// given; a key with a NULL column matches nothing and has none.
func prefixRanges(t *tableState, keys arrow.RecordBatch) ([]prefixRange, error) {
	leading := bucketKeyLeads(t)
	seen := map[string]bool{}
	byBucket := map[int]int{} // bucket -> its range (keys that do not lead)
	var out []prefixRange
	for i := 0; i < int(keys.NumRows()); i++ {
		null := false
		for _, c := range keys.Columns() {
			null = null || c.IsNull(i)
		}
		if null {
			continue
		}
		bk, err := format.AppendKey(nil, t.bkTypes, keys.Columns(), i)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InvalidParameterValue, "bucket key of \"%s\": %v", t.info.Path.Table, err)
		}
		if seen[string(bk)] {
			continue
		}
		seen[string(bk)] = true
		bucket := format.BucketOf(bk, len(t.buckets))
		lower := bucketKey(prefixData, t.info.TableID, bucket)
		if leading {
			lower = append(lower, bk...)
			out = append(out, prefixRange{lower: lower, upper: prefixEnd(lower)})
			continue
		}
		if at, ok := byBucket[bucket]; ok {
			out[at].bks[string(bk)] = true
			continue
		}
		byBucket[bucket] = len(out)
		out = append(out, prefixRange{lower: lower, upper: prefixEnd(lower), bks: map[string]bool{string(bk): true}})
	}
	return out, nil
}

// bucketKeyRecord checks that keys carries the bucket-key columns,
// converting representation-only differences as writes do.
func (h *tableHandle) bucketKeyRecord(keys arrow.RecordBatch) (arrow.RecordBatch, error) {
	t := h.t
	bk := t.info.Descriptor.BucketKey
	if int(keys.NumCols()) != len(bk) {
		return nil, sqlerr.New(sqlerr.InvalidColumnReference, "the bucket key of \"%s\" has %d columns but %d key columns were given", t.info.Path.Table, len(bk), keys.NumCols())
	}
	exact := true
	for i, c := range keys.Columns() {
		exact = exact && sameType(c.DataType(), t.schema.Field(t.bkIdx[i]).Type)
	}
	if exact {
		keys.Retain()
		return keys, nil
	}
	var info fluss.TableInfo
	info.Path = t.info.Path
	fields := make([]arrow.Field, len(bk))
	for i, c := range t.bkIdx {
		col := t.info.Descriptor.Schema.Columns[c]
		col.Type = col.Type.Nullable() // a NULL key matches nothing; it is not an error
		info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, col)
		fields[i] = arrow.Field{Name: bk[i], Type: keys.Column(i).DataType(), Nullable: true}
	}
	renamed := array.NewRecordBatch(arrow.NewSchema(fields, nil), keys.Columns(), keys.NumRows())
	defer renamed.Release()
	return fluss.ValidateRecord(info, renamed)
}

// prefixScan reads the rows of a list of key ranges from one snapshot.
type prefixScan struct {
	t         *tableState
	schema    *arrow.Schema
	pos       []int
	snap      *readView
	held      bool // snap is a transaction's, closed by it
	it        *pebble.Iterator
	ranges    []prefixRange
	batchRows int
	left      int64 // rows still allowed by the limit; 0 = unlimited
	done      bool
	dec       *format.RowDecoder
	fields    [][]byte
	bk        []byte

	// visited counts the stored rows the scan stepped over (matching or
	// not): what the access path costs, checked by tests.
	visited int64
}

func (s *prefixScan) Schema() *arrow.Schema { return s.schema }

// nextRange positions the iterator on the next range; false at the end.
func (s *prefixScan) nextRange() (bool, error) {
	if s.it != nil {
		if err := s.it.Close(); err != nil {
			s.it = nil
			return false, ioErr(err, "scanning %s", s.t.info.Path)
		}
		s.it = nil
		s.ranges = s.ranges[1:]
	}
	if len(s.ranges) == 0 {
		return false, nil
	}
	r := s.ranges[0]
	it, err := s.snap.NewIter(&pebble.IterOptions{LowerBound: r.lower, UpperBound: r.upper})
	if err != nil {
		return false, ioErr(err, "scanning %s", s.t.info.Path)
	}
	s.it = it
	it.First()
	return true, nil
}

// matches reports whether the row at the iterator has one of the current
// range's bucket keys (always, for a range narrowed to the key's prefix).
func (s *prefixScan) matches() (bool, error) {
	bks := s.ranges[0].bks
	if bks == nil {
		return true, nil
	}
	key := s.it.Key()[dataKeyPrefix:]
	var err error
	if s.fields, err = splitKey(s.t, key, s.fields[:0]); err != nil {
		return false, corrupt("stored key of %s is unreadable: %v", s.t.info.Path, err)
	}
	s.bk = s.bk[:0]
	for _, p := range s.t.bkInPK {
		s.bk = append(s.bk, s.fields[p]...)
	}
	return bks[string(s.bk)], nil
}

// splitKey appends each primary-key field's encoding in key to dst.
func splitKey(t *tableState, key []byte, dst [][]byte) ([][]byte, error) {
	pos := 0
	for _, kt := range t.pkTypes {
		n, err := format.DecodeValue(key[pos:], kt, nil)
		if err != nil {
			return nil, err
		}
		dst = append(dst, key[pos:pos+n])
		pos += n
	}
	return dst, nil
}

func (s *prefixScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	want := s.batchRows
	if s.left > 0 && int64(want) > s.left {
		want = int(s.left)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s.schema)
	defer rb.Release()
	s.dec.Bind(decodeTargets(rb, s.pos))
	n := 0
	for n < want {
		if s.it == nil || !s.it.Valid() {
			if s.it != nil {
				if err := s.it.Error(); err != nil {
					return nil, ioErr(err, "scanning %s", s.t.info.Path)
				}
			}
			more, err := s.nextRange()
			if err != nil {
				return nil, err
			}
			if !more {
				break
			}
			continue
		}
		s.visited++
		ok, err := s.matches()
		if err != nil {
			return nil, err
		}
		if ok {
			row, err := s.t.storedRow(s.it.Value())
			if err == nil {
				_, err = s.dec.Decode(row)
			}
			if err != nil {
				return nil, corrupt("stored row of %s is unreadable: %v", s.t.info.Path, err)
			}
			n++
		}
		s.it.Next()
	}
	if s.left > 0 {
		s.left -= int64(n)
		if s.left == 0 {
			s.done = true
		}
	}
	if n == 0 {
		s.done = true
		return nil, nil
	}
	return buildRecord(rb, s.schema, n), nil
}

func (s *prefixScan) Close() {
	if s.it != nil {
		_ = s.it.Close()
		s.it = nil
	}
	if s.snap != nil {
		if !s.held {
			_ = s.snap.Close()
		}
		s.snap = nil
	}
}

var _ fluss.PrefixScanner = (*tableHandle)(nil)
