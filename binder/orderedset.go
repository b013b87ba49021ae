package binder

import (
	"fmt"
	"slices"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Ordered-set aggregates f(direct args) WITHIN GROUP (ORDER BY keys),
// which sql's rewrite hands over as an ordered aggregate whose one
// argument is the pg__within_group(direct args) marker
// (sql/withingroup.go):
//
//   - percentile_cont, percentile_disc and mode are array_agg of the sort
//     key in its order (with the call's FILTER), finished by
//     functions/orderedset.go.
//   - the hypothetical-set aggregates rank, dense_rank, percent_rank and
//     cume_dist of a hypothetical row (the direct arguments) count the
//     group's rows that sort before it, or before or with it, in the
//     WITHIN GROUP order (NULLS FIRST/LAST and DESC included): count(*)
//     FILTER (WHERE the row precedes the hypothetical one), combined as
//     PostgreSQL's hypothetical_*_final do.

func isHypothetical(name string) bool {
	switch name {
	case "rank", "dense_rank", "percent_rank", "cume_dist":
		return true
	}
	return false
}

// bindOrderedSet binds name(direct) WITHIN GROUP (ORDER BY order) [FILTER
// (WHERE filter)].
func (b *binder) bindOrderedSet(node *pt.FuncCall, name string, direct []pt.Expr, items []pt.OrderItem, filter pt.Expr) (Expr, error) {
	if level, nested := b.aggLevel(direct, filter, items); level > 0 {
		// an aggregate of an enclosing query (agglevels.go)
		return b.bindOuterAggregate(node, level, nested, func() (Expr, error) {
			return b.bindOrderedSet(node, name, direct, items, filter)
		})
	}
	st := b.agg
	if st == nil {
		return nil, b.errAt(node, b.aggregatesRefused())
	}
	if st.inCall {
		return nil, b.errAt(node, sqlerr.New(sqlerr.GroupingError, "aggregate function calls cannot be nested"))
	}
	// noFunc is the lookup's failure of an aggregate that takes want
	// direct arguments and one ordered: a call of as many arguments in
	// all finds it and is told how many it takes (ParseFuncOrColumn)
	noFunc := func(want int) error {
		hint := ""
		if len(direct)+len(items) == want+1 {
			plural := "s"
			if want == 1 {
				plural = ""
			}
			hint = fmt.Sprintf("There is an ordered-set aggregate %s, but it requires %d direct argument%s, not %d.", name, want, plural, len(direct))
		}
		return b.orderedSetUndefined(node, name, direct, items, hint)
	}
	switch {
	case name == "percentile_cont" || name == "percentile_disc":
		if len(direct) != 1 || len(items) != 1 {
			return nil, noFunc(1)
		}
		return b.bindPercentile(node, name, direct[0], items[0], filter)
	case name == "mode":
		if len(direct) != 0 || len(items) != 1 {
			return nil, noFunc(0)
		}
		arr, err := b.sortedValues(items[0], filter)
		if err != nil {
			return nil, err
		}
		return b.callFunction(node, "pg__mode", []Expr{arr})
	case isHypothetical(name):
		if len(direct) != len(items) {
			return nil, b.orderedSetUndefined(node, name, direct, items, fmt.Sprintf("To use the hypothetical-set aggregate %s, the number of hypothetical direct arguments (here %d) must match the number of ordering columns (here %d).", name, len(direct), len(items)))
		}
		return b.bindHypothetical(node, name, direct, items, filter)
	}
	// another aggregate or function: PostgreSQL looks for name(direct
	// args, ordered args) and refuses what it finds
	return nil, b.withinGroupRefused(node, name, direct, items)
}

// withinGroupRefused is PostgreSQL's answer (ParseFuncOrColumn) to
// name(direct) WITHIN GROUP (ORDER BY items) of a name that is no
// ordered-set aggregate: the arguments are bound, the lookup of name with
// the direct and the ordered arguments together gives its 42883 or 42725,
// and what it finds is refused by its kind (42809): an aggregate is no
// ordered-set one, a window function wants OVER, a plain function is no
// aggregate.
func (b *binder) withinGroupRefused(node *pt.FuncCall, name string, direct []pt.Expr, items []pt.OrderItem) error {
	st := b.agg
	all := append(slices.Clone(direct), orderKeys(items)...)
	var args []Expr
	for _, e := range all {
		x, err := b.bindTree(st.input, e)
		if err != nil {
			return err
		}
		args = append(args, x)
	}
	written := writtenName(node)
	switch {
	case aggregateNames[name]:
		// the plain aggregate's binding is its lookup; what it
		// registered is dropped
		calls := len(st.calls)
		_, err := b.bindAggregateCallFiltered(node, name, all, false, nil, nil)
		st.calls = st.calls[:calls]
		if c := sqlerr.CodeOf(err); c == sqlerr.UndefinedFunction || c == sqlerr.AmbiguousFunction {
			return err
		}
		return b.errAt(node, sqlerr.New(sqlerr.WrongObjectType, "%s is not an ordered-set aggregate, so it cannot have WITHIN GROUP", written))
	case windowOnly[name]:
		if _, err := b.windowFuncArgs(node, all, name, args); err != nil {
			return err
		}
		return b.errAt(node, sqlerr.New(sqlerr.WrongObjectType, "window function %s requires an OVER clause", written))
	}
	if _, err := b.bindTree(st.input, &pt.FuncCall{At: node.At, Schema: node.Schema, Name: node.Name, Args: all}); err != nil {
		return err
	}
	if node.Star {
		// abs(*) WITHIN GROUP (..): the star is refused first
		return b.errAt(node, sqlerr.New(sqlerr.WrongObjectType, "%s(*) specified, but %s is not an aggregate function", written, written))
	}
	return b.errAt(node, sqlerr.New(sqlerr.WrongObjectType, "WITHIN GROUP specified, but %s is not an aggregate function", written))
}

// isOrderedSet reports whether name is an ordered-set or hypothetical-set
// aggregate.
func isOrderedSet(name string) bool {
	return name == "percentile_cont" || name == "percentile_disc" || name == "mode" || isHypothetical(name)
}

// orderedSetFound reports whether PostgreSQL's lookup of name(args)
// written without WITHIN GROUP finds the ordered-set aggregate name, whose
// signature lists its direct and ordered arguments together
// (percentile_cont(float8 | float8[], float8 | interval),
// percentile_disc(float8 | float8[], anyelement), mode(anyelement),
// rank(VARIADIC "any") ...): it is then refused for the missing WITHIN
// GROUP (42809) instead of not found.
func orderedSetFound(name string, args []Expr) bool {
	fraction := func(t types.T) bool {
		return isUnknown(t) || isNumber(t) || t.Kind == types.Array && t.Elem != nil && isNumber(*t.Elem)
	}
	switch name {
	case "mode":
		return len(args) == 1
	case "percentile_disc":
		return len(args) == 2 && fraction(args[0].Type())
	case "percentile_cont":
		if len(args) != 2 || !fraction(args[0].Type()) {
			return false
		}
		t := args[1].Type()
		return isUnknown(t) || isNumber(t) || t.Kind == types.Interval
	}
	return isHypothetical(name) && len(args) > 0
}

// orderedSetUndefined is PostgreSQL's 42883 for name(direct) WITHIN GROUP
// (ORDER BY items) that no aggregate takes: the call named with every
// argument's type as written, the direct ones first; hint, when not "",
// is the one in place of the lookup's.
func (b *binder) orderedSetUndefined(node *pt.FuncCall, name string, direct []pt.Expr, items []pt.OrderItem, hint string) error {
	var ts []types.T
	for _, e := range append(append([]pt.Expr{}, direct...), orderKeys(items)...) {
		x, err := b.bindTree(b.agg.input, e)
		if err != nil {
			return err
		}
		ts = append(ts, x.Type())
	}
	err := undefinedCallOf(name, ts)
	if hint != "" {
		err = err.WithHint("%s", hint)
	}
	return b.errAt(node, err)
}

// sortedValues registers array_agg(key ORDER BY key) [FILTER] and returns
// its reference; the key is cast to to when set.
func (b *binder) sortedValues(item pt.OrderItem, filter pt.Expr, to ...types.T) (Expr, error) {
	st := b.agg
	st.inCall = true
	defer func() { st.inCall = false }()
	e, nullsFirst := sortKeyOf(item)
	x, err := b.bindTree(st.input, e)
	if err != nil {
		return nil, err
	}
	x = b.resolveUnknown(x, types.StringType)
	if len(to) == 1 && !x.Type().Nullable().Equal(to[0]) {
		x = b.castTo(x, to[0])
	}
	call := AggCall{Func: "array_agg", Args: []Expr{x}, OrderBy: []SortKey{{Expr: x, Desc: item.Desc, NullsFirst: nullsFirst}},
		T: types.ArrayOf(x.Type().Nullable())}
	if filter != nil {
		f, err := b.bindTree(st.input, filter)
		if err != nil {
			return nil, err
		}
		if call.Filter, err = b.coerce(filter, f, types.BoolType, "argument of FILTER"); err != nil {
			return nil, err
		}
	}
	idx := len(st.keys) + len(st.calls)
	st.calls = append(st.calls, call)
	return &aggRef{Index: idx, Name: "array_agg", T: call.T}, nil
}

// bindPercentile binds percentile_cont and percentile_disc: the fraction
// is double precision (or an array of them, for an array result).
func (b *binder) bindPercentile(node *pt.FuncCall, name string, fraction pt.Expr, item pt.OrderItem, filter pt.Expr) (Expr, error) {
	f, err := b.bindTree(b.agg.input, fraction)
	if err != nil {
		return nil, err
	}
	written := b.resolveUnknown(f, types.StringType).Type().PGName()
	multi := f.Type().Kind == types.Array
	want := types.Float64Type
	if multi {
		want = types.ArrayOf(types.Float64Type)
	}
	if isUnknown(f.Type()) {
		if f, err = b.coerceUnknown(fraction, f, want); err != nil {
			return nil, err
		}
	} else if ft := f.Type(); multi && ft.Elem != nil && isNumber(*ft.Elem) || !multi && isNumber(ft) {
		f = b.castTo(f, want)
	} else {
		return nil, b.errAt(node, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, ft.PGName()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
	}
	var arr Expr
	fn := "pg__" + name
	if name == "percentile_cont" {
		// double precision, or interval (interpolated by interval
		// arithmetic: functions/percentileinterval.go)
		key, _ := sortKeyOf(item)
		probe, err := b.bindTree(b.agg.input, key)
		if err != nil {
			return nil, err
		}
		if t := probe.Type(); t.Kind == types.Interval {
			if arr, err = b.sortedValues(item, filter); err != nil {
				return nil, err
			}
			fn += "_interval"
		} else if !isNumber(t) && !isUnknown(t) {
			return nil, b.errAt(node, sqlerr.New(sqlerr.UndefinedFunction, "function percentile_cont(%s, %s) does not exist", written, t.PGName()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
		} else if arr, err = b.sortedValues(item, filter, types.Float64Type); err != nil {
			return nil, err
		}
	} else if arr, err = b.sortedValues(item, filter); err != nil {
		return nil, err
	}
	if multi {
		fn += "_multi"
	}
	return b.callFunction(node, fn, []Expr{arr, f})
}

func orderKeys(items []pt.OrderItem) []pt.Expr {
	out := make([]pt.Expr, len(items))
	for i, it := range items {
		out[i], _ = sortKeyOf(it)
	}
	return out
}

// sortKeyOf is a WITHIN GROUP key and whether its NULLs sort first. An
// integer there is a constant, as in any aggregate's ORDER BY, not the
// ordinal TiDB's grammar reads it as.
func sortKeyOf(item pt.OrderItem) (pt.Expr, bool) {
	e := item.X
	if p, ok := e.(*pt.Ordinal); ok && p.Param == nil {
		e = &pt.Literal{Value: pt.Value{Kind: pt.LitInt, Int: int64(p.N)}}
	}
	return e, nullsFirst(item)
}

func isNumber(t types.T) bool { return t.IsInteger() || t.IsFloat() || t.Kind == types.Decimal }

// bindHypothetical binds rank, dense_rank, percent_rank and cume_dist of
// the hypothetical row direct in the order of items.
func (b *binder) bindHypothetical(node *pt.FuncCall, name string, direct []pt.Expr, items []pt.OrderItem, filter pt.Expr) (Expr, error) {
	or := func(l, r pt.Expr) pt.Expr { return &pt.Binary{Op: pt.Or, L: l, R: r} }
	and := func(l, r pt.Expr) pt.Expr {
		if l == nil {
			return r
		}
		if r == nil {
			return l
		}
		return &pt.Binary{Op: pt.And, L: l, R: r}
	}
	isNull := func(e pt.Expr, not bool) pt.Expr { return &pt.IsNull{X: e, Not: not} }
	// precedes: the row sorts before the hypothetical one; peers: it sorts
	// with it (every key not distinct)
	var precedes, peers pt.Expr
	keys := make([]pt.Expr, len(items))
	for i, item := range items {
		e, nullsFirst := sortKeyOf(item)
		keys[i] = e
		h := direct[i]
		op := pt.Lt
		if item.Desc {
			op = pt.Gt
		}
		nulls := and(isNull(e, false), isNull(h, true)) // a NULL key first
		if !nullsFirst {
			nulls = and(isNull(e, true), isNull(h, false))
		}
		before := or(nulls, &pt.Binary{Op: op, L: e, R: h})
		peer := &pt.Binary{Op: pt.NotDistinct, L: e, R: h}
		if precedes == nil {
			precedes = before
		} else {
			precedes = or(precedes, and(peers, before))
		}
		peers = and(peers, peer)
	}
	star := []pt.Expr{&pt.Literal{Value: pt.Value{Kind: pt.LitInt, Int: 1}}}
	count := func(cond pt.Expr) (Expr, error) {
		return b.bindAggregateCallFiltered(node, "count", star, false, and(filter, cond), nil)
	}
	one := &Const{Value: int64(1), T: types.Int64Type}
	f8 := func(e Expr) Expr { return b.castTo(e, types.Float64Type) }
	before, err := count(precedes)
	if err != nil {
		return nil, err
	}
	rank := &BinaryOp{Op: OpAdd, L: before, R: one, T: types.Int64Type}
	switch name {
	case "rank":
		return rank, nil
	case "dense_rank":
		return b.hypotheticalDenseRank(node, keys, and(filter, precedes))
	}
	var total Expr
	if filter != nil {
		if total, err = count(nil); err != nil {
			return nil, err
		}
	} else if total, err = b.bindAggregateCallFiltered(node, "count", star, false, nil, nil); err != nil {
		return nil, err
	}
	if name == "percent_rank" {
		// (rank - 1) / rows, 0 over no rows
		zero := &BinaryOp{Op: OpEq, L: total, R: &Const{Value: int64(0), T: types.Int64Type}, T: types.BoolType}
		return &Case{Whens: []When{{Cond: zero, Result: &Const{Value: float64(0), T: types.Float64Type}}},
			Else: &BinaryOp{Op: OpDiv, L: f8(before), R: f8(total), T: types.Float64Type}, T: types.Float64Type}, nil
	}
	// cume_dist: (rows before or with it + 1) / (rows + 1)
	upTo, err := count(or(precedes, peers))
	if err != nil {
		return nil, err
	}
	return &BinaryOp{Op: OpDiv,
		L: f8(&BinaryOp{Op: OpAdd, L: upTo, R: one, T: types.Int64Type}),
		R: f8(&BinaryOp{Op: OpAdd, L: total, R: one, T: types.Int64Type}), T: types.Float64Type}, nil
}

// hypotheticalDenseRank is dense_rank(h...) WITHIN GROUP (ORDER BY keys):
// one more than the number of distinct peer groups among the rows that
// sort before the hypothetical row (those where precedes holds). Sorting
// makes NULL keys peers of each other, which count(DISTINCT k) does not
// (it skips a NULL): one key counts its NULL group separately; several
// keys are counted as one ROW(k1, k2, ...), a value that is never NULL
// and whose NULL fields group together, as the sort's peers do.
func (b *binder) hypotheticalDenseRank(node *pt.FuncCall, keys []pt.Expr, precedes pt.Expr) (Expr, error) {
	one := &Const{Value: int64(1), T: types.Int64Type}
	if len(keys) > 1 {
		row := &pt.Row{Fields: keys}
		groups, err := b.bindAggregateCallFiltered(node, "count", []pt.Expr{row}, true, precedes, nil)
		if err != nil {
			return nil, err
		}
		return &BinaryOp{Op: OpAdd, L: groups, R: one, T: types.Int64Type}, nil
	}
	distinct, err := b.bindAggregateCallFiltered(node, "count", keys, true, precedes, nil)
	if err != nil {
		return nil, err
	}
	sawNull, err := b.bindAggregateCallFiltered(node, "bool_or", []pt.Expr{&pt.IsNull{X: keys[0]}}, false, precedes, nil)
	if err != nil {
		return nil, err
	}
	nullGroup := &Case{Whens: []When{{Cond: sawNull, Result: one}}, Else: &Const{Value: int64(0), T: types.Int64Type}, T: types.Int64Type}
	return &BinaryOp{Op: OpAdd, L: &BinaryOp{Op: OpAdd, L: distinct, R: nullGroup, T: types.Int64Type}, R: one, T: types.Int64Type}, nil
}

// bindWithinGroup binds f(args) WITHIN GROUP (ORDER BY ..) [FILTER (WHERE
// ..)].
func (b *binder) bindWithinGroup(n *pt.FuncCall) (Expr, error) {
	if len(n.OrderBy) == 0 {
		return nil, b.errAt(n, sqlerr.NotSupported("this WITHIN GROUP call"))
	}
	return b.bindOrderedSet(n, aggName(n.Name), n.Args, n.OrderBy, n.Filter)
}
