package functions

import (
	"strconv"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's subscripted assignment (UPDATE t SET a[i] = x, a[lo:hi] =
// arr, a[i][j] = x): array_set_element and array_set_slice over
// sqlgate's arrays, which are nested lists of lower bound 1 whose type
// fixes the number of dimensions. Where PostgreSQL's result would start
// at another subscript (an assignment to a NULL or empty array at a
// subscript other than 1, or below an array's first element) or have
// another number of dimensions than the column's type, the assignment is
// refused (0A000) rather than the array stored rebased.

// maxArraySize is PostgreSQL's MaxArraySize: the most elements an array
// may have.
const maxArraySize = 134217727

// AssignSubscript describes one subscript of an assignment target: an
// index [i], or a slice [lo:hi] whose bounds may be omitted.
type AssignSubscript struct {
	Slice        bool
	HasLo, HasHi bool
}

// ArrayAssignKernel answers the array t (a column's value, args[0], NULL
// taken as an empty array) with the value args[1] assigned at the
// subscripts subs, whose bounds follow as int64 arguments in order (a
// slice's omitted bounds have none). An index target's value is an
// element, a slice's an array of t's element type of srcDims dimensions,
// whose elements fill the slice in storage order.
func ArrayAssignKernel(t types.T, subs []AssignSubscript, srcDims int) Kernel {
	depth := 0
	for e := &t; e.Kind == types.Array; e = e.Elem {
		depth++
	}
	slice := false
	for _, s := range subs {
		slice = slice || s.Slice
	}
	return valueKernel(t.Nullable(), func(args []any) (any, error) {
		n := len(subs)
		lo, hi := make([]int64, n), make([]int64, n)
		hasLo, hasHi := make([]bool, n), make([]bool, n)
		k := 2
		next := func() (int64, error) {
			v, ok := args[k].(int64)
			k++
			if !ok {
				return 0, sqlerr.New(sqlerr.NullValueNotAllowed, "array subscript in assignment must not be null")
			}
			return v, nil
		}
		for i, s := range subs {
			var err error
			switch {
			case !s.Slice:
				// in a slice, [i] is [1:i]
				if hi[i], err = next(); err != nil {
					return nil, err
				}
				lo[i], hasLo[i], hasHi[i] = 1, true, true
			default:
				if s.HasLo {
					if lo[i], err = next(); err != nil {
						return nil, err
					}
					hasLo[i] = true
				}
				if s.HasHi {
					if hi[i], err = next(); err != nil {
						return nil, err
					}
					hasHi[i] = true
				}
			}
		}
		base, _ := args[0].([]any)
		if slice {
			return assignSlice(base, args[0] == nil, args[1], depth, srcDims, lo, hi, hasLo, hasHi)
		}
		return assignElement(base, args[1], depth, hi)
	})
}

// lowerBoundRefusal is the refusal of an assignment whose result would
// not start at subscript 1.
func lowerBoundRefusal() error {
	return sqlerr.NotSupported("an array whose lower bound is not 1").
		WithDetail("Subscripted assignment to a NULL or empty array, or below an array's first element, makes an array that starts at the subscript, which sqlgate's arrays cannot hold.")
}

// dimsRefusal is the refusal of an assignment that would make an array
// of n dimensions in place of an empty one of depth.
func dimsRefusal(n, depth int) error {
	return sqlerr.NotSupported("subscripted assignment of a " + strconv.Itoa(n) + "-dimensional array to an empty or NULL array of " + strconv.Itoa(depth) + " dimensions")
}

// reshapeArray builds a nested array of the given lengths from elems in
// order.
func reshapeArray(elems []any, dims []int64) []any {
	if len(dims) == 1 {
		out := make([]any, dims[0])
		copy(out, elems)
		return out
	}
	step := 1
	for _, d := range dims[1:] {
		step *= int(d)
	}
	out := make([]any, dims[0])
	for i := range out {
		out[i] = reshapeArray(elems[i*step:], dims[1:])
	}
	return out
}

// copyNested copies the nested array a of depth dimensions, so that an
// assignment never writes into the value it read.
func copyNested(a []any, depth int) []any {
	out := make([]any, len(a))
	for i, e := range a {
		if l, ok := e.([]any); ok && depth > 1 {
			out[i] = copyNested(l, depth-1)
		} else {
			out[i] = e
		}
	}
	return out
}

// assignElement is array_set_element: a[idx...] = v.
func assignElement(base []any, v any, depth int, idx []int64) (any, error) {
	n := len(idx)
	shape := types.ArrayDims(base, depth)
	if shape == nil {
		// a NULL or empty array becomes one element at idx
		for _, i := range idx {
			if i != 1 {
				return nil, lowerBoundRefusal()
			}
		}
		if n != depth {
			return nil, dimsRefusal(n, depth)
		}
		dims := make([]int64, n)
		for i := range dims {
			dims[i] = 1
		}
		return reshapeArray([]any{v}, dims), nil
	}
	if n != depth {
		return nil, sqlerr.New(sqlerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	if depth == 1 {
		i := idx[0]
		if i < 1 {
			return nil, lowerBoundRefusal()
		}
		if i > maxArraySize {
			return nil, arraySizeError()
		}
		out := make([]any, max(int64(len(base)), i))
		copy(out, base)
		out[i-1] = v
		return out, nil
	}
	for d, i := range idx {
		if i < 1 || i > int64(shape[d]) {
			return nil, outOfRange()
		}
	}
	out := copyNested(base, depth)
	cur := out
	for _, i := range idx[:n-1] {
		// a ragged Fluss array (README: multidimensional arrays) may
		// lack the sub-array the first one's lengths promise
		if i > int64(len(cur)) {
			return nil, outOfRange()
		}
		sub, ok := cur[i-1].([]any)
		if !ok {
			return nil, outOfRange()
		}
		cur = sub
	}
	if idx[n-1] > int64(len(cur)) {
		return nil, outOfRange()
	}
	cur[idx[n-1]-1] = v
	return out, nil
}

func outOfRange() error {
	return sqlerr.New(sqlerr.ArraySubscriptError, "array subscript out of range")
}

func arraySizeError() error {
	return sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArraySize)
}

// assignSlice is array_set_slice: a[lo:hi]... = v, v an array whose
// elements fill the slice in order.
func assignSlice(base []any, baseNull bool, v any, depth, srcDims int, lo, hi []int64, hasLo, hasHi []bool) (any, error) {
	n := len(lo)
	if v == nil {
		// a NULL source leaves the array as it was (a NULL one empty)
		if baseNull {
			return []any{}, nil
		}
		return base, nil
	}
	vl, _ := v.([]any)
	src := types.ArrayElements(vl, srcDims)
	tooSmall := func() error { return sqlerr.New(sqlerr.ArraySubscriptError, "source array too small") }
	shape := types.ArrayDims(base, depth)
	if shape == nil {
		dims := make([]int64, n)
		items := int64(1)
		for i := range lo {
			if !hasLo[i] || !hasHi[i] {
				return nil, sqlerr.New(sqlerr.ArraySubscriptError, "array slice subscript must provide both boundaries").
					WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.")
			}
		}
		for i := range lo {
			dims[i] = hi[i] - lo[i] + 1
			if dims[i] < 0 || dims[i] > maxArraySize {
				return nil, arraySizeError()
			}
			items *= dims[i]
			if items > maxArraySize {
				return nil, arraySizeError()
			}
		}
		if int64(len(src)) < items {
			return nil, tooSmall()
		}
		if items == 0 {
			// a dimension of length 0: PostgreSQL's empty array
			return []any{}, nil
		}
		for i := range lo {
			if lo[i] != 1 {
				return nil, lowerBoundRefusal()
			}
		}
		if n != depth {
			return nil, dimsRefusal(n, depth)
		}
		return reshapeArray(src, dims), nil
	}
	if n > depth {
		return nil, sqlerr.New(sqlerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	if depth == 1 {
		l, h := int64(1), int64(len(base))
		if hasLo[0] {
			l = lo[0]
		}
		if hasHi[0] {
			h = hi[0]
		}
		if l > h {
			return nil, sqlerr.New(sqlerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
		if h > maxArraySize {
			return nil, arraySizeError()
		}
		if int64(len(src)) < h-l+1 {
			return nil, tooSmall()
		}
		if l < 1 {
			return nil, lowerBoundRefusal()
		}
		out := make([]any, max(int64(len(base)), h))
		copy(out, base)
		copy(out[l-1:h], src)
		return out, nil
	}
	ls, hs := make([]int64, depth), make([]int64, depth)
	items := int64(1)
	for d := 0; d < depth; d++ {
		ls[d], hs[d] = 1, int64(shape[d])
		if d < n && hasLo[d] {
			ls[d] = lo[d]
		}
		if d < n && hasHi[d] {
			hs[d] = hi[d]
		}
		if ls[d] > hs[d] {
			return nil, sqlerr.New(sqlerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
		if ls[d] < 1 || hs[d] > int64(shape[d]) {
			return nil, outOfRange()
		}
		items *= hs[d] - ls[d] + 1
	}
	if int64(len(src)) < items {
		return nil, tooSmall()
	}
	out := copyNested(base, depth)
	pos := 0
	var fill func(cur []any, d int) bool
	fill = func(cur []any, d int) bool {
		if hs[d] > int64(len(cur)) {
			return false // ragged
		}
		for i := ls[d]; i <= hs[d]; i++ {
			if d == depth-1 {
				cur[i-1] = src[pos]
				pos++
				continue
			}
			sub, ok := cur[i-1].([]any)
			if !ok || !fill(sub, d+1) {
				return false
			}
		}
		return true
	}
	if !fill(out, 0) {
		return nil, outOfRange()
	}
	return out, nil
}
