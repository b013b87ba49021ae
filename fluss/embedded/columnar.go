package embedded

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// The columnar image of a primary-key table (issue 27).
//
// A primary-key table's current state lives in pebble as one compacted row
// per key; a scan of it crosses pebble's merging iterator and a row decoder
// for every row, which bench/LEDGER.md measured at ~70% of an analytic
// query's time. A table that scans read in full and that is large enough
// (Options.ColumnarMinRows) is therefore also kept, in memory, as Arrow
// column chunks of the columns those scans asked for, decoded once from one
// pebble snapshot in the background (both cores, one bucket per worker),
// in the state's key order. A scan whose snapshot holds exactly the image's
// state of the table hands out slices of the chunks (no decoding, no copy);
// any other scan reads pebble as before and, when the image is missing,
// stale or lacks a column, asks for a new one.
//
// Which snapshot holds which state is told by the commit clock: the
// committer numbers every group commit (begin, before its state reaches
// pebble; end, after), and remembers per table the number of the last
// group that wrote it. A snapshot is stamped with the last number ended
// before it was taken (fin: every group up to it is in the snapshot) and
// the last begun after it (start: no later group is). An image is built
// from a snapshot taken while no group is in flight (fin = start = seq0),
// records lastWrite0, the last group at or before seq0 that wrote the
// table, and learns firstAfter, the first group after seq0 that writes it
// (set in begin, before that group's state reaches pebble). A snapshot
// holds the image's state exactly when fin ≥ lastWrite0 (it has every
// write the image has) and no group in (seq0, start] wrote the table
// (firstAfter is 0 or past start): this holds for a scan's own snapshot
// and for a transaction's held one alike. A group that fails still counts
// as a write, which only sends scans to the row path.
//
// Memory: the image is bounded by Options.ColumnarBytes for the whole
// store; a table whose image would pass it is scanned from pebble. The
// image is not persisted: it is rebuilt after a restart by the first scans
// that want it, so a crash cannot leave a damaged one behind.
//
// The chunks' arrays are never released: scans hand out slices of them
// (retaining the same buffers), and a replaced image is reclaimed by the
// garbage collector once no slice refers to it (the Go allocator needs no
// Release to free memory).

// defaultColumnarMinRows is the table size (EstimateRows) from which a full
// scan asks for an image. Below it a scan of the row path costs under
// ~30 ms (0.4 µs a row at 64k rows, bench/LEDGER.md) and an image would
// save little beside the query's other work.
const defaultColumnarMinRows = 1 << 16

// defaultColumnarBytes bounds the images of a store (Options.ColumnarBytes).
const defaultColumnarBytes = 1 << 30

// colChunkRows is the rows per image chunk: a multiple of the default scan
// batch, so that the batches a scan hands out are whole slices.
const colChunkRows = 1 << 16

// commitClock numbers the group commits (see above).
type commitClock struct {
	// mu orders begin against an image build taking its snapshot.
	mu       sync.Mutex
	started  atomic.Uint64
	finished atomic.Uint64
}

// clockStamp places a snapshot among the group commits.
type clockStamp struct{ fin, start uint64 }

// begin numbers a group commit that is about to write the state of
// tables, before any of it reaches pebble.
func (c *commitClock) begin(reqs []*request) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	seq := c.started.Load() + 1
	for _, r := range reqs {
		if t := r.table; t != nil && t.info.HasPrimaryKey() {
			t.col.wrote(seq)
		}
	}
	c.started.Store(seq)
	return seq
}

// end records that group seq's state commit is over (done or failed).
func (c *commitClock) end(seq uint64) { c.finished.Store(seq) }

// snapshot takes a pebble snapshot and its stamp.
func (c *commitClock) snapshot(db *pebble.DB) (*pebble.Snapshot, clockStamp) {
	fin := c.finished.Load()
	snap := db.NewSnapshot()
	return snap, clockStamp{fin: fin, start: c.started.Load()}
}

// tableColumnar is a table's columnar image and its bookkeeping.
type tableColumnar struct {
	img atomic.Pointer[colImage]
	// Guarded by the store's commitClock.mu: the last group that wrote the
	// table, and the image being built.
	lastWrite uint64
	building  *colImage
	// Guarded by mu: whether a build runs, when the last one ended and
	// how long it took (a table written all the time is not rebuilt back
	// to back), and the columns scans asked for.
	mu        sync.Mutex
	busy      bool
	lastEnd   time.Time
	lastTook  time.Duration
	wanted    []int
	published bool // an image was counted in the store's bytes
}

// wrote records group seq's write (under commitClock.mu).
func (tc *tableColumnar) wrote(seq uint64) {
	tc.lastWrite = seq
	for _, img := range []*colImage{tc.img.Load(), tc.building} {
		if img != nil && img.firstAfter.Load() == 0 {
			img.firstAfter.Store(seq)
		}
	}
}

// colImage is a table's state at one snapshot, column by column.
type colImage struct {
	seq0, lastWrite0 uint64
	firstAfter       atomic.Uint64
	cols             []int               // table columns held, ascending
	chunks           []arrow.RecordBatch // in key order; fields = cols
	rows             int64
	bytes            int64
}

// validAt reports whether a snapshot stamped st holds the image's state.
func (img *colImage) validAt(st clockStamp) bool {
	if st.fin < img.lastWrite0 {
		return false
	}
	fa := img.firstAfter.Load()
	return fa == 0 || fa > st.start
}

// holds returns where each table column of proj sits in the image, or
// false when the image lacks one.
func (img *colImage) holds(proj []int, ncols int) ([]int, bool) {
	if proj == nil {
		if len(img.cols) != ncols {
			return nil, false
		}
		return img.cols, true // cols is then 0..ncols-1
	}
	pos := make([]int, len(proj))
	for i, c := range proj {
		j, ok := slices.BinarySearch(img.cols, c)
		if !ok {
			return nil, false
		}
		pos[i] = j
	}
	return pos, true
}

// columnarMinRows and columnarBytes are the options with their defaults.
func (s *Store) columnarMinRows() int64 {
	switch n := s.opts.ColumnarMinRows; {
	case n == 0:
		return defaultColumnarMinRows
	case n < 0:
		return -1
	default:
		return n
	}
}

func (s *Store) columnarBytes() int64 {
	if s.opts.ColumnarBytes > 0 {
		return s.opts.ColumnarBytes
	}
	return defaultColumnarBytes
}

// columnarRead returns a reader of t's image for a scan whose snapshot is
// stamped st, or nil when the image cannot serve it; then, for a scan of
// the whole table (no limit), it asks for an image holding the scan's
// columns.
func (h *tableHandle) columnarRead(opts fluss.ScanOptions, plan *projPlan, st clockStamp, batchRows int) fluss.RecordReader {
	s, t := h.s, h.t
	if s.columnarMinRows() < 0 {
		return nil
	}
	img := t.col.img.Load()
	if img != nil && img.validAt(st) {
		if pos, ok := img.holds(opts.Projection, len(t.colTypes)); ok {
			return &imageScan{img: img, schema: plan.schema, pos: pos, batchRows: batchRows, left: opts.Limit}
		}
	}
	if opts.Limit == 0 {
		s.wantImage(h, opts.Projection, img)
	}
	return nil
}

// wantImage starts a background build of t's image holding proj's columns
// (and those of the current image), when the table is large enough, no
// build runs, and the last one is not too recent.
func (s *Store) wantImage(h *tableHandle, proj []int, cur *colImage) {
	t := h.t
	min := s.columnarMinRows()
	if min < 0 || h.EstimateRows() < min {
		return
	}
	tc := &t.col
	tc.mu.Lock()
	defer tc.mu.Unlock()
	cols := proj
	if cols == nil {
		cols = make([]int, len(t.colTypes))
		for i := range cols {
			cols[i] = i
		}
	}
	merged := slices.Clone(tc.wanted)
	if cur != nil {
		merged = append(merged, cur.cols...)
	}
	merged = append(merged, cols...)
	slices.Sort(merged)
	tc.wanted = slices.Compact(merged)
	if tc.busy || s.colCtx == nil || s.colCtx.Err() != nil {
		return
	}
	// An image no write has made stale gets the missing columns added
	// (built at a new snapshot, joined to it if still no write came).
	// Otherwise the image is rebuilt whole; when the last one went stale,
	// only after twice the time the last build took, so that building
	// takes at most a third of a core's time for a table written all the
	// time.
	var base *colImage
	build := slices.Clone(tc.wanted)
	if cur != nil && cur.firstAfter.Load() == 0 {
		base = cur
		build = slices.DeleteFunc(build, func(c int) bool { _, ok := slices.BinarySearch(cur.cols, c); return ok })
		if len(build) == 0 {
			return
		}
	} else if cur != nil && time.Since(tc.lastEnd) < 2*tc.lastTook {
		return
	}
	tc.busy = true
	s.colWG.Add(1)
	go func() {
		defer s.colWG.Done()
		began := time.Now()
		s.buildImage(s.colCtx, t, build, base)
		tc.mu.Lock()
		tc.busy, tc.lastEnd, tc.lastTook = false, time.Now(), time.Since(began)
		tc.mu.Unlock()
	}()
}

// buildImage decodes t's state at a snapshot taken between group commits
// into an image of cols and publishes it. A failure is logged and leaves
// scans on the row path.
func (s *Store) buildImage(ctx context.Context, t *tableState, cols []int, base *colImage) {
	plan, err := projectionFor(t, cols)
	if err != nil {
		return
	}
	var snap *pebble.Snapshot
	img := &colImage{cols: cols}
	for snap == nil {
		s.clock.mu.Lock()
		if fin := s.clock.finished.Load(); fin == s.clock.started.Load() {
			snap = s.db.NewSnapshot()
			img.seq0, img.lastWrite0 = fin, t.col.lastWrite
			t.col.building = img
		}
		s.clock.mu.Unlock()
		if snap == nil {
			// A group is committing: it ends within its sync.
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Millisecond):
			}
		}
	}
	defer snap.Close()
	clearBuilding := func() {
		s.clock.mu.Lock()
		if t.col.building == img {
			t.col.building = nil
		}
		s.clock.mu.Unlock()
	}
	defer clearBuilding()
	parts := make([][]arrow.RecordBatch, len(t.buckets))
	errs := make([]error, len(t.buckets))
	parallel(len(t.buckets), func(b int) {
		parts[b], errs[b] = s.readBucket(ctx, t, plan, snap, b)
	})
	var bytes, rows int64
	for b, err := range errs {
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("building the columnar image of a table; its scans read the row store", "table", t.info.Path.String(), "error", err)
			}
			return
		}
		for _, rec := range parts[b] {
			img.chunks = append(img.chunks, rec)
			rows += rec.NumRows()
			for _, c := range rec.Columns() {
				bytes += arrayBytes(c.Data())
			}
		}
	}
	img.rows, img.bytes = rows, bytes
	tc := &t.col
	tc.mu.Lock()
	defer tc.mu.Unlock()
	old := tc.img.Load()
	// add is what the store's images grow by: the new columns beside
	// base, or the new image in place of the old.
	add := bytes
	if old != nil && base == nil {
		add -= old.bytes
	}
	if s.colBytes.Load()+add > s.columnarBytes() {
		s.log.Info("a table's columnar image would pass the store's budget; its scans read the row store", "table", t.info.Path.String(), "bytes", bytes)
		return
	}
	t.mu.RLock()
	dead := t.dropped
	t.mu.RUnlock()
	if dead {
		return
	}
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	if base != nil {
		// img holds base's missing columns of the same state only if no
		// write came between the two snapshots (nor since).
		if old != base || base.firstAfter.Load() != 0 || img.lastWrite0 != base.lastWrite0 {
			return
		}
		merged, ok := joinImages(base, img)
		if !ok {
			return
		}
		merged.firstAfter.Store(img.firstAfter.Load())
		img = merged
	}
	tc.img.Store(img)
	s.colBytes.Add(add)
	tc.published = true
}

// joinImages is the image of a's and b's columns, both of the same state
// (so cut into the same chunks).
func joinImages(a, b *colImage) (*colImage, bool) {
	if len(a.chunks) != len(b.chunks) {
		return nil, false
	}
	out := &colImage{seq0: b.seq0, lastWrite0: a.lastWrite0, rows: a.rows, bytes: a.bytes + b.bytes}
	out.cols = slices.Concat(a.cols, b.cols)
	slices.Sort(out.cols)
	for k, ca := range a.chunks {
		cb := b.chunks[k]
		if ca.NumRows() != cb.NumRows() {
			return nil, false
		}
		fields := make([]arrow.Field, len(out.cols))
		arrs := make([]arrow.Array, len(out.cols))
		for i, c := range out.cols {
			if j, ok := slices.BinarySearch(a.cols, c); ok {
				fields[i], arrs[i] = ca.Schema().Field(j), ca.Column(j)
			} else {
				j, _ := slices.BinarySearch(b.cols, c)
				fields[i], arrs[i] = cb.Schema().Field(j), cb.Column(j)
			}
		}
		out.chunks = append(out.chunks, array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, ca.NumRows()))
	}
	return out, true
}

// dropImage forgets t's image (a dropped table).
func (s *Store) dropImage(t *tableState) {
	tc := &t.col
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if old := tc.img.Swap(nil); old != nil {
		s.colBytes.Add(-old.bytes)
	}
}

// readBucket decodes bucket b's rows of snap into chunks of plan's columns.
func (s *Store) readBucket(ctx context.Context, t *tableState, plan *projPlan, snap *pebble.Snapshot, b int) ([]arrow.RecordBatch, error) {
	lo := bucketKey(prefixData, t.info.TableID, b)
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixEnd(lo)})
	if err != nil {
		return nil, ioErr(err, "scanning %s", t.info.Path)
	}
	it.First()
	sc := &stateScan{t: t, schema: plan.schema, pos: plan.pos, snap: snap, held: true, it: it, batchRows: colChunkRows,
		dec: format.NewRowDecoder(t.colTypes)}
	defer sc.Close()
	var out []arrow.RecordBatch
	for {
		rec, err := sc.Next(ctx)
		if err != nil || rec == nil {
			return out, err
		}
		out = append(out, rec)
	}
}

// arrayBytes is the size of an array's buffers, children included.
func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	return n
}

// imageScan hands out a columnar image's rows as slices of its chunks.
type imageScan struct {
	img       *colImage
	schema    *arrow.Schema
	pos       []int // image column of each output column
	batchRows int
	left      int64 // rows still allowed by the limit; 0 = unlimited
	chunk     int
	off       int64
	done      bool
	// end, when not 0, is the chunk a part of a split scan stops before;
	// split is the number of parts.
	end, split int
}

func (s *imageScan) Schema() *arrow.Schema { return s.schema }

// ScanPath implements fluss.ScanPathReporter.
func (s *imageScan) ScanPath() string { return "columnar image" }

func (s *imageScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	end := len(s.img.chunks)
	if s.end > 0 {
		end = s.end
	}
	for !s.done && s.chunk < end {
		c := s.img.chunks[s.chunk]
		n := min(int64(s.batchRows), c.NumRows()-s.off)
		if s.left > 0 && n > s.left {
			n = s.left
		}
		if n <= 0 {
			s.chunk, s.off = s.chunk+1, 0
			continue
		}
		cols := make([]arrow.Array, len(s.pos))
		for i, p := range s.pos {
			cols[i] = array.NewSlice(c.Column(p), s.off, s.off+n)
		}
		rec := array.NewRecordBatch(s.schema, cols, n)
		for _, a := range cols {
			a.Release()
		}
		s.off += n
		if s.left > 0 {
			if s.left -= n; s.left == 0 {
				s.done = true
			}
		}
		return rec, nil
	}
	s.done = true
	return nil, nil
}

func (s *imageScan) Close() { s.done = true }

// ScanPath implements fluss.ScanPathReporter.
func (s *stateScan) ScanPath() string { return "row store" }

// closeColumnar stops the image builds (Close, before pebble closes).
func (s *Store) closeColumnar() {
	if s.colStop != nil {
		s.colStop()
	}
	s.colWG.Wait()
}
