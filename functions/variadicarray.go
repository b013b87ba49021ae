package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// A built-in VARIADIC function called with VARIADIC arr whose array is
// known only when the statement runs (a column, a parameter:
// concat(VARIADIC t.tags)). PostgreSQL's functions read the array's
// elements as their arguments on each call (extract_variadic_args), so
// each row may pass another number of them. VariadicArrayKernel is the
// kernel the binder calls instead, over the function's fixed arguments
// and the array: it calls the function's overload for that row's count
// of elements. The binder resolves the function over one element first,
// so the argument types and the result type are the function's (and its
// errors bind time's).

// VariadicArrayKernel is the kernel of name (one of the built-in
// functions with a VARIADIC parameter) called with the fixed arguments of
// types fixed and then VARIADIC an array of type arr, whose result is of
// type ret.
func VariadicArrayKernel(name string, fixed []types.T, arr, ret types.T) Kernel {
	elem := types.StringType
	if arr.Elem != nil {
		elem = arr.Elem.Nullable()
		for elem.Kind == types.Array && elem.Elem != nil {
			elem = elem.Elem.Nullable() // a multidimensional array's elements
		}
	}
	fixed = append([]types.T(nil), fixed...)
	return func(ctx context.Context, mem memory.Allocator, in []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(in, n); err != nil {
			return nil, err
		}
		kernels := map[int]Kernel{} // by count of elements
		b := array.NewBuilder(mem, ret.ArrowType())
		defer b.Release()
		for i := 0; i < n; i++ {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			v, err := variadicArrayRow(ctx, mem, name, fixed, elem, kernels, in, i)
			if err != nil {
				return nil, err
			}
			if err := appendValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

// variadicArrayRow is name's value for row i of in (the fixed arguments
// and the array), as PostgreSQL's function reads a VARIADIC array: a NULL
// array is a NULL result (format: no arguments after the format); an
// empty one is no arguments (concat and concat_ws, which ignore a NULL,
// are given one NULL, num_nulls and num_nonnulls count none, a JSON path
// of no keys is the document).
func variadicArrayRow(ctx context.Context, mem memory.Allocator, name string, fixed []types.T, elem types.T, kernels map[int]Kernel, in []arrow.Array, i int) (any, error) {
	arr := types.ValueAt(in[len(in)-1], i)
	if arr == nil && name != "format" {
		return nil, nil
	}
	items := FlattenArray(arr)
	if len(items) == 0 {
		switch name {
		case "concat", "concat_ws":
			items = []any{nil}
		case "num_nulls", "num_nonnulls":
			return int64(0), nil
		case "json_extract_path", "jsonb_extract_path", "json_extract_path_text", "jsonb_extract_path_text":
			return types.ValueAt(in[0], i), nil
		}
	}
	k, ok := kernels[len(items)]
	if !ok {
		decl := append([]types.T(nil), fixed...)
		for range items {
			decl = append(decl, elem)
		}
		f, resolved, err := Resolve(name, decl)
		if err != nil {
			return nil, err
		}
		_, k = f.Bind(resolved, nil)
		kernels[len(items)] = k
	}
	args := make([]arrow.Array, 0, len(fixed)+len(items))
	defer func() {
		for _, a := range args {
			a.Release()
		}
	}()
	for j := range fixed {
		args = append(args, array.NewSlice(in[j], int64(i), int64(i+1)))
	}
	for _, v := range items {
		eb := array.NewBuilder(mem, elem.ArrowType())
		err := appendValue(eb, v)
		a := eb.NewArray()
		eb.Release()
		args = append(args, a)
		if err != nil {
			return nil, err
		}
	}
	out, err := k(ctx, mem, args, 1)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return types.ValueAt(out, 0), nil
}

// FlattenArray is an array value's elements in storage order, a
// multidimensional one's innermost ones: a VARIADIC array's arguments,
// at run time here and for a constant array in the binder.
func FlattenArray(v any) []any {
	xs, ok := v.([]any)
	if !ok {
		return nil
	}
	var out []any
	for _, x := range xs {
		if inner, ok := x.([]any); ok {
			out = append(out, FlattenArray(inner)...)
		} else {
			out = append(out, x)
		}
	}
	return out
}
