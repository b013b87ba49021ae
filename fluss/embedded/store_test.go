package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

var ctx = context.Background()

func wantCode(t *testing.T, err error, code sqlerr.Code, mention string) {
	t.Helper()
	e := sqlerr.As(err)
	if e == nil || e.Code != code || !strings.Contains(e.Message, mention) {
		t.Fatalf("got %v (SQLSTATE %s), want %s mentioning %q", err, sqlerr.CodeOf(err), code, mention)
	}
}

func TestAllTypesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	cases := []struct {
		name string
		desc fluss.TableDescriptor
	}{
		{"log_one_bucket", allTypesDesc(false, 1)},
		{"log_hashed", allTypesDesc(false, 5, "id")},
		{"log_sticky", allTypesDesc(false, 3)},
		{"pk_one_bucket", allTypesDesc(true, 1)},
		{"pk_hashed", allTypesDesc(true, 7)},
	}
	want := fixture.Record(-20, 40)
	defer want.Release()
	check := func(s *Store) {
		for _, c := range cases {
			tb, err := s.Table(ctx, path(c.name))
			if err != nil {
				t.Fatal(err)
			}
			got, batches := scanAll(t, tb, fluss.ScanOptions{BatchRows: 7})
			if got == nil {
				t.Fatalf("%s: empty scan", c.name)
			}
			sorted := sortByInt32(t, got, 0)
			if !array.RecordApproxEqual(want, sorted, array.WithNaNsEqual(true)) {
				for col := 0; col < int(want.NumCols()); col++ {
					if !array.ApproxEqual(want.Column(col), sorted.Column(col), array.WithNaNsEqual(true)) {
						t.Errorf("%s column %s:\nwant %v\ngot  %v", c.name, want.ColumnName(col), want.Column(col), sorted.Column(col))
					}
				}
			}
			if batches < 40/7 {
				t.Errorf("%s: %d batches for 40 rows of at most 7", c.name, batches)
			}
			got.Release()
			sorted.Release()
			if !tb.Info().HasPrimaryKey() {
				continue
			}
			// Lookup of every key returns every value as written.
			var all [][]int32
			for id := int32(19); id >= -20; id-- {
				all = append(all, []int32{id})
			}
			all = append(all, []int32{12345})
			allKeys := intRecord([]string{"id"}, all...)
			full, err := tb.Lookup(ctx, allKeys, nil)
			allKeys.Release()
			if err != nil {
				t.Fatal(err)
			}
			fullSorted := sortByInt32(t, full, 0)
			if !array.RecordApproxEqual(want, fullSorted, array.WithNaNsEqual(true)) {
				t.Errorf("%s: lookup of every key differs from what was written", c.name)
			}
			full.Release()
			fullSorted.Release()
			keys := intRecord([]string{"id"}, []int32{5}, []int32{-20}, []int32{1000}, []int32{19})
			rec, err := tb.Lookup(ctx, keys, []int{0, 11, 24})
			keys.Release()
			if err != nil {
				t.Fatal(err)
			}
			if ids := int32Values(rec, 0); !slices.Equal(ids, []int32{5, -20, 19}) {
				t.Errorf("%s: lookup ids %v", c.name, ids)
			}
			if rec.NumCols() != 3 || rec.Schema().Field(1).Name != "s" {
				t.Errorf("%s: lookup projection %v", c.name, rec.Schema())
			}
			// Row 5 is ordinary (mode 1 = maximums): compare its string with the source.
			if g, w := rec.Column(1).(*array.String).Value(0), want.Column(11).(*array.String).Value(25); g != w {
				t.Errorf("%s: lookup s = %q, want %q", c.name, g, w)
			}
			rec.Release()
		}
	}
	for _, c := range cases {
		tb := createTable(t, s, c.name, c.desc)
		// Two writes, so scans must combine batches.
		for _, part := range []arrow.RecordBatch{want.NewSlice(0, 13), want.NewSlice(13, 40)} {
			var err error
			if tb.Info().HasPrimaryKey() {
				_, err = tb.Upsert(ctx, part, fluss.UpsertOptions{})
			} else {
				_, err = tb.Append(ctx, part)
			}
			part.Release()
			if err != nil {
				t.Fatalf("%s: write: %v", c.name, err)
			}
		}
	}
	check(s)
	s = reopenClean(t, s, dir) // (a clean restart keeps everything)
	defer s.Close()
	check(s)
}

func TestBucketingFollowsFlussHash(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	for _, pk := range []bool{false, true} {
		name := fmt.Sprintf("b_%v", pk)
		d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v")}, BucketCount: 4, BucketKey: []string{"id"}}
		if pk {
			d.Schema.PrimaryKey = []string{"id"}
		}
		tb := createTable(t, s, name, d)
		var rows [][]int32
		for i := int32(0); i < 50; i++ {
			rows = append(rows, []int32{i * 31, i})
		}
		rec := intRecord([]string{"id", "v"}, rows...)
		var err error
		if pk {
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
		} else {
			_, err = tb.Append(ctx, rec)
		}
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		entries := readChangelog(t, s, name)
		if len(entries) != 50 {
			t.Fatalf("%d log records", len(entries))
		}
		for _, e := range entries {
			want := format.BucketOf(encodeInt(e.id), 4)
			if e.bucket != want {
				t.Errorf("id %d in bucket %d, Fluss hash says %d", e.id, e.bucket, want)
			}
			seen[e.bucket] = true
		}
		if len(seen) < 3 {
			t.Errorf("50 keys used only buckets %v", seen)
		}
	}
}

func encodeInt(v int32) []byte {
	rec := intRecord([]string{"x"}, []int32{v})
	defer rec.Release()
	b, _ := format.AppendKey(nil, []types.T{types.Int32Type}, rec.Columns(), 0)
	return b
}

func TestPrimaryKeySemanticsAndChangelog(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	notNull := types.T{Kind: types.Int32, NotNull: true}
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "k", Type: types.Int32Type}, {Name: "a", Type: notNull}, {Name: "b", Type: types.Int32Type}}, PrimaryKey: []string{"k"}}}
	tb := createTable(t, s, "pk", d)
	names := []string{"k", "a", "b"}
	up := func(opts fluss.UpsertOptions, rows ...[]int32) int64 {
		t.Helper()
		rec := intRecord(names, rows...)
		defer rec.Release()
		res, err := tb.Upsert(ctx, rec, opts)
		if err != nil {
			t.Fatal(err)
		}
		return res.Rows
	}
	if n := up(fluss.UpsertOptions{}, []int32{1, 10, 100}, []int32{2, 20, 200}); n != 2 {
		t.Fatalf("upsert rows %d", n)
	}
	up(fluss.UpsertOptions{}, []int32{1, 11, 101})                                      // replace
	if n := up(fluss.UpsertOptions{IgnoreExisting: true}, []int32{2, 99, 99}); n != 0 { // kept
		t.Fatalf("ignore-existing wrote %d rows", n)
	}
	up(fluss.UpsertOptions{TargetColumns: []string{"k", "b"}}, []int32{2, 0, 222}) // partial: a kept
	keys := intRecord([]string{"whatever"}, []int32{1}, []int32{7})
	res, err := tb.Delete(ctx, keys)
	keys.Release()
	if err != nil || res.Rows != 1 {
		t.Fatalf("delete: %v rows %d", err, res.Rows)
	}
	got, _ := scanAll(t, tb, fluss.ScanOptions{})
	defer got.Release()
	if ks, as, bs := int32Values(got, 0), int32Values(got, 1), int32Values(got, 2); !slices.Equal(ks, []int32{2}) || as[0] != 20 || bs[0] != 222 {
		t.Fatalf("state k=%v a=%v b=%v", ks, as, bs)
	}
	var kinds []string
	for _, e := range readChangelog(t, s, "pk") {
		kinds = append(kinds, fmt.Sprintf("%s%d", e.change, e.id))
	}
	want := []string{"+I1", "+I2", "-U1", "+U1", "-U2", "+U2", "-D1"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("changelog %v, want %v", kinds, want)
	}
	// A partial update of a new key cannot leave NOT NULL "a" empty.
	rec := intRecord(names, []int32{3, 0, 3})
	_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{TargetColumns: []string{"k", "b"}})
	rec.Release()
	wantCode(t, err, sqlerr.NotNullViolation, `null value in column "a" of relation "pk" violates not-null constraint`)
	// Partial updates must include the key.
	rec = intRecord(names, []int32{3, 0, 3})
	_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{TargetColumns: []string{"b"}})
	rec.Release()
	wantCode(t, err, sqlerr.InvalidColumnReference, `"k"`)
	// Limit on a PK scan.
	up(fluss.UpsertOptions{}, []int32{4, 1, 1}, []int32{5, 1, 1}, []int32{6, 1, 1})
	lim, _ := scanAll(t, tb, fluss.ScanOptions{Limit: 2, Projection: []int{2}})
	if lim.NumRows() != 2 || lim.NumCols() != 1 {
		t.Fatalf("limit scan: %d rows %d cols", lim.NumRows(), lim.NumCols())
	}
	lim.Release()
	cnt, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{}})
	if cnt.NumRows() != 4 {
		t.Fatalf("count(*) scan saw %d rows", cnt.NumRows())
	}
	cnt.Release()
}

func TestWriteRulesThroughTheStore(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	logT := createTable(t, s, "lt", fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "a", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "b", Type: types.Int32Type}}}})
	pkT := createTable(t, s, "pt", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("a", "b"), PrimaryKey: []string{"a"}}})
	rec := intRecord([]string{"a", "b"}, []int32{1, 2})
	defer rec.Release()
	_, err := pkT.Append(ctx, rec)
	wantCode(t, err, sqlerr.FeatureNotSupported, "pt")
	_, err = logT.Upsert(ctx, rec, fluss.UpsertOptions{})
	wantCode(t, err, sqlerr.FeatureNotSupported, "lt")
	_, err = logT.Delete(ctx, rec)
	wantCode(t, err, sqlerr.FeatureNotSupported, "lt")
	swapped := intRecord([]string{"b", "a"}, []int32{1, 2})
	defer swapped.Release()
	_, err = logT.Append(ctx, swapped)
	wantCode(t, err, sqlerr.UndefinedColumn, `"b"`)
	b := array.NewInt32Builder(nilAlloc())
	b.AppendNull()
	nulls := b.NewArray()
	b.Release()
	nullRec := array.NewRecordBatch(rec.Schema(), []arrow.Array{nulls, nulls}, 1)
	nulls.Release()
	defer nullRec.Release()
	_, err = logT.Append(ctx, nullRec)
	wantCode(t, err, sqlerr.NotNullViolation, `null value in column "a" of relation "lt" violates not-null constraint`)
	_, err = pkT.Upsert(ctx, nullRec, fluss.UpsertOptions{})
	wantCode(t, err, sqlerr.NotNullViolation, `"a"`)
	// Nothing above was written.
	if got, _ := scanAll(t, logT, fluss.ScanOptions{}); got != nil {
		t.Fatalf("log table has %d rows", got.NumRows())
	}
	_, err = s.CreateTable(ctx, path("lt"), fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("x")}}, false)
	wantCode(t, err, sqlerr.DuplicateTable, "lt")
	if _, err := s.CreateTable(ctx, path("lt"), fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("x")}}, true); err != nil {
		t.Fatal(err)
	}
	_, err = s.Table(ctx, path("nope"))
	wantCode(t, err, sqlerr.UndefinedTable, "nope")
	_, err = s.CreateTable(ctx, path("bad"), fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{{Name: "a", Type: types.ArrayOf(types.Int32Type)}}, PrimaryKey: []string{"a"}}}, false)
	wantCode(t, err, sqlerr.InvalidTableDefinition, `"a"`)
}

func TestDropTableRemovesFiles(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "d", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	rec := intRecord([]string{"k", "v"}, []int32{1, 1}, []int32{2, 2})
	defer rec.Release()
	if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	tdir := s.tableDir(tb.Info().TableID)
	if err := s.DropTable(ctx, path("d"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tdir); !os.IsNotExist(err) {
		t.Fatalf("table directory still there: %v", err)
	}
	_, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{})
	wantCode(t, err, sqlerr.UndefinedTable, "d")
	wantCode(t, s.DropTable(ctx, path("d"), false), sqlerr.UndefinedTable, "d")
	if err := s.DropTable(ctx, path("d"), true); err != nil {
		t.Fatal(err)
	}
	tb2 := createTable(t, s, "d", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}})
	if got, _ := scanAll(t, tb2, fluss.ScanOptions{}); got != nil {
		t.Fatalf("recreated table has %d rows", got.NumRows())
	}
	s.Close()
	s = openStore(t, dir)
	defer s.Close()
	if list, _ := s.ListTables(ctx, fluss.DefaultDatabase); len(list) != 1 || list[0].TableID == tb.Info().TableID {
		t.Fatalf("tables after reopen: %+v", list)
	}
}

func TestNewerFormatRefused(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	s.Close()
	if err := os.WriteFile(filepath.Join(dir, "FORMAT"), []byte("sqlgate-embedded-fluss 99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "format version 99") {
		t.Fatalf("got %v", err)
	}
}

func TestOlderFormatRefused(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	s.Close()
	if err := os.WriteFile(filepath.Join(dir, "FORMAT"), []byte("sqlgate-embedded-fluss 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantCode(t, err, sqlerr.FeatureNotSupported, "format version 1")
	if !strings.Contains(sqlerr.As(err).Hint, "new data directory") {
		t.Fatalf("no hint in %v", err)
	}
}

// logTableWithBatches creates a one-bucket log table holding three batches
// of 10 rows (ids 0..29) and returns the store's directory and the file.
func logTableWithBatches(t *testing.T) (string, string) {
	dir := t.TempDir()
	s := openStore(t, dir)
	tb := createTable(t, s, "l", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id")}})
	for b := int32(0); b < 3; b++ {
		var rows [][]int32
		for i := int32(0); i < 10; i++ {
			rows = append(rows, []int32{b*10 + i})
		}
		rec := intRecord([]string{"id"}, rows...)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	file := s.tables[path("l")].buckets[0].path
	s.Close()
	return dir, file
}

func TestTornTailTruncatedOnReopen(t *testing.T) {
	dir, file := logTableWithBatches(t)
	st, _ := os.Stat(file)
	good := st.Size()
	data, _ := os.ReadFile(file)
	// A torn write: the first 100 bytes of another batch.
	f, _ := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	f.Write(data[:100])
	f.Close()
	s := openStore(t, dir)
	defer s.Close()
	if st, _ := os.Stat(file); st.Size() != good {
		t.Fatalf("file is %d bytes after recovery, want %d", st.Size(), good)
	}
	tb, _ := s.Table(ctx, path("l"))
	got, _ := scanAll(t, tb, fluss.ScanOptions{})
	if got.NumRows() != 30 {
		t.Fatalf("%d rows", got.NumRows())
	}
	got.Release()
	// Appends continue after the recovered end, at the right offset.
	rec := intRecord([]string{"id"}, []int32{30})
	defer rec.Release()
	if _, err := tb.Append(ctx, rec); err != nil {
		t.Fatal(err)
	}
	es := readChangelog(t, s, "l")
	if last := es[len(es)-1]; last.id != 30 || last.offset != 30 {
		t.Fatalf("last entry %+v", last)
	}
}

func TestCRCCorruptionNamesFileAndOffset(t *testing.T) {
	dir, file := logTableWithBatches(t)
	data, _ := os.ReadFile(file)
	h, _ := format.ParseHeader(data)
	second := h.Size()
	data[second+h.Size()-3] ^= 0x10 // inside the second batch's Arrow body
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, dir)
	defer s.Close()
	where := fmt.Sprintf("%s is corrupt at byte offset %d", file, second)
	if c := s.Corruptions(); len(c) != 1 || !strings.Contains(c[0].Error(), where) || sqlerr.CodeOf(c[0]) != sqlerr.DataCorrupted {
		t.Fatalf("corruptions %v, want one naming %q", c, where)
	}
	tb, _ := s.Table(ctx, path("l"))
	r, err := tb.Scan(ctx, fluss.ScanOptions{BatchRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, err := r.Next(ctx)
	if err != nil || first.NumRows() != 10 || first.Column(0).(*array.Int32).Value(9) != 9 {
		t.Fatalf("first batch: %v %v", first, err)
	}
	first.Release()
	_, err = r.Next(ctx)
	wantCode(t, err, sqlerr.DataCorrupted, where)
	// A limit that stops before the bad batch reads fine.
	lim, _ := scanAll(t, tb, fluss.ScanOptions{Limit: 10})
	if lim.NumRows() != 10 {
		t.Fatalf("%d rows", lim.NumRows())
	}
	lim.Release()
}

func TestConcurrentWritersAndConsistentScans(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	logT := createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("call", "k")}, BucketCount: 4, BucketKey: []string{"k"}})
	pkT := createTable(t, s, "cp", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "call"), PrimaryKey: []string{"k"}}, BucketCount: 4})
	const writers, calls, perCall = 8, 25, 16
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, 100)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := 0; c < calls; c++ {
				call := int32(w*1000 + c)
				var rows, pkRows [][]int32
				for k := int32(0); k < perCall; k++ {
					rows = append(rows, []int32{call, k})
					pkRows = append(pkRows, []int32{k, call}) // every call rewrites keys 0..15
				}
				rec := intRecord([]string{"call", "k"}, rows...)
				if _, err := logT.Append(ctx, rec); err != nil {
					errs <- err
				}
				rec.Release()
				rec = intRecord([]string{"k", "call"}, pkRows...)
				if _, err := pkT.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
					errs <- err
				}
				rec.Release()
			}
		}()
	}
	var rwg sync.WaitGroup
	for r := 0; r < 3; r++ {
		rwg.Add(1)
		go func() {
			defer rwg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, _ := scanAll(t, logT, fluss.ScanOptions{BatchRows: 5})
				counts := map[int32]int{}
				for _, c := range int32Values(got, 0) {
					counts[c]++
				}
				for c, n := range counts {
					if n != perCall {
						errs <- fmt.Errorf("scan saw %d of call %d's %d rows", n, c, perCall)
					}
				}
				if got != nil {
					got.Release()
				}
				// The PK state always has every key, all from one call.
				st, _ := scanAll(t, pkT, fluss.ScanOptions{})
				if st != nil {
					if calls := int32Values(st, 1); len(calls) != perCall || slices.ContainsFunc(calls, func(c int32) bool { return c != calls[0] }) {
						errs <- fmt.Errorf("PK scan saw calls %v", calls)
					}
					st.Release()
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	rwg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Group commit: concurrent writers shared fsyncs.
	if g := s.groups.Load(); g >= 2*writers*calls {
		t.Errorf("%d group commits for %d concurrent write calls: no fsync was shared", g, 2*writers*calls)
	} else {
		t.Logf("%d write calls in %d group commits", 2*writers*calls, g)
	}
	got, _ := scanAll(t, logT, fluss.ScanOptions{})
	defer got.Release()
	if got.NumRows() != writers*calls*perCall {
		t.Fatalf("%d rows, want %d", got.NumRows(), writers*calls*perCall)
	}
	// Every log offset of every bucket is used once, in order.
	for b := 0; b < 4; b++ {
		var want int64
		for _, e := range readChangelog(t, s, "c") {
			if e.bucket == b {
				if e.offset != want {
					t.Fatalf("bucket %d: offset %d, want %d", b, e.offset, want)
				}
				want++
			}
		}
	}
}

func TestBrokenFramingFailsOpen(t *testing.T) {
	dir, file := logTableWithBatches(t)
	data, _ := os.ReadFile(file)
	h, _ := format.ParseHeader(data)
	second := h.Size()
	data[second+8] = 0xff // the second batch's Length: no batch boundary after it can be trusted
	data[second+9] = 0xff
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantCode(t, err, sqlerr.DataCorrupted, fmt.Sprintf("%s is corrupt at byte offset %d", file, second))
}

func TestMissingCommittedDataFailsOpen(t *testing.T) {
	dir, file := logTableWithBatches(t)
	if err := os.Truncate(file, 100); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantCode(t, err, sqlerr.DataCorrupted, "acknowledged data is missing")
}

func TestClosedStoreRefusesCalls(t *testing.T) {
	s := openStore(t, t.TempDir())
	tb := createTable(t, s, "x", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("a")}})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	rec := intRecord([]string{"a"}, []int32{1})
	defer rec.Release()
	_, err := tb.Append(ctx, rec)
	wantCode(t, err, sqlerr.AdminShutdown, "closed")
	_, err = tb.Scan(ctx, fluss.ScanOptions{})
	wantCode(t, err, sqlerr.AdminShutdown, "closed")
	_, err = s.Table(ctx, path("x"))
	wantCode(t, err, sqlerr.AdminShutdown, "closed")
}

func TestMissingStateFailsOpen(t *testing.T) {
	dir, _ := logTableWithBatches(t)
	if err := os.RemoveAll(filepath.Join(dir, "kv")); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, Options{})
	wantCode(t, err, sqlerr.DataCorrupted, "key-value state")
}
