package functions

import (
	"strconv"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's subscripted assignment (UPDATE t SET a[i] = x, a[lo:hi] =
// arr, a[i][j] = x, INSERT INTO t (a[i], ..)): array_set_element and
// array_set_slice. The items of one column run in one call, over
// PostgreSQL's own form of an array (boundedArray: dimensions, lower bounds,
// elements in storage order), so an item may leave an array that starts
// at another subscript than 1 for the next to extend (a[2] = x, a[1] = y
// on a NULL array is {y,x}, by [2:2]={x}). sqlgate's arrays are nested
// lists of lower bound 1 whose type fixes the number of dimensions: a
// final array that starts elsewhere, or has another number of dimensions
// than the column's type, is refused (0A000), never stored rebased.

// maxArraySize is PostgreSQL's MaxArraySize: the most elements an array
// may have.
const maxArraySize = 134217727

// AssignSubscript describes one subscript of an assignment target: an
// index [i], or a slice [lo:hi] whose bounds may be omitted.
type AssignSubscript struct {
	Slice        bool
	HasLo, HasHi bool
}

// AssignStep is one subscripted item: its subscripts, and for a slice
// the number of dimensions of its source array.
type AssignStep struct {
	Subs    []AssignSubscript
	SrcDims int
}

// boundedArray is an array as PostgreSQL holds it: no dimensions when empty.
type boundedArray struct {
	dims, lbs []int64
	elems     []any
}

// fromNested reads the nested list v of depth dimensions (NULL as empty).
func fromNested(v []any, depth int) (boundedArray, error) {
	dims := types.ArrayDims(v, depth)
	if len(dims) == 0 {
		return boundedArray{}, nil
	}
	a := boundedArray{dims: make([]int64, len(dims)), lbs: make([]int64, len(dims)), elems: types.ArrayElements(v, depth)}
	n := int64(1)
	for i, d := range dims {
		a.dims[i], a.lbs[i] = int64(d), 1
		n *= int64(d)
	}
	if n != int64(len(a.elems)) {
		// a ragged Fluss array (README: multidimensional arrays)
		return boundedArray{}, outOfRange()
	}
	return a, nil
}

// toNested is a as a nested list of depth dimensions, or the refusal of
// an array sqlgate cannot hold.
func (a boundedArray) toNested(depth int) (any, error) {
	if len(a.dims) == 0 {
		return []any{}, nil
	}
	for _, lb := range a.lbs {
		if lb != 1 {
			return nil, lowerBoundRefusal()
		}
	}
	if len(a.dims) != depth {
		return nil, dimsRefusal(len(a.dims), depth)
	}
	return reshapeArray(a.elems, a.dims), nil
}

// ArrayAssignKernel answers the array t (a column's value, args[0], NULL
// taken as an empty array) with steps applied in order; each step's
// value and then its subscripts' bounds (int64; a slice's omitted bounds
// have none) follow in args. An index item's value is an element, a
// slice's an array of t's element type of its SrcDims dimensions, whose
// elements fill the slice in storage order.
func ArrayAssignKernel(t types.T, steps []AssignStep) Kernel {
	depth := 0
	for e := &t; e.Kind == types.Array; e = e.Elem {
		depth++
	}
	return valueKernel(t.Nullable(), func(args []any) (any, error) {
		base, _ := args[0].([]any)
		a, err := fromNested(base, depth)
		if err != nil {
			return nil, err
		}
		k := 1
		for _, st := range steps {
			v := args[k]
			k++
			n := len(st.Subs)
			lo, hi := make([]int64, n), make([]int64, n)
			hasLo, hasHi := make([]bool, n), make([]bool, n)
			slice := false
			for i, s := range st.Subs {
				slice = slice || s.Slice
				if !s.Slice || s.HasLo {
					if s.Slice {
						if lo[i], err = assignBound(args[k]); err != nil {
							return nil, err
						}
						k++
					}
					hasLo[i] = true
				}
				if !s.Slice || s.HasHi {
					if hi[i], err = assignBound(args[k]); err != nil {
						return nil, err
					}
					k++
					hasHi[i] = true
				}
				if !s.Slice {
					lo[i] = 1 // in a slice, [i] is [1:i]
				}
			}
			if slice {
				if v == nil {
					continue // a NULL source leaves the array as it is
				}
				vl, _ := v.([]any)
				a, err = a.setSlice(lo, hi, hasLo, hasHi, types.ArrayElements(vl, st.SrcDims))
			} else {
				a, err = a.setElement(hi, v)
			}
			if err != nil {
				return nil, err
			}
		}
		return a.toNested(depth)
	})
}

// assignBound is one subscript's bound: a NULL one is refused.
func assignBound(v any) (int64, error) {
	i, ok := v.(int64)
	if !ok {
		return 0, sqlerr.New(sqlerr.NullValueNotAllowed, "array subscript in assignment must not be null")
	}
	return i, nil
}

// lowerBoundRefusal is the refusal of an assignment whose result would
// not start at subscript 1.
func lowerBoundRefusal() error {
	return sqlerr.NotSupported("an array whose lower bound is not 1").
		WithDetail("Subscripted assignment to a NULL or empty array, or below an array's first element, makes an array that starts at the subscript, which sqlgate's arrays cannot hold.")
}

// dimsRefusal is the refusal of an assignment that would make an array
// of n dimensions for a type of depth.
func dimsRefusal(n, depth int) error {
	return sqlerr.NotSupported("subscripted assignment making an array of " + strconv.Itoa(n) + " dimensions in a column of " + strconv.Itoa(depth))
}

func outOfRange() error {
	return sqlerr.New(sqlerr.ArraySubscriptError, "array subscript out of range")
}

func arraySizeError() error {
	return sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArraySize)
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

// offset is the storage position of the element at subscripts idx (in
// range).
func (a boundedArray) offset(idx []int64) int64 {
	off := int64(0)
	for d, i := range idx {
		off = off*a.dims[d] + (i - a.lbs[d])
	}
	return off
}

// setElement is array_set_element: a[idx...] = v.
func (a boundedArray) setElement(idx []int64, v any) (boundedArray, error) {
	n := len(idx)
	if len(a.dims) == 0 {
		out := boundedArray{dims: make([]int64, n), lbs: append([]int64(nil), idx...), elems: []any{v}}
		for i := range out.dims {
			out.dims[i] = 1
		}
		return out, nil
	}
	if n != len(a.dims) {
		return a, sqlerr.New(sqlerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	if n == 1 {
		i, lb, ub := idx[0], a.lbs[0], a.lbs[0]+a.dims[0]-1
		newLb, newUb := min(lb, i), max(ub, i)
		if newUb-newLb+1 > maxArraySize {
			return a, arraySizeError()
		}
		out := boundedArray{dims: []int64{newUb - newLb + 1}, lbs: []int64{newLb}, elems: make([]any, newUb-newLb+1)}
		copy(out.elems[lb-newLb:], a.elems)
		out.elems[i-newLb] = v
		return out, nil
	}
	for d, i := range idx {
		if i < a.lbs[d] || i >= a.lbs[d]+a.dims[d] {
			return a, outOfRange()
		}
	}
	out := boundedArray{dims: a.dims, lbs: a.lbs, elems: append([]any(nil), a.elems...)}
	out.elems[a.offset(idx)] = v
	return out, nil
}

// setSlice is array_set_slice: a[lo:hi]... = the elements src in order.
func (a boundedArray) setSlice(lo, hi []int64, hasLo, hasHi []bool, src []any) (boundedArray, error) {
	n := len(lo)
	tooSmall := func() error { return sqlerr.New(sqlerr.ArraySubscriptError, "source array too small") }
	upperBelow := func() error {
		return sqlerr.New(sqlerr.ArraySubscriptError, "upper bound cannot be less than lower bound")
	}
	if len(a.dims) == 0 {
		for i := range lo {
			if !hasLo[i] || !hasHi[i] {
				return a, sqlerr.New(sqlerr.ArraySubscriptError, "array slice subscript must provide both boundaries").
					WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.")
			}
		}
		out := boundedArray{dims: make([]int64, n), lbs: append([]int64(nil), lo...)}
		items := int64(1)
		for i := range lo {
			out.dims[i] = hi[i] - lo[i] + 1
			if out.dims[i] < 0 || out.dims[i] > maxArraySize {
				return a, arraySizeError()
			}
			if items *= out.dims[i]; items > maxArraySize {
				return a, arraySizeError()
			}
		}
		if int64(len(src)) < items {
			return a, tooSmall()
		}
		if items == 0 {
			return boundedArray{}, nil // a dimension of length 0: the empty array
		}
		out.elems = append([]any(nil), src[:items]...)
		return out, nil
	}
	nd := len(a.dims)
	if n > nd {
		return a, sqlerr.New(sqlerr.ArraySubscriptError, "wrong number of array subscripts")
	}
	ls, hs := make([]int64, nd), make([]int64, nd)
	for d := range nd {
		ls[d], hs[d] = a.lbs[d], a.lbs[d]+a.dims[d]-1
		if d < n && hasLo[d] {
			ls[d] = lo[d]
		}
		if d < n && hasHi[d] {
			hs[d] = hi[d]
		}
	}
	if nd == 1 {
		if ls[0] > hs[0] {
			return a, upperBelow()
		}
		lb, ub := a.lbs[0], a.lbs[0]+a.dims[0]-1
		newLb, newUb := min(lb, ls[0]), max(ub, hs[0])
		if newUb-newLb+1 > maxArraySize {
			return a, arraySizeError()
		}
		if int64(len(src)) < hs[0]-ls[0]+1 {
			return a, tooSmall()
		}
		out := boundedArray{dims: []int64{newUb - newLb + 1}, lbs: []int64{newLb}, elems: make([]any, newUb-newLb+1)}
		copy(out.elems[lb-newLb:], a.elems)
		copy(out.elems[ls[0]-newLb:hs[0]-newLb+1], src)
		return out, nil
	}
	items := int64(1)
	for d := range nd {
		if ls[d] > hs[d] {
			return a, upperBelow()
		}
		if ls[d] < a.lbs[d] || hs[d] >= a.lbs[d]+a.dims[d] {
			return a, outOfRange()
		}
		items *= hs[d] - ls[d] + 1
	}
	if int64(len(src)) < items {
		return a, tooSmall()
	}
	out := boundedArray{dims: a.dims, lbs: a.lbs, elems: append([]any(nil), a.elems...)}
	idx := append([]int64(nil), ls...)
	for pos := int64(0); pos < items; pos++ {
		out.elems[out.offset(idx)] = src[pos]
		for d := nd - 1; d >= 0; d-- { // the next subscripts, row-major
			if idx[d]++; idx[d] <= hs[d] {
				break
			}
			idx[d] = ls[d]
		}
	}
	return out, nil
}
