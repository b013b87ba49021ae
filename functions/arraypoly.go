package functions

import (
	"bytes"
	"context"
	"fmt"
	"math"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The polymorphic array functions whose element and array arguments must
// agree (anycompatible/anyarray): the binder (binder/arrayfuncs.go)
// unifies their types as PostgreSQL does and asks ArrayPolyKernel for the
// kernel over arrays of element type elem. Arrays have lower bound 1
// (doc.go); an elem that is itself an array makes a multidimensional
// array (mdarray.go), whose array_ndims and array_dims count every
// dimension, and array_fill fills one dimension (its result type has one).

// ArrayPolyFuncs are the names ArrayPolyKernel serves.
var ArrayPolyFuncs = map[string]bool{
	"array_append": true, "array_prepend": true, "array_remove": true, "array_replace": true,
	"array_position": true, "array_positions": true, "trim_array": true, "array_ndims": true,
	"array_dims": true, "array_fill": true, "width_bucket": true,
}

// ArrayPolyResult is the result type of name over arrays of elem.
func ArrayPolyResult(name string, elem types.T) types.T {
	switch name {
	case "array_position", "array_ndims", "width_bucket":
		return tInt4
	case "array_positions":
		return types.ArrayOf(tInt4)
	case "array_dims":
		return tText
	}
	return types.ArrayOf(elem.Nullable())
}

// ArrayPolyKernel is the kernel of name with its arguments already cast
// (arrays to elem[], elements to elem, counts to integer).
func ArrayPolyKernel(name string, elem types.T) Kernel {
	ret := ArrayPolyResult(name, elem)
	depth := arrayDepth(types.ArrayOf(elem))
	return rowFunc(ret, false, func(_ context.Context, a []any) (any, error) {
		// an element typed as a sub-array: PostgreSQL's resolution refuses
		// it (its element is the innermost type; mdarray.go)
		if err := mdElementRefusal(name, elem, len(a)); err != nil {
			return nil, err
		}
		arr, _ := a[0].([]any)
		switch name {
		case "array_append":
			return append(append([]any(nil), arr...), a[1]), nil
		case "array_prepend":
			arr, _ = a[1].([]any)
			return append([]any{a[0]}, arr...), nil
		case "width_bucket":
			arr, _ = a[1].([]any)
			if a[0] == nil || a[1] == nil {
				return nil, nil
			}
			return widthBucketArray(a[0], arr)
		case "array_fill":
			return arrayFill(a[0], a[1])
		}
		if a[0] == nil {
			return nil, nil
		}
		switch name {
		case "array_remove":
			out := []any{}
			for _, v := range arr {
				if !sameElem(v, a[1]) {
					out = append(out, v)
				}
			}
			return out, nil
		case "array_replace":
			out := make([]any, len(arr))
			for i, v := range arr {
				out[i] = v
				if sameElem(v, a[1]) {
					out[i] = a[2]
				}
			}
			return out, nil
		case "array_position":
			start := int64(1)
			if len(a) > 2 {
				s, ok := a[2].(int64)
				if !ok {
					return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "initial position must not be null")
				}
				start = s
			}
			for i := max(start, 1); i <= int64(len(arr)); i++ {
				if sameElem(arr[i-1], a[1]) {
					return i, nil
				}
			}
			return nil, nil
		case "array_positions":
			out := []any{}
			for i, v := range arr {
				if sameElem(v, a[1]) {
					out = append(out, int64(i+1))
				}
			}
			return out, nil
		case "trim_array":
			n, ok := a[1].(int64)
			if !ok {
				return nil, nil
			}
			if n < 0 || n > int64(len(arr)) {
				return nil, sqlerr.New(sqlerr.Code("2202E"), "number of elements to trim must be between 0 and %d", len(arr))
			}
			return append([]any{}, arr[:int64(len(arr))-n]...), nil
		case "array_ndims":
			return mdNdims(arr, depth), nil
		case "array_dims":
			return mdDimsText(arr, depth), nil
		}
		return nil, sqlerr.New(sqlerr.InternalError, "no array function %s", name)
	})
}

// sameElem is IS NOT DISTINCT FROM between two elements of one type
// (NaN equals NaN, as PostgreSQL's float and numeric = do).
func sameElem(x, y any) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	switch a := x.(type) {
	case float64:
		b, _ := y.(float64)
		return a == b || math.IsNaN(a) && math.IsNaN(b)
	case *apd.Decimal:
		b, ok := y.(*apd.Decimal)
		return ok && numeric.Cmp(a, b) == 0
	case []byte:
		b, ok := y.([]byte)
		return ok && bytes.Equal(a, b)
	case []any, []types.MapEntry:
		return fmt.Sprint(x) == fmt.Sprint(y)
	}
	return x == y
}

// lessElem orders two non-NULL elements of one type (width_bucket).
func lessElem(x, y any) bool {
	switch a := x.(type) {
	case int64:
		return a < y.(int64)
	case float64:
		b := y.(float64)
		if math.IsNaN(b) {
			return !math.IsNaN(a)
		}
		return a < b
	case *apd.Decimal:
		return numeric.Cmp(a, y.(*apd.Decimal)) < 0
	case string:
		return a < y.(string)
	case []byte:
		return bytes.Compare(a, y.([]byte)) < 0
	case int32:
		return a < y.(int32)
	case bool:
		return !a && y.(bool)
	}
	return false
}

// widthBucketArray is width_bucket(operand, thresholds): how many
// thresholds are <= operand, by binary search as PostgreSQL does (the
// thresholds must be sorted; they are not checked).
func widthBucketArray(op any, th []any) (any, error) {
	for _, t := range th {
		if t == nil {
			return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "thresholds array must not contain NULLs")
		}
	}
	left, right := 0, len(th)
	for left < right {
		mid := (left + right) / 2
		if lessElem(op, th[mid]) {
			right = mid
		} else {
			left = mid + 1
		}
	}
	return int64(left), nil
}

// arrayFill is array_fill(value, dims): one dimension only.
func arrayFill(v, dims any) (any, error) {
	d, ok := dims.([]any)
	if !ok {
		return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "dimension array or low bound array cannot be null")
	}
	if len(d) == 0 {
		return []any{}, nil
	}
	for _, x := range d {
		if x == nil {
			return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "dimension values cannot be null")
		}
	}
	if len(d) > 1 {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "array_fill of more than one dimension is not supported (sqlgate arrays have one)")
	}
	n, ok := d[0].(int64)
	if !ok {
		return nil, sqlerr.New(sqlerr.NullValueNotAllowed, "dimension values cannot be null")
	}
	if n == 0 {
		return []any{}, nil
	}
	if n < 0 || n > 134217727 { // MaxArraySize (a negative size wraps past it in PostgreSQL)
		return nil, sqlerr.New(sqlerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (134217727)")
	}
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out, nil
}
