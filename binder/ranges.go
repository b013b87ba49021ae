package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The range types' operators (functions/ranges.go has their functions).
// A range value is its text (types/ranges.go); comparisons, ORDER BY,
// window orders, GROUP BY and DISTINCT read a key in place of it
// (textOrderOf in textorder.go, types.RangeKey), whose byte order is
// range_cmp's and which is equal for equal ranges, so that numrange's
// [1.0,2) equals [1,2) as in PostgreSQL.

// rangeComparison refuses a comparison of ranges of two types (or of a
// range and another type): PostgreSQL has no such operator.
func (b *binder) rangeComparison(n sourceNode, op Op, lt, rt types.T) error {
	if !op.IsComparison() && op != OpIsDistinct && op != OpIsNotDistinct {
		return nil
	}
	if lt.Variant != rt.Variant || lt.Kind != rt.Kind {
		return b.binaryOpError(n, op, lt, rt)
	}
	return nil
}

// rangeArithmetic binds + (range_union), * (range_intersect) and -
// (range_minus) when a side is a range; ok is false otherwise.
func (b *binder) rangeArithmetic(n sourceNode, op Op, l, r Expr, lt, rt types.T) (Expr, bool, error) {
	if !rangeLike(lt) && !rangeLike(rt) || lt.Kind == types.Array || rt.Kind == types.Array {
		return nil, false, nil
	}
	var name string
	switch op {
	case OpAdd:
		name = "range_union"
	case OpMul:
		name = "range_intersect"
	case OpSub:
		name = "range_minus"
	default:
		return nil, true, b.binaryOpError(n, op, lt, rt)
	}
	if lt.IsMultirange() || rt.IsMultirange() {
		// multirange_union ...: two multiranges only (multirange.go)
		name = "multi" + name
	}
	e, err := b.callFunction(n, name, []Expr{l, r})
	if se := sqlerr.As(err); se != nil && se.Code == sqlerr.UndefinedFunction {
		return nil, true, b.binaryOpError(n, op, lt, rt)
	}
	return e, true, err
}

// rangeShift binds << (range_before) and >> (range_after) when a side is
// a range; ok is false otherwise.
func (b *binder) rangeShift(n sourceNode, op string, l, r Expr) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if !rangeLike(lt) && !rangeLike(rt) || op != "<<" && op != ">>" {
		return nil, false, nil
	}
	if !rangeLike(lt) && !isUnknown(lt) || !rangeLike(rt) && !isUnknown(rt) {
		return nil, true, b.operatorError(n, op, lt, rt)
	}
	name := "range_before"
	if op == ">>" {
		name = "range_after"
	}
	return b.callFunctionExpr(n, multirangeFunc(name, []types.T{lt, rt}), l, r)
}

// rangeOtherOperators are the range operators the rewrite passes on as
// pg__op_other (sql/operators.go): their functions.
var rangeOtherOperators = map[string]string{"-|-": "range_adjacent", "&<": "range_overleft", "&>": "range_overright"}

// rangeContainment binds @> and <@ when a side is a range: range @>
// range or element, element or range <@ range; ok is false otherwise.
func (b *binder) rangeContainment(n sourceNode, marker string, args []Expr) (Expr, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	l, r := args[0].Type(), args[1].Type()
	if !rangeLike(l) && !rangeLike(r) {
		return nil, false, nil
	}
	container, other := l, r
	if marker == "pg__op_contained" {
		container, other = r, l
	}
	var name string
	switch {
	case !rangeLike(container):
		return nil, true, sqlerr.New(sqlerr.UndefinedFunction, "function %s does not exist", marker)
	case rangeLike(other) || isUnknown(other):
		// an untyped literal beside a range is read as a range, as
		// PostgreSQL's resolution prefers anyrange @> anyrange
		name = map[string]string{"pg__op_contains": "range_contains", "pg__op_contained": "range_contained_by"}[marker]
	default:
		// anyelement is the range's subtype itself: int8range @> integer
		// finds no operator
		if sub := types.RangeSubtype(rangeVariant(container)); other.Kind != sub.Kind || other.Variant != types.NoVariant {
			return nil, true, sqlerr.New(sqlerr.UndefinedFunction, "function %s does not exist", marker)
		}
		name = map[string]string{"pg__op_contains": "range_contains_elem", "pg__op_contained": "elem_contained_by_range"}[marker]
	}
	e, err := b.callFunction(n, multirangeFunc(name, []types.T{l, r}), args)
	return e, true, err
}
