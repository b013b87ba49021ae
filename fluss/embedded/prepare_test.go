package embedded

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// changesByKey reads a (k INT, v INT) primary-key table's changelog as one
// "type:value" list per key, in log order.
func changesByKey(t *testing.T, tb fluss.Table) map[int32][]string {
	t.Helper()
	rows, err := readInts(context.Background(), tb, true)
	if err != nil {
		t.Fatal(err)
	}
	names := map[format.ChangeType]string{format.Insert: "+I", format.UpdateBefore: "-U", format.UpdateAfter: "+U", format.Delete: "-D"}
	out := map[int32][]string{}
	for _, r := range rows {
		out[r[0]] = append(out[r[0]], fmt.Sprintf("%s:%d", names[format.ChangeType(r[2])], r[1]))
	}
	return out
}

func stateOf(t *testing.T, tb fluss.Table) map[int32]int32 {
	t.Helper()
	rows, err := readInts(context.Background(), tb, false)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int32]int32{}
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	return out
}

func kvRows(pairs ...int32) arrow.RecordBatch {
	var rows [][]int32
	for i := 0; i+1 < len(pairs); i += 2 {
		rows = append(rows, []int32{pairs[i], pairs[i+1]})
	}
	return intRecord([]string{"k", "v"}, rows...)
}

func keyRows(keys ...int32) arrow.RecordBatch {
	var rows [][]int32
	for _, k := range keys {
		rows = append(rows, []int32{k})
	}
	return intRecord([]string{"k"}, rows...)
}

// Several requests in one group commit: each must read the state the
// earlier ones left (which is not in pebble yet), and the changelog must
// say exactly what happened, in order.
//
// Both ways a group's state reaches pebble are checked: a synced batch, and
// sstables ingested (IngestBytes 1: every group), whose entries here come
// out of key order with repeated keys and deletes.
func TestRequestsOfOneGroupSeeEachOther(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ingest int
	}{{"batch", -1}, {"ingest", 1}} {
		t.Run(tc.name, func(t *testing.T) { requestsOfOneGroup(t, Options{IngestBytes: tc.ingest}) })
	}
}

func requestsOfOneGroup(t *testing.T, opts Options) {
	s, err := Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "g", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	info := tb.Info()
	w := func(kind fluss.WriteKind, rec arrow.RecordBatch, opts fluss.UpsertOptions) fluss.TableWrite {
		return fluss.TableWrite{Path: info.Path, TableID: info.TableID, Kind: kind, Rec: rec, Opts: opts}
	}
	writes := []fluss.TableWrite{
		w(fluss.WriteUpsert, kvRows(1, 10, 2, 10, 3, 10), fluss.UpsertOptions{}),
		w(fluss.WriteUpsert, kvRows(2, 20, 3, 20, 4, 20), fluss.UpsertOptions{}),
		w(fluss.WriteDelete, keyRows(3, 5), fluss.UpsertOptions{}),
		w(fluss.WriteUpsert, kvRows(3, 30, 1, 99), fluss.UpsertOptions{IgnoreExisting: true}),
	}
	defer func() {
		for _, wr := range writes {
			wr.Rec.Release()
		}
	}()
	before := s.groups.Load()
	res, err := s.WriteAtomically(ctx, writes)
	if err != nil {
		t.Fatal(err)
	}
	if g := s.groups.Load() - before; g != 1 {
		t.Fatalf("the writes took %d group commits, want 1", g)
	}
	var n []int64
	for _, r := range res {
		n = append(n, r.Rows)
	}
	if fmt.Sprint(n) != "[3 3 1 1]" {
		t.Errorf("rows written %v, want [3 3 1 1]", n)
	}
	want := map[int32]int32{1: 10, 2: 20, 3: 30, 4: 20}
	if got := stateOf(t, tb); !maps.Equal(got, want) {
		t.Errorf("state %v, want %v", got, want)
	}
	wantLog := map[int32][]string{
		1: {"+I:10"},
		2: {"+I:10", "-U:10", "+U:20"},
		3: {"+I:10", "-U:10", "+U:20", "-D:20", "+I:30"},
		4: {"+I:20"},
	}
	if got := changesByKey(t, tb); fmt.Sprint(got) != fmt.Sprint(wantLog) {
		t.Errorf("changelog %v\nwant      %v", got, wantLog)
	}
	for _, k := range []int32{1, 2, 3, 4, 5} {
		keys := keyRows(k)
		rec, err := tb.Lookup(ctx, keys, nil)
		keys.Release()
		if err != nil {
			t.Fatal(err)
		}
		v, ok := want[k]
		if got := rec.NumRows(); got != map[bool]int64{true: 1, false: 0}[ok] || ok && rec.Column(1).(*array.Int32).Value(0) != v {
			t.Errorf("lookup of %d: %d rows, want %v", k, got, want[k])
		}
		rec.Release()
	}
	// The state survives a restart as committed.
	dir := s.dir
	s.Close()
	s2 := openStore(t, dir)
	defer s2.Close()
	tb2, err := s2.Table(ctx, path("g"))
	if err != nil {
		t.Fatal(err)
	}
	if got := stateOf(t, tb2); !maps.Equal(got, want) {
		t.Errorf("state after reopen %v, want %v", got, want)
	}
	if got := changesByKey(t, tb2); fmt.Sprint(got) != fmt.Sprint(wantLog) {
		t.Errorf("changelog after reopen %v\nwant      %v", got, wantLog)
	}
}

// Upserts into a table that has rows read the previous values of exactly
// the keys that exist, whichever side of the stored keys the new ones fall.
func TestUpsertReadsPreviousValuesOfExistingKeysOnly(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "m", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 1})
	for _, rec := range []arrow.RecordBatch{kvRows(10, 1, 20, 1, 30, 1, 300, 1), kvRows(5, 2, 10, 2, 15, 2, 25, 2, 30, 2, 35, 2, 1000, 2, 5, 3)} {
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	want := map[int32][]string{
		5: {"+I:2", "-U:2", "+U:3"}, 10: {"+I:1", "-U:1", "+U:2"}, 15: {"+I:2"}, 20: {"+I:1"}, 25: {"+I:2"},
		30: {"+I:1", "-U:1", "+U:2"}, 35: {"+I:2"}, 300: {"+I:1"}, 1000: {"+I:2"},
	}
	if got := changesByKey(t, tb); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changelog %v\nwant      %v", got, want)
	}
}

// Lookups: one key (read without a snapshot), several keys, missing keys,
// projections (cached per table) and keys that need validating.
func TestLookupPaths(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "k", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	rec := intRecord([]string{"k", "v", "w"}, []int32{1, 10, 100}, []int32{2, 20, 200}, []int32{3, 30, 300})
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	cases := []struct {
		keys []int32
		proj []int
		want string // rows, columns joined
	}{
		{[]int32{2}, nil, "[[2 20 200]]"},
		{[]int32{2}, []int{2, 0}, "[[200 2]]"},
		{[]int32{2}, []int{2, 0}, "[[200 2]]"}, // the cached projection
		{[]int32{9}, []int{1}, "[]"},
		{[]int32{9}, nil, "[]"},
		{[]int32{3, 9, 1}, []int{1}, "[[30] [10]]"},
		{[]int32{1, 2, 3}, nil, "[[1 10 100] [2 20 200] [3 30 300]]"},
	}
	for _, c := range cases {
		keys := keyRows(c.keys...)
		got, err := tb.Lookup(ctx, keys, c.proj)
		keys.Release()
		if err != nil {
			t.Fatalf("Lookup %v %v: %v", c.keys, c.proj, err)
		}
		// Found or not, the record has the projection's columns.
		wantCols := len(c.proj)
		if c.proj == nil {
			wantCols = 3
		}
		if int(got.NumCols()) != wantCols {
			t.Errorf("Lookup %v %v: %d columns, want %d", c.keys, c.proj, got.NumCols(), wantCols)
		}
		var rows [][]int32
		for i := 0; i < int(got.NumRows()); i++ {
			var row []int32
			for c := 0; c < int(got.NumCols()); c++ {
				row = append(row, got.Column(c).(*array.Int32).Value(i))
			}
			rows = append(rows, row)
		}
		got.Release()
		if fmt.Sprint(rows) == "[]" && c.want == "[]" {
			continue
		}
		if fmt.Sprint(rows) != c.want {
			t.Errorf("Lookup %v %v = %v, want %s", c.keys, c.proj, rows, c.want)
		}
	}
	// A key of another integer width goes through validation, which
	// refuses it naming the column.
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.Append(2)
	col := b.NewArray()
	b.Release()
	wide := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1)
	col.Release()
	defer wide.Release()
	if _, err := tb.Lookup(ctx, wide, nil); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.DatatypeMismatch {
		t.Errorf("Lookup with a bigint key: %v, want 42804", err)
	}
	// A NULL key of the exact type is refused as before.
	nb := array.NewInt32Builder(memory.DefaultAllocator)
	nb.AppendNull()
	ncol := nb.NewArray()
	nb.Release()
	nullKey := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil), []arrow.Array{ncol}, 1)
	ncol.Release()
	defer nullKey.Release()
	if _, err := tb.Lookup(ctx, nullKey, nil); sqlerr.As(err) == nil || sqlerr.As(err).Code != sqlerr.NotNullViolation {
		t.Errorf("Lookup with a NULL key: %v, want 23502", err)
	}
	// A projection out of range is refused and not cached.
	keys := keyRows(1)
	defer keys.Release()
	for range 2 {
		if _, err := tb.Lookup(ctx, keys, []int{5}); sqlerr.As(err) == nil {
			t.Errorf("Lookup with projection [5]: %v, want an error", err)
		}
	}
}

// BenchmarkBulkUpsert200k writes 200,000 new keys in one call into an empty
// primary-key table (what a COPY into a fresh table does), then 200,000
// more on top of them (every key new again, above the stored ones).
func BenchmarkBulkUpsert200k(b *testing.B) {
	s := openStore(b, b.TempDir())
	defer s.Close()
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := createTable(b, s, fmt.Sprintf("bulk%d", i), benchDesc(true))
		recs := []arrow.RecordBatch{benchRecord(tb.Info().ArrowSchema(), 0, 200_000), benchRecord(tb.Info().ArrowSchema(), 200_000, 200_000)}
		b.StartTimer()
		for _, rec := range recs {
			if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		for _, rec := range recs {
			rec.Release()
		}
		if err := s.DropTable(ctx, path(fmt.Sprintf("bulk%d", i)), false); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N)*400_000/b.Elapsed().Seconds(), "rows/s")
}
