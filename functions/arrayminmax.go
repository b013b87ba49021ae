package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/types"
)

// min(anyarray) and max(anyarray) are bound as array_agg of the argument
// (keeping NULL arrays and arrays of any shape, with the call's FILTER and
// DISTINCT) followed by these internal finishing functions, which pick
// the least (greatest) non-NULL array in PostgreSQL's array order
// (array_smaller, array_larger: CompareValuesAs, element by element, a
// NULL element after every value, a shorter prefix first). No rows, or
// only NULL arrays, give NULL.

func arrayMinMaxFuncs() []*Func {
	return []*Func{
		{Name: "pg__array_min", Args: []types.T{tAnyArray}, Ret: tAnyArray, Strict: true, specialize: arrayMinMaxSpecialize(false)},
		{Name: "pg__array_max", Args: []types.T{tAnyArray}, Ret: tAnyArray, Strict: true, specialize: arrayMinMaxSpecialize(true)},
	}
}

func arrayMinMaxSpecialize(greatest bool) func([]types.T, []any) (types.T, Kernel) {
	return func(args []types.T, _ []any) (types.T, Kernel) {
		ret := tAnyArray
		if args[0].Elem != nil {
			ret = args[0].Elem.Nullable() // the arrays' type
		}
		return ret, rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
			items, _ := v[0].([]any)
			var best any
			for _, it := range items {
				if it == nil {
					continue
				}
				if best == nil {
					best = it
					continue
				}
				// array_larger(state, next) keeps state only when it is
				// greater (array_smaller: less): of equal arrays
				// (1.0 and 1.00) the later one stays
				c, err := CompareValuesAs(ret, best, it)
				if err != nil {
					return nil, err
				}
				if (greatest && c <= 0) || (!greatest && c >= 0) {
					best = it
				}
			}
			return best, nil
		})
	}
}
