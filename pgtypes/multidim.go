package pgtypes

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Multidimensional arrays on the wire. An ARRAY<ARRAY<...<scalar>>> (a
// PostgreSQL int[][]) travels as PostgreSQL's array of the innermost
// type: array_out's text ({{1,2},{3,4}}, NULL elements, quoting), and
// array_send's binary form with one (size, lower bound 1) pair per
// dimension and the elements in row-major order. PostgreSQL's arrays are
// rectangular; a Fluss array of arrays need not be (sub-arrays of
// different lengths, a NULL sub-array). Text prints such a value with
// the same braces (as its nesting is); binary has no form for it, and a
// batch holding one fails with 2202E before any of its rows is sent.

// arrayDepth is the number of ARRAY levels of t above a scalar element
// (0 when t is no array, or when its innermost element is a MAP or ROW).
func arrayDepth(t types.T) int {
	d := 0
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
		d++
	}
	if t.IsNested() && !t.IsAnonRecord() { // record[] is a PostgreSQL array
		return 0
	}
	return d
}

// innermost is the scalar element type of a (possibly nested) array.
func innermost(t types.T) types.T {
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return t
}

type mdArrayEncoder struct {
	mode    mode
	ndim    int
	leaf    valueEncoder
	leafOID uint32
	lists   []*array.List // lists[0] the column, lists[k] the values of lists[k-1]
	leaves  arrow.Array
	dims    []int
	scratch []byte
}

func newMDArrayEncoder(t types.T, m mode, ndim int, leaf valueEncoder) *mdArrayEncoder {
	oid, _, _ := OIDOf(innermost(t))
	return &mdArrayEncoder{mode: m, ndim: ndim, leaf: leaf, leafOID: oid,
		lists: make([]*array.List, ndim), dims: make([]int, ndim)}
}

func (e *mdArrayEncoder) reset(arr arrow.Array) error {
	var cur arrow.Array = arr
	for k := 0; k < e.ndim; k++ {
		l, ok := cur.(*array.List)
		if !ok {
			return mismatch(arr, types.ArrayOf(types.ArrayOf(types.UnknownType)))
		}
		e.lists[k] = l
		cur = l.ListValues()
	}
	e.leaves = cur
	if err := e.leaf.reset(cur); err != nil {
		return err
	}
	if e.mode == modeBinary {
		for row := 0; row < arr.Len(); row++ {
			if !arr.IsNull(row) && !e.shape(row) {
				return sqlerr.New(sqlerr.ArraySubscriptError,
					"an array of arrays whose sub-arrays differ in length or are NULL has no PostgreSQL binary form (multidimensional arrays must have matching dimensions): read it in text format")
			}
		}
	}
	return nil
}

// shape fills e.dims with the sizes of row's dimensions and reports
// whether the value is rectangular: every sub-array of a level present
// and as long as the first.
func (e *mdArrayEncoder) shape(row int) bool {
	for k := range e.dims {
		e.dims[k] = -1
	}
	return e.walkShape(0, row)
}

func (e *mdArrayEncoder) walkShape(level, idx int) bool {
	start, end := e.lists[level].ValueOffsets(idx)
	n := int(end - start)
	if e.dims[level] == -1 {
		e.dims[level] = n
	} else if e.dims[level] != n {
		return false
	}
	if level+1 == e.ndim {
		return true
	}
	for i := int(start); i < int(end); i++ {
		if e.lists[level+1].IsNull(i) || !e.walkShape(level+1, i) {
			return false
		}
	}
	if n == 0 { // no sub-array below: the inner sizes are 0 too
		for k := level + 1; k < e.ndim; k++ {
			if e.dims[k] == -1 {
				e.dims[k] = 0
			}
		}
	}
	return true
}

// empty reports whether a rectangular shape (e.dims) holds no element,
// which PostgreSQL prints as {} and sends with no dimensions.
func (e *mdArrayEncoder) empty() bool {
	for _, d := range e.dims {
		if d == 0 {
			return true
		}
	}
	return false
}

func (e *mdArrayEncoder) appendValue(dst []byte, row int) []byte {
	rect := e.shape(row)
	if e.mode == modeBinary {
		return e.appendBinary(dst, row)
	}
	if rect && e.empty() {
		return append(dst, '{', '}')
	}
	return e.appendText(dst, 0, row)
}

func (e *mdArrayEncoder) appendText(dst []byte, level, idx int) []byte {
	start, end := e.lists[level].ValueOffsets(idx)
	dst = append(dst, '{')
	for i := int(start); i < int(end); i++ {
		if i > int(start) {
			dst = append(dst, ',')
		}
		if level+1 < e.ndim {
			if e.lists[level+1].IsNull(i) {
				dst = append(dst, "NULL"...)
			} else {
				dst = e.appendText(dst, level+1, i)
			}
			continue
		}
		if e.leaves.IsNull(i) {
			dst = append(dst, "NULL"...)
			continue
		}
		at := len(dst)
		dst = e.leaf.appendValue(dst, i)
		dst = quoteArrayElem(dst, at, &e.scratch)
	}
	return append(dst, '}')
}

// appendBinary writes array_send's form of a rectangular value (reset
// refused any other): ndim, has-NULL flag, element type, (size, 1) per
// dimension, then each element as a length (-1 for NULL) and its bytes.
func (e *mdArrayEncoder) appendBinary(dst []byte, row int) []byte {
	if e.empty() {
		dst = appendUint32(dst, 0)
		dst = appendUint32(dst, 0)
		return appendUint32(dst, e.leafOID)
	}
	// the leaves of a rectangular value are contiguous: from the first
	// sub-array's start to the last one's end, level by level
	lo, hi := row, row+1
	for k := 0; k < e.ndim; k++ {
		s, _ := e.lists[k].ValueOffsets(lo)
		_, t := e.lists[k].ValueOffsets(hi - 1)
		lo, hi = int(s), int(t)
	}
	hasNull := uint32(0)
	for i := lo; i < hi && e.leaves.NullN() > 0; i++ {
		if e.leaves.IsNull(i) {
			hasNull = 1
			break
		}
	}
	dst = appendUint32(dst, uint32(e.ndim))
	dst = appendUint32(dst, hasNull)
	dst = appendUint32(dst, e.leafOID)
	for _, d := range e.dims {
		dst = appendUint32(dst, uint32(d))
		dst = appendUint32(dst, 1)
	}
	for i := lo; i < hi; i++ {
		if e.leaves.IsNull(i) {
			dst = appendUint32(dst, ^uint32(0)) // -1
			continue
		}
		at := len(dst)
		dst = appendUint32(dst, 0)
		dst = e.leaf.appendValue(dst, i)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}
