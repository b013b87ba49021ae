package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL 15's range functions and operators (rangetypes.c) over the
// six built-in range types, held as their text (types/ranges.go): the
// constructors int4range ... tstzrange with two and three arguments (a
// NULL bound is an infinite one), lower, upper, isempty, lower_inc,
// upper_inc, lower_inf, upper_inf, range_merge, and the functions of the
// operators the binder binds (binder/ranges.go): @> (range_contains,
// range_contains_elem), <@ (range_contained_by, elem_contained_by_range),
// && (range_overlaps), << (range_before), >> (range_after), &<
// (range_overleft), &> (range_overright), -|- (range_adjacent), +
// (range_union), * (range_intersect), - (range_minus). PostgreSQL's
// anyrange and anyelement are one overload per range type here.

// rangeVariants are the range types, in the order of their variants.
var rangeVariants = []types.Variant{types.Int4Range, types.Int8Range, types.NumRange, types.DateRange, types.TsRange, types.TstzRange}

// rangeFunc is a function over ranges and bound values: body sees each
// range argument parsed and each bound value in the subtype's shape
// (types.Range's), whatever the argument's own type (a DECIMAL(p,s) as
// numeric).
func rangeFunc(name string, args []types.T, ret types.T, strict bool, body func(v []any) (any, error)) *Func {
	mk := func(ts []types.T) Kernel {
		return rowFunc(ret, strict, func(_ context.Context, v []any) (any, error) {
			in := make([]any, len(v))
			for i, x := range v {
				if x == nil {
					continue
				}
				switch t := args[i]; {
				case t.IsRange():
					r, err := types.ParseRangeValue(x.(string), t.Variant)
					if err != nil {
						return nil, err
					}
					in[i] = r
				case t.IsMultirange():
					m, err := types.ParseMultirangeValue(x.(string), t.Variant) // multirange.go
					if err != nil {
						return nil, err
					}
					in[i] = m
				case t.Kind == types.Decimal:
					in[i] = types.DecimalToNumeric(x, ts[i])
				case (t.Kind == types.Timestamp || t.Kind == types.TimestampTZ) && types.TimestampUnit(ts[i].Precision) != types.TimestampUnit(6):
					in[i] = x.(int64) / 1000 // nanoseconds to the range's microseconds
				default:
					in[i] = x
				}
			}
			out, err := body(in)
			if err != nil {
				return nil, err
			}
			switch r := out.(type) {
			case types.Range:
				return r.String(), nil
			case types.Multirange:
				return r.String(), nil
			}
			return out, nil
		})
	}
	return &Func{Name: name, Args: args, Ret: ret, Strict: strict, specialize: func(ts []types.T, _ []any) (types.T, Kernel) { return ret, mk(ts) }}
}

// rangeConstruct is range_constructor2/3's range of v between lo and hi
// (nil: infinite) with the inclusivity of flags.
func rangeConstruct(v types.Variant, lo, hi any, flags string) (any, error) {
	loInc, hiInc, err := types.ParseRangeFlags(flags)
	if err != nil {
		return nil, err
	}
	return types.MakeRange(v, types.RangeBound{Val: lo, Inf: lo == nil, Inc: loInc}, types.RangeBound{Val: hi, Inf: hi == nil, Inc: hiInc})
}

func rangeFuncs() []*Func {
	var fs []*Func
	tBool := types.BoolType
	for _, v := range rangeVariants {
		v := v
		rt, st := types.RangeType(v), types.RangeSubtype(v)
		rr, re, er := []types.T{rt, rt}, []types.T{rt, st}, []types.T{st, rt}
		fs = append(fs,
			rangeFunc(v.Name(), []types.T{st, st}, rt, false, func(a []any) (any, error) {
				return rangeConstruct(v, a[0], a[1], "[)")
			}),
			rangeFunc(v.Name(), []types.T{st, st, tText}, rt, false, func(a []any) (any, error) {
				if a[2] == nil {
					return nil, sqlerr.New(sqlerr.DataException, "range constructor flags argument must not be null")
				}
				return rangeConstruct(v, a[0], a[1], a[2].(string))
			}),
			rangeFunc("lower", []types.T{rt}, st, true, func(a []any) (any, error) {
				r := a[0].(types.Range)
				if r.Empty || r.Lo.Inf {
					return nil, nil
				}
				return r.Lo.Val, nil
			}),
			rangeFunc("upper", []types.T{rt}, st, true, func(a []any) (any, error) {
				r := a[0].(types.Range)
				if r.Empty || r.Hi.Inf {
					return nil, nil
				}
				return r.Hi.Val, nil
			}),
			rangeFunc("isempty", []types.T{rt}, tBool, true, func(a []any) (any, error) { return a[0].(types.Range).Empty, nil }),
			rangeFunc("lower_inc", []types.T{rt}, tBool, true, func(a []any) (any, error) { return a[0].(types.Range).Lo.Inc, nil }),
			rangeFunc("upper_inc", []types.T{rt}, tBool, true, func(a []any) (any, error) { return a[0].(types.Range).Hi.Inc, nil }),
			rangeFunc("lower_inf", []types.T{rt}, tBool, true, func(a []any) (any, error) {
				r := a[0].(types.Range)
				return !r.Empty && r.Lo.Inf, nil
			}),
			rangeFunc("upper_inf", []types.T{rt}, tBool, true, func(a []any) (any, error) {
				r := a[0].(types.Range)
				return !r.Empty && r.Hi.Inf, nil
			}),
			rangeFunc("range_contains", rr, tBool, true, func(a []any) (any, error) { return types.RangeContains(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_contained_by", rr, tBool, true, func(a []any) (any, error) { return types.RangeContains(a[1].(types.Range), a[0].(types.Range)), nil }),
			rangeFunc("range_contains_elem", re, tBool, true, func(a []any) (any, error) { return types.RangeContainsElem(a[0].(types.Range), a[1]), nil }),
			rangeFunc("elem_contained_by_range", er, tBool, true, func(a []any) (any, error) { return types.RangeContainsElem(a[1].(types.Range), a[0]), nil }),
			rangeFunc("range_overlaps", rr, tBool, true, func(a []any) (any, error) { return types.RangeOverlaps(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_before", rr, tBool, true, func(a []any) (any, error) { return types.RangeBefore(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_after", rr, tBool, true, func(a []any) (any, error) { return types.RangeBefore(a[1].(types.Range), a[0].(types.Range)), nil }),
			rangeFunc("range_overleft", rr, tBool, true, func(a []any) (any, error) { return types.RangeOverleft(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_overright", rr, tBool, true, func(a []any) (any, error) { return types.RangeOverright(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_adjacent", rr, tBool, true, func(a []any) (any, error) { return types.RangeAdjacent(a[0].(types.Range), a[1].(types.Range)), nil }),
			rangeFunc("range_union", rr, rt, true, func(a []any) (any, error) { return types.RangeUnion(a[0].(types.Range), a[1].(types.Range), true) }),
			rangeFunc("range_merge", rr, rt, true, func(a []any) (any, error) { return types.RangeUnion(a[0].(types.Range), a[1].(types.Range), false) }),
			rangeFunc("range_intersect", rr, rt, true, func(a []any) (any, error) { return types.RangeIntersect(a[0].(types.Range), a[1].(types.Range)) }),
			rangeFunc("range_minus", rr, rt, true, func(a []any) (any, error) { return types.RangeMinus(a[0].(types.Range), a[1].(types.Range)) }),
		)
	}
	return append(append(fs, rangeIntersectAgg()), multirangeFuncs()...) // multirange.go
}

// rangeIntersectAgg is range_intersect_agg's final step over the
// array_agg of its ranges (binder/aggregate.go): their intersection, NULLs
// skipped as its strict transition function skips them, NULL when none is
// left. One function takes any range array (resolution would find the
// arrays of the six types alike) and answers in its element's type.
func rangeIntersectAgg() *Func {
	of := func(t types.T) (types.T, bool) {
		if t.Kind == types.Array && t.Elem != nil && (t.Elem.IsRange() || t.Elem.IsMultirange()) {
			return *t.Elem, true
		}
		return types.T{}, false
	}
	return &Func{Name: "pg__range_intersect_agg", Args: []types.T{types.UnknownType}, Ret: types.RangeType(types.Int4Range), Strict: true,
		check: func(name string, args []types.T) error {
			if _, ok := of(args[0]); !ok {
				return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, args[0].PGName())
			}
			return nil
		},
		specialize: func(ts []types.T, _ []any) (types.T, Kernel) {
			rt, ok := of(ts[0])
			if !ok {
				rt = types.RangeType(types.Int4Range)
			}
			rt = rt.Nullable()
			if rt.IsMultirange() {
				return rt, multirangeIntersectAgg(rt) // multirange.go
			}
			return rt, rowFunc(rt, true, func(_ context.Context, a []any) (any, error) {
				var acc *types.Range
				for _, x := range a[0].([]any) {
					if x == nil {
						continue
					}
					r, err := types.ParseRangeValue(x.(string), rt.Variant)
					if err != nil {
						return nil, err
					}
					if acc != nil {
						if r, err = types.RangeIntersect(*acc, r); err != nil {
							return nil, err
						}
					}
					acc = &r
				}
				if acc == nil {
					return nil, nil
				}
				return acc.String(), nil
			})
		}}
}
