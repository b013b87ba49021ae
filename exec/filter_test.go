package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestNativeFilterCompaction runs the native filter on masks whose 64-row
// words take every path of the compaction (all kept, none, sparse, dense,
// a partial last word), with and without NULLs in the mask and the
// columns, masks and columns sliced at and off byte boundaries, and
// compares each output column with the rows picked one by one.
func TestNativeFilterCompaction(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	patterns := []struct {
		name string
		keep func(i int) bool
	}{
		{"half random", func(int) bool { return rng.IntN(2) == 0 }},
		{"sparse", func(int) bool { return rng.IntN(20) == 0 }},
		{"dense", func(int) bool { return rng.IntN(20) != 0 }},
		{"runs of 64", func(i int) bool { return (i/64)%2 == 0 }},
		{"runs of 100", func(i int) bool { return (i/100)%2 == 1 }},
		{"every third", func(i int) bool { return i%3 == 0 }},
		{"last only", nil}, // set below: keeps the final row
	}
	sizes := []int{1, 2, 63, 64, 65, 127, 128, 129, 1000}
	for _, p := range patterns {
		for _, n := range sizes {
			for _, maskNulls := range []bool{false, true} {
				for _, slice := range []int{0, 3, 8} {
					name := fmt.Sprintf("%s/n=%d/masknulls=%v/slice=%d", p.name, n, maskNulls, slice)
					t.Run(name, func(t *testing.T) {
						keep := p.keep
						total := n + slice
						if keep == nil {
							keep = func(i int) bool { return i == total-1 }
						}
						checkFilter(t, rng, total, slice, keep, maskNulls)
					})
				}
			}
		}
	}
}

func checkFilter(t *testing.T, rng *rand.Rand, total, slice int, keep func(int) bool, maskNulls bool) {
	mem := memory.NewGoAllocator()
	mb := array.NewBooleanBuilder(mem)
	for i := 0; i < total; i++ {
		if maskNulls && rng.IntN(7) == 0 {
			mb.AppendNull()
			continue
		}
		mb.Append(keep(i))
	}
	mask := mb.NewBooleanArray()
	mb.Release()
	defer mask.Release()
	var cols []arrow.Array
	var fields []arrow.Field
	add := func(name string, b array.Builder, app func(i int)) {
		for i := 0; i < total; i++ {
			app(i)
		}
		cols = append(cols, b.NewArray())
		fields = append(fields, arrow.Field{Name: name, Type: cols[len(cols)-1].DataType(), Nullable: true})
		b.Release()
	}
	i8 := array.NewInt8Builder(mem)
	add("i8", i8, func(i int) { i8.Append(int8(i)) })
	i16 := array.NewInt16Builder(mem)
	add("i16", i16, func(i int) {
		if i%5 == 0 {
			i16.AppendNull()
		} else {
			i16.Append(int16(i * 3))
		}
	})
	i32 := array.NewInt32Builder(mem)
	add("i32", i32, func(i int) { i32.Append(int32(-i)) })
	i64 := array.NewInt64Builder(mem)
	add("i64", i64, func(i int) { i64.Append(int64(i) << 40) })
	i64n := array.NewInt64Builder(mem)
	add("i64 nulls", i64n, func(i int) {
		if i%2 == 1 {
			i64n.AppendNull()
		} else {
			i64n.Append(int64(i))
		}
	})
	f64 := array.NewFloat64Builder(mem)
	add("f64", f64, func(i int) { f64.Append(float64(i) / 4) })
	allNull := array.NewInt64Builder(mem)
	add("all null", allNull, func(int) { allNull.AppendNull() })
	s := array.NewStringBuilder(mem)
	add("s", s, func(i int) { s.Append(fmt.Sprint(i)) })
	bl := array.NewBooleanBuilder(mem)
	add("b", bl, func(i int) { bl.Append(i%3 == 1) })
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(total))
	for _, c := range cols {
		c.Release()
	}
	defer rec.Release()
	in, m := rec, arrow.Array(mask)
	if slice > 0 {
		in = rec.NewSlice(int64(slice), int64(total))
		defer in.Release()
		m = array.NewSlice(mask, int64(slice), int64(total))
		defer m.Release()
	}
	var want []int
	for i := 0; i < m.Len(); i++ {
		if m.IsValid(i) && m.(*array.Boolean).Value(i) {
			want = append(want, i)
		}
	}
	for _, pool := range []memory.Allocator{mem, NewPoolAllocator(1 << 20)} {
		f := &Filter{EC: &EvalContext{Ctx: context.Background(), Mem: pool, Backend: BackendNative}}
		// twice: the second run reuses the filter's and the pool's storage
		for run := 0; run < 2; run++ {
			out, err := f.apply(context.Background(), in, m)
			if err != nil {
				t.Fatal(err)
			}
			if int(out.NumRows()) != len(want) {
				t.Fatalf("%d rows, want %d", out.NumRows(), len(want))
			}
			for c := range out.Columns() {
				got, src := out.Column(c), in.Column(c)
				if got.Len() != len(want) {
					t.Fatalf("column %s: %d rows, want %d", out.ColumnName(c), got.Len(), len(want))
				}
				nulls := 0
				for j, r := range want {
					if got.IsNull(j) != src.IsNull(r) || (src.IsValid(r) && valueAt(got, j) != valueAt(src, r)) {
						t.Fatalf("column %s row %d: got %v, want %v (input row %d)", out.ColumnName(c), j, valueAt(got, j), valueAt(src, r), r)
					}
					if src.IsNull(r) {
						nulls++
					}
				}
				if got.NullN() != nulls {
					t.Fatalf("column %s: NullN %d, want %d", out.ColumnName(c), got.NullN(), nulls)
				}
			}
			out.Release()
		}
	}
}
