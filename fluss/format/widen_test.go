package format

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestWidenRow: a row of the first n fields, widened to m, decodes under
// the m-field types as the old values followed by NULLs, for every n < m
// around the bitmap's byte boundaries.
func TestWidenRow(t *testing.T) {
	for m := 1; m <= 18; m++ {
		ts := make([]types.T, m)
		for i := range ts {
			ts[i] = types.Int64Type
		}
		for n := 0; n <= m; n++ {
			fields := make([][]byte, n)
			for f := range fields {
				if f%3 == 1 {
					continue // a null among the old fields
				}
				b := array.NewInt64Builder(memory.DefaultAllocator)
				b.Append(int64(f*7 + 1))
				a := b.NewArray()
				v, err := AppendValue(nil, ts[f], a, 0)
				a.Release()
				b.Release()
				if err != nil {
					t.Fatal(err)
				}
				fields[f] = v
			}
			row := JoinRow(nil, fields)
			wide, err := WidenRow([]byte{9}, row, n, m)
			if err != nil {
				t.Fatalf("n=%d m=%d: %v", n, m, err)
			}
			if wide[0] != 9 {
				t.Fatalf("n=%d m=%d: dst prefix lost", n, m)
			}
			bs := make([]array.Builder, m)
			for i := range bs {
				bs[i] = array.NewInt64Builder(memory.DefaultAllocator)
			}
			if _, err := DecodeRow(wide[1:], ts, bs); err != nil {
				t.Fatalf("n=%d m=%d: decode: %v", n, m, err)
			}
			for f := 0; f < m; f++ {
				a := bs[f].NewArray().(*array.Int64)
				wantNull := f >= n || f%3 == 1
				if a.IsNull(0) != wantNull || !wantNull && a.Value(0) != int64(f*7+1) {
					t.Fatalf("n=%d m=%d field %d: null=%v value=%d", n, m, f, a.IsNull(0), a.Value(0))
				}
				a.Release()
				bs[f].Release()
			}
		}
	}
}
