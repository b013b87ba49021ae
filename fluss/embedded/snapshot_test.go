package embedded

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// TestSnapshotReads: a held snapshot's tables read the state captured when
// it was taken, by every read path they offer (scan, lookup of one and of
// several keys, prefix scan, a log table's scan, a table created later),
// while the store's own tables read the newest; RowChanged tells the rows
// that differ between the two, with the primary key as bucket key and
// without; a closed snapshot reads nothing.
func TestSnapshotReads(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir())
	defer s.Close()
	kv := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	ten := createTable(t, s, "ten", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("tenant", "id", "v"), PrimaryKey: []string{"tenant", "id"}},
		BucketCount: 4, BucketKey: []string{"tenant"}})
	lg := createTable(t, s, "lg", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("x")}, BucketCount: 2})
	upsert := func(tb fluss.Table, names []string, rows ...[]int32) {
		t.Helper()
		rec := intRecord(names, rows...)
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	upsert(kv, []string{"k", "v"}, []int32{1, 10}, []int32{2, 20}, []int32{3, 30})
	upsert(ten, []string{"tenant", "id", "v"}, []int32{1, 1, 100}, []int32{1, 2, 200}, []int32{2, 1, 300})
	x := intRecord([]string{"x"}, []int32{1}, []int32{2})
	if _, err := lg.Append(ctx, x); err != nil {
		t.Fatal(err)
	}
	x.Release()

	snap, err := s.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Changed after the snapshot: 1 rewritten, 2 deleted, 4 inserted, 3
	// rewritten with its own values (unchanged); tenant 1's row 2 changed.
	upsert(kv, []string{"k", "v"}, []int32{1, 11}, []int32{4, 40}, []int32{3, 30})
	del := intRecord([]string{"k"}, []int32{2})
	if _, err := kv.Delete(ctx, del); err != nil {
		t.Fatal(err)
	}
	del.Release()
	upsert(ten, []string{"tenant", "id", "v"}, []int32{1, 2, 201})
	x = intRecord([]string{"x"}, []int32{3})
	if _, err := lg.Append(ctx, x); err != nil {
		t.Fatal(err)
	}
	x.Release()
	later := createTable(t, s, "later", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k"), PrimaryKey: []string{"k"}}, BucketCount: 1})
	upsert(later, []string{"k"}, []int32{1})

	view := func(tb fluss.Table) fluss.Table {
		v, ok := snap.Table(tb)
		if !ok {
			t.Fatalf("%s: not of the snapshot's store", tb.Info().Path)
		}
		return v
	}
	scanned := func(tb fluss.Table, col int) []int32 {
		rec, _ := scanAll(t, tb, fluss.ScanOptions{})
		if rec == nil {
			return nil
		}
		defer rec.Release()
		v := int32Values(rec, col)
		slices.Sort(v)
		return v
	}
	for _, c := range []struct {
		name string
		got  []int32
		want []int32
	}{
		{"snapshot kv", scanned(view(kv), 1), []int32{10, 20, 30}},
		{"newest kv", scanned(kv, 1), []int32{11, 30, 40}},
		{"snapshot ten", scanned(view(ten), 2), []int32{100, 200, 300}},
		{"snapshot lg", scanned(view(lg), 0), []int32{1, 2}},
		{"newest lg", scanned(lg, 0), []int32{1, 2, 3}},
		{"snapshot later", scanned(view(later), 0), nil},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, c := range []struct{ keys, want []int32 }{{[]int32{1}, []int32{10}}, {[]int32{1, 2, 4}, []int32{10, 20}}} {
		keys := c.keys
		var rows [][]int32
		for _, k := range keys {
			rows = append(rows, []int32{k})
		}
		kr := intRecord([]string{"k"}, rows...)
		got, err := view(kv).Lookup(ctx, kr, nil)
		kr.Release()
		if err != nil {
			t.Fatal(err)
		}
		v := int32Values(got, 1)
		got.Release()
		slices.Sort(v)
		if !slices.Equal(v, c.want) {
			t.Errorf("lookup %v in the snapshot: %v, want %v", keys, v, c.want)
		}
	}
	tk := intRecord([]string{"tenant"}, []int32{1})
	r, err := view(ten).(fluss.PrefixScanner).ScanPrefix(ctx, tk, fluss.ScanOptions{})
	tk.Release()
	var pv []int32
	for err == nil {
		var b arrow.RecordBatch
		if b, err = r.Next(ctx); err != nil || b == nil {
			break
		}
		pv = append(pv, int32Values(b, 2)...)
		b.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	slices.Sort(pv)
	if !slices.Equal(pv, []int32{100, 200}) {
		t.Errorf("prefix scan of tenant 1 in the snapshot: %v", pv)
	}

	key := func(tb fluss.Table, vals ...int32) []byte {
		rec := intRecord(tb.Info().Descriptor.Schema.PrimaryKey, vals)
		defer rec.Release()
		ts := make([]types.T, len(vals))
		for i, n := range tb.Info().Descriptor.Schema.PrimaryKey {
			ts[i] = tb.Info().Descriptor.Schema.Columns[tb.Info().ColumnIndex(n)].Type
		}
		k, err := format.AppendKey(nil, ts, rec.Columns(), 0)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	for _, c := range []struct {
		tb   fluss.Table
		key  []int32
		want fluss.RowChange
	}{
		{kv, []int32{1}, fluss.RowUpdated}, {kv, []int32{2}, fluss.RowDeleted}, {kv, []int32{4}, fluss.RowUpdated},
		{kv, []int32{3}, fluss.RowUnchanged}, {kv, []int32{9}, fluss.RowUnchanged},
		{ten, []int32{1, 2}, fluss.RowUpdated}, {ten, []int32{1, 1}, fluss.RowUnchanged}, {ten, []int32{2, 1}, fluss.RowUnchanged},
	} {
		got, err := snap.RowChanged(ctx, c.tb, key(c.tb, c.key...))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("RowChanged(%s %v) = %v, want %v", c.tb.Info().Path.Table, c.key, got, c.want)
		}
	}
	v := view(kv)
	snap.Close()
	if _, err := v.Scan(ctx, fluss.ScanOptions{}); err == nil {
		t.Error("a closed snapshot's table scanned")
	}
}
