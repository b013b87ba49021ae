package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// changelogFrom reads a changelog scan's offsets (per bucket, in order) and
// the number of stored batches it decoded.
func changelogFrom(t *testing.T, tb fluss.Table, opts fluss.ScanOptions) ([]int64, int64) {
	t.Helper()
	opts.Projection = []int{1} // _log_offset
	r, err := tb.(fluss.ChangelogScanner).ScanChangelog(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var offs []int64
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			break
		}
		offs = append(offs, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	return offs, r.(*logScan).decoded
}

// TestChangelogSkipsBatchesBelowOffset appends 20 batches of 10 rows and
// checks that a changelog scan from an offset
// decodes only the batches that reach it, and from a commit time only the
// batches committed since.
func TestChangelogSkipsBatchesBelowOffset(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "events", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v")}, BucketCount: 1})
	for i := int32(0); i < 20; i++ {
		var rows [][]int32
		for j := int32(0); j < 10; j++ {
			rows = append(rows, []int32{j % 2, i*10 + j})
		}
		rec := intRecord([]string{"k", "v"}, rows...)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	// offsets 0..199, ten to a batch
	all, decoded := changelogFrom(t, tb, fluss.ScanOptions{})
	if len(all) != 200 || decoded != 20 {
		t.Fatalf("whole changelog: %d rows, %d batches decoded", len(all), decoded)
	}
	tests := []struct {
		from          int64
		rows, batches int
	}{
		{from: 100, rows: 100, batches: 10}, // a batch boundary: batches 10..19
		{from: 105, rows: 100, batches: 10}, // inside batch 10: it is read whole, the caller filters
		{from: 199, rows: 10, batches: 1},
		{from: 200, rows: 0, batches: 0},
		{from: 1, rows: 200, batches: 20},
	}
	for _, tt := range tests {
		offs, decoded := changelogFrom(t, tb, fluss.ScanOptions{FromOffset: tt.from})
		if len(offs) != tt.rows || decoded != int64(tt.batches) {
			t.Errorf("from %d: %d rows, %d batches decoded; want %d, %d", tt.from, len(offs), decoded, tt.rows, tt.batches)
		}
		for _, o := range offs {
			if o < tt.from/10*10 {
				t.Errorf("from %d: offset %d returned", tt.from, o)
				break
			}
		}
	}
	// a commit time after every batch reads none; one before all reads all
	s.catMu.Lock()
	ts := s.tables[path("events")]
	s.catMu.Unlock()
	last := lastCommitMillis(t, ts)
	if _, decoded := changelogFrom(t, tb, fluss.ScanOptions{FromTimestamp: (last + 1) * 1000}); decoded != 0 {
		t.Errorf("from after the last commit: %d batches decoded", decoded)
	}
	if offs, decoded := changelogFrom(t, tb, fluss.ScanOptions{FromTimestamp: last * 1000}); decoded == 0 || len(offs) == 0 {
		t.Errorf("from the last commit: %d batches decoded, %d rows", decoded, len(offs))
	}
}

// lastCommitMillis is the greatest commit timestamp of the table's batches.
func lastCommitMillis(t *testing.T, ts *tableState) int64 {
	t.Helper()
	var last int64
	for _, bl := range ts.buckets {
		r, err := openLogReader(bl.path, bl.committed)
		if err != nil {
			t.Fatal(err)
		}
		for off := int64(0); off < bl.committed; {
			h, err := r.header(off)
			if err != nil {
				t.Fatal(err)
			}
			last = max(last, h.CommitTimestamp)
			off += h.Size()
		}
		r.close()
	}
	return last
}
