package embedded

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// Merge-on-read (issue 27): an image serves the scans of later states too.
//
// Every write of a primary-key table's state appends its changes to the
// changed keys' bucket logs and records the logs' new committed lengths in
// the same pebble commit, and an image records the lengths it was built
// at. So the log bytes between the image's lengths and those of a scan's
// snapshot are exactly the writes since the build, and the keys they name
// are the only keys whose rows can differ from the image's. A bucket's
// chunks split its keys at their first keys (chunk k of bucket b holds the
// keys from its first key up to the next chunk's; the bucket's first chunk
// from the bucket's first possible key, its last up to the bucket's end),
// so each written key falls in one chunk's key range. A merging scan reads
// the chunks no write touched from the image and each touched chunk's key
// range from its own pebble snapshot through the row decoder: the rows are
// exactly the snapshot's state, in the row path's order (bucket, then
// key). A bucket without chunks in the image that was written since is
// read from pebble whole, where its chunks would be.
//
// Only which chunks were touched is kept (a flag per chunk and per empty
// bucket), never keys or rows: a delta's memory is bounded by the image's
// chunk count, whatever was written. The newest delta is kept on the image
// with the lengths it reaches, and a scan of a later state extends it by
// reading only the log bytes past those. A snapshot older than the image
// (a long transaction's, after a rebuild) cannot be merged forward and
// reads the row store.
//
// A scan that merges asks for a new image (wantImage's throttle applies):
// a touched chunk costs the row path's price for all its rows.

// imageDelta is what the writes since an image's build touched.
type imageDelta struct {
	committed []int64 // the state it reaches: the bucket logs' lengths
	changed   []bool  // per chunk: a key of its range was written
	nchanged  int
	empty     []bool // per bucket without chunks: it was written
}

// bucketStarts returns, per bucket b, the first chunk of b or of a later
// bucket (chunks of b are [starts[b], starts[b+1])), for nb buckets.
func bucketStarts(m *imageManifest, nb int) []int {
	starts := make([]int, nb+1)
	k := 0
	for b := range nb + 1 {
		for k < len(m.Chunks) && m.Chunks[k].Bucket < b {
			k++
		}
		starts[b] = k
	}
	return starts
}

// atLeast reports whether every length of a is at least b's (a's state is
// b's or a later one).
func atLeast(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] < b[i] {
			return false
		}
	}
	return true
}

// deltaAt returns what the writes between the image's state and the
// state whose committed lengths are committed touched: nil when they are
// the same state; ok false when that state is not the image's or a later
// one (the scan then reads the row store).
func (img *colImage) deltaAt(ctx context.Context, t *tableState, committed []int64) (d *imageDelta, ok bool, err error) {
	if img.bad.Load() || !atLeast(committed, img.man.Committed) {
		return nil, false, nil
	}
	if slices.Equal(committed, img.man.Committed) {
		return nil, true, nil
	}
	from := img.man.Committed
	base := img.delta.Load()
	if base != nil && atLeast(committed, base.committed) {
		if slices.Equal(committed, base.committed) {
			return base, true, nil
		}
		from = base.committed
	} else {
		base = nil
	}
	d = &imageDelta{committed: slices.Clone(committed), changed: make([]bool, len(img.man.Chunks)), empty: make([]bool, len(committed))}
	if base != nil {
		copy(d.changed, base.changed)
		copy(d.empty, base.empty)
		d.nchanged = base.nchanged
	}
	for b := range committed {
		if committed[b] > from[b] {
			if err := img.routeWrites(ctx, t, b, from[b], committed[b], d); err != nil {
				return nil, false, err
			}
		}
	}
	// Keep the newest delta (scans of several states may race here).
	for {
		cur := img.delta.Load()
		if cur != nil && atLeast(cur.committed, d.committed) || img.delta.CompareAndSwap(cur, d) {
			break
		}
	}
	return d, true, nil
}

// routeWrites marks in d the chunks of bucket b holding the keys written
// in the bucket log's bytes [from, to) (committed batches).
func (img *colImage) routeWrites(ctx context.Context, t *tableState, b int, from, to int64, d *imageDelta) error {
	lo, hi := img.starts[b], img.starts[b+1]
	if lo == hi {
		d.empty[b] = true // no chunk to route to: the bucket is read whole
		return nil
	}
	plan, err := projectionFor(t, t.pkIdx)
	if err != nil {
		return err
	}
	limits := make([]int64, len(t.buckets))
	limits[b] = to
	sc := &logScan{t: t, schema: plan.schema, proj: t.pkIdx, limits: limits, bucket: b, off: from}
	if pp, ok := t.decoder.NewProjectionPlan(sc.proj, sc.schema); ok {
		sc.plan, sc.partial = pp, len(sc.proj) < len(t.colTypes)
	}
	defer sc.Close()
	chunks := img.man.Chunks[lo:hi]
	var key []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := sc.readOne()
		if err != nil || rec == nil {
			return err
		}
		cols := rec.Columns()
		for i := range int(rec.NumRows()) {
			if key, err = format.AppendKey(key[:0], t.pkTypes, cols, i); err != nil {
				rec.Release()
				return corrupt("a primary key in the log of %s is unreadable: %v", t.info.Path, err)
			}
			// The last chunk whose first key is at most key (the first
			// chunk for a key before every chunk's).
			k := sort.Search(len(chunks), func(j int) bool { return bytes.Compare(chunks[j].First, key) > 0 })
			k = lo + max(k-1, 0)
			if !d.changed[k] {
				d.changed[k] = true
				d.nchanged++
			}
		}
		rec.Release()
	}
}

// chunkBounds returns the pebble key range of chunk k's keys (the
// bucket's start for its first chunk, the bucket's end for its last).
func (img *colImage) chunkBounds(tableID int64, k int) (lo, hi []byte) {
	b := img.man.Chunks[k].Bucket
	prefix := bucketKey(prefixData, tableID, b)
	lo, hi = prefix, prefixEnd(prefix)
	if k > img.starts[b] {
		lo = append(slices.Clip(prefix), img.man.Chunks[k].First...)
	}
	if k+1 < img.starts[b+1] {
		hi = append(slices.Clip(prefix), img.man.Chunks[k+1].First...)
	}
	return lo, hi
}

// emptyBuckets returns the written buckets without chunks that a scan of
// chunks [chunk, end) reads: those whose chunks would come first within
// it, and after the last chunk, those past every chunk.
func (img *colImage) emptyBuckets(d *imageDelta, chunk, end int) []int {
	if d == nil {
		return nil
	}
	var out []int
	for b, w := range d.empty {
		if w && (img.starts[b] >= chunk && img.starts[b] < end || img.starts[b] == end && end == len(img.man.Chunks)) {
			out = append(out, b)
		}
	}
	return out
}

// openRows starts reading the key range [lo, hi) of the scan's snapshot
// through the row decoder, in place of image chunks.
func (s *imageScan) openRows(lo, hi []byte) error {
	it, err := s.snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return ioErr(err, "scanning %s", s.t.info.Path)
	}
	it.First()
	if s.dec == nil {
		s.dec = format.NewRowDecoder(s.t.colTypes)
	}
	s.rows = &stateScan{t: s.t, schema: s.schema, pos: s.rowPos, snap: s.snap, held: true, it: it, batchRows: s.batchRows, left: s.left, dec: s.dec}
	return nil
}

// patchImage builds the image of the state in snap (whose committed
// lengths are committed) from cur, an image of an earlier state holding
// every wanted column: the chunks no write touched since cur are copied
// from cur's files (no decoding), the touched chunks' key ranges and the
// written buckets without chunks are decoded from snap, as merging scans
// read them. It reports false, building nothing, when a full build is
// the better choice: cur lacks a wanted column, the writes touched more
// than half its chunks, or patches have left it cut into small chunks
// (more than twice the chunks its rows need).
func (s *Store) patchImage(ctx context.Context, t *tableState, snap *readView, committed []int64, cur *colImage, wanted []int) bool {
	for _, c := range wanted {
		if _, ok := slices.BinarySearch(cur.cols, c); !ok {
			return false
		}
	}
	d, ok, err := cur.deltaAt(ctx, t, committed)
	if err != nil || !ok || d == nil || 2*d.nchanged > len(cur.man.Chunks) {
		return false
	}
	if need := cur.man.Rows/colChunkRows + int64(len(t.buckets)); int64(len(cur.man.Chunks)) > 2*need {
		return false
	}
	plan, err := projectionFor(t, cur.cols)
	if err != nil {
		return false
	}
	gen := s.colGen.Add(1)
	dir := filepath.Join(s.dir, columnarDir, strconv.FormatInt(t.info.TableID, 10), strconv.FormatInt(gen, 10))
	fail := func(err error) bool {
		if ctx.Err() == nil && err != errOverBudget {
			s.log.Warn("patching the columnar image of a table; it is rebuilt whole", "table", t.info.Path.String(), "error", err)
		}
		return false
	}
	w, err := s.newImageWriter(dir, t.info.TableID, committed, cur.cols, plan.schema.Fields())
	if err != nil {
		return fail(err)
	}
	defer w.abort()
	budget := s.columnarBytes() - s.colBytes.Load() + cur.bytes
	var written int64
	add := func(b int, rec arrow.RecordBatch, first []byte) error {
		for _, c := range rec.Columns() {
			written += arrayBytes(c.Data())
		}
		if written > budget {
			return errOverBudget
		}
		return w.add(b, rec, first)
	}
	for b := range t.buckets {
		lo, hi := cur.starts[b], cur.starts[b+1]
		if lo == hi {
			if d.empty[b] {
				start := bucketKey(prefixData, t.info.TableID, b)
				if err := s.eachRangeChunk(ctx, t, plan, snap, start, prefixEnd(start), func(rec arrow.RecordBatch, first []byte) error { return add(b, rec, first) }); err != nil {
					return fail(err)
				}
			}
			continue
		}
		for k := lo; k < hi; k++ {
			if d.changed[k] {
				klo, khi := cur.chunkBounds(t.info.TableID, k)
				if err := s.eachRangeChunk(ctx, t, plan, snap, klo, khi, func(rec arrow.RecordBatch, first []byte) error { return add(b, rec, first) }); err != nil {
					return fail(err)
				}
				continue
			}
			if err := ctx.Err(); err != nil {
				return fail(err)
			}
			rec, err := cur.readChunk(k, plan.schema)
			if err != nil {
				cur.bad.Store(true)
				return fail(err)
			}
			err = add(b, rec, cur.man.Chunks[k].First)
			rec.Release()
			if err != nil {
				return fail(err)
			}
		}
	}
	man, err := w.finish(nil, "")
	if err != nil {
		return fail(err)
	}
	img, err := newDiskImage(dir, man, &s.colMaps)
	if err != nil {
		_ = os.RemoveAll(dir)
		return fail(err)
	}
	s.colMu.Lock()
	s.colTrusted[dir] = true
	s.colMu.Unlock()
	s.publishImage(t, img, cur)
	tc := &t.col
	tc.mu.Lock()
	tc.patches++
	tc.mu.Unlock()
	return true
}

// readChunk reads chunk k of every column of the image as a record of
// schema (the image's columns, in order).
func (img *colImage) readChunk(k int, schema *arrow.Schema) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(img.man.Columns))
	release := func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}
	for j := range cols {
		a, err := img.files.chunk(k, j)
		if err == nil && a.Len() != int(img.man.Chunks[k].Rows) {
			a.Release()
			err = corrupt("chunk %d has %d rows, its manifest %d", k, a.Len(), img.man.Chunks[k].Rows)
		}
		if err != nil {
			release()
			return nil, corrupt("columnar image file %s is damaged (chunk %d): %v", filepath.Join(img.dir, img.man.Columns[j].File), k, err)
		}
		cols[j] = a
	}
	rec := array.NewRecordBatch(schema, cols, img.man.Chunks[k].Rows)
	release()
	return rec, nil
}
