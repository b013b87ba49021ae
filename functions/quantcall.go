package functions

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/types"
)

// QuantifiedCallKernel answers x op ANY (array) (all: op ALL) for an
// operator bound to a strict boolean kernel call that is no comparison
// (LIKE's like and ilike, ~'s regex_match; negate for !~~, !~ ...):
// argument p of the call is an array of depth dimensions of the
// elements call takes there (argTypes[p]); every element, of every
// dimension, is matched with the row's other arguments, all rows' pairs
// in one call. The answer has SQL's three-valued logic as QuantifiedKernel's:
// ANY is true if some match is, else NULL if some is NULL, else false;
// ALL the reverse; a NULL array gives NULL, an empty one false (ANY) or
// true (ALL).
func QuantifiedCallKernel(call Kernel, all, negate bool, argTypes []types.T, p, depth int) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		bs := make([]array.Builder, len(args))
		for k, t := range argTypes {
			bs[k] = array.NewBuilder(mem, t.ArrowType())
			defer bs[k].Release()
		}
		counts := make([]int, n) // -1: a NULL array
		for i := 0; i < n; i++ {
			if i%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			arr, ok := types.ValueAt(args[p], i).([]any)
			if !ok {
				counts[i] = -1
				continue
			}
			if depth > 1 {
				arr = types.ArrayElements(arr, depth)
			}
			counts[i] = len(arr)
			for _, e := range arr {
				for k := range args {
					v := e
					if k != p {
						v = types.ValueAt(args[k], i)
					}
					if err := types.AppendValue(bs[k], v); err != nil {
						return nil, err
					}
				}
			}
		}
		in := make([]arrow.Array, len(bs))
		for k, b := range bs {
			in[k] = b.NewArray()
			defer in[k].Release()
		}
		total := 0
		if len(in) > 0 {
			total = in[0].Len()
		}
		res, err := call(ctx, mem, in, total)
		if err != nil {
			return nil, err
		}
		defer res.Release()
		out := array.NewBooleanBuilder(mem)
		defer out.Release()
		at := 0
		for _, c := range counts {
			if c < 0 {
				out.AppendNull()
				continue
			}
			answer, sawNull := all, false
			for j := at; j < at+c; j++ {
				v, ok := types.ValueAt(res, j).(bool)
				if !ok {
					sawNull = true
					continue
				}
				if v != negate != all {
					answer = !all
				}
			}
			at += c
			switch {
			case answer != all:
				out.Append(answer)
			case sawNull:
				out.AppendNull()
			default:
				out.Append(all)
			}
		}
		return out.NewArray(), nil
	}
}
