package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// money, macaddr and macaddr8 (types/money.go, types/macaddr.go;
// functions/moneyfuncs.go has their functions). money is an Int64 of
// cents that is no number to the binder (types.T.IsNumeric): it compares
// with money alone, and its arithmetic is cash.c's operators, resolved
// as functions so that an unknown or numeric operand is read as
// PostgreSQL's resolution reads it. The mac types are Strings whose
// text orders as their bytes do: their comparisons are the text's, and
// & | ~ are functions.

// moneyOperatorFuncs are the functions of money's arithmetic operators.
var moneyOperatorFuncs = map[Op]string{OpAdd: "pg__money_add", OpSub: "pg__money_sub", OpMul: "pg__money_mul", OpDiv: "pg__money_div"}

// moneyArithmetic binds + - * / when a side is money (% and the rest
// have no money operator); ok is false when neither side is money.
func (b *binder) moneyArithmetic(n sourceNode, op Op, l, r Expr, lt, rt types.T) (Expr, bool, error) {
	if !op.IsArithmetic() || !lt.IsMoney() && !rt.IsMoney() {
		return nil, false, nil
	}
	name, ok := moneyOperatorFuncs[op]
	if !ok || lt.Kind == types.Array || rt.Kind == types.Array {
		return nil, true, b.binaryOpError(n, op, lt, rt)
	}
	if op != OpMul && isUnknown(lt) != isUnknown(rt) {
		// an unknown beside money is read as money where money op money
		// exists (+ - /), as oper_select_candidate's exact match does
		var err error
		if isUnknown(lt) {
			l, err = b.coerceUnknown(n, l, types.MoneyType)
		} else {
			r, err = b.coerceUnknown(n, r, types.MoneyType)
		}
		if err != nil {
			return nil, true, err
		}
	}
	e, err := b.callFunction(n, name, []Expr{l, r})
	if se := sqlerr.As(err); se != nil && (se.Code == sqlerr.UndefinedFunction || se.Code == sqlerr.AmbiguousFunction) {
		if se.Code == sqlerr.AmbiguousFunction {
			return nil, true, b.errAtOperator(n, op.String(), sqlerr.New(sqlerr.AmbiguousFunction,
				"operator is not unique: %s %s %s", lt.OperandName(), op.String(), rt.OperandName()).
				WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
		}
		return nil, true, b.binaryOpError(n, op, lt, rt)
	}
	return e, true, err
}

// macComparison refuses a comparison of macaddr with macaddr8: each
// converts implicitly to the other, so both types' operators are
// candidates and neither is preferred (42725).
func (b *binder) macComparison(n sourceNode, op Op, lt, rt types.T) error {
	if !op.IsComparison() || !lt.IsMacAddr() || !rt.IsMacAddr() || lt.Variant == rt.Variant {
		return nil
	}
	name := op.String()
	if op == OpIsDistinct || op == OpIsNotDistinct {
		name = "="
	}
	return b.errAtOperator(n, name, sqlerr.New(sqlerr.AmbiguousFunction,
		"operator is not unique: %s %s %s", lt.OperandName(), name, rt.OperandName()).
		WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
}

// macBitwiseFuncs are the functions of & and | of the mac types.
var macBitwiseFuncs = map[string]string{"&": "_and", "|": "_or"}

// macBitwise binds & and | when a side is macaddr or macaddr8 (<< and >>
// take neither); ok is false otherwise.
func (b *binder) macBitwise(n sourceNode, op string, l, r Expr) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if !lt.IsMacAddr() && !rt.IsMacAddr() {
		return nil, false, nil
	}
	suffix, ok := macBitwiseFuncs[op]
	t := lt
	if !lt.IsMacAddr() {
		t = rt
	}
	if !ok || !lt.IsMacAddr() && !isUnknown(lt) || !rt.IsMacAddr() && !isUnknown(rt) || lt.IsMacAddr() && rt.IsMacAddr() && lt.Variant != rt.Variant {
		return nil, true, b.operatorError(n, op, lt, rt)
	}
	return b.callFunctionExpr(n, t.Variant.Name()+suffix, l, r)
}

// smallCastable decides the casts to and from money and the mac types
// (handled false when neither side is one): pg_cast's money from int4,
// int8 and numeric and to numeric, macaddr to and from macaddr8, and
// every type to and from text by its input and output.
func smallCastable(a, c types.T) (ok, handled bool) {
	if !a.IsMoney() && !c.IsMoney() && !a.IsMacAddr() && !c.IsMacAddr() {
		return false, false
	}
	text := func(t types.T) bool {
		return t.Kind == types.Char || t.Kind == types.Name || t.Kind == types.String && t.Variant == types.NoVariant
	}
	switch {
	case a.Equal(c), text(a) || isUnknown(a), text(c):
		return true, true
	case c.IsMoney():
		return a.Kind == types.Int32 || a.Kind == types.Int64 && !a.IsMoney() || a.Kind == types.Decimal || a.IsMoney(), true
	case a.IsMoney():
		return c.Kind == types.Decimal, true
	}
	return a.IsMacAddr() && c.IsMacAddr(), true
}

// smallAssignable is smallCastable for an assignment (INSERT, UPDATE):
// the same casts but those from text, which PostgreSQL makes explicit
// only.
func smallAssignable(a, c types.T) (ok, handled bool) {
	ok, handled = smallCastable(a, c)
	if handled && ok && stringCategory(a) && !stringCategory(c) {
		ok = false
	}
	return ok, handled
}
