package relop

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// payloadRows makes n rows of a schema of every type the join's typed
// gathers and scatters handle, with NULLs in every column.
func payloadRows(t testing.TB, rng *rand.Rand, n int) (*arrow.Schema, [][]any) {
	schema := schemaOf(types.Int16Type, types.Int32Type, types.Int64Type, types.Float64Type, types.DecimalType(38, 2),
		types.DateType, types.Float32Type, types.StringType, types.BoolType)
	rows := make([][]any, n)
	for i := range rows {
		r := []any{rng.IntN(100) - 50, rng.IntN(1 << 20), i, float64(i) / 4, dec(t, fmt.Sprintf("%d.%02d", i, i%100), 2),
			rng.IntN(20000), float64(i) / 8, fmt.Sprint("s", rng.IntN(1000)), rng.IntN(2) == 0}
		for c := range r {
			if rng.IntN(7) == 0 {
				r[c] = nil
			}
		}
		rows[i] = r
	}
	return schema, rows
}

// TestScatterBatch: scatterBatch puts row r of its sources (several
// batches, NULLs or none) at dst[r] for every scattered type; gatherIdx
// takes rows as gather does.
func TestScatterBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		name  string
		n     int
		batch int
		nulls bool
	}{
		{"empty", 0, 10, true},
		{"one", 1, 10, true},
		{"one-batch", 500, 1000, true},
		{"batches", 1000, 96, true},
		{"no-nulls", 700, 128, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schema, rows := payloadRows(t, rng, tc.n)
			if !tc.nulls {
				for _, r := range rows {
					for c := range r {
						if r[c] == nil {
							r[c] = rows[0][c]
						}
						if r[c] == nil {
							r[c] = []any{0, 0, 0, 0.0, dec(t, "1.00", 2), 0, 0.0, "x", true}[c]
						}
					}
				}
			}
			src := rowsSource(t, schema, rows, tc.batch)
			dst := make([]uint32, tc.n)
			for i, j := range rng.Perm(tc.n) {
				dst[i] = uint32(j)
			}
			if !scatterable(schema) {
				t.Fatal("not scatterable")
			}
			out, err := scatterBatch(memory.DefaultAllocator, schema, src.batches, dst, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			got := drain(t, &source{schema: schema, batches: []arrow.RecordBatch{out}})
			want := drain(t, rowsSource(t, schema, rows, max(tc.n, 1)))
			for r, w := range want {
				if got[dst[r]] != w {
					t.Fatalf("row %d at %d: %s, want %s", r, dst[r], got[dst[r]], w)
				}
			}
			// gatherIdx from one batch, in dst order: the rows back
			if tc.n == 0 {
				return
			}
			for c := range schema.NumFields() {
				a, err := gatherIdx(memory.DefaultAllocator, schema.Field(c).Type, out.Column(c), dst)
				if err != nil {
					t.Fatal(err)
				}
				for r := range tc.n {
					if g, w := formatCell(a, r), formatCell(src.batches[r/tc.batch].Column(c), r%tc.batch); g != w {
						t.Fatalf("column %d row %d: %s, want %s", c, r, g, w)
					}
				}
				a.Release()
			}
		})
	}
	list := schemaOf(types.Int64Type, types.T{Kind: types.Array, Elem: &types.Int64Type})
	if scatterable(list) {
		t.Fatal("a list column is not scattered")
	}
}

// TestGatherVarBinary: text gathered from several sources (one of them a
// slice, whose value bytes start past 0) is the referenced values, of
// every length around the 16 bytes copied as words (wordSlack), at the
// end of a source (no room for a word past it), empty, NULL and from the
// null batch; the value bytes are exactly the values' (the words' excess
// overwritten or past the end).
func TestGatherVarBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	val := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		return string(b)
	}
	for _, tc := range []struct {
		name    string
		lens    []int // lengths of the values of each source's rows
		nulls   bool
		longest bool // every row taken is source 0's longest (the value bytes grow)
	}{
		{"short", []int{2, 2, 2, 2, 2}, false, false},
		{"around the words", []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 40}, false, false},
		{"one long at the end", []int{3, 3, 100}, false, false},
		{"one short at the end", []int{100, 1}, false, false},
		{"with NULLs", []int{0, 5, 16, 17, 2, 9}, true, false},
		{"longer than the sources' mean", []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 60}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srcs []arrow.Array
			var vals [][]any
			for s := range 3 {
				rows := make([][]any, len(tc.lens)+2)
				for i := range rows {
					var v any = val(tc.lens[(i+s)%len(tc.lens)])
					if tc.nulls && rng.IntN(4) == 0 {
						v = nil
					}
					rows[i] = []any{v}
				}
				b := rowsSource(t, schemaOf(types.StringType), rows, len(rows)).batches[0]
				a := b.Column(0)
				if s == 1 { // a slice: its first value's offset is not 0
					a = array.NewSlice(a, 2, int64(len(rows)))
					rows = rows[2:]
				} else {
					a.Retain()
				}
				srcs = append(srcs, a)
				vals = append(vals, func() []any {
					out := make([]any, len(rows))
					for i, r := range rows {
						out[i] = r[0]
					}
					return out
				}())
			}
			defer releaseAll(srcs)
			var refs []rowRef
			var want []any
			for range 200 {
				if tc.longest {
					r := 0
					for i, v := range vals[0] {
						if len(v.(string)) > len(vals[0][r].(string)) {
							r = i
						}
					}
					refs, want = append(refs, rowRef{0, uint32(r)}), append(want, vals[0][r])
					continue
				}
				b := rng.IntN(len(srcs) + 1)
				if b == len(srcs) {
					refs, want = append(refs, rowRef{nullBatch, 0}), append(want, nil)
					continue
				}
				r := rng.IntN(len(vals[b]))
				refs, want = append(refs, rowRef{uint32(b), uint32(r)}), append(want, vals[b][r])
			}
			// and the last row of each source, whose words would pass its end
			for b := range srcs {
				r := len(vals[b]) - 1
				refs, want = append(refs, rowRef{uint32(b), uint32(r)}), append(want, vals[b][r])
			}
			a, err := gather(memory.DefaultAllocator, arrow.BinaryTypes.String, srcs, refs)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Release()
			s := a.(*array.String)
			total := 0
			for i, w := range want {
				if w == nil {
					if !s.IsNull(i) {
						t.Fatalf("row %d: %q, want NULL", i, s.Value(i))
					}
					continue
				}
				total += len(w.(string))
				if s.IsNull(i) || s.Value(i) != w.(string) {
					t.Fatalf("row %d: %q (null %v), want %q", i, s.Value(i), s.IsNull(i), w)
				}
			}
			if got := len(s.ValueBytes()); got != total || s.Data().Buffers()[2].Len() != total {
				t.Fatalf("%d value bytes, buffer %d, want %d", got, s.Data().Buffers()[2].Len(), total)
			}
		})
	}
}

// TestShortTextView: a text column of values of at most 7 bytes (empty,
// NULL, in several batches, one a slice) is viewed one word a row, and
// gatherShort takes its rows as gatherVarBinary does; a value of 8 bytes
// leaves the column without a view.
func TestShortTextView(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []any
		view bool
	}{
		{"codes", []any{"AR", "AU", "BR", "US", "ZA"}, true},
		{"0 to 7 bytes", []any{"", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg"}, true},
		{"NULLs", []any{nil, "x", "", nil, "yz"}, true},
		{"all NULL", []any{nil, nil}, true},
		{"bytes above 0x7f", []any{"\xff\xfe\x80", "\x00\x01", "é"}, true},
		{"8 bytes", []any{"a", "abcdefgh", "b"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 3))
			schema := schemaOf(types.StringType)
			var rows [][]any
			for i := range 300 {
				rows = append(rows, []any{tc.vals[(i*7)%len(tc.vals)]})
			}
			src := rowsSource(t, schema, rows, 64)
			// the second batch a slice of a larger one
			big := buildBatch(t, schema, append(slices.Clone(rows[40:64]), rows[64:128]...))
			defer big.Release()
			sl := big.NewSlice(24, 88)
			defer sl.Release()
			batches := slices.Clone(src.batches)
			batches[1] = sl
			view := shortTextView(batches, 0, len(rows))
			if (view != nil) != tc.view {
				t.Fatalf("view %v, want %v", view != nil, tc.view)
			}
			if view == nil {
				return
			}
			idx := make([]int32, 1000)
			refs := make([]rowRef, len(idx))
			cols := make([]arrow.Array, len(batches))
			for i, b := range batches {
				cols[i] = b.Column(0)
			}
			for i := range idx {
				idx[i] = int32(rng.IntN(len(rows)))
				// the first rows not NULL: the bitmap starts after them
				for i < 3 && rows[idx[i]][0] == nil && slices.ContainsFunc(tc.vals, func(v any) bool { return v != nil }) {
					idx[i] = int32(rng.IntN(len(rows)))
				}
				refs[i] = rowRef{uint32(idx[i] / 64), uint32(idx[i] % 64)}
			}
			got := gatherShort(memory.DefaultAllocator, arrow.BinaryTypes.String, view, idx)
			defer got.Release()
			want, err := gather(memory.DefaultAllocator, arrow.BinaryTypes.String, cols, refs)
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			if !array.Equal(got, want) {
				t.Fatalf("gatherShort %v, want %v", got, want)
			}
			if g, w := got.(*array.String).ValueBytes(), want.(*array.String).ValueBytes(); string(g) != string(w) {
				t.Fatalf("value bytes %q, want %q", g, w)
			}
		})
	}
}
