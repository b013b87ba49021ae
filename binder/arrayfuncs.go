package binder

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The polymorphic array functions (array_append, array_prepend,
// array_remove, array_replace, array_position(s), trim_array,
// array_ndims, array_dims, array_fill, width_bucket(x, thresholds)): their
// array and element arguments are unified as PostgreSQL unifies
// anycompatiblearray and anycompatible (the common type of the array's
// element type and the elements'; an unknown literal takes it), then
// bound to functions.ArrayPolyKernel.

// arrayPolyShape says, per argument, what it is: 'a' the array, 'e' an
// element, 'i' an integer, 'I' an integer array.
var arrayPolyShape = map[string][]string{
	"array_append":    {"ae"},
	"array_prepend":   {"ea"},
	"array_remove":    {"ae"},
	"array_replace":   {"aee"},
	"array_position":  {"ae", "aei"},
	"array_positions": {"ae"},
	"trim_array":      {"ai"},
	"array_ndims":     {"a"},
	"array_dims":      {"a"},
	"array_fill":      {"eI"},
	"width_bucket":    {"ea"},
}

// bindArrayPolyCall binds one of them; ok is false for other names and
// argument counts (the ordinary resolution then answers).
func (b *binder) bindArrayPolyCall(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	shapes, found := arrayPolyShape[name]
	if !found {
		return nil, false, nil
	}
	shape := ""
	for _, s := range shapes {
		if len(s) == len(args) {
			shape = s
		}
	}
	if shape == "" {
		return nil, false, nil
	}
	if name == "array_fill" {
		// array_fill(x, dims) of a constant dims of several dimensions:
		// functions' array_fill(x, dims, lower bounds), whose result type
		// has as many dimensions as the constant has elements
		if c, ok := args[1].(*Const); ok {
			if d, ok := c.Value.([]any); ok && len(d) > 1 && !isUnknown(args[0].Type()) && c.T.Kind == types.Array && c.T.Elem.Kind == types.Int32 {
				ones := make([]any, len(d))
				for i := range ones {
					ones[i] = int64(1)
				}
				e, err := b.callFunction(n, name, []Expr{args[0], args[1], &Const{Value: ones, T: types.ArrayOf(types.Int32Type)}})
				return e, true, err
			}
		}
	}
	// the element type: the array's element type and the elements', in
	// order; unknowns count only when nothing else does
	var elem types.T
	have := false
	depth := 1 // the array argument's number of dimensions (int[][]: 2)
	for i, c := range shape {
		t := args[i].Type()
		if isUnknown(t) {
			continue
		}
		switch c {
		case 'a':
			if t.Kind != types.Array {
				return nil, true, b.errAt(n, undefinedCall(name, args))
			}
			// PostgreSQL's element type of int[][] is integer (one array
			// of two dimensions), not the sub-array sqlgate nests
			depth = max(1, arrayDims(t))
			t = functions.ArrayElementType(t)
		case 'e':
		default:
			continue
		}
		if !have {
			elem, have = t.Nullable(), true
			continue
		}
		c, ok := resultCommonType(elem, t) // anycompatible: select_common_type
		if !ok {
			return nil, true, b.errAt(n, undefinedCall(name, args))
		}
		elem = c
	}
	if !have {
		if name == "array_fill" {
			return nil, true, b.errAt(n, sqlerr.New(sqlerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown"))
		}
		elem = types.StringType // every argument unknown: text, as PostgreSQL's anycompatible
	}
	if elem.Kind == types.Map || elem.Kind == types.Row && name == "width_bucket" {
		return nil, true, b.errAt(n, undefinedCall(name, args))
	}
	at := arrayOfDims(elem, depth)
	out := make([]Expr, len(args))
	for i, c := range shape {
		var want types.T
		switch c {
		case 'a':
			want = at
		case 'e':
			want = elem.Nullable()
		case 'i':
			want = types.Int32Type
		case 'I':
			want = types.ArrayOf(types.Int32Type)
		}
		e := args[i]
		if isUnknown(e.Type()) {
			var err error
			if e, err = b.coerceUnknown(n, e, want); err != nil {
				return nil, true, err
			}
		} else if c == 'i' && !e.Type().IsInteger() || c == 'I' && (e.Type().Kind != types.Array || !e.Type().Elem.IsInteger()) {
			return nil, true, b.errAt(n, undefinedCall(name, args))
		}
		out[i] = b.castTo(e, want)
	}
	if depth > 1 && (name == "array_append" || name == "array_prepend") {
		// PostgreSQL appends only to an array of at most one dimension:
		// onto an empty or NULL int[][] the result is a one-dimensional
		// array, which is its type here
		t := types.ArrayOf(elem.Nullable())
		return &FuncCall{Name: name, Args: out, T: t, Kernel: appendOntoEmpty(name, elem, depth)}, true, nil
	}
	t := functions.ArrayPolyResultMD(name, elem, depth)
	return &FuncCall{Name: name, Args: out, T: t, Kernel: kernelAs(t, functions.ArrayPolyKernelMD(name, elem, depth))}, true, nil
}

// kernelAs makes k's result of type t: array_remove over an empty array
// of several dimensions answers, as PostgreSQL, the empty array, which
// functions' kernel builds with one dimension ('{}' either way).
func kernelAs(t types.T, k functions.Kernel) functions.Kernel {
	want := t.ArrowType()
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		res, err := k(ctx, mem, args, n)
		if err != nil || arrow.TypeEqual(res.DataType(), want) {
			return res, err
		}
		defer res.Release()
		bld := array.NewBuilder(mem, want)
		defer bld.Release()
		for i := 0; i < res.Len(); i++ {
			if err := types.AppendValue(bld, types.ValueAt(res, i)); err != nil {
				return nil, err
			}
		}
		return bld.NewArray(), nil
	}
}

// arrayDims is the number of dimensions of array type t (2 for int[][],
// 0 for a type that is not an array).
func arrayDims(t types.T) int {
	d := 0
	for ; t.Kind == types.Array && t.Elem != nil; t = *t.Elem {
		d++
	}
	return d
}

// arrayOfDims is the array type of depth dimensions of elem's elements.
func arrayOfDims(elem types.T, depth int) types.T {
	t := elem.Nullable()
	for i := 0; i < depth; i++ {
		t = types.ArrayOf(t)
	}
	return t
}

func undefinedCall(name string, args []Expr) *sqlerr.Error {
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	return undefinedCallOf(name, ts)
}

// undefinedCallOf is PostgreSQL's 42883 for a call of name whose
// arguments have types ts (unknown named so).
func undefinedCallOf(name string, ts []types.T) *sqlerr.Error {
	names := make([]string, len(ts))
	for i, t := range ts {
		if isUnknown(t) {
			names[i] = "unknown"
		} else {
			names[i] = t.PGName()
		}
	}
	return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, strings.Join(names, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// appendOntoEmpty is array_append/array_prepend over an array of depth
// (> 1) dimensions of elem elements: 22000 for an array with elements, as
// PostgreSQL's; an empty or NULL one is appended to as an empty
// one-dimensional array ({x}).
func appendOntoEmpty(name string, elem types.T, depth int) functions.Kernel {
	oneDim := functions.ArrayPolyKernel(name, elem)
	arrArg := 0
	if name == "array_prepend" {
		arrArg = 1
	}
	flatT := types.ArrayOf(elem.Nullable())
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		bld := array.NewBuilder(mem, flatT.ArrowType())
		defer bld.Release()
		for i := 0; i < n; i++ {
			v, ok := types.ValueAt(args[arrArg], i).([]any)
			var flat any
			if ok {
				if len(types.ArrayElements(v, depth)) > 0 {
					return nil, sqlerr.New(sqlerr.Code("22000"), "argument must be empty or one-dimensional array")
				}
				flat = []any{}
			}
			if err := types.AppendValue(bld, flat); err != nil {
				return nil, err
			}
		}
		empty := bld.NewArray()
		defer empty.Release()
		flat := append([]arrow.Array{}, args...)
		flat[arrArg] = empty
		return oneDim(ctx, mem, flat, n)
	}
}
