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
func TestBulkUpsert(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "pk", sixColDesc(true, 4))
	schema := tb.Info().ArrowSchema()
	const n = parallelEncodeRows + ingestChunk // past both thresholds
	for _, first := range []int64{0, n / 2} {
		rec := sixColRecord(schema, first, n)
		res, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		rec.Release()
		if err != nil || res.Rows != n {
			t.Fatalf("upsert from %d: %+v, %v", first, res, err)
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
