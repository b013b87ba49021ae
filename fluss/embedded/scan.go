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

// Scan implements fluss.Table. A log table's scan reads each bucket log up
// to the committed length captured when the scan starts (one lock for all
// buckets, so a write call is seen whole or not at all); a primary-key
// table's scan iterates a pebble snapshot of the current state.
func (h *tableHandle) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	return h.scanIn(ctx, opts, nil)
}

// scanIn is Scan, reading ss (a transaction's held snapshot) when not nil.
func (h *tableHandle) scanIn(ctx context.Context, opts fluss.ScanOptions, ss *storeSnapshot) (fluss.RecordReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := h.checkLive(); err != nil {
		return nil, err
	}
	t := h.t
	plan, err := projectionFor(t, opts.Projection)
	if err != nil {
		return nil, err
	}
	schema, pos := plan.schema, plan.pos
	batchRows := opts.BatchRows
	if batchRows <= 0 {
		batchRows = h.s.opts.BatchRows
	}
	if opts.Limit < 0 {
		return nil, sqlerr.New(sqlerr.InvalidRowCountInLimitClause, "LIMIT must not be negative")
	}
	if t.info.HasPrimaryKey() {
		var snap *readView
		if ss != nil {
			snap = ss.snap
		} else {
			snap = h.s.iters.view()
		}
		// closeSnap closes a snapshot of the scan's own, not a held one.
		closeSnap := func() {
			if ss == nil {
				snap.Close()
			}
		}
		t.mu.RLock()
		dropped := t.dropped
		t.mu.RUnlock()
		if dropped {
			closeSnap()
			return nil, undefinedTable(t.info.Path)
		}
		if r := h.columnarRead(ctx, opts, plan, snap, batchRows); r != nil {
			if r.delta == nil {
				closeSnap()
			} else if ss == nil {
				r.release = closeSnap // the merge reads the snapshot
			}
			return r, nil
		}
		p := tablePrefix(prefixData, t.info.TableID)
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
		if err != nil {
			closeSnap()
			return nil, ioErr(err, "scanning %s", t.info.Path)
		}
		it.First()
		return &stateScan{t: t, schema: schema, pos: pos, snap: snap, held: ss != nil, it: it, batchRows: batchRows, left: opts.Limit,
			dec: format.NewRowDecoder(t.colTypes), unshrink: h.s.bulkRead(h, opts)}, nil
	}
	t.mu.RLock()
	if t.dropped {
		t.mu.RUnlock()
		return nil, undefinedTable(t.info.Path)
	}
	limits := make([]int64, len(t.buckets))
	for i, b := range t.buckets {
		limits[i] = b.committed
	}
	t.mu.RUnlock()
	if ss != nil {
		limits = ss.logLimits(t)
	}
	proj := opts.Projection
	if proj == nil {
		proj = make([]int, len(t.colTypes))
		for i := range proj {
			proj[i] = i
		}
	}
	scan := &logScan{t: t, schema: schema, proj: proj, limits: limits, batchRows: batchRows, left: opts.Limit}
	// A scan of every column takes the projected path too: from a mapping it
	// builds the arrays in place without checking the CRC again (checked
	// once per batch and process: doc.go), where a whole read would hash
	// every byte on every scan. Without a mapping only a projection that
	// leaves columns out saves a read (partial).
	if plan, ok := t.decoder.NewProjectionPlan(proj, schema); ok {
		scan.plan = plan
		scan.partial = len(proj) < len(t.colTypes)
	}
	return scan, nil
}

// stateScan reads a primary-key table's current state.
type stateScan struct {
	t         *tableState
	schema    *arrow.Schema
	pos       []int
	snap      *readView
	held      bool // snap is a transaction's, closed by it
	it        *pebble.Iterator
	batchRows int
	left      int64 // rows still allowed by the limit; 0 = unlimited
	done      bool
	dec       *format.RowDecoder
	// keepFirst asks Next to keep in first the primary key (the bytes
	// after the data prefix) of each batch's first row: an image build's
	// chunk bounds (columnarmerge.go).
	keepFirst bool
	first     []byte
	// unshrink, when set, gives the block cache back at Close (a full
	// scan of a large table reads around it: Store.bulkRead).
	unshrink func()
}

func (s *stateScan) Schema() *arrow.Schema { return s.schema }

func (s *stateScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
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
	s.dec.Reserve(want)
	n := 0
	for ; n < want && s.it.Valid(); s.it.Next() {
		if n == 0 && s.keepFirst {
			s.first = append(s.first[:0], s.it.Key()[dataKeyPrefix:]...)
		}
		row, err := s.t.storedRow(s.it.Value())
		if err == nil {
			_, err = s.dec.Decode(row)
		}
		if err != nil {
			return nil, corrupt("stored row of %s is unreadable: %v", s.t.info.Path, err)
		}
		n++
	}
	if err := s.it.Error(); err != nil {
		return nil, ioErr(err, "scanning %s", s.t.info.Path)
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

// buildRecord finishes rb; a projection of no columns (COUNT(*)) still
// carries its row count.
func buildRecord(rb *array.RecordBuilder, schema *arrow.Schema, rows int) arrow.RecordBatch {
	if schema.NumFields() == 0 {
		return array.NewRecordBatch(schema, nil, int64(rows))
	}
	return rb.NewRecordBatch()
}

func (s *stateScan) Close() {
	if s.it != nil {
		_ = s.it.Close()
		if !s.held {
			_ = s.snap.Close()
		}
		s.it = nil
	}
	if s.unshrink != nil {
		s.unshrink()
		s.unshrink = nil
	}
}

// bulkRead returns, for a row-store scan of the whole of a table large
// enough for a columnar image (the scans that run while its image is
// built, or without one), the undo of shrinking the block cache to
// buildCacheWindow while the scan runs; else nil. Like PostgreSQL's small
// ring of buffers for a large sequential scan: one pass over the table
// would otherwise fill the cache with its blocks, evicting those point
// lookups use and growing the process by the cache's size (bench/LEDGER.md,
// issue 27: W9 peaked at 641 MiB while W4/W5 read the row store, 200 MiB
// once they read the image).
func (s *Store) bulkRead(h *tableHandle, opts fluss.ScanOptions) func() {
	if min := s.columnarMinRows(); opts.Limit != 0 || min < 0 || h.EstimateRows() < min {
		return nil
	}
	return s.shrinkCache()
}

// logScan reads a table's bucket logs in bucket order: a log table's rows,
// or (changelog set) any table's changes with the $changelog metadata.
//
// Stored batches are handed out as they are decoded, sharing the read
// buffer (no copy): a batch larger than the scan's batch size is cut into
// slices, and only batches small enough to fit several into one output
// batch are concatenated. Memory stays at the read-ahead chunk and the
// batch in hand per scan (plus what the consumer holds).
type logScan struct {
	changelog bool
	t         *tableState
	schema    *arrow.Schema
	proj      []int
	limits    []int64
	batchRows int
	left      int64
	done      bool

	bucket int
	off    int64
	r      *logReader
	// decs read the stored batches, of the table's schema or older
	// ones (alter.go).
	decs    batchReaders
	pending arrow.RecordBatch // the rest of a stored batch, projected
	// plan, when set, reads batches whose CRC was checked before by
	// projected reads: only the projected columns' bytes, in place when
	// the log is mapped. partial says that the projection leaves columns
	// out (without a mapping, a projected read of every column would only
	// add a small read to the whole one).
	plan    *format.ProjectionPlan
	partial bool

	// skip, when set, returns the size of the stored batch at the offset
	// if the scan does not need it (0 to read it); decoded counts the
	// batches read (logrange.go).
	skip    func(s *logScan) (int64, error)
	decoded int64

	// maps are the bucket logs' mappings this scan reads (logmap.go).
	maps []*logMaps
}

func (s *logScan) Schema() *arrow.Schema { return s.schema }

// advance moves to the next bucket with unread batches and opens its log;
// it reports false after the last bucket.
func (s *logScan) advance() (bool, error) {
	for s.bucket < len(s.limits) && s.off >= s.limits[s.bucket] {
		if s.r != nil {
			s.r.close()
			s.r = nil
		}
		s.bucket++
		s.off = 0
	}
	if s.bucket >= len(s.limits) {
		return false, nil
	}
	if s.r == nil {
		bl := s.t.buckets[s.bucket]
		r, err := openLogReader(bl.path, s.limits[s.bucket])
		if err != nil {
			return false, err
		}
		// Held until Close: the query may still use records of this
		// bucket after the scan has moved on.
		if r.mapped = bl.maps.get(r.f, r.limit); r.mapped != nil {
			s.maps = append(s.maps, &bl.maps)
		}
		s.r = r
	}
	return true, nil
}

// peekRows returns the record count of the next stored batch of the
// current bucket (false when the bucket has no more).
func (s *logScan) peekRows() (int64, bool, error) {
	if s.r == nil || s.off >= s.limits[s.bucket] {
		return 0, false, nil
	}
	h, err := s.r.header(s.off)
	if err != nil {
		return 0, false, err
	}
	return int64(h.RecordCount), true, nil
}

// readOne returns the next stored batch, projected (nil at the end of the
// last bucket).
func (s *logScan) readOne() (arrow.RecordBatch, error) {
	for {
		more, err := s.advance()
		if err != nil || !more {
			return nil, err
		}
		if s.skip != nil {
			n, err := s.skip(s)
			if err != nil {
				return nil, err
			}
			if n > 0 {
				s.off += n
				continue
			}
		}
		s.decoded++
		var oldDec *format.BatchDecoder // a batch of an older schema (alter.go)
		if len(s.t.oldDecoders) > 0 {
			h, err := s.r.header(s.off)
			if err != nil {
				return nil, err
			}
			if h.SchemaID != s.t.info.SchemaID {
				if oldDec = s.t.oldDecoders[h.SchemaID]; oldDec == nil {
					return nil, corrupt("log file %s: batch at byte offset %d: %v", s.r.path, s.off, errOldSchema(s.t, h.SchemaID))
				}
			}
		}
		if bl := s.t.buckets[s.bucket]; oldDec == nil && s.plan != nil && (s.partial || s.r.mapped != nil) && s.off >= bl.unverified && !bl.bad[s.off] {
			rec, size, ok, err := s.r.projected(s.plan, s.off)
			if err != nil {
				return nil, err
			}
			if ok {
				s.off += size
				if rec.NumRows() > 0 {
					return rec, nil
				}
				rec.Release()
				continue
			}
		}
		batch, size, err := s.r.batch(s.decs.reader(s.t, oldDec), s.off)
		if err != nil {
			return nil, err
		}
		if oldDec != nil {
			if batch.Record, err = s.t.widenRecord(batch.Record); err != nil {
				return nil, err
			}
		}
		s.off += size
		src := batch.Record
		if s.changelog {
			withMeta := fluss.ChangelogRecord(batch)
			src.Release()
			src = withMeta
		}
		cols := make([]arrow.Array, len(s.proj))
		for i, c := range s.proj {
			cols[i] = src.Column(c)
		}
		rec := array.NewRecordBatch(s.schema, cols, src.NumRows())
		src.Release()
		if rec.NumRows() > 0 {
			return rec, nil
		}
		rec.Release()
	}
}

func (s *logScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	want := int64(s.batchRows)
	if s.left > 0 && want > s.left {
		want = s.left
	}
	var parts []arrow.RecordBatch
	release := func() {
		for _, p := range parts {
			p.Release()
		}
	}
	var n int64
	for n < want {
		if s.pending == nil {
			if len(parts) > 0 {
				// Only whole stored batches that fit are combined.
				rows, ok, err := s.peekRows()
				if err != nil {
					release()
					return nil, err
				}
				if !ok || n+rows > want {
					break
				}
			}
			rec, err := s.readOne()
			if err != nil {
				release()
				return nil, err
			}
			if rec == nil {
				break
			}
			s.pending = rec
		}
		p := s.pending
		if take := want - n; p.NumRows() > take {
			parts = append(parts, p.NewSlice(0, take))
			s.pending = p.NewSlice(take, p.NumRows())
			p.Release()
			n += take
			break
		}
		parts = append(parts, p)
		s.pending = nil
		n += p.NumRows()
	}
	if n == 0 {
		s.done = true
		return nil, nil
	}
	out := parts[0]
	if len(parts) > 1 {
		cat, err := concatRecords(s.schema, parts)
		release()
		if err != nil {
			return nil, err
		}
		out = cat
	}
	if s.left > 0 {
		s.left -= n
		if s.left == 0 {
			s.done = true
		}
	}
	return out, nil
}

func concatRecords(schema *arrow.Schema, recs []arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			for _, done := range cols[:c] {
				done.Release()
			}
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "combining scan batches: %v", err)
		}
		cols[c] = a
	}
	out := array.NewRecordBatch(schema, cols, rows)
	for _, a := range cols {
		a.Release()
	}
	return out, nil
}

func (s *logScan) Close() {
	if s.r != nil {
		s.r.close()
		s.r = nil
	}
	for _, m := range s.maps {
		m.put()
	}
	s.maps = nil
	s.decs.release()
	if s.pending != nil {
		s.pending.Release()
		s.pending = nil
	}
}

// ScanChangelog implements fluss.ChangelogScanner: it reads every bucket log
// of the table up to its committed length (a consistent snapshot, like Scan).
func (h *tableHandle) ScanChangelog(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := h.checkLive(); err != nil {
		return nil, err
	}
	t := h.t
	all := fluss.ChangelogColumns(t.info)
	proj := opts.Projection
	if proj == nil {
		proj = make([]int, len(all))
		for i := range proj {
			proj[i] = i
		}
	}
	fields := make([]arrow.Field, len(proj))
	for i, c := range proj {
		if c < 0 || c >= len(all) {
			return nil, sqlerr.New(sqlerr.InvalidColumnReference, "changelog column %d does not exist", c)
		}
		fields[i] = arrow.Field{Name: all[c].Name, Type: all[c].Type.ArrowType(), Nullable: !all[c].Type.NotNull}
	}
	batchRows := opts.BatchRows
	if batchRows <= 0 {
		batchRows = h.s.opts.BatchRows
	}
	t.mu.RLock()
	if t.dropped {
		t.mu.RUnlock()
		return nil, undefinedTable(t.info.Path)
	}
	limits := make([]int64, len(t.buckets))
	for i, b := range t.buckets {
		limits[i] = b.committed
	}
	t.mu.RUnlock()
	return &logScan{changelog: true, t: t, schema: arrow.NewSchema(fields, nil), proj: proj, limits: limits, batchRows: batchRows, left: opts.Limit,
		skip: skipBefore(opts.FromOffset, opts.FromTimestamp)}, nil
}
