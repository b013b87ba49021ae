package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// TestBulkUpsert writes batches large enough for Upsert to encode keys and
// rows side by side and for the commit to ingest sstables written in
// parallel and sort keys on several cores: once into an empty table, then
// overlapping the first (updates and inserts), and checks every row and
// the row count.
//
// The store's thresholds are lowered (Options: ParallelEncodeRows,
// IngestChunk, IngestBytes) so that a few thousand rows cross each of
// them as the defaults' 320k rows did (every upsert here is past
// ParallelEncodeRows and builds at least two sstables, which the test
// checks): the paths are the same, and under the race detector the
// default sizes cost minutes.
func TestBulkUpsert(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{ParallelEncodeRows: 1 << 10, IngestChunk: 2 << 10, IngestBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tb := createTable(t, s, "pk", sixColDesc(true, 4))
	schema := tb.Info().ArrowSchema()
	n := int64(s.opts.ParallelEncodeRows + s.opts.IngestChunk) // past both thresholds
	for _, first := range []int64{0, n / 2} {
		rec := sixColRecord(schema, first, int(n))
		built := s.ingestSeq.Load()
		res, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil || res.Rows != n {
			t.Fatalf("upsert from %d: %+v, %v", first, res, err)
		}
		if got := s.ingestSeq.Load() - built; got < 2 {
			t.Fatalf("upsert from %d: %d sstables ingested, want the state cut into two or more", first, got)
		}
	}
	total := int64(n + n/2)
	all, _ := scanAll(t, tb, fluss.ScanOptions{})
	if all == nil || all.NumRows() != total {
		t.Fatalf("scan: %v rows, want %d", all.NumRows(), total)
	}
	ids := all.Column(0).(*array.Int64)
	seen := make([]bool, total)
	for i := range ids.Len() {
		id := ids.Value(i)
		if id < 0 || id >= total || seen[id] || all.Column(4).(*array.Int32).Value(i) != int32(id%100) {
			t.Fatalf("row %d: id %d (seen %v)", i, id, id >= 0 && id < total && seen[id])
		}
		seen[id] = true
	}
	all.Release()
	for _, k := range []int64{0, n/2 - 1, n / 2, n - 1, n, total - 1} {
		rec := lookupOne(t, tb, k)
		if rec.NumRows() != 1 || rec.Column(1).(*array.Int64).Value(0) != k%1000 {
			t.Fatalf("lookup %d: %v", k, rec)
		}
		rec.Release()
	}
}
