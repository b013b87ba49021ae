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
	var nodes []pt.Expr
	for _, w := range n.Whens {
		nodes = append(nodes, w.Result)
	}
	if n.Else != nil {
		results = append(results[len(results)-1:], results[:len(results)-1]...)
		nodes = append([]pt.Expr{n.Else}, nodes...)
	}
	// a CASE without ELSE has a NULL one, which PostgreSQL counts in the
	// result's type modifier (none then)
	unified, t, err := b.unifyOver(n, "CASE", results, nodes, n.Else == nil)
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
// nodes, when not nil, are es's source, where an error about one input
// points (PostgreSQL's exprLocation of it).
func (b *binder) unify(n sourceNode, what string, es []Expr, nodes []pt.Expr) ([]Expr, types.T, error) {
	return b.unifyOver(n, what, es, nodes, false)
}

// unifyOver is unify, with implicitNull for an input of NULL the
// construct adds (CASE's missing ELSE).
func (b *binder) unifyOver(n sourceNode, what string, es []Expr, nodes []pt.Expr, implicitNull bool) ([]Expr, types.T, error) {
	ins := make([]types.T, len(es))
	for i, e := range es {
		ins[i] = b.commonInputType(e)
	}
	t, bad, err := selectCommonType(what, ins, implicitNull) // exprops.go
	if err != nil {
		if bad < 0 || bad >= len(nodes) {
			return nil, t, b.errAt(n, err)
		}
		if err.Code == sqlerr.CannotCoerce {
			// the inputs are converted in order: an untyped literal
			// before the one refused fails first (22007 of '8' as a
			// timestamp)
			if _, cerr := b.unifyTo(n, es[:bad], nodes[:bad], t); cerr != nil {
				return nil, t, cerr
			}
		}
		return nil, t, b.errAt(nodes[bad], err)
	}
	out, err2 := b.unifyTo(n, es, nodes, t)
	return out, t, err2
}

// unifyTo converts es to t, their common type, in order: an unknown
// literal by t's input (its error at its node in nodes, when given),
// anything else by a cast.
func (b *binder) unifyTo(n sourceNode, es []Expr, nodes []pt.Expr, t types.T) ([]Expr, error) {
	out := make([]Expr, len(es))
	litT := t
	if litT.Kind == types.String {
		litT.Length = 0 // an unknown literal is text, whatever the varchar limit
	}
	for i, e := range es {
		if isUnknown(e.Type()) {
			at := n
			if i < len(nodes) {
				at = nodes[i] // the literal's own position
			}
			x, err := b.coerceUnknown(at, e, litT)
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
func (b *binder) bindConditionalFunc(n *pt.FuncCall, name string, args []Expr) (Expr, error) {
	switch name {
	case "coalesce", "ifnull":
		if len(args) == 0 {
			return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \")\""))
		}
		if err := b.refuseSetCallIn("COALESCE", args...); err != nil { // srf.go
			return nil, err
		}
		unified, t, err := b.unify(n, "COALESCE", args, n.Args)
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

// commonInputError places GREATEST's and LEAST's error of no common type
// (err, of their call n of arguments args, of types ts) as PostgreSQL
// does: at the argument it is about (select_common_type's and
// coerce_to_common_type's exprLocation), and for 42846 after the untyped
// literals before that argument are converted, in order, to the type
// chosen (their own error first); other errors at the call.
func (b *binder) commonInputError(n sourceNode, name string, args []Expr, ts []types.T, err *sqlerr.Error) error {
	call, ok := n.(*pt.FuncCall)
	if !ok || name != "greatest" && name != "least" || len(call.Args) != len(ts) ||
		err.Code != sqlerr.DatatypeMismatch && err.Code != sqlerr.CannotCoerce {
		return b.errAt(n, err)
	}
	chosen, bad, _ := functions.CommonTypeAt(strings.ToUpper(name), ts)
	if bad < 0 {
		return b.errAt(n, err)
	}
	if err.Code == sqlerr.CannotCoerce {
		if _, cerr := b.unifyTo(n, args[:bad], call.Args[:bad], chosen); cerr != nil {
			return cerr
		}
	}
	return b.errAt(call.Args[bad], err)
}
