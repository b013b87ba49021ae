package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// tableLevels returns, per pebble level, how many sstables hold keys of
// table id's state.
func tableLevels(t *testing.T, s *Store, id int64) [7]int {
	t.Helper()
	p := tablePrefix(prefixData, id)
	levels, err := s.db.SSTables(pebble.WithKeyRangeFilter(p, prefixEnd(p)))
	if err != nil {
		t.Fatal(err)
	}
	var n [7]int
	for l, files := range levels {
		n[l] = len(files)
	}
	return n
}

// Bulk loads whose key ranges overlap land on several levels; the settler
// compacts the table's range to the bottom level, after which every row
// still reads back, and the acknowledged data survives a reopen.
func TestSettleCompactsIngestedRange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{IngestBytes: 1}) // every group is ingested
	if err != nil {
		t.Fatal(err)
	}
	tb := createTable(t, s, "pk", sixColDesc(true, 2))
	schema := tb.Info().ArrowSchema()
	const per, loads = 5_000, 4
	for j := range loads {
		// Interleaved ids: each load spans the key range of the others.
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		full := sixColRecord(schema, 0, per*loads)
		for i := j; i < per*loads; i += loads {
			for c, f := range rb.Fields() {
				if err := format.AppendFrom(f, full.Column(c), i); err != nil {
					t.Fatal(err)
				}
			}
		}
		full.Release()
		rec := rb.NewRecordBatch()
		rb.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	id := tb.Info().TableID
	before := tableLevels(t, s, id)
	above := 0
	for l := range 6 {
		above += before[l]
	}
	if above == 0 {
		t.Fatalf("test premise: the loads should overlap above L6, levels %v", before)
	}
	s.settle.wait()
	after := tableLevels(t, s, id)
	for l := range 6 {
		if after[l] != 0 {
			t.Fatalf("after settling, level %d still holds %d sstables of the table (before %v, after %v)", l, after[l], before, after)
		}
	}
	if after[6] == 0 {
		t.Fatalf("no sstable of the table in L6 after settling: %v", after)
	}
	checkRows := func(tb fluss.Table) {
		t.Helper()
		all, _ := scanAll(t, tb, fluss.ScanOptions{})
		if all == nil || all.NumRows() != per*loads {
			t.Fatalf("scan: %v, want %d rows", all, per*loads)
		}
		all.Release()
		for _, k := range []int64{0, 1, per*loads - 1, 7777} {
			rec := lookupOne(t, tb, k)
			if rec.NumRows() != 1 || rec.Column(1).(*array.Int64).Value(0) != k%1000 {
				t.Fatalf("lookup %d: %v", k, rec)
			}
			rec.Release()
		}
	}
	checkRows(tb)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	tb, err = s.Table(ctx, path("pk"))
	if err != nil {
		t.Fatal(err)
	}
	checkRows(tb)
}

// Close does not wait for a pending settle's delay, and a store closed with
// one pending reopens with every row.
func TestSettleCloseWhilePending(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{IngestBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	tb := createTable(t, s, "pk", sixColDesc(true, 2))
	for j := range 2 {
		rec := sixColRecord(tb.Info().ArrowSchema(), int64(j)*1000, 2000)
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	tb, err = s.Table(ctx, path("pk"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := scanAll(t, tb, fluss.ScanOptions{})
	if all == nil || all.NumRows() != 3000 {
		t.Fatalf("after reopen: %v, want 3000 rows", all)
	}
	all.Release()
}

// lookupOne looks up one bigint key.
func lookupOne(t *testing.T, tb fluss.Table, k int64) arrow.RecordBatch {
	t.Helper()
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	defer kb.Release()
	kb.Append(k)
	col := kb.NewArray()
	defer col.Release()
	keys := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1)
	defer keys.Release()
	rec, err := tb.Lookup(context.Background(), keys, nil)
	if err != nil {
		t.Fatalf("lookup %d: %v", k, err)
	}
	return rec
}
