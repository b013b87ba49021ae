package types

import (
	"slices"
	"testing"
)

// TestArrayDims: an array of several dimensions stacks by its dimensions
// as PostgreSQL reads them ({{1}} is [1 1], {{1,2,3}} [1 3]: they do not
// stack although their outer lengths agree); no elements, no dimensions.
func TestArrayDims(t *testing.T) {
	cases := []struct {
		v     []any
		depth int
		want  []int
	}{
		{[]any{[]any{int64(1)}}, 2, []int{1, 1}},
		{[]any{[]any{int64(1), int64(2), int64(3)}}, 2, []int{1, 3}},
		{[]any{[]any{int64(1), nil}, []any{nil, nil}}, 2, []int{2, 2}},
		{[]any{[]any{[]any{int64(1)}, []any{int64(2)}}}, 3, []int{1, 2, 1}},
		{[]any{}, 2, []int{}},
		{[]any{[]any{}}, 2, []int{}},
	}
	for _, c := range cases {
		if got := ArrayDims(c.v, c.depth); !slices.Equal(got, c.want) {
			t.Errorf("ArrayDims(%v, %d) = %v, want %v", c.v, c.depth, got, c.want)
		}
	}
}
