package embedded

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// TestAlterMissingValue: a column added with a missing value
// (fluss/missing.go, ALTER TABLE ... ADD COLUMN ... DEFAULT) reads it in
// the rows written before — a primary-key table's stored values (scans,
// projected scans, lookups) and log batches (a log table's, and either
// kind's changelog, scanned and followed) — while rows written after read
// what was written, NULL included; a later property change and a reopen of
// the store keep it.
func TestAlterMissingValue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir)
	seven := array.NewInt32Builder(memory.DefaultAllocator)
	seven.Append(7)
	sevenArr := seven.NewArray()
	seven.Release()
	defer sevenArr.Release()
	enc, err := fluss.EncodeMissing(types.Int32Type, sevenArr, 0)
	if err != nil {
		t.Fatal(err)
	}
	key, textKey := fluss.ColumnMissingKeys(3)
	want := []string{"1,1,7", "2,2,7", "4,4,NULL", "5,5,5"}
	for _, pk := range []bool{true, false} {
		name := "mlog"
		d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "a")}, BucketCount: 2}
		if pk {
			name = "mpk"
			d.Schema.PrimaryKey = []string{"k"}
		}
		tb := createTable(t, s, name, d)
		write := func(tb fluss.Table, rec arrow.RecordBatch) { writeRows(t, tb, pk, rec) } // helpers_test.go
		write(tb, intRecord([]string{"k", "a"}, []int32{1, 1}, []int32{2, 2}))
		_, err := s.AlterTable(ctx, path(name), []fluss.TableChange{
			{Kind: fluss.ChangeAddColumn, Column: fluss.Column{Name: "b", Type: types.Int32Type}},
			{Kind: fluss.ChangeSetProperty, Key: key, Value: enc},
			{Kind: fluss.ChangeSetProperty, Key: textKey, Value: "7"},
		})
		if err != nil {
			t.Fatal(err)
		}
		tb2, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		rec := nullableIntRecord([]string{"k", "a", "b"}, [][]*int32{{ip(4), ip(4), nil}, {ip(5), ip(5), ip(5)}})
		write(tb2, rec)
		checkMissing(t, name, pk, tb2, want)
		// a property change (SET DEFAULT later) keeps the stored rows' value
		if _, err := s.AlterTable(ctx, path(name), []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: fluss.ColumnDefaultKey(3), Value: "9"}}); err != nil {
			t.Fatal(err)
		}
		tb3, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		checkMissing(t, name+" after SET DEFAULT", pk, tb3, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, dir)
	defer s.Close()
	for _, name := range []string{"mpk", "mlog"} {
		tb, err := s.Table(ctx, path(name))
		if err != nil {
			t.Fatal(err)
		}
		checkMissing(t, name+" after reopen", name == "mpk", tb, want)
	}
}

// checkMissing checks tb's rows through a scan, a projected scan, a lookup
// (primary-key tables), a changelog scan and a changelog follow.
func checkMissing(t *testing.T, name string, pk bool, tb fluss.Table, want []string) {
	t.Helper()
	ctx := context.Background()
	got, _ := scanAll(t, tb, fluss.ScanOptions{})
	if r := rowsOf(got); !slices.Equal(r, want) {
		t.Fatalf("%s: scan %v, want %v", name, r, want)
	}
	got.Release()
	proj, _ := scanAll(t, tb, fluss.ScanOptions{Projection: []int{2}})
	if r := rowsOf(proj); !slices.Equal(r, []string{"5", "7", "7", "NULL"}) {
		t.Fatalf("%s: projected scan %v", name, r)
	}
	proj.Release()
	if pk {
		keys := intRecord([]string{"k"}, []int32{1}, []int32{4})
		defer keys.Release()
		got, err := tb.Lookup(ctx, keys, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r := rowsOf(got); !slices.Equal(r, []string{"1,1,7", "4,4,NULL"}) {
			t.Fatalf("%s: lookup %v", name, r)
		}
		got.Release()
	}
	cl := tb.(fluss.ChangelogScanner)
	r, err := cl.ScanChangelog(ctx, fluss.ScanOptions{Projection: []int{3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for {
		b, err := r.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		rows = append(rows, rowsOf(b)...)
		b.Release()
	}
	r.Close()
	slices.Sort(rows)
	if want := []string{"1,7", "2,7", "4,NULL", "5,5"}; !slices.Equal(rows, want) {
		t.Fatalf("%s: changelog %v, want %v", name, rows, want)
	}
	f, err := tb.(fluss.ChangelogFollower).FollowChangelog(ctx, fluss.FollowOptions{From: []int64{0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var followed []string
	for {
		cb, err := f.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if cb.Record == nil {
			break
		}
		k, b := cb.Record.Column(3).(*array.Int32), cb.Record.Column(5).(*array.Int32)
		for i := range int(cb.Record.NumRows()) {
			v := "NULL"
			if b.IsValid(i) {
				v = strconv.Itoa(int(b.Value(i)))
			}
			followed = append(followed, strconv.Itoa(int(k.Value(i)))+","+v)
		}
		cb.Record.Release()
	}
	slices.Sort(followed)
	if want := []string{"1,7", "2,7", "4,NULL", "5,5"}; !slices.Equal(followed, want) {
		t.Fatalf("%s: followed changelog %v, want %v", name, followed, want)
	}
}

func ip(v int32) *int32 { return &v }

// nullableIntRecord is a record of INT columns whose values may be NULL.
func nullableIntRecord(names []string, rows [][]*int32) arrow.RecordBatch {
	fields := make([]arrow.Field, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, row := range rows {
		for c, v := range row {
			if v == nil {
				b.Field(c).AppendNull()
			} else {
				b.Field(c).(*array.Int32Builder).Append(*v)
			}
		}
	}
	return b.NewRecordBatch()
}
