package functions

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Multidimensional arrays. sqlgate holds PostgreSQL's int[][] value
// {{1,2},{3,4}} as a nested Arrow list (ARRAY<ARRAY<INT>>, one level per
// dimension, the type fixing the number of dimensions), where PostgreSQL
// holds ONE array with two dimensions. Every array function that looks at
// elements or dimensions must see the nested list as that one array: its
// elements are the leaves in row-major order (the innermost values, never
// the sub-arrays), its dimensions the lengths of the levels. The helpers
// here are that rule; the kernels (cardinality, array_ndims, array_dims,
// array_length/upper/lower, array_to_string, unnest, generate_subscripts,
// array comparison) use them instead of the outer list.
//
// A Fluss array of arrays may be ragged or hold a NULL sub-array, which
// PostgreSQL cannot hold (README: multidimensional arrays): the leaves are
// then whatever the sub-arrays hold (a NULL sub-array none), and the
// dimensions are read along the first sub-array of each level.

// arrayDepth is the number of dimensions of array type t: 1 for int[],
// 2 for int[][] (ARRAY<ARRAY<INT>>), 0 for a type that is not an array.
func arrayDepth(t types.T) int {
	d := 0
	for t.Kind == types.Array && t.Elem != nil {
		d++
		t = *t.Elem
	}
	return d
}

// arrayLeaf is the element type of array type t as PostgreSQL sees it:
// the innermost type (integer for int[][]).
func arrayLeaf(t types.T) types.T {
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return t
}

// mdFlatten is the elements of v, an array of depth dimensions, in
// PostgreSQL's storage order (row-major); v itself for one dimension.
func mdFlatten(v []any, depth int) []any {
	if depth <= 1 {
		return v
	}
	var out []any
	var walk func(a []any, d int)
	walk = func(a []any, d int) {
		for _, e := range a {
			if d == 1 {
				out = append(out, e)
				continue
			}
			sub, _ := e.([]any)
			walk(sub, d-1)
		}
	}
	walk(v, depth)
	if out == nil {
		out = []any{}
	}
	return out
}

// mdDims is PostgreSQL's dimensions of v, an array of depth dimensions:
// the length of each level, or none for an array without elements
// (PostgreSQL's empty array has no dimensions, so ARRAY[ARRAY[]::int[]]
// is '{}' with array_ndims NULL).
func mdDims(v []any, depth int) []int {
	if len(mdFlatten(v, depth)) == 0 {
		return nil
	}
	dims := make([]int, 0, depth)
	cur := v
	for d := 0; d < depth; d++ {
		dims = append(dims, len(cur))
		if d == depth-1 {
			break
		}
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

// cardinalitySpecialize is cardinality(anyarray): the number of elements
// of every dimension (4 for {{1,2},{3,4}}).
func cardinalitySpecialize(args []types.T, _ []any) (types.T, Kernel) {
	depth := arrayDepth(args[0])
	return tInt4, rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
		arr, _ := a[0].([]any)
		return int64(len(mdFlatten(arr, depth))), nil
	})
}

// arrayBoundSpecialize answers array_length/array_upper (the length of
// dimension k; arrays start at 1) and array_lower (1): NULL for an empty
// array or a dimension it does not have, as PostgreSQL does.
func arrayBoundSpecialize(lower bool) func(args []types.T, _ []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		depth := arrayDepth(args[0])
		return tInt4, rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
			arr, _ := a[0].([]any)
			k, _ := a[1].(int64)
			dims := mdDims(arr, depth)
			if k < 1 || k > int64(len(dims)) {
				return nil, nil
			}
			if lower {
				return int64(1), nil
			}
			return int64(dims[k-1]), nil
		})
	}
}

// mdNdims is array_ndims over an array of depth dimensions (NULL when
// empty).
func mdNdims(arr []any, depth int) any {
	if dims := mdDims(arr, depth); len(dims) > 0 {
		return int64(len(dims))
	}
	return nil
}

// mdDimsText is array_dims over an array of depth dimensions:
// [1:2][1:3] (NULL when empty).
func mdDimsText(arr []any, depth int) any {
	dims := mdDims(arr, depth)
	if len(dims) == 0 {
		return nil
	}
	var b strings.Builder
	for _, d := range dims {
		fmt.Fprintf(&b, "[1:%d]", d)
	}
	return b.String()
}

// mdSubscriptRows is generate_subscripts(array, dim [, reverse]) over an
// array of depth dimensions: the subscripts of dimension dim (none for a
// dimension the array does not have, an empty array or a NULL argument).
func mdSubscriptRows(depth int) func(args []any) (func() (any, bool, error), error) {
	return func(args []any) (func() (any, bool, error), error) {
		arr, ok := args[0].([]any)
		dim, ok2 := args[1].(int64)
		if !ok || !ok2 {
			return none, nil
		}
		dims := mdDims(arr, depth)
		if dim < 1 || dim > int64(len(dims)) {
			return none, nil
		}
		n := dims[dim-1]
		reverse := len(args) == 3 && args[2] == true
		i := 0
		return func() (any, bool, error) {
			if i >= n {
				return nil, false, nil
			}
			i++
			if reverse {
				return int64(n - i + 1), true, nil
			}
			return int64(i), true, nil
		}, nil
	}
}

// mdUnnestRows is unnest(anyarray) over an array of depth dimensions:
// every element, in storage order.
func mdUnnestRows(depth int) func(args []any) (func() (any, bool, error), error) {
	return func(args []any) (func() (any, bool, error), error) {
		arr, _ := args[0].([]any)
		return unnestRows([]any{mdFlatten(arr, depth)})
	}
}

// compareMD orders two arrays of depth dimensions as PostgreSQL's
// array_cmp does: element by element in storage order (cmp), then the
// one with fewer elements first, then by the number of dimensions, then
// dimension by dimension by length (ARRAY[[1,2]] < ARRAY[[1],[2]]).
// Two arrays are equal only with the same dimensions and elements, as
// array_eq has it.
func compareMD(x, y []any, depth int, cmp func(a, b any) (int, error)) (int, error) {
	fx, fy := mdFlatten(x, depth), mdFlatten(y, depth)
	n := min(len(fx), len(fy))
	if c, err := compareElements(fx[:n], fy[:n], cmp); err != nil || c != 0 {
		return c, err
	}
	if c := cmpArr(len(fx), len(fy)); c != 0 {
		return c, nil
	}
	dx, dy := mdDims(x, depth), mdDims(y, depth)
	if c := cmpArr(len(dx), len(dy)); c != 0 {
		return c, nil
	}
	for i := range dx {
		if c := cmpArr(dx[i], dy[i]); c != 0 {
			return c, nil
		}
	}
	return 0, nil
}

// mdElementRefusal is what PostgreSQL says when an element function meets
// an array of several dimensions, or, where sqlgate's binder typed an
// element argument as a sub-array (array_position(int[][], int[])), the
// 42883 PostgreSQL's resolution gives: its anycompatible element is the
// innermost type, which a sub-array is not.
func mdElementRefusal(name string, elem types.T, nargs int) error {
	if elem.Kind != types.Array {
		return nil
	}
	arr := types.ArrayOf(elem).PGName()
	sub := elem.PGName()
	var sig string
	switch name {
	case "array_append", "array_remove", "array_position", "array_positions":
		sig = arr + ", " + sub
	case "array_prepend":
		sig = sub + ", " + arr
	case "array_replace":
		sig = arr + ", " + sub + ", " + sub
	case "width_bucket":
		sig = sub + ", " + arr
	default:
		return nil
	}
	if name == "array_position" && nargs == 3 {
		sig += ", integer"
	}
	return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, sig).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}
