package embedded

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
// (Options.ColumnarMinRows) is therefore also kept as immutable Arrow
// column chunks on disk (columnarfile.go) of the columns those scans asked
// for, decoded once from one pebble snapshot in the background (one
// goroutine), in the state's key order, with per-chunk statistics.
//
// Which state an image holds is told by the table's bucket logs' committed
// lengths: every write of a primary-key table's state appends its changes
// to the bucket logs and records their new lengths in the same atomic
// pebble commit, so two snapshots with the same lengths hold the same state
// of the table. The image records the lengths of the snapshot it was built
// from; a scan reads the lengths from its own snapshot (a transaction's held
// one included) and is served from the image alone when they are equal; when
// its lengths are larger (writes since the build) it merges them on read
// (columnarmerge.go) and asks for a new image; when they are smaller (a
// snapshot older than the image) it reads pebble. This survives restarts:
// an image on disk is used after Open, merging the writes made since.
//
// Rebuild policy: a scan that could not be served from the image alone
// asks for a build; a build runs at most one at a time per table, on one
// goroutine, and no sooner than twice the last build's duration after it
// ended (so building takes at most a third of a core while writes go on);
// scans merge meanwhile. A build after writes that touched at most half
// the image's chunks patches it (patchImage: the untouched chunks are
// copied, not decoded); else it decodes the whole state, reading around
// the block cache (buildCacheWindow).
//
// Budget: the images on disk are bounded by Options.ColumnarBytes for the
// whole store; a table whose image would pass it is scanned from pebble.

// defaultColumnarMinRows is the table size (EstimateRows) from which a full
// scan asks for an image. Below it a scan of the row path costs under
// ~30 ms (0.4 µs a row at 64k rows, bench/LEDGER.md) and an image would
// save little beside the query's other work.
const defaultColumnarMinRows = 1 << 16

// defaultColumnarBytes bounds the images of a store on disk
// (Options.ColumnarBytes).
const defaultColumnarBytes = 4 << 30

// colChunkRows is the rows per image chunk: the default scan batch, so
// that a scan hands out the chunks' arrays whole (offset 0: some kernels
// and the wire's raw encoders take a slower path for a sliced array), and
// the unit of min/max skipping.
const colChunkRows = 8192

// tableColumnar is a table's columnar image and its bookkeeping.
type tableColumnar struct {
	img atomic.Pointer[colImage]
	// Guarded by mu: whether a build runs, when the last one ended and
	// how long it took (a table written all the time is not rebuilt back
	// to back), the columns scans asked for, and whether the image on
	// disk was looked at.
	mu       sync.Mutex
	busy     bool
	lastEnd  time.Time
	lastTook time.Duration
	wanted   []int
	refused  bool // the last image built passed the store's budget
	loaded   bool
	patches  int // images made by patching the previous one (columnarmerge.go)
}

// colImage is an image on disk, open for reading.
type colImage struct {
	dir   string
	man   *imageManifest
	files *imageFiles
	cols  []int // table columns held, ascending (man.Columns)
	bytes int64
	// starts are each bucket's first chunk (bucketStarts).
	starts []int
	// delta is what the writes up to the newest state a scan merged
	// touched (columnarmerge.go).
	delta atomic.Pointer[imageDelta]
	// bad is set once a read found a file damaged: the image serves no
	// more scans.
	bad atomic.Bool
}

// newDiskImage opens the image in dir described by man.
func newDiskImage(dir string, man *imageManifest, pool *mapPool) (*colImage, error) {
	files, open, err := openImageFiles(dir, man, pool)
	if err != nil {
		return nil, err
	}
	img := &colImage{dir: dir, man: man, files: files, starts: bucketStarts(man, len(man.Committed))}
	for _, c := range man.Columns {
		img.cols = append(img.cols, c.Col)
		img.bytes += c.Bytes
	}
	closeFilesWhenUnreachable(img, open, files.maps)
	return img, nil
}

// validAt reports whether a snapshot whose committed lengths of the table
// are committed holds the image's state.
func (img *colImage) validAt(committed []int64) bool {
	return !img.bad.Load() && slices.Equal(img.man.Committed, committed)
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

// imageRange is a fluss.ColumnRange on an image column.
type imageRange struct {
	col    int // manifest column
	lo, hi int64
}

// rangesOf places a scan's ranges on the image's columns (a range on a
// column the image lacks is dropped: it can skip nothing).
func (img *colImage) rangesOf(rs []fluss.ColumnRange) []imageRange {
	var out []imageRange
	for _, r := range rs {
		if j, ok := slices.BinarySearch(img.cols, r.Column); ok {
			out = append(out, imageRange{col: j, lo: r.Lo, hi: r.Hi})
		}
	}
	return out
}

// excludes reports whether chunk k holds no row within every range, by
// its statistics: a column all NULL there, or whose [min, max] misses the
// range.
func (img *colImage) excludes(k int, rs []imageRange) bool {
	ch := &img.man.Chunks[k]
	for _, r := range rs {
		st := &ch.Stats[r.col]
		if st.Nulls == ch.Rows {
			return true
		}
		if st.Min != nil && st.Max != nil && (*st.Max < r.lo || *st.Min > r.hi) {
			return true
		}
	}
	return false
}

// committedAt reads t's bucket logs' committed lengths in r (a snapshot).
func committedAt(r pebble.Reader, t *tableState) ([]int64, error) {
	out := make([]int64, len(t.buckets))
	lo := tablePrefix(prefixCommitted, t.info.TableID)
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixEnd(lo)})
	if err != nil {
		return nil, ioErr(err, "reading the committed lengths of %s", t.info.Path)
	}
	for it.First(); it.Valid(); it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) != dataKeyPrefix || len(v) != 16 {
			continue
		}
		if b := int(binary.BigEndian.Uint32(k[9:])); b < len(out) {
			out[b] = int64(binary.LittleEndian.Uint64(v))
		}
	}
	if err := it.Close(); err != nil {
		return nil, ioErr(err, "reading the committed lengths of %s", t.info.Path)
	}
	return out, nil
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

// columnarRead returns a reader of t's image for a scan of snap, or nil
// when the image cannot serve it; then, and when the scan merges writes
// made since the image (columnarmerge.go), a scan of the whole table (no
// limit) asks for an image of the newest state holding its columns. A
// reader whose delta is set reads snap: the caller hands it the snapshot
// (release); else the caller closes its own snapshot.
func (h *tableHandle) columnarRead(ctx context.Context, opts fluss.ScanOptions, plan *projPlan, snap *readView, batchRows int) *imageScan {
	s, t := h.s, h.t
	if s.columnarMinRows() < 0 {
		return nil
	}
	var scan *imageScan
	if img := t.col.img.Load(); img != nil {
		if pos, ok := img.holds(opts.Projection, len(t.colTypes)); ok {
			committed, err := committedAt(snap, t)
			var d *imageDelta
			if err == nil {
				d, ok, err = img.deltaAt(ctx, t, committed)
			}
			if err != nil && ctx.Err() == nil {
				s.log.Warn("reading the writes since a table's columnar image; its scan reads the row store", "table", t.info.Path.String(), "error", err)
			}
			if err == nil && ok {
				scan = &imageScan{s: s, t: t, img: img, schema: plan.schema, pos: pos, rowPos: plan.pos, batchRows: batchRows, left: opts.Limit,
					end: len(img.man.Chunks), ranges: img.rangesOf(opts.Ranges), top: newTopFilter(opts.Top, plan.schema)}
				if d != nil {
					scan.delta, scan.snap = d, snap
					scan.empties = img.emptyBuckets(d, 0, scan.end)
				}
			}
		}
	}
	if opts.Limit == 0 && (scan == nil || scan.delta != nil) {
		s.wantImage(h, opts.Projection)
	}
	return scan
}

// wantImage starts a background build of t's image holding proj's columns
// (and those of the current image), when the table is large enough, no
// build runs, and the last one is not too recent.
func (s *Store) wantImage(h *tableHandle, proj []int) {
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
	merged := slices.Concat(tc.wanted, cols)
	if cur := tc.img.Load(); cur != nil {
		merged = append(merged, cur.cols...)
	}
	slices.Sort(merged)
	tc.wanted = slices.Compact(merged)
	if tc.busy || s.colCtx == nil || s.colCtx.Err() != nil {
		return
	}
	// A table written all the time is rebuilt only after twice the time
	// the last build took, so that building takes at most a third of a
	// core's time; an image the budget refused only after ten times (the
	// table may have shrunk, or others' images gone).
	if !tc.lastEnd.IsZero() && (time.Since(tc.lastEnd) < 2*tc.lastTook || tc.refused && time.Since(tc.lastEnd) < 10*tc.lastTook) {
		return
	}
	tc.busy = true
	s.colWG.Add(1)
	go func() {
		defer s.colWG.Done()
		began := time.Now()
		built := s.refreshImage(s.colCtx, t)
		if built {
			// The build passed the table's blocks through pebble's cache.
			returnFreedCMemory() // trim_cgo.go
		}
		tc.mu.Lock()
		tc.busy = false
		if built {
			tc.lastEnd, tc.lastTook = time.Now(), time.Since(began)
		}
		tc.mu.Unlock()
	}()
}

// refreshImage brings t's image up to date with the newest state and the
// wanted columns: it first opens the image Open found on disk, then builds
// a new one when that is stale or lacks columns (only the missing columns
// when the state is the same). It reports whether it built.
func (s *Store) refreshImage(ctx context.Context, t *tableState) bool {
	tc := &t.col
	tc.mu.Lock()
	load := !tc.loaded
	tc.loaded = true
	wanted := slices.Clone(tc.wanted)
	tc.mu.Unlock()
	if load && tc.img.Load() == nil {
		s.loadImage(t)
	}
	snap := s.iters.view()
	defer snap.Close()
	committed, err := committedAt(snap, t)
	if err != nil {
		return false
	}
	build := wanted
	var base *colImage
	cur := tc.img.Load()
	if cur != nil && cur.validAt(committed) {
		build = slices.DeleteFunc(slices.Clone(wanted), func(c int) bool { _, ok := slices.BinarySearch(cur.cols, c); return ok })
		if len(build) == 0 {
			return false
		}
		base = cur
	} else if cur != nil && s.patchImage(ctx, t, snap, committed, cur, wanted) {
		return true
	}
	s.buildImage(ctx, t, snap, committed, build, base)
	return true
}

// loadImage opens the image Open left on disk for t, checking its files
// once unless this process wrote them; a damaged one is refused, naming
// its file, and removed (scans read the row store until a new one is
// built).
func (s *Store) loadImage(t *tableState) {
	s.colMu.Lock()
	dir, trusted := s.colDirs[t.info.TableID], s.colTrusted[s.colDirs[t.info.TableID]]
	s.colMu.Unlock()
	if dir == "" {
		return
	}
	refuse := func(err error) {
		if errors.Is(err, errImageOutdated) {
			s.log.Info("a columnar image of a table is of an earlier format; it is rebuilt", "table", t.info.Path.String(), "error", err)
		} else {
			s.log.Error("a columnar image of a table is damaged and refused; its scans read the row store until it is rebuilt",
				"table", t.info.Path.String(), "error", err)
		}
		s.colMu.Lock()
		if s.colDirs[t.info.TableID] == dir {
			delete(s.colDirs, t.info.TableID)
		}
		s.colMu.Unlock()
		_ = os.RemoveAll(dir)
	}
	man, err := readManifest(dir, t.info.TableID, func(c int) (arrow.DataType, bool) {
		if c < 0 || c >= t.schema.NumFields() {
			return nil, false
		}
		return t.schema.Field(c).Type, true
	})
	if err != nil {
		refuse(err)
		return
	}
	if len(man.Committed) != len(t.buckets) || len(man.Chunks) > 0 && man.Chunks[len(man.Chunks)-1].Bucket >= len(t.buckets) {
		refuse(corrupt("%s: the image has %d buckets, the table %d", filepath.Join(dir, manifestName), len(man.Committed), len(t.buckets)))
		return
	}
	if !trusted {
		if err := verifyImageFiles(dir, man); err != nil {
			refuse(err)
			return
		}
	}
	img, err := newDiskImage(dir, man, &s.colMaps)
	if err != nil {
		refuse(err)
		return
	}
	s.colMu.Lock()
	s.colTrusted[dir] = true
	s.colMu.Unlock()
	s.publishImage(t, img, nil)
}

// buildImage decodes t's state in snap (whose committed lengths are
// committed) into a new image of cols — beside base's columns, when base
// holds the same state — and publishes it. A failure is logged and leaves
// scans on the row path.
func (s *Store) buildImage(ctx context.Context, t *tableState, snap *readView, committed []int64, cols []int, base *colImage) {
	plan, err := projectionFor(t, cols)
	if err != nil {
		return
	}
	gen := s.colGen.Add(1)
	dir := filepath.Join(s.dir, columnarDir, strconv.FormatInt(t.info.TableID, 10), strconv.FormatInt(gen, 10))
	fail := func(err error) {
		if ctx.Err() == nil {
			s.log.Warn("building the columnar image of a table; its scans read the row store", "table", t.info.Path.String(), "error", err)
		}
	}
	w, err := s.newImageWriter(dir, t.info.TableID, committed, cols, plan.schema.Fields())
	if err != nil {
		fail(err)
		return
	}
	defer w.abort()
	budget := s.columnarBytes() - s.colBytes.Load()
	if base != nil {
		budget += base.bytes
	}
	var written int64
	defer s.shrinkCache()()
	// One bucket after the other, on one core: the build is background
	// work beside the queries, which the second core stays free for.
	for b := range t.buckets {
		err := s.eachBucketChunk(ctx, t, plan, snap, b, func(rec arrow.RecordBatch, first []byte) error {
			for _, c := range rec.Columns() {
				written += arrayBytes(c.Data())
			}
			if written > budget {
				return errOverBudget
			}
			return w.add(b, rec, first)
		})
		if err == errOverBudget {
			tc := &t.col
			tc.mu.Lock()
			tc.refused = true
			tc.mu.Unlock()
			s.log.Info("a table's columnar image would pass the store's budget; its scans read the row store", "table", t.info.Path.String(), "budget", s.columnarBytes())
			return
		}
		if err != nil {
			fail(err)
			return
		}
	}
	var baseMan *imageManifest
	var baseDir string
	if base != nil {
		if len(base.man.Chunks) != len(w.man.Chunks) || !sameChunks(base.man, &w.man) {
			fail(corrupt("%s: the image's chunks differ from a build of the same state", base.dir))
			return
		}
		baseMan, baseDir = base.man, base.dir
	}
	man, err := w.finish(baseMan, baseDir)
	if err != nil {
		fail(err)
		return
	}
	img, err := newDiskImage(dir, man, &s.colMaps)
	if err != nil {
		fail(err)
		_ = os.RemoveAll(dir)
		return
	}
	s.colMu.Lock()
	s.colTrusted[dir] = true
	s.colMu.Unlock()
	tc := &t.col
	tc.mu.Lock()
	tc.refused = false
	tc.mu.Unlock()
	s.publishImage(t, img, base)
}

// buildCacheWindow is the block cache an image build leaves to everything
// else while it runs. A build reads every block of the table's state
// once; through the whole cache (256 MiB by default) it pushed out the
// blocks point lookups use, and its churn left glibc's arenas holding
// ~250 MiB of freed C memory: at 10M rows the bench server peaked at
// 761 MiB during W5 (cache 267 MiB, Go heap ~150 MiB; bench/LEDGER.md,
// issue 27). While a build runs the cache is shrunk to this window (its
// blocks larger than a shard's share are not cached at all), so the build
// reads around it; afterwards the cache grows back as lookups need it.
const buildCacheWindow = 16 << 20

// shrinkCache shrinks the block cache to buildCacheWindow while builds
// run (one reservation however many run at once), returning its undo.
func (s *Store) shrinkCache() func() {
	s.colMu.Lock()
	defer s.colMu.Unlock()
	if s.cacheShrunk++; s.cacheShrunk == 1 && s.cache != nil {
		s.cacheUndo = s.cache.Reserve(int(max(s.cache.MaxSize()-buildCacheWindow, 0)))
	}
	return func() {
		s.colMu.Lock()
		defer s.colMu.Unlock()
		if s.cacheShrunk--; s.cacheShrunk == 0 && s.cacheUndo != nil {
			s.cacheUndo()
			s.cacheUndo = nil
		}
	}
}

// errOverBudget stops a build that passes Options.ColumnarBytes.
var errOverBudget = corrupt("over the columnar budget")

// sameChunks reports whether two manifests of one state cut it alike.
func sameChunks(a, b *imageManifest) bool {
	for k := range a.Chunks {
		if a.Chunks[k].Bucket != b.Chunks[k].Bucket || a.Chunks[k].Rows != b.Chunks[k].Rows || !bytes.Equal(a.Chunks[k].First, b.Chunks[k].First) {
			return false
		}
	}
	return true
}

// publishImage makes img t's image in place of the current one (expected
// to be base when base is set), and removes the replaced image's
// directory (scans still reading it keep its files open).
func (s *Store) publishImage(t *tableState, img, base *colImage) {
	tc := &t.col
	tc.mu.Lock()
	defer tc.mu.Unlock()
	t.mu.RLock()
	dead := t.dropped && !t.altered
	t.mu.RUnlock()
	old := tc.img.Load()
	s.colMu.Lock()
	defer s.colMu.Unlock()
	if dead || (base != nil && old != base) {
		if s.colDirs[t.info.TableID] != img.dir {
			_ = os.RemoveAll(img.dir)
		}
		return
	}
	tc.img.Store(img)
	if old != nil && old != img {
		old.files.maps.retire() // once the arrays read from it are released
	}
	prev := s.colDirs[t.info.TableID]
	s.colDirs[t.info.TableID] = img.dir
	s.colBytes.Add(img.bytes - s.colSizes[t.info.TableID])
	s.colSizes[t.info.TableID] = img.bytes
	if prev != "" && prev != img.dir {
		delete(s.colTrusted, prev)
		_ = os.RemoveAll(prev)
	}
}

// dropImage forgets t's image and removes it (a dropped table).
func (s *Store) dropImage(t *tableState) {
	tc := &t.col
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if old := tc.img.Load(); old != nil {
		old.files.maps.retire()
	}
	tc.img.Store(nil)
	s.colMu.Lock()
	defer s.colMu.Unlock()
	id := t.info.TableID
	if dir := s.colDirs[id]; dir != "" {
		delete(s.colTrusted, dir)
	}
	delete(s.colDirs, id)
	s.colBytes.Add(-s.colSizes[id])
	delete(s.colSizes, id)
	_ = os.RemoveAll(filepath.Join(s.dir, columnarDir, strconv.FormatInt(id, 10)))
}

// recoverColumnar is Open's part (columnarfile.go's cleanImages): what is
// left is each live table's newest complete image, opened by the table's
// first scan that wants one.
func (s *Store) recoverColumnar(live map[int64]bool) error {
	root := filepath.Join(s.dir, columnarDir)
	gen, keep, err := cleanImages(root, func(id int64) bool { return live[id] })
	if err != nil {
		return ioErr(err, "cleaning %s", root)
	}
	s.colGen.Store(gen)
	for id, dir := range keep {
		s.colDirs[id] = dir
	}
	return nil
}

// eachBucketChunk decodes bucket b's rows of snap into chunks of plan's
// columns, handing each to f with the primary key of its first row (the
// bytes after the data prefix; f must not keep them).
func (s *Store) eachBucketChunk(ctx context.Context, t *tableState, plan *projPlan, snap *readView, b int, f func(rec arrow.RecordBatch, first []byte) error) error {
	lo := bucketKey(prefixData, t.info.TableID, b)
	return s.eachRangeChunk(ctx, t, plan, snap, lo, prefixEnd(lo), f)
}

// eachRangeChunk is eachBucketChunk over the keys [lo, hi) of one bucket.
func (s *Store) eachRangeChunk(ctx context.Context, t *tableState, plan *projPlan, snap *readView, lo, hi []byte, f func(rec arrow.RecordBatch, first []byte) error) error {
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
	if err != nil {
		return ioErr(err, "scanning %s", t.info.Path)
	}
	it.First()
	sc := &stateScan{t: t, schema: plan.schema, pos: plan.pos, snap: snap, held: true, it: it, batchRows: colChunkRows,
		dec: format.NewRowDecoder(t.colTypes), keepFirst: true}
	defer sc.Close()
	for {
		rec, err := sc.Next(ctx)
		if err != nil || rec == nil {
			return err
		}
		err = f(rec, sc.first)
		rec.Release()
		if err != nil {
			return err
		}
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

// imageScan reads a columnar image's chunks [chunk, end) of its columns
// pos, one chunk at a time, handing out slices of batchRows rows; with a
// delta, the chunks written since the image and the written buckets
// without chunks come from snap's row store (columnarmerge.go).
type imageScan struct {
	s         *Store
	t         *tableState
	img       *colImage
	schema    *arrow.Schema
	pos       []int // image column of each output column
	batchRows int
	left      int64 // rows still allowed by the limit; 0 = unlimited
	chunk     int
	end       int
	done      bool
	// cur is chunk's columns once read; off the rows of it handed out.
	cur []arrow.Array
	off int64
	// drops are the mapped pages behind the scan not yet given back.
	drops imageDrops
	// split is the number of parts of a split scan (0: not split).
	split int
	// ranges are the scan's hints (fluss.ScanOptions.Ranges): chunks
	// whose statistics exclude them are skipped; read and skipped count.
	ranges        []imageRange
	read, skipped int64
	// top, when set, leaves out the rows a top hint says the caller
	// cannot keep (columnartop.go); pruned counts the chunks left out
	// whole.
	top    *topFilter
	pruned int64

	// The merge: delta (nil: none) and the snapshot the scan reads, with
	// release to close it when the scan owns it (nil: a held one); rows,
	// the key range being read from it (rowPos: the scan's table
	// columns), empties the written buckets without chunks still to
	// read (ascending), merged the chunks and buckets read from it.
	delta   *imageDelta
	snap    *readView
	release func()
	rowPos  []int
	dec     *format.RowDecoder
	rows    *stateScan
	empties []int
	merged  int64
}

// ScanChunks implements fluss.ChunkReporter: chunks read from the image,
// skipped by their statistics, and merged: read from the row store (with
// the written buckets that have no chunks) because writes since the image
// touched them.
func (s *imageScan) ScanChunks() fluss.ChunkCounts {
	return fluss.ChunkCounts{Read: s.read, Skipped: s.skipped, Merged: s.merged, TopPruned: s.pruned}
}

func (s *imageScan) Schema() *arrow.Schema { return s.schema }

// ScanPath implements fluss.ScanPathReporter.
func (s *imageScan) ScanPath() string { return "columnar image" }

func (s *imageScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for !s.done {
		if s.rows != nil {
			rec, err := s.rows.Next(ctx)
			if err != nil {
				return nil, err
			}
			if rec != nil {
				s.took(rec.NumRows())
				return rec, nil
			}
			s.rows.Close()
			s.rows = nil
			continue
		}
		if len(s.empties) > 0 && s.img.starts[s.empties[0]] <= s.chunk {
			// A written bucket without chunks, in its place.
			b := s.empties[0]
			s.empties = s.empties[1:]
			s.merged++
			lo := bucketKey(prefixData, s.t.info.TableID, b)
			if err := s.openRows(lo, prefixEnd(lo)); err != nil {
				return nil, err
			}
			continue
		}
		if s.chunk >= s.end {
			break
		}
		rows := s.img.man.Chunks[s.chunk].Rows
		if s.off >= rows {
			s.finishChunk(false)
			s.releaseCur()
			s.chunk, s.off = s.chunk+1, 0
			continue
		}
		if s.off == 0 && s.cur == nil {
			if s.delta != nil && s.delta.changed[s.chunk] {
				// Written since the image: its key range from the row store.
				s.merged++
				lo, hi := s.img.chunkBounds(s.t.info.TableID, s.chunk)
				s.chunk++
				if err := s.openRows(lo, hi); err != nil {
					return nil, err
				}
				continue
			}
			if len(s.ranges) > 0 && s.img.excludes(s.chunk, s.ranges) {
				s.skipped++
				s.chunk++
				continue
			}
			if s.top != nil {
				rec, err := s.readTopChunk(ctx)
				if err != nil {
					return nil, err
				}
				if rec == nil {
					s.pruned++
				} else {
					s.read++
				}
				s.finishChunk(false)
				s.releaseCur()
				s.chunk++
				if rec == nil {
					continue
				}
				s.took(rec.NumRows())
				return rec, nil
			}
			s.read++
			if len(s.pos) > 0 {
				if err := s.readChunk(); err != nil {
					return nil, err
				}
			}
		}
		n := min(int64(s.batchRows), rows-s.off)
		if s.left > 0 && n > s.left {
			n = s.left
		}
		cols := make([]arrow.Array, len(s.cur))
		for i, a := range s.cur {
			if s.off == 0 && n == rows {
				a.Retain()
				cols[i] = a
			} else {
				cols[i] = array.NewSlice(a, s.off, s.off+n)
			}
		}
		rec := array.NewRecordBatch(s.schema, cols, n)
		for _, a := range cols {
			a.Release()
		}
		s.off += n
		s.took(n)
		return rec, nil
	}
	s.done = true
	return nil, nil
}

// took counts n rows handed out against the limit.
func (s *imageScan) took(n int64) {
	if s.left > 0 {
		if s.left -= n; s.left <= 0 {
			s.done = true
		}
	}
}

// readChunk reads the current chunk's columns. A file that cannot be read is
// an error naming it, and the image serves no more scans.
func (s *imageScan) readChunk() error {
	s.cur = make([]arrow.Array, len(s.pos))
	for i := range s.pos {
		a, err := s.chunkColumn(i) // columnartop.go
		if err != nil {
			return err
		}
		s.cur[i] = a
	}
	return nil
}

// finishChunk notes that the scan is done with the current chunk's
// mapped pages, giving back those behind it (columnarmap.go), all of them
// when closing.
func (s *imageScan) finishChunk(closing bool) {
	m := s.img.files.maps
	if m == nil {
		return
	}
	for i, p := range s.pos {
		var a arrow.Array
		if i < len(s.cur) {
			a = s.cur[i]
		}
		s.drops.finished(m, i, p, a, closing)
	}
}

// releaseCur lets go of the current chunk's arrays (the batches handed
// out hold their own references): a mapped chunk's mapping is retired
// only once every array read from it is released (columnarmap.go).
func (s *imageScan) releaseCur() {
	for _, a := range s.cur {
		if a != nil {
			a.Release()
		}
	}
	s.cur = nil
}

func (s *imageScan) Close() {
	s.finishChunk(true)
	s.releaseCur()
	s.done = true
	if s.rows != nil {
		s.rows.Close()
		s.rows = nil
	}
	if s.release != nil {
		s.release()
		s.release = nil
	}
}

// ScanPath implements fluss.ScanPathReporter.
func (s *stateScan) ScanPath() string { return "row store" }

// closeColumnar stops the image builds (Close, before pebble closes).
func (s *Store) closeColumnar() {
	if s.colStop != nil {
		s.colStop()
	}
	s.colWG.Wait()
}

var _ fluss.StatsAnswerer = (*tableHandle)(nil)

// ScanStats implements fluss.StatsAnswerer from the columnar image's
// chunk statistics, when the image holds the current state and cols.
func (h *tableHandle) ScanStats(ctx context.Context, cols []int) (fluss.TableStats, bool, error) {
	if err := ctx.Err(); err != nil {
		return fluss.TableStats{}, false, err
	}
	if err := h.checkLive(); err != nil {
		return fluss.TableStats{}, false, err
	}
	t := h.t
	img := t.col.img.Load()
	if img == nil || !t.info.HasPrimaryKey() || h.s.columnarMinRows() < 0 {
		return fluss.TableStats{}, false, nil
	}
	snap := h.s.iters.view()
	committed, err := committedAt(snap, t)
	snap.Close()
	if err != nil || !img.validAt(committed) {
		return fluss.TableStats{}, false, err
	}
	pos, ok := img.holds(cols, len(t.colTypes))
	if !ok || cols == nil {
		return fluss.TableStats{}, false, nil
	}
	st := fluss.TableStats{Rows: img.man.Rows, Columns: make([]fluss.ColumnStats, len(cols))}
	for i, j := range pos {
		cs := fluss.ColumnStats{MinMax: true}
		for _, ch := range img.man.Chunks {
			s := &ch.Stats[j]
			if s.Nulls == ch.Rows {
				continue
			}
			first := cs.NonNull == 0
			cs.NonNull += ch.Rows - s.Nulls
			if s.Min == nil || s.Max == nil {
				cs.MinMax = false
				continue
			}
			if first || *s.Min < cs.Min {
				cs.Min = *s.Min
			}
			if first || *s.Max > cs.Max {
				cs.Max = *s.Max
			}
		}
		st.Columns[i] = cs
	}
	return st, true, nil
}
