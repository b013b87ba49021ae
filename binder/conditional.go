package binder

import (
	"github.com/sqlgate/sqlgate/functions"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// When is one WHEN ... THEN ... branch of a searched CASE.
type When struct {
	Cond, Result Expr
}

// Case is a searched CASE (a simple CASE is bound as one).
type Case struct {
	Whens []When
	Else  Expr // nil: NULL
	T     types.T
}

// Coalesce is COALESCE(args...).
type Coalesce struct {
	Args []Expr
	T    types.T
}

func (e *Case) Type() types.T     { return e.T }
func (e *Coalesce) Type() types.T { return e.T }
func (e *Case) String() string {
	s := "CASE"
	for _, w := range e.Whens {
		s += " WHEN " + w.Cond.String() + " THEN " + w.Result.String()
	}
	if e.Else != nil {
		s += " ELSE " + e.Else.String()
	}
	return s + " END"
}
func (e *Coalesce) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return "COALESCE(" + strings.Join(parts, ", ") + ")"
}

// bindCase binds CASE [x] WHEN ... THEN ... [ELSE ...] END. A simple CASE
// compares x with each WHEN value using =, as PostgreSQL does.
func (b *binder) bindCase(s *scope, n *pt.Case) (Expr, error) {
	out := &Case{}
	var results []Expr
	for _, w := range n.Whens {
		condNode := w.Cond
		if n.Operand != nil {
			condNode = &pt.Binary{Op: pt.Eq, L: n.Operand, R: w.Cond} // no place of its own, as PostgreSQL's
		}
		cond, err := b.bindTree(s, condNode)
		if err != nil {
			return nil, err
		}
		if r := lastSetCall(cond); r != nil && n.Operand != nil && r.at.OriginTextPosition() < w.Cond.OriginTextPosition() {
			// the operand's call, not the WHEN value's (srf.go)
			return nil, b.refuseSetCallIn("CASE", cond)
		}
		if cond, err = b.coerce(w.Cond, cond, types.BoolType, "argument of CASE/WHEN"); err != nil {
			return nil, err
		}
		res, err := b.bindTree(s, w.Result)
		if err != nil {
			return nil, err
		}
		out.Whens = append(out.Whens, When{Cond: cond})
		results = append(results, res)
	}
	if n.Else != nil {
		e, err := b.bindTree(s, n.Else)
		if err != nil {
			return nil, err
		}
		results = append(results, e)
	}
	if err := b.refuseSetCallIn("CASE", results...); err != nil { // srf.go
		return nil, err
	}
	// PostgreSQL resolves a CASE's type with the ELSE result first, then
	// the THEN results in order (transformCaseExpr).
	if n.Else != nil {
		results = append(results[len(results)-1:], results[:len(results)-1]...)
	}
	// a CASE without ELSE has a NULL one, which PostgreSQL counts in the
	// result's type modifier (none then)
	unified, t, err := b.unifyOver(n, "CASE", results, n.Else == nil)
	if err != nil {
		return nil, err
	}
	if n.Else != nil {
		out.Else = unified[0]
		unified = unified[1:]
	}
	for i := range out.Whens {
		out.Whens[i].Result = unified[i]
	}
	out.T = t
	return out, nil
}

// unify brings expressions to one type with PostgreSQL's rules for CASE,
// COALESCE and similar constructs: unknown literals take the type of the
// others (text when all are unknown); other types must have a common type.
func (b *binder) unify(n sourceNode, what string, es []Expr) ([]Expr, types.T, error) {
	return b.unifyOver(n, what, es, false)
}

// unifyOver is unify, with implicitNull for an input of NULL the
// construct adds (CASE's missing ELSE).
func (b *binder) unifyOver(n sourceNode, what string, es []Expr, implicitNull bool) ([]Expr, types.T, error) {
	ins := make([]types.T, len(es))
	for i, e := range es {
		ins[i] = b.commonInputType(e)
	}
	t, _, err := selectCommonType(what, ins, implicitNull) // exprops.go
	if err != nil {
		return nil, t, b.errAt(n, err)
	}
	out, err2 := b.unifyTo(n, es, t)
	return out, t, err2
}

// unifyTo converts es to t, their common type, in order: an unknown
// literal by t's input, anything else by a cast.
func (b *binder) unifyTo(n sourceNode, es []Expr, t types.T) ([]Expr, error) {
	out := make([]Expr, len(es))
	litT := t
	if litT.Kind == types.String {
		litT.Length = 0 // an unknown literal is text, whatever the varchar limit
	}
	for i, e := range es {
		if isUnknown(e.Type()) {
			x, err := b.coerceUnknown(n, e, litT)
			if err != nil {
				return nil, err
			}
			out[i] = x
			continue
		}
		x, err := b.castToCommon(n, e, t)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// isConditionalFunc reports whether name is bound by bindConditionalFunc.
func isConditionalFunc(name string) bool {
	return name == "coalesce" || name == "nullif" || name == "ifnull"
}

// bindConditionalFunc binds COALESCE and NULLIF (n the call, args its
// bound arguments).
func (b *binder) bindConditionalFunc(n sourceNode, name string, args []Expr) (Expr, error) {
	switch name {
	case "coalesce", "ifnull":
		if len(args) == 0 {
			return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \")\""))
		}
		if err := b.refuseSetCallIn("COALESCE", args...); err != nil { // srf.go
			return nil, err
		}
		unified, t, err := b.unify(n, "COALESCE", args)
		if err != nil {
			return nil, err
		}
		return &Coalesce{Args: unified, T: t}, nil
	}
	// NULLIF(a, b) = CASE WHEN a = b THEN NULL ELSE a END, typed as a.
	if len(args) != 2 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedFunction, "function nullif with %d arguments does not exist", len(args)))
	}
	eq, err := b.makeBinary(n, OpEq, args[0], args[1])
	if err != nil {
		return nil, err
	}
	a := args[0]
	if be, ok := eq.(*BinaryOp); ok {
		if isUnknown(a.Type()) {
			a = b.resolveUnknown(a, withLiteralInput(be.L.Type()))
		} else if t := nullifType(a.Type(), args[1].Type()); !t.Equal(a.Type().Nullable()) {
			a = b.castTo(a, t)
		}
	} // else a record = record, a call of its own (rowcompare.go): a as it is
	return &Case{Whens: []When{{Cond: eq, Result: &Const{T: a.Type().Nullable()}}}, Else: a, T: a.Type().Nullable()}, nil
}

// nullifType is the type of NULLIF(a, b) for a of type l and b of type r:
// the type PostgreSQL's = operator takes its left input as. Where an
// operator takes l as it is (the same type, the cross-type integer, float
// and date/time operators; real or double beside an integer or numeric,
// whose right input converts to it) that is l; an integer or numeric
// beside a float compares as double precision, an integer beside a
// numeric as numeric; varchar compares as text beside text and as bpchar
// beside char(n), and char(n) beside text as text.
func nullifType(l, r types.T) types.T {
	l, r = l.Nullable(), r.Nullable()
	isFloat := func(t types.T) bool { return t.Kind == types.Float32 || t.Kind == types.Float64 }
	isDateTime := func(t types.T) bool {
		return t.Kind == types.Date || t.Kind == types.Timestamp || t.Kind == types.TimestampTZ
	}
	switch {
	case functions.SamePGType(l, r) && l.Kind != types.String:
		return l
	case l.IsInteger() && r.IsInteger(), isFloat(l) && r.IsNumeric(), isDateTime(l) && isDateTime(r):
		return l
	case l.IsNumeric() && isFloat(r):
		return types.Float64Type
	case l.IsNumeric() && r.IsNumeric():
		if l.Kind == types.Decimal {
			return l
		}
		return types.NumericType
	case l.Kind == types.Char && r.Kind == types.String && r.Length != 0 && r.Variant == types.NoVariant:
		return types.T{Kind: types.Char} // char(n) = varchar is bpchar's =
	case l.Kind == types.String && l.Length != 0 && l.Variant == types.NoVariant && r.Kind == types.Char:
		return types.T{Kind: types.Char}
	case l.Kind == types.Char && r.Kind == types.String && r.Variant == types.NoVariant:
		return types.StringType // char(n) = text is text's =
	case l.Kind == types.String && l.Length != 0 && l.Variant == types.NoVariant:
		return types.StringType // varchar compares as text
	}
	return l
}
