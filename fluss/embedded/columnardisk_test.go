package embedded

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
)

// imageDirs lists the image directories under the store's columnar/.
func imageDirs(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	tables, _ := os.ReadDir(filepath.Join(dir, columnarDir))
	for _, tb := range tables {
		gens, err := os.ReadDir(filepath.Join(dir, columnarDir, tb.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gens {
			out = append(out, filepath.Join(dir, columnarDir, tb.Name(), g.Name()))
		}
	}
	return out
}

// kvTable makes table kv (k, v, w) of n rows.
func kvTable(t testing.TB, s *Store, n int32) fluss.Table {
	t.Helper()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	var rows [][]int32
	for k := range n {
		rows = append(rows, []int32{k, k * 3, k % 11})
	}
	rec := intRecord([]string{"k", "v", "w"}, rows...)
	defer rec.Release()
	if _, err := tb.Upsert(context.Background(), rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	return tb
}

// scanOf reads tb whole (its own snapshot) and says which path served it.
func scanOf(t testing.TB, tb fluss.Table) ([][]int32, string) {
	t.Helper()
	r, err := tb.Scan(context.Background(), fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return readScan(t, r)
}

// imagedStore leaves in dir a closed store whose table kv of 3000 rows has
// a columnar image, and returns kv's rows and the image's directory.
func imagedStore(t *testing.T, dir string) ([][]int32, string) {
	t.Helper()
	s, err := Open(dir, Options{ColumnarMinRows: 1, BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	tb := kvTable(t, s, 3000)
	want, _ := scanOf(t, tb)
	waitImage(t, s, tb)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	imgs := imageDirs(t, dir)
	if len(imgs) != 1 {
		t.Fatalf("image directories after the first process: %v", imgs)
	}
	return want, imgs[0]
}

// TestColumnarImageSurvivesRestart: an image written by one process is
// used by the next without being rebuilt, and equals the row path; a write
// after the restart makes it stale.
func TestColumnarImageSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	want, img := imagedStore(t, dir)
	before := []string{img}

	s, err := Open(dir, Options{ColumnarMinRows: 1, BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb, err := s.Table(context.Background(), path("kv"))
	if err != nil {
		t.Fatal(err)
	}
	waitImage(t, s, tb)
	got, p := scanOf(t, tb)
	if p != "columnar image" || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("after restart: path %q, %d rows (want %d)", p, len(got), len(want))
	}
	if after := imageDirs(t, dir); !slices.Equal(after, before) {
		t.Fatalf("the image was rebuilt: %v, before %v", after, before)
	}
	st, ok, err := tb.(fluss.StatsAnswerer).ScanStats(context.Background(), []int{0, 2})
	if err != nil || !ok || st.Rows != 3000 || st.Columns[0] != (fluss.ColumnStats{NonNull: 3000, MinMax: true, Min: 0, Max: 2999}) ||
		st.Columns[1] != (fluss.ColumnStats{NonNull: 3000, MinMax: true, Min: 0, Max: 10}) {
		t.Fatalf("statistics: %+v, %v, %v", st, ok, err)
	}
	rec := intRecord([]string{"k", "v", "w"}, []int32{1, -1, -1})
	defer rec.Release()
	if _, err := tb.Upsert(context.Background(), rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	// The scan merges the write into the image it finds on disk (and asks
	// for a new one).
	r, err := tb.Scan(context.Background(), fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, p = readScan(t, r)
	cc := r.(fluss.ChunkReporter).ScanChunks()
	for _, row := range want {
		if row[0] == 1 {
			copy(row, []int32{1, -1, -1})
		}
	}
	if p != "columnar image" || cc.Merged != 1 || cc.Read == 0 || !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("after a write: path %q, chunks %+v, %d rows", p, cc, len(got))
	}
	// The row-store scan starts a rebuild, which may finish before the
	// statistics are asked for: then they must be the new image's (w's
	// minimum is the written -1), never the stale one's.
	st, ok, err = tb.(fluss.StatsAnswerer).ScanStats(context.Background(), []int{2})
	if err != nil || ok && (st.Rows != 3000 || st.Columns[0].Min != -1) {
		t.Fatalf("statistics after a write: %+v, %v, %v", st, ok, err)
	}
}

// lockedBuffer is a log sink tests read while the store writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestColumnarDamagedImage: a column file damaged between two processes
// (a flipped byte, a truncation) or a manifest that does not parse is
// refused with a message naming the file, scans read the row store with
// the right answer, and a new image replaces the damaged one.
func TestColumnarDamagedImage(t *testing.T) {
	for _, damage := range []string{"flip", "truncate", "manifest"} {
		t.Run(damage, func(t *testing.T) {
			dir := t.TempDir()
			want, img := imagedStore(t, dir)
			imgs := []string{img}
			file := filepath.Join(imgs[0], "c1.arrow")
			if damage == "manifest" {
				file = filepath.Join(imgs[0], manifestName)
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			switch damage {
			case "flip":
				b[len(b)/2] ^= 0x40
			case "truncate":
				b = b[:len(b)-100]
			case "manifest":
				b = b[:len(b)/2]
			}
			if err := os.WriteFile(file, b, 0o644); err != nil {
				t.Fatal(err)
			}

			logs := &lockedBuffer{}
			s, err := Open(dir, Options{ColumnarMinRows: 1, BatchRows: 100, Logger: slog.New(slog.NewTextHandler(logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tb, err := s.Table(context.Background(), path("kv"))
			if err != nil {
				t.Fatal(err)
			}
			got, p := scanOf(t, tb)
			if p != "row store" || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("first scan: path %q, %d rows", p, len(got))
			}
			s.colWG.Wait()
			if l := logs.String(); !strings.Contains(l, "damaged and refused") || !strings.Contains(l, file) {
				t.Fatalf("the refusal does not name %s:\n%s", file, l)
			}
			waitImage(t, s, tb)
			got, p = scanOf(t, tb)
			if p != "columnar image" || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("rebuilt: path %q, %d rows", p, len(got))
			}
			if now := imageDirs(t, dir); len(now) != 1 || now[0] == imgs[0] {
				t.Fatalf("image directories after the rebuild: %v (the damaged one %s)", now, imgs[0])
			}
		})
	}
}

// The columnar crash test re-executes the test binary as a child that
// writes batches of new keys while full scans keep images being built, and
// kills it at a random moment (often within a build: builds run about a
// third of the time). The reopened store must hold every acknowledged
// batch, have no unfinished image directory left, and serve from its image
// exactly what the row path reads.
const colCrashChildEnv = "SQLGATE_EMBEDDED_COLUMNAR_CRASH_CHILD"

func runColumnarCrashChild(dir string) error {
	ctx := context.Background()
	s, err := Open(dir, Options{ColumnarMinRows: 1})
	if err != nil {
		return err
	}
	if _, err := s.CreateTable(ctx, path("kv"), fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3}, true); err != nil {
		return err
	}
	tb, err := s.Table(ctx, path("kv"))
	if err != nil {
		return err
	}
	// Batch ids continue after the greatest one already there.
	next := int32(0)
	r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{1}})
	if err != nil {
		return err
	}
	for rec, err := r.Next(ctx); rec != nil || err != nil; rec, err = r.Next(ctx) {
		if err != nil {
			return err
		}
		for _, row := range recordRows(rec) {
			next = max(next, row[0]+1)
		}
		rec.Release()
	}
	r.Close()
	out := bufio.NewWriter(os.Stdout)
	go func() {
		for {
			r, err := tb.Scan(ctx, fluss.ScanOptions{})
			if err == nil {
				for rec, err := r.Next(ctx); rec != nil && err == nil; rec, err = r.Next(ctx) {
					rec.Release()
				}
				r.Close()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	for id := next; ; id++ {
		rows := make([][]int32, 1000)
		for i := range rows {
			rows[i] = []int32{id*1000 + int32(i), id, int32(i)}
		}
		rec := intRecord([]string{"k", "v", "w"}, rows...)
		_, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "ack %d\n", id)
		out.Flush()
		time.Sleep(5 * time.Millisecond)
	}
}

func TestColumnarCrash(t *testing.T) {
	if dir := os.Getenv(colCrashChildEnv); dir != "" {
		if err := runColumnarCrashChild(dir); err != nil {
			fmt.Fprintln(os.Stderr, "columnar crash child:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	rounds := 4
	if n, err := strconv.Atoi(os.Getenv("SQLGATE_CRASH_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	dir := t.TempDir()
	acked := map[int32]bool{}
	inBuild := 0
	for round := range rounds {
		cmd, stdout := startChild(t, "TestColumnarCrash", []string{colCrashChildEnv + "=" + dir})
		done, writing := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			sc := bufio.NewScanner(stdout)
			signalled := false
			for sc.Scan() {
				var id int32
				if _, err := fmt.Sscanf(sc.Text(), "ack %d", &id); err == nil {
					acked[id] = true
					if !signalled {
						signalled = true
						close(writing)
					}
				}
			}
			_, _ = io.Copy(io.Discard, stdout)
		}()
		// the kill's moment is drawn from when the child has written, not
		// from its start: a loaded machine may take longer than the draw to
		// start the child and make its table
		select {
		case <-writing:
		case <-done:
		}
		time.Sleep(time.Duration(300+rand.IntN(900)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		_ = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the child ended before the kill: %v", round, cmd.ProcessState)
		}

		for _, d := range imageDirs(t, dir) {
			if strings.HasSuffix(d, imageTmpSuffix) {
				inBuild++ // killed within a build
			}
		}
		s, err := Open(dir, Options{ColumnarMinRows: 1})
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		for _, d := range imageDirs(t, dir) {
			if strings.HasSuffix(d, imageTmpSuffix) {
				t.Fatalf("round %d: an unfinished image is left after Open: %s", round, d)
			}
		}
		tb, err := s.Table(context.Background(), path("kv"))
		if err != nil {
			t.Fatal(err)
		}
		ss, err := s.Snapshot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ref := rowPath(t, s, tb, ss.(*storeSnapshot), nil)
		have := map[int32]int{}
		for _, r := range ref {
			have[r[1]]++
		}
		for id := range acked {
			if have[id] != 1000 {
				t.Fatalf("round %d: acknowledged batch %d has %d of its 1000 rows", round, id, have[id])
			}
		}
		waitImage(t, s, tb)
		got, p := readScan(t, mustScan(t, ss.(*storeSnapshot), tb, fluss.ScanOptions{}))
		if p != "columnar image" || !slices.EqualFunc(got, ref, slices.Equal) {
			t.Fatalf("round %d: image path %q, %d rows; the row path %d", round, p, len(got), len(ref))
		}
		ss.Close()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d rounds (%d killed within a build), %d batches acknowledged", rounds, inBuild, len(acked))
}

// TestColumnarChunkSkipping: a scan with ranges (fluss.ScanOptions.Ranges)
// leaves out exactly the chunks whose statistics exclude a range and no
// row within the ranges, whole or split, and says how many it skipped.
func TestColumnarChunkSkipping(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{ColumnarMinRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	var rows [][]int32
	for k := range int32(60_000) {
		rows = append(rows, []int32{k, k, k % 5})
	}
	rec := intRecord([]string{"k", "v", "w"}, rows...)
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	scanOf(t, tb)
	waitImage(t, s, tb)
	img := tb.(*tableHandle).t.col.img.Load()
	ss, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	all := rowPath(t, s, tb, ss.(*storeSnapshot), nil)
	// Ranges on k from the chunks' own bounds, so that some chunks fall
	// out whatever order the keys are stored in; and ranges that match
	// every chunk or none.
	var bounds []int64
	for _, ch := range img.man.Chunks {
		bounds = append(bounds, *ch.Stats[0].Min, *ch.Stats[0].Max)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	skippedAny := false
	for i := range 40 {
		var rs []fluss.ColumnRange
		switch i {
		case 0:
			rs = []fluss.ColumnRange{{Column: 0, Lo: -10, Hi: 1 << 40}}
		case 1:
			rs = []fluss.ColumnRange{{Column: 1, Lo: 60_000, Hi: 1 << 40}}
		default:
			lo := bounds[rng.IntN(len(bounds))]
			rs = []fluss.ColumnRange{{Column: 0, Lo: lo, Hi: lo + rng.Int64N(30_000)}}
			if i%3 == 0 {
				rs = append(rs, fluss.ColumnRange{Column: 2, Lo: 1, Hi: 3})
			}
		}
		in := func(r []int32) bool {
			for _, x := range rs {
				if v := int64(r[x.Column]); v < x.Lo || v > x.Hi {
					return false
				}
			}
			return true
		}
		wantSkipped := int64(0)
		for k := range img.man.Chunks {
			if img.excludes(k, img.rangesOf(rs)) {
				wantSkipped++
			}
		}
		for _, split := range []bool{false, true} {
			var readers []fluss.RecordReader
			if split {
				readers, err = tb.(*tableHandle).SplitScan(ctx, fluss.ScanOptions{Ranges: rs}, 2)
			} else {
				var r fluss.RecordReader
				r, err = tb.Scan(ctx, fluss.ScanOptions{Ranges: rs})
				readers = []fluss.RecordReader{r}
			}
			if err != nil || len(readers) == 0 {
				t.Fatalf("scan: %v, %d readers", err, len(readers))
			}
			var got [][]int32
			var read, skipped int64
			for _, r := range readers {
				part, p := readScan(t, r)
				if p != "columnar image" {
					t.Fatalf("path %q", p)
				}
				got = append(got, part...)
				cc := r.(fluss.ChunkReporter).ScanChunks()
				rd, sk := cc.Read, cc.Skipped
				read, skipped = read+rd, skipped+sk
			}
			if read+skipped != int64(len(img.man.Chunks)) || skipped != wantSkipped {
				t.Fatalf("ranges %v: read %d, skipped %d; %d chunks, %d excluded", rs, read, skipped, len(img.man.Chunks), wantSkipped)
			}
			// Every row within the ranges is there, in order; the rest
			// only from chunks read.
			want := slices.DeleteFunc(slices.Clone(all), func(r []int32) bool { return !in(r) })
			got = slices.DeleteFunc(got, func(r []int32) bool { return !in(r) })
			if !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("ranges %v (split %v): %d rows within them, want %d", rs, split, len(got), len(want))
			}
		}
		skippedAny = skippedAny || wantSkipped > 0
		if i == 1 && wantSkipped != int64(len(img.man.Chunks)) {
			t.Fatalf("a range past every value skipped %d of %d chunks", wantSkipped, len(img.man.Chunks))
		}
	}
	if !skippedAny {
		t.Fatal("no range skipped a chunk")
	}
}
