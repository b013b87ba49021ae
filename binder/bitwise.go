package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bitwiseOps are PostgreSQL's integer bitwise operators that TiDB's grammar
// parses with the same spelling (pgJDBC's getIndexInfo tests an indoption
// bit with &). PostgreSQL's # (xor) is rejected by the rewrite, and its ^
// is power.
var bitwiseOps = map[pt.BinaryOp]string{
	pt.BitAnd: "&", pt.BitOr: "|", pt.Shl: "<<", pt.Shr: ">>",
}

// bindBitwise binds a & b, a | b (both sides brought to the wider of their
// integer types, as PostgreSQL's int2/int4/int8 operators resolve) and
// a << b, a >> b (the left side's type, an int4 shift count).
func (b *binder) bindBitwise(s *scope, n *pt.Binary, op string) (Expr, error) {
	l, err := b.bindTree(s, n.L)
	if err != nil {
		return nil, err
	}
	r, err := b.bindTree(s, n.R)
	if err != nil {
		return nil, err
	}
	if e, ok, err := b.bitStringOperator(n, op, l, r); ok { // bitstring.go
		return e, err
	}
	if e, ok, err := b.inetBitwise(n, op, l, r); ok { // netops.go
		return e, err
	}
	if e, ok, err := b.macBitwise(n, op, l, r); ok { // smalltypes.go
		return e, err
	}
	if e, ok, err := b.rangeShift(n, op, l, r); ok { // ranges.go
		return e, err
	}
	if e, ok, err := b.geometricOperator(n, op, []Expr{l, r}); ok { // geometric.go
		return e, err
	}
	shift := op == "<<" || op == ">>"
	if !shift && isUnknown(l.Type()) != isUnknown(r.Type()) {
		// PostgreSQL's operator resolution decides before the literal is
		// read: beside a type no & or | takes, there is no operator.
		if _, _, err := functions.ResolveOperator(op, integerBitwise, l.Type(), r.Type()); err != nil {
			return nil, b.errAtOperator(n, op, sqlerr.As(err))
		}
	}
	if shift && isUnknown(l.Type()) != isUnknown(r.Type()) {
		if err := b.shiftBesideUnknown(n, op, l.Type(), r.Type()); err != nil {
			return nil, err
		}
	}
	switch {
	case isUnknown(l.Type()) && isUnknown(r.Type()):
		return nil, b.errAt(n, sqlerr.New(sqlerr.Code("42725"), "operator is not unique: unknown %s unknown", op).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
	case isUnknown(l.Type()):
		l, err = b.coerceUnknown(n.L, l, intOperand(r.Type(), shift))
	case isUnknown(r.Type()):
		want := types.Int32Type
		if !shift {
			want = intOperand(l.Type(), false)
		}
		r, err = b.coerceUnknown(n.R, r, want)
	}
	if err != nil {
		return nil, err
	}
	lt, rt := l.Type(), r.Type()
	if !lt.IsInteger() || !rt.IsInteger() || (shift && !shiftCount(rt)) {
		return nil, b.operatorError(n, op, lt, rt)
	}
	t := intOperand(lt, false)
	if shift {
		r = b.castTo(r, types.Int32Type)
	} else {
		if wide := intOperand(rt, false); wide.Kind > t.Kind {
			t = wide
		}
		r = b.castTo(r, t)
	}
	l = b.castTo(l, t)
	return &FuncCall{Name: op, Args: []Expr{l, r}, T: t, Kernel: functions.BitwiseKernel(op, t)}, nil
}

// integerBitwise are the overloads of & and | sqlgate has types for
// (PostgreSQL's bit and inet ones have none here).
var integerBitwise = [][]types.T{
	{types.Int16Type, types.Int16Type}, {types.Int32Type, types.Int32Type}, {types.Int64Type, types.Int64Type},
}

// intOperand is the PostgreSQL integer type an operand of t is read as:
// tinyint is int2 (sqlgate's TINYINT has no PostgreSQL type of its own);
// an unknown literal facing a shift count is int4.
func intOperand(t types.T, shift bool) types.T {
	switch {
	case shift || !t.IsInteger():
		return types.Int32Type
	case t.Kind == types.Int8:
		return types.Int16Type
	}
	return t.Nullable()
}

// shiftCount reports whether a shift count of type t is read as int4:
// PostgreSQL's int2shl, int4shl and int8shl (and their shr) take an int4
// count, which int2 reaches by an implicit cast and int8 does not, so
// 1 << 2::bigint has no operator.
func shiftCount(t types.T) bool {
	return t.IsInteger() && t.Kind != types.Int64
}

// shiftBesideUnknown is PostgreSQL's resolution of << or >> with one
// untyped operand, decided before the literal is read: beside an integer
// on the left, the literal is the int4 count; on the right of an untyped
// left, int4 is an exact match (int4shl), int2 fits int2shl, int4shl and
// int8shl alike (42725), and any other type no shift takes (42883, the
// literal named unknown).
func (b *binder) shiftBesideUnknown(n *pt.Binary, op string, lt, rt types.T) *sqlerr.Error {
	unknown := types.UnknownType
	if isUnknown(rt) {
		if lt.IsInteger() {
			return nil
		}
		return b.operatorError(n, op, lt, unknown)
	}
	switch rt.Kind {
	case types.Int32:
		return nil
	case types.Int8, types.Int16:
		return b.errAtOperator(n, op, sqlerr.New(sqlerr.AmbiguousFunction,
			"operator is not unique: unknown %s %s", op, intOperand(rt, false).PGName()).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
	}
	return b.operatorError(n, op, unknown, rt)
}
