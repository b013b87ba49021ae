package types

// A nested list value ([]any of []any ...) of depth levels is one
// PostgreSQL array of depth dimensions (int[][] is ARRAY<ARRAY<INT>>).
// ArrayElements and ArrayDims read it as PostgreSQL does; the function
// library (functions/mdarray.go), the binder and exec's array_agg share
// them.

// ArrayElements is v's elements in storage (row-major) order, never nil.
func ArrayElements(v []any, depth int) []any {
	out := []any{}
	var walk func(a []any, d int)
	walk = func(a []any, d int) {
		for _, e := range a {
			if d <= 1 {
				out = append(out, e)
				continue
			}
			sub, _ := e.([]any)
			walk(sub, d-1)
		}
	}
	walk(v, depth)
	return out
}

// ArrayDims is v's dimensions: the length of each level, read along the
// first sub-array of each; none (nil) for an array without elements, as
// PostgreSQL's empty array has no dimensions.
func ArrayDims(v []any, depth int) []int {
	if len(ArrayElements(v, depth)) == 0 {
		return nil
	}
	dims := make([]int, 0, depth)
	cur := v
	for d := 0; d < depth; d++ {
		dims = append(dims, len(cur))
		var next []any
		for _, e := range cur {
			if sub, ok := e.([]any); ok {
				next = sub
				break
			}
		}
		cur = next
	}
	return dims
}
