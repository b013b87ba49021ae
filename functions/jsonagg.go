package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// json_agg, jsonb_agg, json_object_agg and jsonb_object_agg are bound as
// array_agg of their arguments (with the call's ORDER BY, FILTER and
// DISTINCT) followed by these internal finishing functions, which format
// the collected values as PostgreSQL's aggregates do: json_agg separates
// elements with ", " (and ", \n " between arrays or composites),
// json_object_agg writes { "k" : v, ... }, and the jsonb forms are the
// same JSON normalised. No rows (a NULL array) gives NULL.
//
// json(b)_object_agg(DISTINCT k, v) is bound as the two array_aggs
// ordered by both arguments (the sort PostgreSQL removes duplicate pairs
// with), finished by the _distinct forms, which drop a pair equal to the
// one before it: DISTINCT is over the pair, which two array_aggs with
// DISTINCT of their own would not keep together.

func jsonAggFuncs() []*Func {
	return []*Func{
		{Name: "pg__json_agg", Args: []types.T{tAnyArray}, Ret: tJSON, Strict: true, specialize: jsonAggSpecialize(false)},
		{Name: "pg__jsonb_agg", Args: []types.T{tAnyArray}, Ret: tJSONB, Strict: true, specialize: jsonAggSpecialize(true)},
		{Name: "pg__json_object_agg", Args: []types.T{tAnyArray, tAnyArray}, Ret: tJSON, Strict: true, specialize: jsonObjectAggSpecialize(false)},
		{Name: "pg__jsonb_object_agg", Args: []types.T{tAnyArray, tAnyArray}, Ret: tJSONB, Strict: true, specialize: jsonObjectAggSpecialize(true)},
		{Name: "pg__json_object_agg_distinct", Args: []types.T{tAnyArray, tAnyArray}, Ret: tJSON, Strict: true, specialize: jsonObjectAggDistinct(false)},
		{Name: "pg__jsonb_object_agg_distinct", Args: []types.T{tAnyArray, tAnyArray}, Ret: tJSONB, Strict: true, specialize: jsonObjectAggDistinct(true)},
	}
}

// finishJSON returns s as json, or normalised as jsonb.
func finishJSON(s string, jsonb bool) (any, error) {
	if jsonb {
		return types.ParseJSON(s, true)
	}
	return s, nil
}

func jsonAggSpecialize(jsonb bool) func([]types.T, []any) (types.T, Kernel) {
	ret := map[bool]types.T{false: tJSON, true: tJSONB}[jsonb]
	return func(args []types.T, _ []any) (types.T, Kernel) {
		elem := types.UnknownType
		if args[0].Elem != nil {
			elem = *args[0].Elem
		}
		structured := elem.Kind == types.Array || elem.Kind == types.Row
		return ret, rowFunc(ret, true, func(ctx context.Context, v []any) (any, error) {
			items, _ := v[0].([]any)
			loc := LocationOf(ctx)
			var b strings.Builder
			b.WriteByte('[')
			for k, it := range items {
				if k > 0 {
					b.WriteString(", ")
					if structured && it != nil {
						b.WriteString("\n ")
					}
				}
				writeJSONValue(ctx, &b, it, elem, loc)
			}
			b.WriteByte(']')
			return finishJSON(b.String(), jsonb)
		})
	}
}

func jsonObjectAggSpecialize(jsonb bool) func([]types.T, []any) (types.T, Kernel) {
	return objectAggKernel(jsonb, false)
}

func jsonObjectAggDistinct(jsonb bool) func([]types.T, []any) (types.T, Kernel) {
	return objectAggKernel(jsonb, true)
}

// objectAggKernel writes the object of the collected keys and values;
// distinct drops a pair equal (by its types' equality, NULL equal to
// NULL) to the pair before it.
func objectAggKernel(jsonb, distinct bool) func([]types.T, []any) (types.T, Kernel) {
	ret := map[bool]types.T{false: tJSON, true: tJSONB}[jsonb]
	return func(args []types.T, _ []any) (types.T, Kernel) {
		kt, vt := types.UnknownType, types.UnknownType
		if args[0].Elem != nil {
			kt = *args[0].Elem
		}
		if args[1].Elem != nil {
			vt = *args[1].Elem
		}
		return ret, rowFunc(ret, true, func(ctx context.Context, v []any) (any, error) {
			keys, _ := v[0].([]any)
			vals, _ := v[1].([]any)
			if distinct {
				var err error
				if keys, vals, err = distinctPairs(keys, vals, kt, vt); err != nil {
					return nil, err
				}
			}
			loc := LocationOf(ctx)
			var b strings.Builder
			b.WriteString("{ ")
			for k := range keys {
				if keys[k] == nil {
					return nil, sqlerr.New(sqlerr.InvalidParameterValue, "field name must not be null")
				}
				if k > 0 {
					b.WriteString(", ")
				}
				key, err := CastText(ctx, keys[k], kt, loc)
				if err != nil {
					return nil, err
				}
				b.WriteString(jsonQuote(key))
				b.WriteString(" : ")
				var val any
				if k < len(vals) {
					val = vals[k]
				}
				writeJSONValue(ctx, &b, val, vt, loc)
			}
			b.WriteString(" }")
			return finishJSON(b.String(), jsonb)
		})
	}
}

// distinctPairs drops from the sorted pairs (keys[i], vals[i]) each one
// equal to the pair kept before it.
func distinctPairs(keys, vals []any, kt, vt types.T) ([]any, []any, error) {
	equal := func(t types.T, a, b any) (bool, error) {
		if a == nil || b == nil {
			return a == nil && b == nil, nil
		}
		c, err := CompareValuesAs(t, a, b)
		return c == 0, err
	}
	var ks, vs []any
	for i := range keys {
		var val any
		if i < len(vals) {
			val = vals[i]
		}
		if n := len(ks); n > 0 {
			same, err := equal(kt, ks[n-1], keys[i])
			if err != nil {
				return nil, nil, err
			}
			if same {
				if same, err = equal(vt, vs[n-1], val); err != nil {
					return nil, nil, err
				}
			}
			if same {
				continue
			}
		}
		ks, vs = append(ks, keys[i]), append(vs, val)
	}
	return ks, vs, nil
}
