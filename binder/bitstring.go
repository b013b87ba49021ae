package binder

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's bit(n) and bit varying(n) (types/bitstring.go): their type
// names, which casts exist, and the operators & | << >> that TiDB's
// grammar parses as the integer ones (bitwise.go) and || (operators.go).
// The operators' functions are functions/bitstring.go's.

// bitTypeFromName is bit(n) (bit alone is bit(1), as in SQL) or bit
// varying(n) (no limit without n); pg__bit is the type of a B'..' or X'..'
// literal (sql's rewrite), bit without a typmod.
func bitTypeFromName(name string, args []int) (types.T, bool, error) {
	var t types.T
	switch name {
	case "bit":
		t = types.BitType(1)
	case "varbit", "bit varying":
		t = types.VarBitType(0)
	case "pg__bit":
		return types.BitType(0), true, nil
	default:
		return t, false, nil
	}
	if len(args) > 0 {
		if args[0] < 1 {
			return t, true, sqlerr.New(sqlerr.InvalidParameterValue, "length for type %s must be at least 1", map[bool]string{true: "bit", false: "varbit"}[name == "bit"])
		}
		t.Length = args[0]
	}
	return t, true, nil
}

// bitCastable reports the casts PostgreSQL has to and from a bit string:
// between bit and bit varying, to and from the string types, and between
// bit and int4 or int8.
func bitCastable(a, b types.T) bool {
	other := func(x, y types.T) bool {
		switch {
		case x.IsBitString():
			return true
		case x.Kind == types.Unknown || x.Kind == types.Name || x.IsString() && x.Variant == types.NoVariant:
			return true
		case (x.Kind == types.Int32 || x.Kind == types.Int64) && !x.IsMoney():
			return y.Variant == types.Bit // int4 and int8 to and from bit, not money
		}
		return false
	}
	if a.IsBitString() {
		return other(b, a)
	}
	return other(a, b)
}

// bitOperatorFuncs are the functions behind the bit string operators the
// grammar has apart (# and ~ arrive as pg__op_xor and pg__op_not).
var bitOperatorFuncs = map[string]string{"&": "bitand", "|": "bitor", "<<": "bitshiftleft", ">>": "bitshiftright"}

// bitStringOperator binds l op r for & | << >> when a side is a bit
// string: the operator's function (an unknown side read as bit); ok false
// leaves the integer operators to bindBitwise.
func (b *binder) bitStringOperator(n sourceNode, op string, l, r Expr) (Expr, bool, error) {
	lt, rt := l.Type(), r.Type()
	if !lt.IsBitString() && !rt.IsBitString() {
		return nil, false, nil
	}
	shift := op == "<<" || op == ">>"
	if !lt.IsBitString() && !isUnknown(lt) || !shift && !rt.IsBitString() && !isUnknown(rt) || shift && !rt.IsInteger() && !isUnknown(rt) {
		return nil, true, b.operatorError(n, op, lt, rt)
	}
	return b.callFunctionExpr(n, bitOperatorFuncs[op], l, r)
}

// callFunctionExpr is callFunction with its result as bitStringOperator
// returns it.
func (b *binder) callFunctionExpr(n sourceNode, name string, args ...Expr) (Expr, bool, error) {
	e, err := b.callFunction(n, name, args)
	return e, true, err
}

// bitCommonType is the type two operands of a comparison meet in when one
// is a bit string: bit and bit varying convert implicitly to each other
// (each to the other, so the first one's type stays, as in
// select_common_type; no typmod unless both have it) and to nothing else,
// so bit < text finds no operator.
func bitCommonType(a, b types.T) (types.T, bool) {
	if !a.IsBitString() || !b.IsBitString() {
		return types.T{}, false
	}
	if a.Variant != b.Variant || a.Length != b.Length {
		a.Length = 0
	}
	return a, true
}
