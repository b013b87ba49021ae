package exec

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
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
	// few NULLs: most 64-row words keep only valid rows (compactValidity's
	// run of ones), some keep a NULL
	f64n := array.NewFloat64Builder(mem)
	add("f64 few nulls", f64n, func(i int) {
		if i%97 == 5 {
			f64n.AppendNull()
		} else {
			f64n.Append(float64(i))
		}
	})
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

// TestFilterNextSelected: the selection a filter hands an aggregation
// (NextSelected) names the rows Next returns, batch by batch: masks with
// NULLs, batches that keep every row (no selection) or none (skipped),
// the gate, the arrow backend (a filtered batch, every row of it kept),
// and a projection of plain columns over the filter (one that computes is
// not a Selector).
func TestFilterNextSelected(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "m", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}}, nil)
	// batch kinds: random with NULLs, all kept, none kept
	batch := func(rng *rand.Rand, n, kind, first int) arrow.RecordBatch {
		vb, mb := array.NewInt64Builder(mem), array.NewBooleanBuilder(mem)
		defer vb.Release()
		defer mb.Release()
		for i := range n {
			vb.Append(int64(first + i))
			switch {
			case kind == 1:
				mb.Append(true)
			case kind == 2:
				mb.Append(false)
			case rng.IntN(9) == 0:
				mb.AppendNull()
			default:
				mb.Append(rng.IntN(2) == 0)
			}
		}
		v, m := vb.NewArray(), mb.NewArray()
		defer v.Release()
		defer m.Release()
		return array.NewRecordBatch(schema, []arrow.Array{v, m}, int64(n))
	}
	inputs := func() []arrow.RecordBatch {
		rng := rand.New(rand.NewPCG(9, 9))
		var bs []arrow.RecordBatch
		first := 0
		for k, n := range []int{1000, 64, 130, 7, 1000, 200} {
			bs = append(bs, batch(rng, n, k%3, first))
			first += n
		}
		return bs
	}
	cond := &ColExpr{Index: 1, Name: "m", T: types.BoolType}
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		backend Backend
		gate    any
		project bool
	}{
		{"native", BackendNative, nil, false},
		{"arrow", BackendArrow, nil, false},
		{"gate true", BackendNative, true, false},
		{"gate false", BackendNative, false, false},
		{"projected", BackendNative, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			build := func() Selector {
				ec := &EvalContext{Ctx: ctx, Mem: mem, Backend: c.backend}
				f := &Filter{EC: ec, Input: &batchesOp{schema: schema, batches: inputs()}, Cond: cond}
				if c.gate != nil {
					f.Gate = &ConstExpr{Value: c.gate, T: types.BoolType}
				}
				if !c.project {
					return f
				}
				return &Project{EC: ec, Input: f, Exprs: []Expr{&ColExpr{Index: 0, Name: "v", T: types.Int64Type}},
					Out: arrow.NewSchema(schema.Fields()[:1], nil)}
			}
			var want, got []int64
			next := build()
			defer next.Close()
			for {
				b, err := next.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				want = append(want, b.Column(0).(*array.Int64).Int64Values()...)
				b.Release()
			}
			sel := build()
			defer sel.Close()
			if !sel.CanSelect() {
				t.Fatal("CanSelect is false")
			}
			for {
				b, rows, err := sel.NextSelected(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if b == nil {
					break
				}
				if rows != nil && len(rows) == 0 {
					t.Fatal("an empty selection")
				}
				if int(b.NumCols()) != len(sel.Schema().Fields()) {
					t.Fatalf("%d columns, want %d", b.NumCols(), len(sel.Schema().Fields()))
				}
				vals := b.Column(0).(*array.Int64).Int64Values()
				if rows == nil {
					got = append(got, vals...)
				}
				for _, r := range rows {
					got = append(got, vals[r])
				}
				b.Release()
			}
			if c.gate == false && len(want) != 0 {
				t.Fatalf("gate false: %d rows", len(want))
			}
			if c.gate != false && len(want) < 1000 {
				t.Fatalf("only %d rows kept", len(want))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("NextSelected's rows differ from Next's: %d vs %d rows", len(got), len(want))
			}
		})
	}
	computed := &Project{Input: &Filter{Input: &batchesOp{schema: schema}, Cond: cond},
		Exprs: []Expr{&ArithExpr{Op: Add, L: &ColExpr{Index: 0, Name: "v", T: types.Int64Type}, R: &ConstExpr{Value: int64(1), T: types.Int64Type}, T: types.Int64Type}}}
	if computed.CanSelect() {
		t.Fatal("a computing projection claims it can select")
	}
}
