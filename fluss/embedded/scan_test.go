package embedded

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestProjectedScansMatchFullScans: a log scan of some columns (which reads
// only those columns' bytes of batches whose CRC was checked) returns what
// the same columns of a full scan hold, for every type, with NULLs, for
// batches checked at Open, batches not checked (SkipVerify: read whole)
// and batches written since Open, and with a LIMIT.
func TestProjectedScansMatchFullScans(t *testing.T) {
	for _, skipVerify := range []bool{false, true} {
		t.Run(fmt.Sprintf("skipVerify=%v", skipVerify), func(t *testing.T) {
			dir := t.TempDir()
			s := openStore(t, dir)
			tb := createTable(t, s, "l", allTypesDesc(false, 1))
			appendN := func(tb fluss.Table, first int32) {
				rec := fixture.Record(first, 10)
				defer rec.Release()
				if _, err := tb.Append(ctx, rec); err != nil {
					t.Fatal(err)
				}
			}
			appendN(tb, 0)
			appendN(tb, 10)
			s.Close()
			s, err := Open(dir, Options{SkipVerify: skipVerify})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tb, _ = s.Table(ctx, path("l"))
			appendN(tb, 20)
			full, _ := scanAll(t, tb, fluss.ScanOptions{})
			defer full.Release()
			if full.NumRows() != 30 {
				t.Fatalf("%d rows", full.NumRows())
			}
			for _, proj := range [][]int{{0}, {5, 1}, {10, 11, 12}, {13, 20, 9}, {22}, {0, 24, 3}, {8, 14, 15, 16, 17, 18, 19, 21}, {6, 7}} {
				for _, limit := range []int64{0, 13} {
					got, _ := scanAll(t, tb, fluss.ScanOptions{Projection: proj, BatchRows: 7, Limit: limit})
					want := int64(30)
					if limit > 0 {
						want = limit
					}
					if got.NumRows() != want {
						t.Fatalf("projection %v: %d rows, want %d", proj, got.NumRows(), want)
					}
					for i, c := range proj {
						w := array.NewSlice(full.Column(c), 0, want)
						if !array.ApproxEqual(w, got.Column(i), array.WithNaNsEqual(true)) {
							t.Errorf("projection %v limit %d, column %s:\nwant %v\ngot  %v", proj, limit, full.ColumnName(c), w, got.Column(i))
						}
						w.Release()
					}
					got.Release()
				}
			}
			// No columns (COUNT(*)): rows counted from the metadata alone.
			r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{}})
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
				n += rec.NumRows()
				rec.Release()
			}
			r.Close()
			if n != 30 {
				t.Errorf("COUNT(*) scan: %d rows", n)
			}
		})
	}
}

// TestProjectedScanRefusesCorruptBatch: a batch whose CRC failed when Open
// checked it, or that Open did not check (SkipVerify), is read whole by a
// projected scan too, so the damage is refused naming the file and offset.
func TestProjectedScanRefusesCorruptBatch(t *testing.T) {
	for _, skipVerify := range []bool{false, true} {
		dir := t.TempDir()
		s := openStore(t, dir)
		tb := createTable(t, s, "l", allTypesDesc(false, 1))
		for i := int32(0); i < 3; i++ {
			rec := fixture.Record(i*10, 10)
			if _, err := tb.Append(ctx, rec); err != nil {
				t.Fatal(err)
			}
			rec.Release()
		}
		file := s.tables[path("l")].buckets[0].path
		s.Close()
		data, _ := os.ReadFile(file)
		h, _ := format.ParseHeader(data)
		second := h.Size()
		// A flipped bit in the second batch's last buffer, outside the
		// projected column 0 (id).
		data[second+h.Size()-9] ^= 0x01
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Open(dir, Options{SkipVerify: skipVerify})
		if err != nil {
			t.Fatal(err)
		}
		tb, _ = s.Table(ctx, path("l"))
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0}, BatchRows: 10})
		if err != nil {
			t.Fatal(err)
		}
		first, err := r.Next(ctx)
		if err != nil || first.NumRows() != 10 {
			t.Fatalf("skipVerify=%v: first batch: %v", skipVerify, err)
		}
		first.Release()
		_, err = r.Next(ctx)
		wantCode(t, err, sqlerr.DataCorrupted, fmt.Sprintf("%s is corrupt at byte offset %d", file, second))
		r.Close()
		s.Close()
	}
}

// TestProjectedScanReadsOnlyProjectedBytes shows which path a scan takes:
// damage written into a column's bytes after Open (which checked every
// CRC) is not seen by a scan of other columns, which reads only theirs,
// while a scan of every column of a table with a nested column (which
// projected reads do not build) reads the batch whole, checks the CRC and
// refuses it. With
// SkipVerify, Open checked nothing, so both scans read the batch whole.
func TestProjectedScanReadsOnlyProjectedBytes(t *testing.T) {
	for _, skipVerify := range []bool{false, true} {
		dir := t.TempDir()
		s := openStore(t, dir)
		tb := createTable(t, s, "l", allTypesDesc(false, 1))
		rec := fixture.Record(0, 10)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		file := s.tables[path("l")].buckets[0].path
		s.Close()
		s, err := Open(dir, Options{SkipVerify: skipVerify})
		if err != nil {
			t.Fatal(err)
		}
		tb, _ = s.Table(ctx, path("l"))
		f, err := os.OpenFile(file, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		// The last buffer is the last column's (r, a ROW): not column 0.
		if _, err := f.WriteAt([]byte{0xee}, st.Size()-9); err != nil {
			t.Fatal(err)
		}
		f.Close()
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{0}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Next(ctx)
		r.Close()
		if skipVerify {
			wantCode(t, err, sqlerr.DataCorrupted, "CRC")
		} else if err != nil || got.NumRows() != 10 || got.Column(0).(*array.Int32).Value(9) != 9 {
			t.Fatalf("projected scan: %v %v", got, err)
		} else {
			got.Release()
		}
		r, err = tb.Scan(ctx, fluss.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.Next(ctx)
		r.Close()
		wantCode(t, err, sqlerr.DataCorrupted, "CRC")
		s.Close()
	}
}

// TestProjectedScanRecordsOutliveTheirScan: a projected scan's records
// point into a mapping of the log, which stays readable after the scan
// and its records are closed and released (Arrow's strings alias it), is
// kept while a scan is open across a DROP, and is then replaced by zeros
// rather than removed, so a string kept from a dropped table's record reads
// zeros instead of faulting.
func TestProjectedScanRecordsOutliveTheirScan(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "l", sixColDesc(false, 1))
	for first := int64(0); first < 300; first += 100 {
		rec := sixColRecord(tb.Info().ArrowSchema(), first, 100)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	bl := s.tables[path("l")].buckets[0]
	names := [...]string{"alpha", "bravo-charlie", "delta", "echo-foxtrot-golf", "hotel", "india-juliet"}
	// read scans columns s and a, checks them, and returns the strings of
	// column s, kept past the records' release; close ends the scan.
	read := func() (strs []string, close func()) {
		r, err := tb.Scan(ctx, fluss.ScanOptions{Projection: []int{5, 1}, BatchRows: 100})
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
			if r.(*logScan).r.mapped == nil {
				t.Fatal("the scan did not map the log")
			}
			for j := 0; j < int(rec.NumRows()); j++ {
				id := int64(len(strs))
				strs = append(strs, rec.Column(0).(*array.String).Value(j))
				if strs[id] != names[id%6] {
					t.Fatalf("row %d: s = %q, want %q", id, strs[id], names[id%6])
				}
				if got := rec.Column(1).(*array.Int64).Value(j); got != id%1000 {
					t.Fatalf("row %d: a = %d", id, got)
				}
			}
			rec.Release()
		}
		return strs, r.Close
	}
	kept, closeScan := read()
	closeScan()
	again, closeOpen := read() // still open across the DROP
	if len(bl.maps.maps) != 1 {
		t.Fatalf("%d mappings of one log, want 1 shared by both scans", len(bl.maps.maps))
	}
	if err := s.DropTable(ctx, path("l"), false); err != nil {
		t.Fatal(err)
	}
	for i, str := range append(kept, again...) {
		if str != names[i%300%6] {
			t.Fatalf("string %d after DROP, its scan open: %q", i, str)
		}
	}
	closeOpen()
	if bl.maps.maps != nil {
		t.Fatal("mapping kept after the DROP and the last scan's close")
	}
	for i, str := range kept {
		if str != strings.Repeat("\x00", len(names[i%6])) {
			t.Fatalf("string %d after DROP: %q, want zeros", i, str)
		}
	}
}

// flatRecord is n rows of (id bigint, v bigint, s text, ok boolean, x
// double) from id first, every third v and s NULL.
func flatRecord(sc *arrow.Schema, first int64, n int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer rb.Release()
	for i := first; i < first+int64(n); i++ {
		rb.Field(0).(*array.Int64Builder).Append(i)
		if i%3 == 0 {
			rb.Field(1).AppendNull()
			rb.Field(2).AppendNull()
		} else {
			rb.Field(1).(*array.Int64Builder).Append(-i * 1000)
			rb.Field(2).(*array.StringBuilder).Append(strings.Repeat("x", int(i%7)))
		}
		rb.Field(3).(*array.BooleanBuilder).Append(i%2 == 0)
		rb.Field(4).(*array.Float64Builder).Append(float64(i) / 4)
	}
	return rb.NewRecordBatch()
}

// TestFullScanChecksEachCRCOncePerProcess: a scan of every column of a
// flat table reads the batches whose CRC Open checked (or that this process
// wrote) in place from the log's mapping, without hashing them again, and
// returns what whole reads that check every CRC (SkipVerify) return. Damage
// written behind the store's back after Open is therefore not looked for
// by scans; the next Open finds it and refuses the batch, naming file and
// offset, while the batch before it stays readable.
func TestFullScanChecksEachCRCOncePerProcess(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir)
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: types.Int64Type}, {Name: "v", Type: types.Int64Type}, {Name: "s", Type: types.StringType},
		{Name: "ok", Type: types.BoolType}, {Name: "x", Type: types.Float64Type}}}, BucketCount: 1}
	tb := createTable(t, s, "f", desc)
	for first := int64(0); first < 300; first += 100 {
		rec := flatRecord(tb.Info().ArrowSchema(), first, 100)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	bl := s.tables[path("f")].buckets[0]
	file := bl.path
	written, _ := scanAll(t, tb, fluss.ScanOptions{})
	defer written.Release()
	if bl.maps.maps == nil {
		t.Fatal("the log was not mapped: the test would not cover reads in place")
	}
	want := flatRecord(tb.Info().ArrowSchema(), 0, 300)
	defer want.Release()
	if !array.RecordEqual(written, want) {
		t.Fatalf("scan of what this process wrote:\n%v\nwant\n%v", written, want)
	}
	s.Close()

	for _, skipVerify := range []bool{false, true} {
		s, err := Open(dir, Options{SkipVerify: skipVerify})
		if err != nil {
			t.Fatal(err)
		}
		tb, _ := s.Table(ctx, path("f"))
		got, _ := scanAll(t, tb, fluss.ScanOptions{BatchRows: 100})
		if !array.RecordEqual(got, want) {
			t.Fatalf("skipVerify=%v: full scan differs from what was written:\n%v", skipVerify, got)
		}
		got.Release()
		s.Close()
	}

	s = openStore(t, dir)
	tb, _ = s.Table(ctx, path("f"))
	data, _ := os.ReadFile(file)
	h, _ := format.ParseHeader(data)
	second := h.Size()
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The last buffer of the second batch is column x's values.
	if _, err := f.WriteAt([]byte{data[second+h.Size()-3] ^ 0x10}, second+h.Size()-3); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, _ := scanAll(t, tb, fluss.ScanOptions{}); got.NumRows() != 300 {
		t.Fatalf("%d rows after damage behind the store's back", got.NumRows())
	} else {
		got.Release()
	}
	s.Close()

	s = openStore(t, dir)
	defer s.Close()
	where := fmt.Sprintf("%s is corrupt at byte offset %d", file, second)
	if c := s.Corruptions(); len(c) != 1 || !strings.Contains(c[0].Error(), where) {
		t.Fatalf("corruptions %v, want one naming %q", c, where)
	}
	tb, _ = s.Table(ctx, path("f"))
	r, err := tb.Scan(ctx, fluss.ScanOptions{BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, err := r.Next(ctx)
	if err != nil || first.NumRows() != 100 || first.Column(0).(*array.Int64).Value(99) != 99 {
		t.Fatalf("first batch: %v %v", first, err)
	}
	first.Release()
	_, err = r.Next(ctx)
	wantCode(t, err, sqlerr.DataCorrupted, where)
}
