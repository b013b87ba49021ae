package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL 15's multirange functions (multirangetypes.c) over the six
// multirange types, held as their text (types/multirange.go): the
// constructors int4multirange() and int4multirange(VARIADIC int4range)
// ..., multirange(anyrange), lower, upper, isempty, lower_inc, upper_inc,
// lower_inf, upper_inf, range_merge, unnest, range_agg's and
// range_intersect_agg's final steps, and the functions of the operators
// the binder binds (binder/multirange.go names them by their operands'
// kinds): range_before_multirange, multirange_contains_elem,
// multirange_union ... As for ranges, anymultirange is one overload per
// multirange type.

// multirangeOps are the operators' functions between two operands that
// are multiranges or ranges (a range taken as the multirange of itself),
// by the name's middle: range_<op>_multirange, multirange_<op>_range,
// multirange_<op>_multirange.
var multirangeOps = []struct {
	op string
	fn func(m1, m2 types.Multirange) bool
}{
	{"contains", types.MultirangeContains},
	{"contained_by", func(m1, m2 types.Multirange) bool { return types.MultirangeContains(m2, m1) }},
	{"overlaps", types.MultirangeOverlaps},
	{"before", types.MultirangeBefore},
	{"after", func(m1, m2 types.Multirange) bool { return types.MultirangeBefore(m2, m1) }},
	{"overleft", types.MultirangeOverleft},
	{"overright", types.MultirangeOverright},
	{"adjacent", types.MultirangeAdjacent},
}

// asMultirange is a range or multirange argument as a multirange.
func asMultirange(x any) types.Multirange {
	if r, ok := x.(types.Range); ok {
		return types.Single(r)
	}
	return x.(types.Multirange)
}

func multirangeFuncs() []*Func {
	var fs []*Func
	tBool := types.BoolType
	for _, v := range rangeVariants {
		v := v
		rt, st := types.RangeType(v), types.RangeSubtype(v)
		mt := types.RangeType(types.MultirangeOf(v))
		empty := types.Multirange{Type: v}
		fs = append(fs,
			rangeFunc(mt.Variant.Name(), nil, mt, false, func([]any) (any, error) { return empty, nil }),
			multirangeConstructor(v),
			rangeFunc("multirange", []types.T{rt}, mt, true, func(a []any) (any, error) { return types.Single(a[0].(types.Range)), nil }),
			rangeFunc("lower", []types.T{mt}, st, true, func(a []any) (any, error) {
				m := a[0].(types.Multirange)
				if m.IsEmpty() || m.Ranges[0].Lo.Inf {
					return nil, nil
				}
				return m.Ranges[0].Lo.Val, nil
			}),
			rangeFunc("upper", []types.T{mt}, st, true, func(a []any) (any, error) {
				m := a[0].(types.Multirange)
				if m.IsEmpty() || m.Ranges[len(m.Ranges)-1].Hi.Inf {
					return nil, nil
				}
				return m.Ranges[len(m.Ranges)-1].Hi.Val, nil
			}),
			rangeFunc("isempty", []types.T{mt}, tBool, true, func(a []any) (any, error) { return a[0].(types.Multirange).IsEmpty(), nil }),
			multirangeBoundFlag("lower_inc", mt, func(m types.Multirange) bool { return m.Ranges[0].Lo.Inc }),
			multirangeBoundFlag("upper_inc", mt, func(m types.Multirange) bool { return m.Ranges[len(m.Ranges)-1].Hi.Inc }),
			multirangeBoundFlag("lower_inf", mt, func(m types.Multirange) bool { return m.Ranges[0].Lo.Inf }),
			multirangeBoundFlag("upper_inf", mt, func(m types.Multirange) bool { return m.Ranges[len(m.Ranges)-1].Hi.Inf }),
			rangeFunc("range_merge", []types.T{mt}, rt, true, func(a []any) (any, error) { return a[0].(types.Multirange).Span() }),
			rangeFunc("multirange_contains_elem", []types.T{mt, st}, tBool, true, func(a []any) (any, error) {
				return types.MultirangeContainsElem(a[0].(types.Multirange), a[1]), nil
			}),
			rangeFunc("elem_contained_by_multirange", []types.T{st, mt}, tBool, true, func(a []any) (any, error) {
				return types.MultirangeContainsElem(a[1].(types.Multirange), a[0]), nil
			}),
			rangeFunc("multirange_union", []types.T{mt, mt}, mt, true, func(a []any) (any, error) {
				return types.MultirangeUnion(a[0].(types.Multirange), a[1].(types.Multirange))
			}),
			rangeFunc("multirange_intersect", []types.T{mt, mt}, mt, true, func(a []any) (any, error) {
				return types.MultirangeIntersect(a[0].(types.Multirange), a[1].(types.Multirange))
			}),
			rangeFunc("multirange_minus", []types.T{mt, mt}, mt, true, func(a []any) (any, error) {
				return types.MultirangeMinus(a[0].(types.Multirange), a[1].(types.Multirange))
			}),
		)
		for _, o := range multirangeOps {
			fn := o.fn
			body := func(a []any) (any, error) { return fn(asMultirange(a[0]), asMultirange(a[1])), nil }
			fs = append(fs,
				rangeFunc("range_"+o.op+"_multirange", []types.T{rt, mt}, tBool, true, body),
				rangeFunc("multirange_"+o.op+"_range", []types.T{mt, rt}, tBool, true, body),
				rangeFunc("multirange_"+o.op+"_multirange", []types.T{mt, mt}, tBool, true, body))
		}
	}
	return append(fs, rangeAgg())
}

// multirangeBoundFlag is lower_inc ... upper_inf of a multirange: flag of
// its first or last range, false for an empty multirange.
func multirangeBoundFlag(name string, mt types.T, flag func(types.Multirange) bool) *Func {
	return rangeFunc(name, []types.T{mt}, types.BoolType, true, func(a []any) (any, error) {
		m := a[0].(types.Multirange)
		return !m.IsEmpty() && flag(m), nil
	})
}

// multirangeConstructor is int4multirange(VARIADIC int4range[]) ...: the
// multirange of its ranges, 22004 for a NULL one among several. One NULL
// range alone gives NULL, as PostgreSQL's strict one-range overload
// (multirange_constructor1) does.
func multirangeConstructor(v types.Variant) *Func {
	rt, mt := types.RangeType(v), types.RangeType(types.MultirangeOf(v))
	kernel := rowFunc(mt, false, func(_ context.Context, a []any) (any, error) {
		if len(a) == 1 && a[0] == nil {
			return nil, nil
		}
		rs := make([]types.Range, len(a))
		for i, x := range a {
			if x == nil {
				return nil, types.MultirangeNullMember()
			}
			r, err := types.ParseRangeValue(x.(string), v)
			if err != nil {
				return nil, err
			}
			rs[i] = r
		}
		m, err := types.MakeMultirange(v, rs)
		if err != nil {
			return nil, err
		}
		return m.String(), nil
	})
	return &Func{Name: mt.Variant.Name(), Args: []types.T{rt}, Variadic: true, Ret: mt, Kernel: kernel}
}

// multirangeUnnest is unnest(anymultirange): the ranges of a multirange
// of type t, in order.
func multirangeUnnest(t types.T) *SetFunc {
	v := t.Variant
	return &SetFunc{Name: "unnest", Args: []types.T{t.Nullable()}, Ret: types.RangeType(types.RangeOfMultirange(v)).Nullable(),
		Rows: func(_ context.Context, args []any) (func() (any, bool, error), error) {
			var ranges []types.Range
			if args[0] != nil {
				m, err := types.ParseMultirangeValue(args[0].(string), v)
				if err != nil {
					return nil, err
				}
				ranges = m.Ranges
			}
			i := 0
			return func() (any, bool, error) {
				if i == len(ranges) {
					return nil, false, nil
				}
				i++
				return ranges[i-1].String(), true, nil
			}, nil
		}}
}

// aggregatedRanges reads the array_agg of range_agg's and
// range_intersect_agg's argument (of range or multirange type elem) as
// multiranges, NULLs skipped.
func aggregatedRanges(elem types.T, arr []any) ([]types.Multirange, error) {
	var out []types.Multirange
	for _, x := range arr {
		if x == nil {
			continue
		}
		if elem.IsMultirange() {
			m, err := types.ParseMultirangeValue(x.(string), elem.Variant)
			if err != nil {
				return nil, err
			}
			out = append(out, m)
			continue
		}
		r, err := types.ParseRangeValue(x.(string), elem.Variant)
		if err != nil {
			return nil, err
		}
		out = append(out, types.Single(r))
	}
	return out, nil
}

// rangeAgg is range_agg's final step over the array_agg of its ranges or
// multiranges (binder/aggregate.go): the multirange of all their ranges,
// NULL when no value but NULLs came.
func rangeAgg() *Func {
	of := func(t types.T) (types.T, types.T, bool) {
		if t.Kind != types.Array || t.Elem == nil {
			return types.T{}, types.T{}, false
		}
		switch e := *t.Elem; {
		case e.IsRange():
			return e, types.RangeType(types.MultirangeOf(e.Variant)), true
		case e.IsMultirange():
			return e, e, true
		}
		return types.T{}, types.T{}, false
	}
	return &Func{Name: "pg__range_agg", Args: []types.T{types.UnknownType}, Ret: types.RangeType(types.Int4Multirange), Strict: true,
		check: func(name string, args []types.T) error {
			if _, _, ok := of(args[0]); !ok {
				return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, args[0].PGName())
			}
			return nil
		},
		specialize: func(ts []types.T, _ []any) (types.T, Kernel) {
			elem, mt, ok := of(ts[0])
			if !ok {
				elem, mt = types.RangeType(types.Int4Range), types.RangeType(types.Int4Multirange)
			}
			mt = mt.Nullable()
			return mt, rowFunc(mt, true, func(_ context.Context, a []any) (any, error) {
				ms, err := aggregatedRanges(elem, a[0].([]any))
				if err != nil || len(ms) == 0 {
					return nil, err
				}
				var all []types.Range
				for _, m := range ms {
					all = append(all, m.Ranges...)
				}
				m, err := types.MakeMultirange(types.RangeOfMultirange(mt.Variant), all)
				if err != nil {
					return nil, err
				}
				return m.String(), nil
			})
		}}
}

// multirangeIntersectAgg is range_intersect_agg(anymultirange)'s final
// step: the intersection of the multiranges, NULL when none came.
func multirangeIntersectAgg(mt types.T) Kernel {
	return rowFunc(mt, true, func(_ context.Context, a []any) (any, error) {
		ms, err := aggregatedRanges(mt, a[0].([]any))
		if err != nil || len(ms) == 0 {
			return nil, err
		}
		m, err := types.MultirangeIntersectAll(ms)
		if err != nil {
			return nil, err
		}
		return m.String(), nil
	})
}
