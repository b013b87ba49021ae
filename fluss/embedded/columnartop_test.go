package embedded

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
)

// topOf is a stable top-N of rows by column col (the reference: a stable
// sort then a limit, as the caller's top-N answers).
func topOf(rows [][]int32, col int, desc bool, n int) [][]int32 {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b []int32) int {
		if desc {
			return int(b[col]) - int(a[col])
		}
		return int(a[col]) - int(b[col])
	})
	return out[:min(n, len(out))]
}

// TestColumnarTopHint: an image scan with a top hint returns, for any
// column, direction and N (and ranges of a keyset page), exactly the
// rows of the top-N of the whole scan, ties in the same order, leaving
// chunks out whole; after a write the merged chunks pass whole and the
// top-N of what it returns stays the same.
func TestColumnarTopHint(t *testing.T) {
	ctx := context.Background()
	s := openColumnar(t)
	defer s.Close()
	tb := createTable(t, s, "kv", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v", "w"), PrimaryKey: []string{"k"}}, BucketCount: 3})
	upsert := func(rows ...[]int32) {
		t.Helper()
		rec := intRecord([]string{"k", "v", "w"}, rows...)
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var rows [][]int32
	for k := range int32(20000) {
		k -= 5000
		rows = append(rows, []int32{k, (k * 7919) % 10007, k % 7})
	}
	upsert(rows...)
	waitImage(t, s, tb)
	scan := func(opts fluss.ScanOptions) ([][]int32, int64) {
		t.Helper()
		r, err := tb.Scan(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, p := readScan(t, r)
		if p != "columnar image" {
			t.Fatalf("path %q", p)
		}
		return got, r.(fluss.ChunkReporter).ScanChunks().TopPruned
	}
	check := func(wrote bool) {
		t.Helper()
		proj := []int{2, 0, 1}
		all, _ := scan(fluss.ScanOptions{Projection: proj})
		var prunedAll int64
		for _, h := range []fluss.TopHint{
			{Column: 1, N: 10},             // the key
			{Column: 1, N: 3, Desc: true},  // the key, descending
			{Column: 2, N: 25},             // another column
			{Column: 0, N: 40},             // ties: w = k % 7
			{Column: 0, N: 1, Desc: true},  // ties, descending
			{Column: 1, N: 20000},          // more than a chunk
			{Column: 1, N: maxTopHint + 1}, // too many: ignored
			// a keyset page: the rows of k > 100 and w <= 3
			{Column: 1, N: 5, Ranges: []fluss.ColumnRange{{Column: 1, Lo: 101, Hi: math.MaxInt64}, {Column: 0, Lo: math.MinInt64, Hi: 3}}},
			{Column: 2, N: 5, Desc: true, Ranges: []fluss.ColumnRange{{Column: 1, Lo: math.MinInt64, Hi: -4000}}},
		} {
			got, pruned := scan(fluss.ScanOptions{Projection: proj, Top: &h})
			n := int(h.N)
			kept := all
			if len(h.Ranges) > 0 { // the caller's filter, over both
				in := func(r []int32) bool {
					for _, cr := range h.Ranges {
						if int64(r[cr.Column]) < cr.Lo || int64(r[cr.Column]) > cr.Hi {
							return false
						}
					}
					return true
				}
				kept = slices.DeleteFunc(slices.Clone(all), func(r []int32) bool { return !in(r) })
				got = slices.DeleteFunc(got, func(r []int32) bool { return !in(r) })
			}
			want := topOf(kept, h.Column, h.Desc, n)
			if top := topOf(got, h.Column, h.Desc, n); !slices.EqualFunc(top, want, slices.Equal) {
				t.Errorf("%+v (after a write %v): top-N of the hinted scan differs from the scan's:\n got %v\nwant %v", h, wrote, top[:min(5, len(top))], want[:min(5, len(want))])
			}
			// image chunks alone: exactly the rows the top-N keeps
			if h.N <= maxTopHint && !wrote && len(got) != min(n, len(kept)) {
				t.Errorf("%+v: the hinted scan returned %d of %d rows, want %d", h, len(got), len(all), min(n, len(kept)))
			}
			prunedAll += pruned
		}
		if !wrote && prunedAll == 0 {
			t.Error("no hinted scan left a chunk out")
		}
	}
	check(false)
	// writes since the image: their chunks come from the row store, whole
	upsert([]int32{-9000, 5, 1}, []int32{3, -20000, 0}, []int32{14000, 10006, 6})
	check(true)
}

// TestTopFilterKeys: the filter's keys order NULLs first or last as asked
// and values of either sign in either direction.
func TestTopFilterKeys(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{-5, 0, 7}, nil)
	b.AppendNull()
	a := b.NewArray()
	b.Release()
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	for _, c := range []struct {
		desc, nullsFirst bool
		want             []int // rows in order
	}{
		{false, false, []int{0, 1, 2, 3}},
		{false, true, []int{3, 0, 1, 2}},
		{true, true, []int{3, 2, 1, 0}},
		{true, false, []int{2, 1, 0, 3}},
	} {
		f := newTopFilter(&fluss.TopHint{Column: 0, N: 4, Desc: c.desc, NullsFirst: c.nullsFirst}, schema)
		for i := 1; i < len(c.want); i++ {
			if !topKeyLess(f.keyAt(a, c.want[i-1]), f.keyAt(a, c.want[i])) {
				t.Errorf("desc=%v nullsFirst=%v: row %d does not come before row %d", c.desc, c.nullsFirst, c.want[i-1], c.want[i])
			}
		}
	}
	if newTopFilter(&fluss.TopHint{Column: 0, N: 1}, arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String}}, nil)) != nil {
		t.Error("a text column took a top filter")
	}
}
