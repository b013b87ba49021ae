package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
)

// holdImage stops t's image from being rebuilt (as if the last build had
// taken an hour), so that scans of later states must merge; releaseImage
// lifts that.
func holdImage(tb fluss.Table) {
	tc := &tb.(*tableHandle).t.col
	tc.mu.Lock()
	tc.lastEnd, tc.lastTook = time.Now(), time.Hour
	tc.mu.Unlock()
}

func releaseImage(tb fluss.Table) {
	tc := &tb.(*tableHandle).t.col
	tc.mu.Lock()
	tc.lastEnd, tc.lastTook = time.Time{}, 0
	tc.mu.Unlock()
}

// bucketOfKey is the bucket of primary key k of tb (one int32 column).
func bucketOfKey(t testing.TB, tb fluss.Table, k int32) int {
	t.Helper()
	ts := tb.(*tableHandle).t
	rec := intRecord([]string{"k"}, []int32{k})
	defer rec.Release()
	rows, err := encodeKeys(ts, rec, rec.Columns(), rec.Columns(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return rows[0].bucket
}

// inRange keeps the rows whose column c lies in [lo, hi].
func inRange(rows [][]int32, c int, lo, hi int32) [][]int32 {
	var out [][]int32
	for _, r := range rows {
		if r[c] >= lo && r[c] <= hi {
			out = append(out, r)
		}
	}
	return out
}

// TestColumnarMergeOnRead: once an image is built, scans of later states
// are served from it, merging every kind of write made since — updates of
// keys inside chunks, inserts before, between and after a bucket's chunks
// and into buckets that had no chunk, deletes of single keys and of whole
// chunks and buckets, partial updates — and each equals the row path's
// reading of its snapshot, in order: with projections, limits, chunk
// ranges and split scans, for the newest state and for every older
// snapshot still held (long transactions), until a rebuilt image leaves the
// older ones to the row path.
func TestColumnarMergeOnRead(t *testing.T) {
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 4})
	upsert := func(names []string, rows [][]int32) {
		t.Helper()
		if len(rows) == 0 {
			return
		}
		opts := fluss.UpsertOptions{}
		if len(names) < 3 {
			// A partial update: w is in the batch but not written.
			opts.TargetColumns = names
			for i, r := range rows {
				rows[i] = append(r, -99)
			}
		}
		rec := intRecord([]string{"k", "v", "w"}, rows...)
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, opts); err != nil {
			t.Fatal(err)
		}
	}
	del := func(keys []int32) {
		t.Helper()
		var rows [][]int32
		for _, k := range keys {
			rows = append(rows, []int32{k})
		}
		rec := intRecord([]string{"k"}, rows...)
		defer rec.Release()
		if _, err := tb.Delete(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	// Bucket 1 holds no row when the image is built; the others three
	// chunks each (8192 rows a chunk).
	empty := map[int]bool{1: true}
	var initial [][]int32
	var emptyKeys, keys []int32
	for k := int32(0); len(initial) < 60_000; k++ {
		if empty[bucketOfKey(t, tb, k)] {
			emptyKeys = append(emptyKeys, k)
			continue
		}
		initial = append(initial, []int32{k, k * 2, k % 13})
		keys = append(keys, k)
	}
	upsert([]string{"k", "v", "w"}, initial)
	waitImage(t, s, tb)
	holdImage(tb)
	img := tb.(*tableHandle).t.col.img.Load()
	if n := len(img.man.Chunks); n < 8 {
		t.Fatalf("the image has %d chunks; the test wants several per bucket", n)
	}

	rng := rand.New(rand.NewPCG(27, 1))
	steps := []struct {
		name  string
		write func()
	}{
		{"update keys inside chunks", func() {
			var rows [][]int32
			for range 3 {
				k := keys[rng.IntN(len(keys))]
				rows = append(rows, []int32{k, -k, 100})
			}
			upsert([]string{"k", "v", "w"}, rows)
		}},
		{"insert keys around and between chunks", func() {
			var rows [][]int32
			for _, k := range []int32{-1, -1000, 1 << 30, -1 << 30, 2_000_000_000, 150_000, 150_001} {
				if !empty[bucketOfKey(t, tb, k)] {
					rows = append(rows, []int32{k, 7, 7})
				}
			}
			upsert([]string{"k", "v", "w"}, rows)
		}},
		{"insert into buckets that had no chunk", func() {
			var rows [][]int32
			for _, k := range emptyKeys[:50] {
				rows = append(rows, []int32{k, 1, 1})
			}
			upsert([]string{"k", "v", "w"}, rows)
		}},
		{"delete single keys", func() {
			var ks []int32
			for range 20 {
				ks = append(ks, keys[rng.IntN(len(keys))])
			}
			del(append(ks, emptyKeys[3], 99_999_999))
		}},
		{"partial update", func() {
			var rows [][]int32
			for range 10 {
				k := keys[rng.IntN(len(keys))]
				rows = append(rows, []int32{k, 555})
			}
			upsert([]string{"k", "v"}, rows)
		}},
		{"delete whole chunks (a range of keys)", func() {
			del(keys[5000:22_000])
		}},
		{"delete a whole bucket", func() {
			var ks []int32
			for _, k := range keys {
				if bucketOfKey(t, tb, k) == 2 {
					ks = append(ks, k)
				}
			}
			del(ks)
		}},
		{"reinsert deleted keys with new values", func() {
			var rows [][]int32
			for _, k := range keys[6000:6100] {
				rows = append(rows, []int32{k, 0, 0})
			}
			upsert([]string{"k", "v", "w"}, rows)
		}},
	}
	type held struct {
		name string
		ss   *storeSnapshot
	}
	var snaps []held
	defer func() {
		for _, h := range snaps {
			h.ss.Close()
		}
	}()
	// check compares scans of ss with the row path; merged says some
	// chunks must come from the row store, someRead some from the image.
	check := func(what string, ss *storeSnapshot, wantPath string, merged, someRead bool) {
		t.Helper()
		for _, proj := range [][]int{nil, {2, 0}, {}} {
			ref := rowPath(t, s, tb, ss, proj)
			for _, limit := range []int64{0, 7, 9000} {
				r := mustScan(t, ss, tb, fluss.ScanOptions{Projection: proj, Limit: limit})
				got, p := readScan(t, r)
				want := ref
				if limit > 0 && int64(len(want)) > limit {
					want = want[:limit]
				}
				if p != wantPath || !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("%s, projection %v, limit %d: path %q (want %q), %d rows, the row path %d", what, proj, limit, p, wantPath, len(got), len(want))
				}
				if wantPath != "columnar image" || limit > 0 {
					continue
				}
				if cc := r.(fluss.ChunkReporter).ScanChunks(); merged != (cc.Merged > 0) || someRead && cc.Read == 0 {
					t.Fatalf("%s, projection %v: chunks %+v: merged %v, read some %v", what, proj, cc, merged, someRead)
				}
			}
		}
		// Chunk ranges: chunks the statistics exclude are skipped, touched
		// ones are read from the row store whatever their statistics.
		ref := rowPath(t, s, tb, ss, nil)
		for _, rg := range [][2]int32{{-1 << 31, -1}, {0, 5000}, {30_000, 60_000}, {555, 555}} {
			r := mustScan(t, ss, tb, fluss.ScanOptions{Ranges: []fluss.ColumnRange{{Column: 1, Lo: int64(rg[0]), Hi: int64(rg[1])}}})
			got, p := readScan(t, r)
			if want := inRange(ref, 1, rg[0], rg[1]); p != wantPath || !slices.EqualFunc(inRange(got, 1, rg[0], rg[1]), want, slices.Equal) {
				t.Fatalf("%s, range %v: path %q, %d rows in range, the row path %d", what, rg, p, len(inRange(got, 1, rg[0], rg[1])), len(want))
			}
		}
	}
	for i, st := range steps {
		st.write()
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		snap := ss.(*storeSnapshot)
		snaps = append(snaps, held{st.name, snap})
		check(st.name, snap, "columnar image", true, i == 0)
		// A plain scan (its own snapshot) and split scans of the newest state.
		ref := rowPath(t, s, tb, snap, []int{0, 1})
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		if got, p := readScan(t, r); p != "columnar image" || !slices.EqualFunc(got, ref, slices.Equal) {
			t.Fatalf("%s: plain scan: path %q, %d rows, the row path %d", st.name, p, len(got), len(ref))
		}
		for _, parts := range []int{2, 3, 5} {
			rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{Projection: []int{0, 1}}, parts)
			if err != nil || len(rs) != parts {
				t.Fatalf("%s: SplitScan(%d): %d readers, %v", st.name, parts, len(rs), err)
			}
			var got [][]int32
			var merged int64
			for _, r := range rs {
				part, p := readScan(t, r)
				if p != "columnar image" {
					t.Fatalf("%s: split part path %q", st.name, p)
				}
				merged += r.(fluss.ChunkReporter).ScanChunks().Merged
				got = append(got, part...)
			}
			if !slices.EqualFunc(got, ref, slices.Equal) || merged == 0 {
				t.Fatalf("%s: %d parts: %d rows (%d merged chunks), the row path %d", st.name, parts, len(got), merged, len(ref))
			}
		}
	}
	// Every older snapshot still merges into the same image (from the
	// image's state, not the newest delta).
	for _, h := range snaps {
		check(h.name+" (held)", h.ss, "columnar image", true, false)
	}
	// A rebuild: the newest state is the image's again; snapshots older
	// than it read the row store, still exactly.
	releaseImage(tb)
	waitImage(t, s, tb)
	for _, h := range snaps[:len(snaps)-1] {
		check(h.name+" (after the rebuild)", h.ss, "row store", false, false)
	}
	check("the rebuilt image's state", snaps[len(snaps)-1].ss, "columnar image", false, true)
}

// TestColumnarBuildReadsAroundCache: an image build, and a full scan of
// the row store of a table that large, read the whole state through a
// block cache shrunk to buildCacheWindow, so that they leave the cache (C
// memory) small instead of full of the table's blocks.
func TestColumnarBuildReadsAroundCache(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{CacheBytes: 64 << 20, ColumnarMinRows: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb := createTable(t, s, "six", sixColDesc(true, 4))
	for first := 0; first < 800_000; first += 200_000 {
		rec := sixColRecord(tb.Info().ArrowSchema(), int64(first), 200_000)
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	// The bulk load's sstables are compacted in the background, which
	// evicts their blocks: wait for it. The row path's scan then fills the
	// cache with the state's blocks.
	s.settle.wait()
	r, err := tb.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rows, p := readScanCount(t, r); rows != 800_000 || p != "row store" {
		t.Fatalf("%d rows from %q", rows, p)
	}
	filled := s.db.Metrics().BlockCache.Size
	if filled < buildCacheWindow*3/2 {
		t.Fatalf("the row path's scan left %d bytes in the block cache; the test wants it fuller", filled)
	}
	// With the image path on, a full scan of the row store (here while
	// no build may start) reads around the cache too.
	s.opts.ColumnarMinRows = 1
	tc := &tb.(*tableHandle).t.col
	tc.mu.Lock()
	tc.busy = true
	tc.mu.Unlock()
	r, err = tb.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rows, p := readScanCount(t, r); rows != 800_000 || p != "row store" {
		t.Fatalf("%d rows from %q", rows, p)
	}
	if after := s.db.Metrics().BlockCache.Size; after > buildCacheWindow+1<<20 {
		t.Fatalf("block cache %d bytes after a full scan of the row store (%d before it), want at most %d", after, filled, buildCacheWindow)
	}
	// The row path's scan fills it again (image path off); then the
	// image's build.
	s.opts.ColumnarMinRows = -1
	if r, err = tb.Scan(ctx, fluss.ScanOptions{}); err != nil {
		t.Fatal(err)
	}
	readScanCount(t, r)
	if filled = s.db.Metrics().BlockCache.Size; filled < buildCacheWindow*3/2 {
		t.Fatalf("the row path's scan left %d bytes in the block cache; the test wants it fuller", filled)
	}
	s.opts.ColumnarMinRows = 1
	tc.mu.Lock()
	tc.busy = false
	tc.mu.Unlock()
	for deadline := time.Now().Add(time.Minute); ; {
		r, err := tb.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, p := readScanCount(t, r); p == "columnar image" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no columnar image within a minute")
		}
		s.colWG.Wait()
	}
	if after := s.db.Metrics().BlockCache.Size; after > buildCacheWindow+1<<20 {
		t.Fatalf("block cache %d bytes after the build (%d before it), want at most the build's window %d", after, filled, buildCacheWindow)
	}
	if s.cacheShrunk != 0 || s.cacheUndo != nil {
		t.Fatalf("the cache is still shrunk (%d builds)", s.cacheShrunk)
	}
}

// readScanCount reads r whole and counts its rows.
func readScanCount(t testing.TB, r fluss.RecordReader) (int64, string) {
	t.Helper()
	defer r.Close()
	path := ""
	if p, ok := r.(fluss.ScanPathReporter); ok {
		path = p.ScanPath()
	}
	var n int64
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return n, path
		}
		n += rec.NumRows()
		rec.Release()
	}
}

// TestColumnarPatch: after writes that touch few chunks, the next image is
// patched from the previous one (untouched chunks copied, touched ones
// decoded again) and equals the row path in order, round after round of
// updates, inserts (into buckets that had no chunk too) and deletes
// (emptying chunks); its manifest stays well formed, it survives a
// restart, and writes touching most chunks get a full build instead.
func TestColumnarPatch(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{ColumnarMinRows: 1, BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	write := func(up [][]int32, del []int32) {
		t.Helper()
		if len(up) > 0 {
			rec := intRecord([]string{"k", "v", "w"}, up...)
			defer rec.Release()
			if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if len(del) > 0 {
			var rows [][]int32
			for _, k := range del {
				rows = append(rows, []int32{k})
			}
			rec := intRecord([]string{"k"}, rows...)
			defer rec.Release()
			if _, err := tb.Delete(ctx, rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	var initial [][]int32
	var emptyKeys []int32
	// 90k rows in buckets 0 and 1: 12 chunks, so that a round's writes
	// (at most 5 chunks touched) are patched in.
	for k := int32(0); len(initial) < 90_000; k++ {
		if bucketOfKey(t, tb, k) == 2 {
			emptyKeys = append(emptyKeys, k)
			continue
		}
		initial = append(initial, []int32{k, k, 0})
	}
	write(initial, nil)
	waitImage(t, s, tb)
	patches := func() int {
		tc := &tb.(*tableHandle).t.col
		tc.mu.Lock()
		defer tc.mu.Unlock()
		return tc.patches
	}
	check := func(what string) {
		t.Helper()
		waitImage(t, s, tb)
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		got, p := readScan(t, mustScan(t, ss.(*storeSnapshot), tb, fluss.ScanOptions{}))
		if ref := rowPath(t, s, tb, ss.(*storeSnapshot), nil); p != "columnar image" || !slices.EqualFunc(got, ref, slices.Equal) {
			t.Fatalf("%s: path %q, %d rows, the row path %d", what, p, len(got), len(ref))
		}
		img := tb.(*tableHandle).t.col.img.Load()
		if _, err := readManifest(img.dir, img.man.TableID, func(c int) (arrow.DataType, bool) { return arrow.PrimitiveTypes.Int32, c < 3 }); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for round := range 6 {
		before := patches()
		// Updates of three keys next to each other in the state's order
		// (one chunk, or two), an insert into bucket 2 (which had no
		// chunk) and one of a new key.
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		order := rowPath(t, s, tb, ss.(*storeSnapshot), nil)
		ss.Close()
		var up [][]int32
		at := 10_000 + rng.IntN(20_000)
		for _, r := range order[at : at+3] {
			up = append(up, []int32{r[0], -r[0], int32(round)})
		}
		up = append(up, []int32{emptyKeys[round], 1, 1}, []int32{-int32(round) - 1, 2, 2})
		var del []int32
		if round == 2 {
			// A whole chunk and more of consecutive keys (in the state's
			// order: bucket 0's come first), emptying a chunk's range.
			ss, err := s.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rowPath(t, s, tb, ss.(*storeSnapshot), nil)[100:9100] {
				del = append(del, r[0])
			}
			ss.Close()
			up = nil // the delete alone: it touches 2 or 3 of 12 chunks
		}
		write(up, del)
		check(fmt.Sprintf("round %d", round))
		if patches() != before+1 {
			t.Fatalf("round %d: %d patches, want %d", round, patches(), before+1)
		}
	}
	// A write touching every chunk: a full build, no patch.
	before := patches()
	var all [][]int32
	for _, r := range initial[:5000] {
		all = append(all, []int32{r[0], 7, 7})
	}
	write(all, nil)
	check("every chunk touched")
	if patches() != before {
		t.Fatal("a write touching every chunk was patched in, not rebuilt")
	}
	// A patched image is read after a restart.
	want, _ := scanOf(t, tb)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{ColumnarMinRows: 1, BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if tb, err = s.Table(ctx, path("kv")); err != nil {
		t.Fatal(err)
	}
	waitImage(t, s, tb)
	if got, p := scanOf(t, tb); p != "columnar image" || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("after a restart: path %q, %d rows, want %d", p, len(got), len(want))
	}
}
