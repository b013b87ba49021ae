package functions

import (
	"context"
	"math"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The ordered-set aggregates percentile_cont, percentile_disc and mode
// are bound as array_agg of the sorted argument (the WITHIN GROUP ORDER BY
// and the call's FILTER) followed by these internal finishing functions,
// which compute PostgreSQL's results from the collected values in sort
// order (orderedset.c): NULL inputs are skipped, no rows (a NULL array) or
// only NULLs give NULL, and a fraction outside [0, 1] is 22003. The
// _multi forms take an array of fractions and return an array (a NULL
// fraction gives a NULL element).

func orderedSetFuncs() []*Func {
	f8arr := types.ArrayOf(tFloat8)
	elemOf := func(args []types.T) types.T {
		if args[0].Elem != nil {
			return args[0].Elem.Nullable()
		}
		return types.UnknownType
	}
	return []*Func{
		{Name: "pg__percentile_cont", Args: []types.T{f8arr, tFloat8}, Ret: tFloat8, Strict: true,
			Kernel: rowFunc(tFloat8, true, func(_ context.Context, v []any) (any, error) {
				return percentileCont(nonNull(v[0]), v[1].(float64))
			})},
		{Name: "pg__percentile_cont_multi", Args: []types.T{f8arr, f8arr}, Ret: f8arr, Strict: true,
			Kernel: rowFunc(f8arr, true, func(_ context.Context, v []any) (any, error) {
				return eachFraction(nonNull(v[0]), v[1], percentileCont)
			})},
		{Name: "pg__percentile_disc", Args: []types.T{tAnyArray, tFloat8}, Ret: tAny, Strict: true,
			specialize: func(args []types.T, _ []any) (types.T, Kernel) {
				ret := elemOf(args)
				return ret, rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
					return percentileDisc(nonNull(v[0]), v[1].(float64))
				})
			}},
		{Name: "pg__percentile_disc_multi", Args: []types.T{tAnyArray, f8arr}, Ret: tAnyArray, Strict: true,
			specialize: func(args []types.T, _ []any) (types.T, Kernel) {
				ret := types.ArrayOf(elemOf(args))
				return ret, rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
					return eachFraction(nonNull(v[0]), v[1], percentileDisc)
				})
			}},
		{Name: "pg__mode", Args: []types.T{tAnyArray}, Ret: tAny, Strict: true,
			specialize: func(args []types.T, _ []any) (types.T, Kernel) {
				ret := elemOf(args)
				return ret, rowFunc(ret, true, func(_ context.Context, v []any) (any, error) {
					return mode(nonNull(v[0]))
				})
			}},
	}
}

// nonNull is the collected values without the NULLs, in order.
func nonNull(v any) []any {
	items, _ := v.([]any)
	out := make([]any, 0, len(items))
	for _, it := range items {
		if it != nil {
			out = append(out, it)
		}
	}
	return out
}

func checkFraction(f float64) error {
	if f < 0 || f > 1 || math.IsNaN(f) {
		// PostgreSQL's message prints the fraction with %g
		return sqlerr.New(sqlerr.NumericValueOutOfRange, "percentile value %s is not between 0 and 1", types.AppendFloatG(nil, f, 6))
	}
	return nil
}

// percentileCont interpolates linearly between the values around
// fraction*(n-1), as PostgreSQL's float8 lerp: lo + (hi-lo)*proportion.
func percentileCont(vals []any, f float64) (any, error) {
	return percentileLerp(vals, f, func(lo, hi any, t float64) (any, error) {
		l := lo.(float64)
		return l + (hi.(float64)-l)*t, nil
	})
}

// percentileLerp is percentile_cont over sorted vals: the value at
// fraction*(n-1), or lerp between the two values around it with the
// proportion past the lower one.
func percentileLerp(vals []any, f float64, lerp func(lo, hi any, t float64) (any, error)) (any, error) {
	if err := checkFraction(f); err != nil {
		return nil, err
	}
	if len(vals) == 0 {
		return nil, nil
	}
	pos := f * float64(len(vals)-1)
	first, second := math.Floor(pos), math.Ceil(pos)
	if first == second {
		return vals[int(first)], nil
	}
	return lerp(vals[int(first)], vals[int(second)], pos-first)
}

// percentileDisc is the first value whose position in the sort order is
// at or past fraction of the rows.
func percentileDisc(vals []any, f float64) (any, error) {
	if err := checkFraction(f); err != nil {
		return nil, err
	}
	if len(vals) == 0 {
		return nil, nil
	}
	row := int64(math.Ceil(f * float64(len(vals))))
	if row < 1 {
		row = 1
	}
	return vals[row-1], nil
}

// eachFraction applies one fraction's function to every fraction of an
// array; every fraction is checked even when there are no values.
func eachFraction(vals []any, fractions any, fn func([]any, float64) (any, error)) (any, error) {
	fs, _ := fractions.([]any)
	out := make([]any, len(fs))
	for _, f := range fs {
		if f == nil {
			continue
		}
		if err := checkFraction(f.(float64)); err != nil {
			return nil, err
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	for i, f := range fs {
		if f == nil {
			continue
		}
		v, err := fn(vals, f.(float64))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// mode is the most frequent value; among equally frequent ones, the first
// in the sort order.
func mode(vals []any) (any, error) {
	var best any
	bestN, runN := 0, 0
	for i, v := range vals {
		if i > 0 {
			c, err := CompareValues(vals[i-1], v)
			if err != nil {
				return nil, err
			}
			if c != 0 {
				runN = 0
			}
		}
		runN++
		if runN > bestN {
			best, bestN = v, runN
		}
	}
	return best, nil
}
