package lower

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// TestChunkSkipping: a filter's bounds on integer columns reach the scan
// (serial and split for parallel aggregation) and skip the image's chunks
// their statistics exclude — all NULL, or [min, max] outside — with the
// answers of a plan that skips nothing, and EXPLAIN ANALYZE shows the
// counts on the scan's line.
func TestChunkSkipping(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	s := openStore(t)
	rows := parallelMinRows + 10_000
	loadPK(t, s, "f", []fluss.Column{{Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.Int32Type}, {Name: "d", Type: types.Float64Type}},
		4, rows, func(bld *array.RecordBuilder, i int) {
			bld.Field(0).(*array.Int64Builder).Append(int64(i))
			bld.Field(1).(*array.Int32Builder).AppendNull()
			bld.Field(2).(*array.Float64Builder).Append(float64(i % 10))
		})
	for _, c := range []struct {
		q           string
		want        string
		skipsAll    bool
		parallelize bool
	}{
		{"SELECT count(*), sum(d) FROM f WHERE b > 5", "0|NULL", true, true},
		{"SELECT count(*) FROM f WHERE a < 0", "0", true, true},
		{"SELECT count(*) FROM f WHERE -1 >= a", "0", true, true},
		{"SELECT count(*) FROM f WHERE a >= 0", fmt.Sprint(rows), false, true},
		{"SELECT d FROM f WHERE a <= -5", "", true, false},
		{"SELECT count(*) FROM f WHERE a < 100 AND a > -100", "100", false, true},
	} {
		var lines []string
		var m *exec.Metrics
		for deadline := time.Now().Add(2 * time.Minute); m == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			out, root, metrics := runMetered(t, s, c.q, true)
			if got := strings.Join(out, ";"); got != c.want {
				t.Fatalf("%s: %q, want %q", c.q, got, c.want)
			}
			for _, mt := range metrics {
				mt.Finish()
				if mt.ScanPath == "columnar image" {
					m = mt
				}
			}
			lines = Explain(root, metrics)
		}
		if m == nil {
			t.Fatalf("%s: never read the columnar image", c.q)
		}
		total := m.ChunksRead + m.ChunksSkipped
		if total == 0 || c.skipsAll != (m.ChunksRead == 0) || !c.skipsAll && m.ChunksSkipped == total {
			t.Fatalf("%s: %d chunks read, %d skipped", c.q, m.ChunksRead, m.ChunksSkipped)
		}
		if c.parallelize != (m.Workers > 1) {
			t.Fatalf("%s: %d workers", c.q, m.Workers)
		}
		if text := strings.Join(lines, "\n"); !strings.Contains(text, fmt.Sprintf("chunks_read=%d chunks_skipped=%d", m.ChunksRead, m.ChunksSkipped)) {
			t.Fatalf("%s: no chunk counts in\n%s", c.q, text)
		}
	}
}

// TestStatsAggregates: count(*), count(col) and min/max of integer columns
// over a whole table are answered from the columnar image's statistics,
// equal to reading the rows (a transaction's runtime reads them); other
// aggregates, filters and groups read rows.
func TestStatsAggregates(t *testing.T) {
	s := openStore(t)
	loadPK(t, s, "g", []fluss.Column{{Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.Int32Type}, {Name: "c", Type: types.Int16Type},
		{Name: "d", Type: types.Float64Type}, {Name: "e", Type: types.Int32Type}}, 3, 70_000, func(bld *array.RecordBuilder, i int) {
		bld.Field(0).(*array.Int64Builder).Append(int64(i) - 30_000)
		if i%7 == 0 {
			bld.Field(1).(*array.Int32Builder).AppendNull()
		} else {
			bld.Field(1).(*array.Int32Builder).Append(int32(i*37%100_003) - 5)
		}
		bld.Field(2).(*array.Int16Builder).Append(int16(i % 300))
		bld.Field(3).(*array.Float64Builder).Append(float64(i) / 3)
		bld.Field(4).(*array.Int32Builder).AppendNull()
	})
	for _, c := range []struct {
		q         string
		fromStats bool
	}{
		{"SELECT count(*) FROM g", true},
		{"SELECT count(*), count(b), min(b), max(b), min(a), max(a), max(c), min(c), count(e), min(e), max(e) FROM g", true},
		{"SELECT max(b), count(d) FROM g", true},
		{"SELECT min(d) FROM g", false},
		{"SELECT count(*) FROM g WHERE a > 5", false},
		{"SELECT b % 3, count(*) FROM g GROUP BY b % 3 ORDER BY 1", false},
		{"SELECT count(DISTINCT b) FROM g", false},
		{"SELECT sum(b) FROM g", false},
	} {
		want, _, _ := runMetered(t, s, c.q, false)
		path := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			got, _, metrics := runMetered(t, s, c.q, true)
			if strings.Join(got, ";") != strings.Join(want, ";") {
				t.Fatalf("%s: %v, reading the rows %v", c.q, got, want)
			}
			path = ""
			for _, m := range metrics {
				if m.ScanPath != "" {
					path = m.ScanPath
				}
			}
			if path == "chunk statistics" || !c.fromStats && path == "columnar image" {
				break
			}
		}
		if (path == "chunk statistics") != c.fromStats {
			t.Fatalf("%s: path %q", c.q, path)
		}
	}
}

// loadPK creates primary-key table name (keyed on its first column) and
// upserts rows rows, row i appended by fill.
func loadPK(t *testing.T, s store, name string, cols []fluss.Column, buckets, rows int, fill func(*array.RecordBuilder, int)) {
	t.Helper()
	ctx := context.Background()
	p := fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
	info, err := s.CreateTable(ctx, p, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols, PrimaryKey: []string{cols[0].Name}}, BucketCount: buckets}, false)
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, info.ArrowSchema())
	defer bld.Release()
	for i := range rows {
		fill(bld, i)
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	tb, err := s.Table(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestMergedScanExplain: after a write to a table with a columnar image,
// queries merge it on read (the statistics no longer answer: they are the
// image's), give the new state's answers, and EXPLAIN ANALYZE's scan line
// shows the chunks read from the row store (chunks_merged).
func TestMergedScanExplain(t *testing.T) {
	s := openStore(t)
	const rows = 100_000
	loadPK(t, s, "m", []fluss.Column{{Name: "a", Type: types.Int64Type}, {Name: "d", Type: types.Float64Type}},
		2, rows, func(bld *array.RecordBuilder, i int) {
			bld.Field(0).(*array.Int64Builder).Append(int64(i))
			bld.Field(1).(*array.Float64Builder).Append(1)
		})
	q := "SELECT count(*), sum(d), max(a) FROM m WHERE a >= 0"
	imaged := false
	for deadline := time.Now().Add(20 * time.Second); !imaged && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, _, metrics := runMetered(t, s, q, true)
		for _, mt := range metrics {
			mt.Finish()
			imaged = imaged || mt.ScanPath == "columnar image" && mt.ChunksMerged == 0
		}
	}
	if !imaged {
		t.Fatal("never read the columnar image")
	}
	ctx := context.Background()
	tb, err := s.Table(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "m"})
	if err != nil {
		t.Fatal(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, tb.Info().ArrowSchema())
	bld.Field(0).(*array.Int64Builder).AppendValues([]int64{5, rows + 10}, nil)
	bld.Field(1).(*array.Float64Builder).AppendValues([]float64{100, 1}, nil)
	rec := bld.NewRecordBatch()
	bld.Release()
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	// count(*) alone would be answered from the image's statistics were
	// they taken for the new state's.
	if out, _, _ := runMetered(t, s, "SELECT count(*), max(a) FROM m", true); strings.Join(out, ";") != fmt.Sprintf("%d|%d", rows+1, rows+10) {
		t.Fatalf("count(*), max(a) after the write: %v", out)
	}
	out, root, metrics := runMetered(t, s, q, true)
	if want := fmt.Sprintf("%d|%d|%d", rows+1, rows+1+99, rows+10); strings.Join(out, ";") != want {
		t.Fatalf("%s after the write: %v, want %s", q, out, want)
	}
	var m *exec.Metrics
	for _, mt := range metrics {
		mt.Finish()
		if mt.ScanPath != "" {
			m = mt
		}
	}
	text := strings.Join(Explain(root, metrics), "\n")
	// The write may have been built into a new image already (the scan
	// above asked for one): then nothing merges.
	if m == nil || m.ScanPath != "columnar image" || m.ChunksMerged == 0 && !strings.Contains(text, "chunks_read=") ||
		m.ChunksMerged > 0 && !strings.Contains(text, fmt.Sprintf("chunks_merged=%d", m.ChunksMerged)) {
		t.Fatalf("scan after the write: %+v\n%s", m, text)
	}
	t.Logf("%s", text)
}
