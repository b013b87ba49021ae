package relop

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
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
