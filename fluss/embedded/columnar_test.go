package embedded

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
)

// readScan reads r whole into rows of int32 values, and says which path
// served it.
func readScan(t testing.TB, r fluss.RecordReader) ([][]int32, string) {
	t.Helper()
	defer r.Close()
	path := ""
	if p, ok := r.(fluss.ScanPathReporter); ok {
		path = p.ScanPath()
	}
	var rows [][]int32
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if rec == nil {
			return rows, path
		}
		rows = append(rows, recordRows(rec)...)
		rec.Release()
	}
}

// rowPath reads table tb's state in snap through the row decoder alone:
// the reference a columnar read must equal, in order.
func rowPath(t testing.TB, s *Store, tb fluss.Table, snap *storeSnapshot, proj []int) [][]int32 {
	t.Helper()
	ts := tb.(*tableHandle).t
	plan, err := projectionFor(ts, proj)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]int32
	for b := range ts.buckets {
		err := s.eachBucketChunk(context.Background(), ts, plan, snap.snap, b, func(rec arrow.RecordBatch, _ []byte) error {
			rows = append(rows, recordRows(rec)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

func openColumnar(t testing.TB) *Store {
	t.Helper()
	s, err := Open(t.TempDir(), Options{ColumnarMinRows: 1, BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestColumnarImage: a full scan asks for the image, later scans are served
// from it exactly as the row path would (order, projection, limit, held
// snapshots), a scan after a write merges it into the image's rows, and a
// snapshot older than a rebuilt image reads the row path.
func TestColumnarImage(t *testing.T) {
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	upsert := func(rows ...[]int32) {
		t.Helper()
		rec := intRecord([]string{"k", "v", "w"}, rows...)
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var rows [][]int32
	for k := range int32(1000) {
		rows = append(rows, []int32{k, k * 2, k % 7})
	}
	upsert(rows...)
	scan := func(opts fluss.ScanOptions) ([][]int32, string) {
		t.Helper()
		r, err := tb.Scan(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return readScan(t, r)
	}
	snapshot := func() *storeSnapshot {
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return ss.(*storeSnapshot)
	}

	early := snapshot() // before any image: the same state as the first one
	defer early.Close()
	want, p := scan(fluss.ScanOptions{Projection: []int{2, 0}})
	if p != "row store" || len(want) != 1000 {
		t.Fatalf("first scan: path %q, %d rows", p, len(want))
	}
	s.colWG.Wait()
	for _, tc := range []struct {
		opts fluss.ScanOptions
		path string
	}{
		{fluss.ScanOptions{Projection: []int{2, 0}}, "columnar image"},
		{fluss.ScanOptions{Projection: []int{0}}, "columnar image"},
		{fluss.ScanOptions{Projection: []int{}}, "columnar image"},
		{fluss.ScanOptions{Projection: []int{2, 0}, Limit: 250}, "columnar image"},
		{fluss.ScanOptions{Projection: []int{1}}, "row store"}, // not in the image yet
	} {
		got, p := scan(tc.opts)
		ref := rowPath(t, s, tb, early, tc.opts.Projection)
		if tc.opts.Limit > 0 {
			ref = ref[:tc.opts.Limit]
		}
		if p != tc.path || !slices.EqualFunc(got, ref, slices.Equal) {
			t.Fatalf("%+v: path %q (want %q), %d rows, equal %v", tc.opts, p, tc.path, len(got), slices.EqualFunc(got, ref, slices.Equal))
		}
	}
	waitImage(t, s, tb) // the image now holds column 1 too
	if got, p := scan(fluss.ScanOptions{}); p != "columnar image" || !slices.EqualFunc(got, rowPath(t, s, tb, early, nil), slices.Equal) {
		t.Fatalf("all columns: path %q, %d rows", p, len(got))
	}
	// A snapshot taken before the image holds its state.
	if got, p := readScan(t, mustScan(t, early, tb, fluss.ScanOptions{})); p != "columnar image" || len(got) != 1000 {
		t.Fatalf("early snapshot: path %q, %d rows", p, len(got))
	}

	before := snapshot()
	defer before.Close()
	upsert([]int32{5, -5, -5}, []int32{5000, 1, 1})
	after := snapshot()
	defer after.Close()
	for _, c := range []struct {
		ss   *storeSnapshot
		path string
		rows int
	}{{early, "columnar image", 1000}, {before, "columnar image", 1000}, {after, "columnar image", 1001}} {
		got, p := readScan(t, mustScan(t, c.ss, tb, fluss.ScanOptions{}))
		if p != c.path || len(got) != c.rows || !slices.EqualFunc(got, rowPath(t, s, tb, c.ss, nil), slices.Equal) {
			t.Fatalf("snapshot: path %q (want %q), %d rows (want %d)", p, c.path, len(got), c.rows)
		}
	}
	// (The scans of the later snapshots asked for a new image: it may be
	// there already.)
	waitImage(t, s, tb)
	got, p := scan(fluss.ScanOptions{})
	if p != "columnar image" || !slices.EqualFunc(got, rowPath(t, s, tb, after, nil), slices.Equal) {
		t.Fatalf("rebuilt: path %q, %d rows", p, len(got))
	}
	// The older snapshots now read the rows of the row store again.
	if _, p := readScan(t, mustScan(t, before, tb, fluss.ScanOptions{})); p != "row store" {
		t.Fatalf("snapshot older than the image: path %q", p)
	}
}

func mustScan(t testing.TB, ss *storeSnapshot, tb fluss.Table, opts fluss.ScanOptions) fluss.RecordReader {
	t.Helper()
	st, _ := ss.Table(tb)
	r, err := st.Scan(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitImage scans tb until a build has made an image valid for the
// current state (a build is throttled after a recent one): a scan served
// from the image alone, merging nothing. The deadline only guards against
// a hang: the throttle waits twice the last build's time, which under the
// race detector on a loaded machine is seconds, so it is as long as
// waitSixColImage's.
func waitImage(t testing.TB, s *Store, tb fluss.Table) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
		r, err := tb.Scan(context.Background(), fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, p := readScan(t, r)
		if c, ok := r.(fluss.ChunkReporter); ok && p == "columnar image" && c.ScanChunks().Merged == 0 {
			return
		}
		s.colWG.Wait()
		waitBuildThrottle(tb, deadline)
	}
	t.Fatal("no columnar image within 2 minutes")
}

// waitBuildThrottle sleeps until tb's next image build may start (the
// throttle after a build: twice its time, ten times after a refused one)
// or the waiter's deadline, whichever is first, and at least 5 ms. An image waiter's scan asks for the build, but while
// the throttle holds it asks in vain, and each scan of a large table under
// the race detector is seconds of CPU: polling every 5 ms through the
// throttle's window scanned the whole table again and again for nothing.
func waitBuildThrottle(tb fluss.Table, deadline time.Time) {
	tc := &tb.(*tableHandle).t.col
	tc.mu.Lock()
	until := time.Time{}
	if !tc.lastEnd.IsZero() {
		until = tc.lastEnd.Add(2 * tc.lastTook)
		if tc.refused {
			until = tc.lastEnd.Add(10 * tc.lastTook)
		}
	}
	tc.mu.Unlock()
	if until.After(deadline) {
		until = deadline // a held image (holdImage) waits out the deadline, as before
	}
	time.Sleep(max(time.Until(until), 5*time.Millisecond))
}

// writeBudget bounds the writes a concurrent test's writers make per round
// of its checks: the round grants them, the writers take one per write and
// wait for the next round when none is left. Writers paced by the clock
// instead wrote more the slower the checks ran (the race detector, a loaded
// machine), and each scan then had more writes to merge: rounds grew longer
// still. With a budget the writes still run while the round scans, as many
// on a slow machine as on a fast one.
type writeBudget struct {
	tokens chan struct{}
	taken  atomic.Int64 // writes made, for the test's log
}

// newWriteBudget makes a budget of n writes per round.
func newWriteBudget(n int) *writeBudget {
	return &writeBudget{tokens: make(chan struct{}, n)}
}

// grant starts a round: the budget is full again (what the last round left
// unused does not carry over beyond n).
func (b *writeBudget) grant() {
	for {
		select {
		case b.tokens <- struct{}{}:
		default:
			return
		}
	}
}

// take waits for a write's token; false once stop is closed.
func (b *writeBudget) take(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return false
	case <-b.tokens:
		b.taken.Add(1)
		return true
	}
}

// TestColumnarConcurrentWrites: while writers upsert and delete and images
// are rebuilt in the background, every scan of a held snapshot (a long
// transaction's) and every scan of the newest state, through whichever
// path serves it (the image, the image merging the writes since its build,
// the row store), equals the row path's reading of the same snapshot, and
// images keep being built, merged into and used.
func TestColumnarConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 4})
	var rows [][]int32
	for k := range int32(3000) {
		rows = append(rows, []int32{k, k, 0})
	}
	rec := intRecord([]string{"k", "v", "w"}, rows...)
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()

	stop := make(chan struct{})
	budget := newWriteBudget(80)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := int32(0); ; i++ {
				if !budget.take(stop) {
					return
				}
				k := rng.Int32N(4000)
				var err error
				if rng.IntN(4) == 0 {
					del := intRecord([]string{"k"}, []int32{k})
					_, err = tb.Delete(ctx, del)
					del.Release()
				} else {
					up := intRecord([]string{"k", "v", "w"}, []int32{k, i, int32(w)}, []int32{(k + 1) % 4000, -i, int32(w)})
					_, err = tb.Upsert(ctx, up, fluss.UpsertOptions{})
					up.Release()
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	paths := map[string]int{}
	var long *storeSnapshot // a long transaction's snapshot, kept over many rounds
	for round := range 60 {
		budget.grant()
		if round%15 == 0 {
			if long != nil {
				long.Close()
			}
			ss, err := s.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			long = ss.(*storeSnapshot)
		}
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cur := ss.(*storeSnapshot)
		for _, snap := range []*storeSnapshot{long, cur} {
			for _, proj := range [][]int{nil, {2, 0}} {
				r := mustScan(t, snap, tb, fluss.ScanOptions{Projection: proj})
				got, p := readScan(t, r)
				paths[p]++
				if c, ok := r.(fluss.ChunkReporter); ok && c.ScanChunks().Merged > 0 {
					paths["merged"]++
				}
				if ref := rowPath(t, s, tb, snap, proj); !slices.EqualFunc(got, ref, slices.Equal) {
					t.Fatalf("round %d, path %q, projection %v: %d rows, the row path %d", round, p, proj, len(got), len(ref))
				}
			}
		}
		cur.Close()
		// A plain scan (its own snapshot) asks for images as the rounds go.
		r, err := tb.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, p := readScan(t, r)
		paths["plain "+p]++
		if len(got) == 0 {
			t.Fatal("empty scan")
		}
		time.Sleep(2 * time.Millisecond)
	}
	long.Close()
	close(stop)
	wg.Wait()
	t.Logf("scans by path: %v; %d writes", paths, budget.taken.Load())
	if paths["merged"] == 0 {
		t.Error("no scan merged writes into an image")
	}
	waitImage(t, s, tb)
}

// TestSplitScan: the parts of a split scan, read one after the other,
// are the whole scan in its order, from the image and from the row store.
func TestSplitScan(t *testing.T) {
	ctx := context.Background()
	for _, minRows := range []int64{1, -1} {
		s, err := Open(t.TempDir(), Options{ColumnarMinRows: minRows, BatchRows: 100})
		if err != nil {
			t.Fatal(err)
		}
		tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 5})
		var rows [][]int32
		for k := range int32(200_000) {
			rows = append(rows, []int32{k, k * 3, k % 11})
		}
		rec := intRecord([]string{"k", "v", "w"}, rows...)
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		want := "row store"
		if minRows > 0 {
			waitImage(t, s, tb)
			want = "columnar image"
		}
		ss, err := s.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ref := rowPath(t, s, tb, ss.(*storeSnapshot), []int{2, 0})
		ss.Close()
		for _, parts := range []int{2, 3} {
			rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{Projection: []int{2, 0}}, parts)
			if err != nil || len(rs) != parts {
				t.Fatalf("SplitScan(%d): %d readers, %v", parts, len(rs), err)
			}
			var got [][]int32
			for _, r := range rs {
				part, p := readScan(t, r)
				if p != want {
					t.Fatalf("part path %q, want %q", p, want)
				}
				got = append(got, part...)
			}
			if !slices.EqualFunc(got, ref, slices.Equal) {
				t.Fatalf("%d parts (%s): %d rows, want %d", parts, want, len(got), len(ref))
			}
		}
		if rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{}, 64); err != nil || rs != nil {
			t.Fatalf("more parts than buckets or chunks: %d readers, %v", len(rs), err)
		}
		s.Close()
	}
}

// TestSplitScanConcurrentWrites: a writer moves amounts between pairs of
// rows, each move one atomic upsert, so that every consistent state has
// the same row count and sum; every split scan (parts read at once, from
// the row store or the image) and every plain scan taken meanwhile sees
// exactly that.
func TestSplitScanConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 4})
	const n = 20_000
	var rows [][]int32
	for k := range int32(n) {
		rows = append(rows, []int32{k, 0, 0})
	}
	rec := intRecord([]string{"k", "v", "w"}, rows...)
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	stop := make(chan struct{})
	done := make(chan struct{})
	budget := newWriteBudget(20)
	go func() {
		defer close(done)
		rng := rand.New(rand.NewPCG(1, 2))
		vals := make([]int32, n)
		for i := 0; ; i++ {
			if !budget.take(stop) {
				return
			}
			a, b := rng.Int32N(n), rng.Int32N(n)
			if a == b {
				continue
			}
			d := rng.Int32N(100)
			vals[a] += d
			vals[b] -= d
			up := intRecord([]string{"k", "v", "w"}, []int32{a, vals[a], int32(i)}, []int32{b, vals[b], int32(i)})
			_, err := tb.Upsert(ctx, up, fluss.UpsertOptions{})
			up.Release()
			if err != nil {
				t.Error(err)
				return
			}
		}
	}()
	check := func(what string, readers []fluss.RecordReader) string {
		var count, sum int64
		paths := ""
		var wg sync.WaitGroup
		got := make([][][]int32, len(readers))
		ps := make([]string, len(readers))
		for i, r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], ps[i] = readScan(t, r)
			}()
		}
		wg.Wait()
		for i, part := range got {
			for _, row := range part {
				count++
				sum += int64(row[1])
			}
			paths = ps[i]
		}
		if count != n || sum != 0 {
			t.Fatalf("%s (%s): %d rows, sum %d", what, paths, count, sum)
		}
		return paths
	}
	seen := map[string]int{}
	for round := 0; round < 80; round++ {
		budget.grant()
		rs, err := tb.(fluss.SplitScanner).SplitScan(ctx, fluss.ScanOptions{Projection: []int{0, 1}}, 2)
		if err != nil || rs == nil {
			t.Fatalf("SplitScan: %v, %d readers", err, len(rs))
		}
		seen["split "+check("split scan", rs)]++
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0, 1}})
		if err != nil {
			t.Fatal(err)
		}
		seen["plain "+check("scan", []fluss.RecordReader{r})]++
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-done
	t.Logf("scans by path: %v; %d writes", seen, budget.taken.Load())
}

// TestColumnarBudget: an image the store's budget cannot hold is not
// published (scans stay on the row store) and not rebuilt at once.
func TestColumnarBudget(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{ColumnarMinRows: 1, ColumnarBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	var rows [][]int32
	for k := range int32(5000) {
		rows = append(rows, []int32{k, k, k})
	}
	rec := intRecord([]string{"k", "v", "w"}, rows...)
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	for range 3 {
		r, err := tb.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, p := readScan(t, r)
		if p != "row store" || len(got) != 5000 {
			t.Fatalf("path %q, %d rows", p, len(got))
		}
		s.colWG.Wait()
	}
	tc := &tb.(*tableHandle).t.col
	tc.mu.Lock()
	refused := tc.refused
	tc.mu.Unlock()
	if !refused || s.colBytes.Load() != 0 {
		t.Fatalf("refused %v, image bytes %d", refused, s.colBytes.Load())
	}
}
