package functions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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
func arrayLeaf(t types.T) types.T { return t.ArrayLeaf() }

// cardinalitySpecialize is cardinality(anyarray): the number of elements
// of every dimension (4 for {{1,2},{3,4}}).
func cardinalitySpecialize(args []types.T, _ []any) (types.T, Kernel) {
	depth := arrayDepth(args[0])
	return tInt4, rowFunc(tInt4, true, func(_ context.Context, a []any) (any, error) {
		arr, _ := a[0].([]any)
		return int64(len(types.ArrayElements(arr, depth))), nil
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
			dims := types.ArrayDims(arr, depth)
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
	if dims := types.ArrayDims(arr, depth); len(dims) > 0 {
		return int64(len(dims))
	}
	return nil
}

// mdDimsText is array_dims over an array of depth dimensions:
// [1:2][1:3] (NULL when empty).
func mdDimsText(arr []any, depth int) any {
	dims := types.ArrayDims(arr, depth)
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
func mdSubscriptRows(depth int) func(_ context.Context, args []any) (func() (any, bool, error), error) {
	return func(_ context.Context, args []any) (func() (any, bool, error), error) {
		arr, ok := args[0].([]any)
		dim, ok2 := args[1].(int64)
		if !ok || !ok2 {
			return none, nil
		}
		dims := types.ArrayDims(arr, depth)
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
func mdUnnestRows(depth int) func(_ context.Context, args []any) (func() (any, bool, error), error) {
	return func(ctx context.Context, args []any) (func() (any, bool, error), error) {
		arr, _ := args[0].([]any)
		return unnestRows(ctx, []any{types.ArrayElements(arr, depth)})
	}
}

// compareMD orders two arrays of depth dimensions as PostgreSQL's
// array_cmp does: element by element in storage order (cmp), then the
// one with fewer elements first, then by the number of dimensions, then
// dimension by dimension by length (ARRAY[[1,2]] < ARRAY[[1],[2]]).
// Two arrays are equal only with the same dimensions and elements, as
// array_eq has it.
func compareMD(x, y []any, depth int, cmp func(a, b any) (int, error)) (int, error) {
	fx, fy := types.ArrayElements(x, depth), types.ArrayElements(y, depth)
	n := min(len(fx), len(fy))
	if c, err := compareElements(fx[:n], fy[:n], cmp); err != nil || c != 0 {
		return c, err
	}
	if c := cmpArr(len(fx), len(fy)); c != 0 {
		return c, nil
	}
	dx, dy := types.ArrayDims(x, depth), types.ArrayDims(y, depth)
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

// mdConstruct is ARRAY[sub, ...] over sub-arrays of depth dimensions.
func mdConstruct(subs []any, depth int) (any, error) {
	var first []int
	haveEmpty, haveOne := false, false
	for _, s := range subs {
		a, _ := s.([]any)
		dims := types.ArrayDims(a, depth)
		if len(dims) == 0 {
			haveEmpty = true
			continue
		}
		if !haveOne {
			first, haveOne = dims, true
			continue
		}
		if !slices.Equal(first, dims) {
			return nil, errMatchingDims()
		}
	}
	if !haveOne {
		return []any{}, nil
	}
	if haveEmpty {
		return nil, errMatchingDims()
	}
	out := make([]any, len(subs))
	copy(out, subs)
	return out, nil
}

func errMatchingDims() error {
	return sqlerr.New(sqlerr.Code("2202E"), "multidimensional arrays must have array expressions with matching dimensions")
}

// arrayCatFuncs is array_cat(anycompatiblearray, anycompatiblearray),
// which Resolve types through resolveArrayCat: PostgreSQL's arrays of any
// number of dimensions are one type, so int[][] and int[] concatenate.
func arrayCatFuncs() []*Func {
	return []*Func{{Name: "array_cat", Args: []types.T{tAnyArray, tAnyArray}, Ret: tAnyArray, specialize: arrayCatSpecialize}}
}

// resolveArrayCat types array_cat(a, b) as PostgreSQL's
// anycompatiblearray: the common type of the two element types (the
// innermost ones: int[][] has integer elements), each argument keeping its
// own number of dimensions; an unknown literal takes the other's type.
func resolveArrayCat(f *Func, args []types.T) (*Func, []types.T, error) {
	var leaves []types.T
	for _, a := range args {
		switch {
		case pgTypeOf(a) == pgUnknown:
		case a.Kind != types.Array || a.Elem == nil || a.Variant.IsVector():
			return nil, nil, undefinedFunction("array_cat", args)
		default:
			leaves = append(leaves, arrayLeaf(a).Nullable())
		}
	}
	leaf := types.StringType
	if len(leaves) > 0 {
		var err error
		if leaf, err = CommonType("array_cat", leaves); err != nil {
			return nil, nil, undefinedFunction("array_cat", args)
		}
	}
	out := make([]types.T, len(args))
	for i, a := range args {
		d := 1
		if pgTypeOf(a) == pgUnknown {
			for _, o := range args {
				d = max(d, arrayDepth(o))
			}
		} else {
			d = arrayDepth(a)
		}
		out[i] = mdArrayOf(leaf, d)
	}
	return f, out, nil
}

// mdArrayOf is the array type of depth dimensions of leaf.
func mdArrayOf(leaf types.T, depth int) types.T {
	t := leaf.Nullable()
	for i := 0; i < depth; i++ {
		t = types.ArrayOf(t)
	}
	return t
}

// arrayCatSpecialize is array_cat over the argument types resolveArrayCat
// gave: the result has the greater number of dimensions.
func arrayCatSpecialize(args []types.T, _ []any) (types.T, Kernel) {
	da, db := arrayDepth(args[0]), arrayDepth(args[1])
	ret := mdArrayOf(arrayLeaf(args[0]), max(da, db))
	return ret, rowFunc(ret, false, func(_ context.Context, a []any) (any, error) {
		return mdCat(a[0], a[1], da, db)
	})
}

// mdCat is PostgreSQL's array_cat (array_userfuncs.c) over x of dx and y
// of dy dimensions: a NULL or empty side gives the other; two arrays of
// the same dimensions join along the first, whose sub-arrays must match;
// an array of one dimension fewer is one more sub-array of the other.
func mdCat(x, y any, dx, dy int) (any, error) {
	if x == nil && y == nil {
		return nil, nil
	}
	xa, _ := x.([]any)
	ya, _ := y.([]any)
	xd, yd := types.ArrayDims(xa, dx), types.ArrayDims(ya, dy)
	keep := func(v any, d int) (any, error) {
		va, _ := v.([]any)
		switch {
		case v == nil:
			return nil, nil
		case len(types.ArrayElements(va, d)) == 0:
			return []any{}, nil
		case d < max(dx, dy):
			// the result's type has more dimensions than the array it
			// would be: sqlgate's array types fix their dimensions
			return nil, sqlerr.New(sqlerr.FeatureNotSupported,
				"array_cat of an empty array and an array of fewer dimensions is not supported (an array type here has its dimensions fixed)")
		}
		return v, nil
	}
	// as array_cat: a NULL side gives the other, so does an empty one
	switch {
	case x == nil:
		return keep(y, dy)
	case y == nil:
		return keep(x, dx)
	case len(xd) == 0 && len(yd) > 0:
		return keep(y, dy)
	case len(yd) == 0:
		return keep(x, dx)
	}
	incompatible := func(detail string, a ...any) error {
		return sqlerr.New(sqlerr.Code("2202E"), "cannot concatenate incompatible arrays").WithDetail(detail, a...)
	}
	switch {
	case len(xd) == len(yd):
		if !slices.Equal(xd[1:], yd[1:]) {
			return nil, incompatible("Arrays with differing element dimensions are not compatible for concatenation.")
		}
		return append(append([]any{}, xa...), ya...), nil
	case len(xd) == len(yd)-1:
		if !slices.Equal(xd, yd[1:]) {
			return nil, incompatible("Arrays with differing dimensions are not compatible for concatenation.")
		}
		return append([]any{xa}, ya...), nil
	case len(xd)-1 == len(yd):
		if !slices.Equal(xd[1:], yd) {
			return nil, incompatible("Arrays with differing dimensions are not compatible for concatenation.")
		}
		return append(append([]any{}, xa...), any(ya)), nil
	}
	return nil, incompatible("Arrays of %d and %d dimensions are not compatible for concatenation.", len(xd), len(yd))
}

// ArrayConstructorValue is ARRAY[vals...] of elem computed at bind time
// (the binder folds a constructor of constants): the same rules as
// ArrayConstructorKernel, so ARRAY['{}'::int[], ARRAY[1]] is 2202E there
// too.
func ArrayConstructorValue(elem types.T, vals []any) (any, error) {
	if depth := arrayDepth(elem); depth > 0 {
		return mdConstruct(vals, depth)
	}
	return append([]any{}, vals...), nil
}

// arrayFillFuncs is array_fill(anyelement, int[], int[]) (with lower
// bounds; the binder types the two-argument form, binder/arrayfuncs.go):
// its result has as many dimensions as the constant dimension array has
// elements (one when it is not a constant), and lower bounds other than 1
// are refused with 0A000, sqlgate's arrays starting at 1.
func arrayFillFuncs() []*Func {
	return []*Func{{Name: "array_fill", Args: []types.T{tAny, types.ArrayOf(tInt4), types.ArrayOf(tInt4)}, Ret: tAnyArray, specialize: arrayFillSpecialize}}
}

func arrayFillSpecialize(args []types.T, consts []any) (types.T, Kernel) {
	depth := 1
	if len(consts) > 1 {
		if d, ok := consts[1].([]any); ok && len(d) > 1 {
			depth = len(d)
		}
	}
	elem := args[0]
	if pgTypeOf(elem) == pgUnknown {
		elem = types.StringType
	}
	ret := mdArrayOf(elem, depth)
	return ret, rowFunc(ret, false, func(_ context.Context, a []any) (any, error) {
		dims, ok := a[1].([]any)
		lbs, ok2 := a[2].([]any)
		if !ok || !ok2 {
			return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "dimension array or low bound array cannot be null")
		}
		if len(dims) != len(lbs) {
			return nil, sqlerr.New(sqlerr.Code("2202E"), "wrong number of array subscripts").
				WithDetail("Low bound array has different size than dimensions array.")
		}
		if len(dims) > 6 {
			return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (6)", len(dims))
		}
		n := make([]int64, len(dims))
		total := int64(1)
		for i := range dims {
			d, ok := dims[i].(int64)
			lb, ok2 := lbs[i].(int64)
			if !ok || !ok2 {
				return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "dimension values cannot be null")
			}
			if d < 0 || total*max(d, 1) > 134217727 {
				return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (134217727)")
			}
			n[i], total = d, total*max(d, 1)
			if d > 0 && lb != 1 {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "array_fill with lower bound %d is not supported (sqlgate arrays start at 1)", lb)
			}
		}
		for _, d := range n {
			if d == 0 {
				return []any{}, nil
			}
		}
		if len(n) == 0 {
			return []any{}, nil
		}
		if len(n) != depth {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported,
				"array_fill of %d dimensions from a dimension array that is not a constant is not supported (an array type here has its dimensions fixed)", len(n))
		}
		var fill func(k int) []any
		fill = func(k int) []any {
			out := make([]any, n[k])
			for i := range out {
				if k == len(n)-1 {
					out[i] = a[0]
				} else {
					out[i] = fill(k + 1)
				}
			}
			return out
		}
		return fill(0), nil
	})
}

// ArrayElementType is PostgreSQL's element type of array type t: the
// innermost type (integer for int[][]), which anyelement and
// anycompatible take where anyarray is t. The binder types the element
// functions (binder/arrayfuncs.go) and op ANY (binder/arrays.go) with it
// to follow PostgreSQL over arrays of several dimensions, calling
// ArrayPolyKernelMD and QuantifiedArrayKernel.
func ArrayElementType(t types.T) types.T { return arrayLeaf(t) }

// ArrayPolyResultMD is ArrayPolyResult over arrays of depth dimensions of
// leaf elements.
func ArrayPolyResultMD(name string, leaf types.T, depth int) types.T {
	if depth <= 1 {
		return ArrayPolyResult(name, leaf)
	}
	switch name {
	case "array_position", "array_ndims", "width_bucket", "array_positions", "array_dims":
		return ArrayPolyResult(name, leaf)
	}
	return mdArrayOf(leaf, depth)
}

// ArrayPolyKernelMD is ArrayPolyKernel over arrays of depth dimensions of
// leaf elements (the element arguments are leaves), as PostgreSQL's
// array_userfuncs.c: array_replace replaces elements in every dimension;
// array_position(s) and array_remove are 0A000 and array_append/prepend
// 22000 over an array of several dimensions, width_bucket 2202E; an empty
// array has none, so they answer over it as over a one-dimensional one.
func ArrayPolyKernelMD(name string, leaf types.T, depth int) Kernel {
	if depth <= 1 {
		return ArrayPolyKernel(name, leaf)
	}
	sub := mdArrayOf(leaf, depth-1)
	switch name {
	case "trim_array", "array_ndims", "array_dims":
		return ArrayPolyKernel(name, sub) // along the first dimension
	}
	ret := ArrayPolyResultMD(name, leaf, depth)
	oneDim := ArrayPolyKernel(name, leaf)
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		arrArg := 0
		if name == "array_prepend" || name == "width_bucket" {
			arrArg = 1
		}
		for i := 0; i < n; i++ {
			arr, _ := types.ValueAt(args[arrArg], i).([]any)
			if len(types.ArrayDims(arr, depth)) == 0 {
				continue
			}
			switch name {
			case "array_position", "array_positions":
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
			case "array_remove":
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "removing elements from multidimensional arrays is not supported")
			case "array_append", "array_prepend":
				return nil, sqlerr.New(sqlerr.Code("22000"), "argument must be empty or one-dimensional array")
			case "width_bucket":
				if types.ValueAt(args[0], i) != nil {
					return nil, sqlerr.New(sqlerr.Code("2202E"), "thresholds must be one-dimensional array")
				}
			}
		}
		if name != "array_replace" {
			// every array is empty: PostgreSQL answers as over one
			// dimension, an empty array being of none
			if name == "array_append" || name == "array_prepend" {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported,
					"%s to an empty array of %d dimensions is not supported (an array type here has its dimensions fixed)", name, depth)
			}
			b := array.NewBuilder(mem, types.ArrayOf(leaf.Nullable()).ArrowType())
			defer b.Release()
			for i := 0; i < n; i++ {
				var flat any
				if !args[arrArg].IsNull(i) {
					flat = []any{}
				}
				if err := types.AppendValue(b, flat); err != nil {
					return nil, err
				}
			}
			empty := b.NewArray()
			defer empty.Release()
			flat := append([]arrow.Array{}, args...)
			flat[arrArg] = empty
			return oneDim(ctx, mem, flat, n)
		}
		return rowFunc(ret, false, func(_ context.Context, a []any) (any, error) {
			arr, ok := a[0].([]any)
			if !ok {
				return nil, nil
			}
			var walk func(v []any, d int) []any
			walk = func(v []any, d int) []any {
				out := make([]any, len(v))
				for j, e := range v {
					switch {
					case d > 1:
						if s, ok := e.([]any); ok {
							out[j] = walk(s, d-1)
						}
					case sameElem(e, a[1]):
						out[j] = a[2]
					default:
						out[j] = e
					}
				}
				return out
			}
			return walk(arr, depth), nil
		})(ctx, mem, args, n)
	}
}

// QuantifiedArrayKernel is QuantifiedKernel over an array of type arr,
// whose elements of every dimension x is compared with (3 = ANY
// (ARRAY[[1,2],[3,4]]) is true); elem is x's type, arr's ArrayElementType.
func QuantifiedArrayKernel(op string, all bool, elem types.T, arr types.T) (Kernel, error) {
	k, err := QuantifiedKernel(op, all, elem)
	depth := arrayDepth(arr)
	if err != nil || depth <= 1 {
		return k, err
	}
	flat := types.ArrayOf(arrayLeaf(arr).Nullable())
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		vals := make([]any, n)
		for i := 0; i < n; i++ {
			if v, ok := types.ValueAt(args[1], i).([]any); ok {
				vals[i] = types.ArrayElements(v, depth)
			}
		}
		b := array.NewBuilder(mem, flat.ArrowType())
		defer b.Release()
		for _, v := range vals {
			if err := types.AppendValue(b, v); err != nil {
				return nil, err
			}
		}
		a := b.NewArray()
		defer a.Release()
		return k(ctx, mem, []arrow.Array{args[0], a}, n)
	}, nil
}
