package embedded

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// waitSixColImage scans tb (sixColDesc, rows rows) whole until a scan is
// served from an image alone, and returns that image.
func waitSixColImage(t *testing.T, s *Store, tb fluss.Table, rows int64) *colImage {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
		r, err := tb.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := drainCount(t, r)
		r.Close()
		if n != rows {
			t.Fatalf("scan: %d rows, want %d", n, rows)
		}
		if r.(fluss.ScanPathReporter).ScanPath() == "columnar image" && r.(fluss.ChunkReporter).ScanChunks().Merged == 0 {
			return tb.(*tableHandle).t.col.img.Load()
		}
		s.colWG.Wait()
		waitBuildThrottle(tb, deadline)
	}
	t.Fatal("no columnar image within 2 minutes")
	return nil
}

func drainCount(t *testing.T, r fluss.RecordReader) int64 {
	t.Helper()
	var n int64
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return n
		}
		n += rec.NumRows()
		rec.Release()
	}
}

// checkSixCol checks rec's columns (of sixColDesc projected to proj)
// against sixColRecord's formulas, by the id column (proj[0] == 0).
func checkSixCol(t *testing.T, rec arrow.RecordBatch, proj []int) {
	t.Helper()
	ids := rec.Column(0).(*array.Int64)
	names := [...]string{"alpha", "bravo-charlie", "delta", "echo-foxtrot-golf", "hotel", "india-juliet"}
	for i := range int(rec.NumRows()) {
		id := ids.Value(i)
		for c, col := range proj[1:] {
			var got, want string
			switch a := rec.Column(c + 1).(type) {
			case *array.Int64:
				got = strconv.FormatInt(a.Value(i), 10)
			case *array.Int32:
				got = strconv.FormatInt(int64(a.Value(i)), 10)
			case *array.String:
				got = a.Value(i)
			}
			switch col {
			case 1:
				want = strconv.FormatInt(id%1000, 10)
			case 2:
				want = strconv.FormatInt(id*7%1001, 10)
			case 3:
				want = strconv.FormatInt(id%2777, 10)
			case 4:
				want = strconv.FormatInt(id%100, 10)
			case 5:
				want = names[id%int64(len(names))]
			}
			if got != want {
				t.Fatalf("id %d column %d: %q, want %q", id, col, got, want)
			}
		}
	}
}

// mappingRssKiB is the resident size of the mapping starting at addr
// (/proc/self/smaps), or -1 when there is none.
func mappingRssKiB(t *testing.T, addr uintptr) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	start := fmt.Sprintf("%x-", addr)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, start) {
			in = true
			continue
		}
		if in && strings.HasPrefix(line, "Rss:") {
			v, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "Rss:"), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	return -1
}

// TestColumnarMappedImage: an image's fixed-width columns are read from
// mappings of their files (the arrays point into them; strings do not),
// with the row path's values; a scan gives the pages behind it back (the
// mapping's RSS after a whole scan is a small part of the column); a
// replaced image's mappings stay while an array read from them is held
// (its values intact) and are retired at its release, and the next image
// reuses their address ranges.
func TestColumnarMappedImage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("images are mapped on Linux only")
	}
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	const rows = 200_000
	tb := createTable(t, s, "six", sixColDesc(true, 2))
	schema := tb.Info().ArrowSchema()
	rec := sixColRecord(schema, 0, rows)
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	img := waitSixColImage(t, s, tb, rows)
	m := img.files.maps
	if m == nil {
		t.Fatal("the image has no mapped columns")
	}
	for j, c := range img.man.Columns {
		if mapped := m.regions[j] != nil; mapped != (c.Col != 5) {
			t.Fatalf("column %d (%s): mapped %v", c.Col, c.Type, mapped)
		}
	}

	// Every column, values checked; arrays in the mappings but strings'.
	proj := []int{0, 1, 2, 3, 4, 5}
	r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for {
		rec, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		for i, a := range rec.Columns() {
			if _, _, in := m.span(i, a); in != (i != 5) {
				t.Fatalf("column %d: in its mapping %v", i, in)
			}
		}
		checkSixCol(t, rec, proj)
		n += rec.NumRows()
		rec.Release()
	}
	r.Close()
	if n != rows {
		t.Fatalf("%d rows, want %d", n, rows)
	}
	// The scan gave its pages back: what stays resident of a 1.6 MB
	// column is at most the file's footer and the last chunks' pages.
	for j := range 5 {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(m.regions[j])))
		if kib := mappingRssKiB(t, base); kib < 0 || kib > 256 {
			t.Fatalf("column %d's mapping (%d bytes): %d KiB resident after the scan", j, m.sizes[j], kib)
		}
	}

	// Hold a batch of the image, then replace the image.
	r, err = tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0, 1, 4}})
	if err != nil {
		t.Fatal(err)
	}
	held, err := r.Next(ctx)
	if err != nil || held == nil {
		t.Fatalf("first batch: %v", err)
	}
	r.Close()
	oldRegions := map[uintptr]bool{}
	for _, reg := range m.regions {
		if reg != nil {
			oldRegions[uintptr(unsafe.Pointer(unsafe.SliceData(reg)))] = true
		}
	}
	more := sixColRecord(schema, rows, 1000)
	if _, err := tb.Upsert(ctx, more, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	more.Release()
	img2 := waitSixColImage(t, s, tb, rows+1000)
	if img2 == img {
		t.Fatal("the image was not replaced")
	}
	m.mu.Lock()
	closing, retired := m.closing, m.retired
	m.mu.Unlock()
	if !closing || retired {
		t.Fatalf("replaced image's mappings with a batch held: closing %v, retired %v", closing, retired)
	}
	checkSixCol(t, held, []int{0, 1, 4})
	held.Release()
	m.mu.Lock()
	retired = m.retired
	m.mu.Unlock()
	if !retired {
		t.Fatalf("replaced image's mappings not retired after the last batch's release (%d references)", m.live.Load())
	}
	// The image after that reuses the retired address ranges.
	more = sixColRecord(schema, rows+1000, 1000)
	if _, err := tb.Upsert(ctx, more, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	more.Release()
	img3 := waitSixColImage(t, s, tb, rows+2000)
	reused := 0
	for _, reg := range img3.files.maps.regions {
		if reg != nil && oldRegions[uintptr(unsafe.Pointer(unsafe.SliceData(reg)))] {
			reused++
		}
	}
	if reused == 0 {
		t.Fatal("the third image reuses none of the first's address ranges")
	}
	r, err = tb.Scan(ctx, fluss.ScanOptions{Projection: proj})
	if err != nil {
		t.Fatal(err)
	}
	for {
		rec, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		checkSixCol(t, rec, proj)
		rec.Release()
	}
	r.Close()
}
