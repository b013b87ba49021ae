package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/types"
)

// regconfig has no comparison operators of its own in PostgreSQL: it
// converts implicitly (binary-coercibly) to oid, as the integers and the
// other reg* types do, so regconfig = 13164, regconfig < regconfig,
// oid = regconfig and regconfig = ANY (oid[]) all pick oid's operators
// and compare OIDs, not the configurations' names sqlgate keeps.

// oidOperand reports a type that converts implicitly to oid: oid and the
// reg* types (regconfig too), and the integers.
func oidOperand(t types.T) bool {
	return t.Variant == types.RegConfig || t.Kind == types.Oid && t.Variant != types.Xid || t.IsInteger() && !t.IsMoney()
}

// regconfigAsOID reports a comparison of a and b that is oid's because
// one of them is regconfig.
func regconfigAsOID(a, b types.T) bool {
	return (a.Variant == types.RegConfig || b.Variant == types.RegConfig) && oidOperand(a) && oidOperand(b)
}

// regconfigComparison casts the operands of a comparison with a regconfig
// operand to oid (regconfigAsOID); an unknown literal beside it is read
// as an oid ('english'::regconfig = 'english' is 22P02 in PostgreSQL).
// ok is false when the comparison is no such one (regconfig = text: the
// caller's operator error follows).
func (b *binder) regconfigComparison(n sourceNode, l, r Expr, lt, rt types.T) (Expr, Expr, bool, error) {
	oid := types.T{Kind: types.Oid}
	switch {
	case isUnknown(lt) && rt.Variant == types.RegConfig:
		var err error
		l, err = b.coerceUnknown(n, l, oid)
		return l, b.castTo(r, oid), err == nil, err
	case isUnknown(rt) && lt.Variant == types.RegConfig:
		var err error
		r, err = b.coerceUnknown(n, r, oid)
		return b.castTo(l, oid), r, err == nil, err
	case regconfigAsOID(lt, rt):
		return b.castTo(l, oid), b.castTo(r, oid), true, nil
	}
	return l, r, false, nil
}

// oidResult is select_common_type's answer for two inputs at least one of
// which is oid, a reg* type or regconfig and both of which convert
// implicitly to oid (CASE, COALESCE, UNION, VALUES): PostgreSQL's loop
// over pg_cast's implicit casts (functions.CommonType), not the binder's
// kinds, which take every OID type for one. oid is preferred; regconfig
// and oid each convert to the other, so the first is kept; an integer
// converts to a reg* type but not back; two different reg* types (but
// regproc's and regoper's kin) convert to neither. handled is false for
// other pairs.
func oidResult(a, b types.T) (t types.T, ok, handled bool) {
	oidType := func(t types.T) bool {
		return t.Variant == types.RegConfig || t.Kind == types.Oid && t.Variant != types.Xid
	}
	if !(oidType(a) || oidType(b)) || !oidOperand(a) || !oidOperand(b) {
		return types.T{}, false, false
	}
	t, err := functions.CommonType("", []types.T{a, b})
	return t, err == nil, true
}
