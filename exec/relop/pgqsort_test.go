package relop

import (
	"cmp"
	"context"
	"math/rand"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// TestPgSortTies: the order pgSort leaves ties in is PostgreSQL 15's.
// Each case is a column of keys x for rows i = 1..n and the order
// PostgreSQL answered SELECT array_agg(i ORDER BY x) FROM (VALUES (1,
// x1), (2, x2), ...) AS v(i, x) with (in-memory tuplesort, one int4 key);
// tests/difftest's TestAggregateOrderTiesDifferential compares random
// ones with a running PostgreSQL.
func TestPgSortTies(t *testing.T) {
	cases := []struct {
		keys []int
		want []int
	}{
		{[]int{2, 2, 0, 3, 1, 0, 1}, []int{3, 6, 7, 5, 2, 1, 4}},
		{[]int{0, 2, 3, 1, 3, 0, 1, 0}, []int{1, 6, 8, 4, 7, 2, 5, 3}},
		{[]int{1, 3, 2, 1, 3, 1, 0, 1, 3}, []int{7, 8, 1, 4, 6, 3, 9, 2, 5}},
		{[]int{1, 1, 0, 0, 1, 1, 1, 1, 2, 2, 1, 1, 1}, []int{3, 4, 5, 6, 7, 8, 13, 2, 12, 1, 11, 9, 10}},
		{[]int{1, 3, 2, 0, 2, 3, 1, 1, 2, 0, 2, 2, 0, 2, 0, 2, 2, 2, 3, 2, 1, 3, 3, 1, 0, 2, 0, 2, 3, 0, 3, 2, 3, 0, 3, 0, 1, 1, 0, 1, 3}, []int{34, 30, 13, 39, 15, 25, 36, 4, 27, 10, 40, 21, 37, 24, 1, 38, 7, 8, 11, 3, 5, 9, 12, 14, 16, 17, 18, 20, 26, 28, 32, 41, 33, 29, 35, 23, 22, 19, 6, 2, 31}},
		{[]int{2, 2, 2, 3, 0, 2, 2, 0, 3, 0, 1, 2, 2, 1, 2, 2, 0, 2, 2, 2, 1, 0, 1, 2, 3, 1, 0, 0, 3, 0, 1, 2, 2, 3, 3, 1, 0, 0, 3, 2, 1, 1, 1, 3, 0}, []int{8, 38, 37, 5, 30, 17, 10, 27, 45, 22, 28, 21, 23, 42, 26, 41, 31, 14, 36, 43, 11, 40, 2, 3, 6, 7, 12, 13, 15, 16, 18, 19, 20, 24, 32, 33, 1, 34, 39, 4, 29, 25, 9, 44, 35}},
		{[]int{1, 3, 2, 1, 0, 3, 2, 1, 3, 1, 3, 3, 2, 3, 2, 2, 3, 3, 1, 0, 3, 1, 3, 2, 1, 0, 3, 2, 2, 0, 2, 0, 2, 2, 2, 3, 2, 2, 2, 1, 0, 3, 2, 2, 2, 3, 2, 2, 2, 2, 2, 3, 2, 1, 3, 2, 2, 1, 1, 1, 2, 3, 2, 0}, []int{64, 32, 5, 26, 41, 30, 20, 1, 4, 54, 60, 40, 19, 22, 25, 8, 59, 10, 58, 56, 3, 7, 13, 15, 16, 24, 34, 35, 37, 38, 39, 43, 44, 45, 47, 48, 49, 50, 51, 53, 57, 61, 63, 28, 29, 31, 33, 27, 14, 55, 23, 46, 21, 12, 62, 11, 36, 9, 6, 52, 18, 17, 42, 2}},
		{[]int{3, 1, 3, 2, 2, 0, 1, 1, 3, 1, 1, 1, 0, 3, 1, 1, 0, 1, 0, 2, 1, 3, 1, 0, 3, 3, 2, 3, 0, 1, 1, 2, 0, 2, 3, 2, 3, 0, 2, 0, 2, 0, 2, 2, 2, 2, 1, 3, 3, 2, 3, 1, 1, 3, 3, 1, 1, 0, 2, 0, 3, 0, 2, 1, 2, 3, 3, 3, 1, 3, 2, 3, 3, 3, 1, 2, 2, 3, 2, 3, 0, 2, 2, 3, 2, 1, 3, 0, 0, 3, 1, 2, 0, 1, 3, 0, 3, 2, 1, 3}, []int{33, 13, 62, 60, 58, 17, 19, 93, 24, 89, 88, 29, 6, 81, 38, 96, 40, 42, 11, 2, 21, 12, 23, 7, 91, 86, 99, 94, 47, 75, 69, 15, 64, 52, 53, 8, 10, 56, 57, 30, 16, 31, 18, 76, 4, 5, 20, 27, 32, 34, 36, 39, 41, 43, 44, 45, 46, 50, 59, 63, 65, 71, 77, 79, 82, 83, 85, 92, 98, 70, 22, 72, 73, 74, 48, 1, 14, 78, 95, 80, 37, 9, 97, 84, 100, 35, 87, 28, 26, 90, 55, 61, 54, 25, 51, 3, 66, 67, 68, 49}},
	}
	for _, c := range cases {
		rows := make([]int, len(c.keys))
		for i := range rows {
			rows[i] = i + 1
		}
		pgSort(rows, func(a, b int) int { return cmp.Compare(c.keys[a-1], c.keys[b-1]) })
		if !slices.Equal(rows, c.want) {
			t.Errorf("keys %v: order %v, PostgreSQL %v", c.keys, rows, c.want)
		}
	}
}

// TestPgSortSorts: pgSort sorts, whatever the input's shape (random,
// presorted, reversed, all equal, few distinct keys), and keeps every item.
func TestPgSortSorts(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{0, 1, 2, 6, 7, 8, 40, 41, 100, 1000} {
		for _, shape := range []string{"random", "sorted", "reversed", "equal", "few"} {
			a := make([]int, n)
			for i := range a {
				switch shape {
				case "random":
					a[i] = rng.Intn(1 << 20)
				case "sorted":
					a[i] = i
				case "reversed":
					a[i] = n - i
				case "few":
					a[i] = rng.Intn(3)
				}
			}
			want := slices.Clone(a)
			slices.Sort(want)
			pgSort(a, cmp.Compare[int])
			if !slices.Equal(a, want) {
				t.Errorf("%s %d: not sorted", shape, n)
			}
		}
	}
}

// TestSortPostgresTies: a Sort with PostgresTies emits rows with equal
// keys as PostgreSQL's Sort does (the first case of TestPgSortTies), in
// one batch or several.
func TestSortPostgresTies(t *testing.T) {
	keys := []int32{2, 2, 0, 3, 1, 0, 1}
	want := []int32{3, 6, 7, 5, 2, 1, 4}
	schema := schemaOf(types.Int32Type, types.Int32Type)
	for _, split := range []int{7, 3} {
		var batches []arrow.RecordBatch
		for lo := 0; lo < len(keys); lo += split {
			hi := min(lo+split, len(keys))
			kb, ib := array.NewInt32Builder(memory.DefaultAllocator), array.NewInt32Builder(memory.DefaultAllocator)
			for i := lo; i < hi; i++ {
				kb.Append(keys[i])
				ib.Append(int32(i + 1))
			}
			k, id := kb.NewArray(), ib.NewArray()
			batches = append(batches, array.NewRecordBatch(schema, []arrow.Array{k, id}, int64(hi-lo)))
		}
		op := &Sort{Input: &source{schema: schema, batches: batches}, Keys: []SortKey{{Column: 0}}, PostgresTies: true}
		var got []int32
		for {
			b, err := op.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			got = append(got, b.Column(1).(*array.Int32).Int32Values()...)
			b.Release()
		}
		op.Close()
		if !slices.Equal(got, want) {
			t.Errorf("batches of %d: order %v, PostgreSQL %v", split, got, want)
		}
	}
}
