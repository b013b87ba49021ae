package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// geometricOperator binds operator op (+ - * / < = <-> @> && ?# @@ # and
// the rest of PostgreSQL's geometric operators) when an operand is a
// geometric type, as the function behind PostgreSQL's operator
// (functions/geometric.go picks it among the overloads as operator
// resolution does). args are the bound operands, one for a prefix
// operator; ok is false when no operand is geometric, so the caller's
// other rules apply.
func (b *binder) geometricOperator(n sourceNode, op string, args []Expr) (Expr, bool, error) {
	if len(args) == 0 || len(args) > 2 || !functions.IsGeometricOperator(op) {
		return nil, false, nil
	}
	var lt *types.T
	if len(args) == 2 {
		t := args[0].Type()
		lt = &t
	}
	fn, _, ok, err := functions.GeometricOperator(op, lt, args[len(args)-1].Type())
	if !ok {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, b.errAtOperator(n, op, sqlerr.As(err))
	}
	e, err := b.callFunction(n, fn, args)
	return e, true, err
}

// geoCasts are pg_cast's casts between geometric types (source, target):
// each is the function named as the target type (point(box), box(circle)
// ...).
var geoCasts = map[[2]types.Variant]bool{
	{types.GeoCircle, types.GeoPoint}: true, {types.GeoPolygon, types.GeoPoint}: true,
	{types.GeoLSeg, types.GeoPoint}: true, {types.GeoBox, types.GeoPoint}: true,
	{types.GeoBox, types.GeoLSeg}: true, {types.GeoPolygon, types.GeoPath}: true,
	{types.GeoCircle, types.GeoBox}: true, {types.GeoPolygon, types.GeoBox}: true,
	{types.GeoPoint, types.GeoBox}: true, {types.GeoCircle, types.GeoPolygon}: true,
	{types.GeoPath, types.GeoPolygon}: true, {types.GeoBox, types.GeoPolygon}: true,
	{types.GeoPolygon, types.GeoCircle}: true, {types.GeoBox, types.GeoCircle}: true,
}

// geometricCast binds the explicit cast of x to target when either is a
// geometric type: a pg_cast function between two of them, the I/O cast
// from or to a string type, and 42846 otherwise; ok is false when neither
// is geometric.
func (b *binder) geometricCast(n, place sourceNode, x Expr, target types.T) (Expr, bool, error) {
	xt := x.Type()
	if !xt.IsGeometric() && !target.IsGeometric() {
		return nil, false, nil
	}
	switch {
	case xt.IsGeometric() && target.IsGeometric():
		if xt.Variant == target.Variant {
			return x, true, nil
		}
		if geoCasts[[2]types.Variant{xt.Variant, target.Variant}] {
			e, err := b.callFunction(n, target.Variant.Name(), []Expr{x})
			return e, true, err
		}
	case isUnknown(xt) || stringCategory(xt) || stringCategory(target) || xt.Kind == types.Null:
		return nil, false, nil
	}
	return nil, true, b.errAt(place, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", xt.PGName(), target.PGName()))
}
