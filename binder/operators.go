package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Operators PostgreSQL resolves by their operands' types, bound to the
// functions behind them (functions/jsoncontain.go): sql's rewrite
// hands @> <@ ? ?| ?& over as pg__op_* markers (named apart from the
// functions for the column label, ?column?), and || between two bytea or
// two jsonb values is byteacat or jsonb_concat rather than textcat of
// their text forms.

// operatorMarkers maps a marker to its function per operand kind: the
// jsonb one, and the array one ("" where the operator has none).
var operatorMarkers = map[string][2]string{
	"pg__op_contains":   {"jsonb_contains", "arraycontains"},
	"pg__op_contained":  {"jsonb_contained", "arraycontained"},
	"pg__op_exists":     {"jsonb_exists", ""},
	"pg__op_exists_any": {"jsonb_exists_any", ""},
	"pg__op_exists_all": {"jsonb_exists_all", ""},
}

// bindOperatorMarker binds l op r for one of operatorMarkers (marker
// name, its bound arguments; left is the left operand's syntax).
func (b *binder) bindOperatorMarker(n sourceNode, name string, left sourceNode, args []Expr, fns [2]string) (Expr, error) {
	var err error
	if len(args) != 2 {
		return b.callFunction(n, name, args)
	}
	if e, ok, err := b.rangeContainment(n, name, args); ok && (name == "pg__op_contains" || name == "pg__op_contained") { // ranges.go
		return e, err
	}
	l, r := args[0].Type(), args[1].Type()
	if fns[1] != "" && (l.Kind == types.Array || r.Kind == types.Array) {
		return b.callFunction(n, fns[1], args)
	}
	if fns[1] != "" {
		if err := containmentAmbiguity(name, l, r); err != nil {
			return nil, b.errAt(n, err)
		}
	}
	if op, ok := keyListOperators[name]; ok {
		if err := b.keyListResolution(n, op, l, r); err != nil {
			return nil, err
		}
	}
	if isUnknown(l) {
		// the literal is read as jsonb only when jsonb's operator takes
		// the other side: 'a+b' ? 1 is no operator, not a bad jsonb
		if _, _, err := functions.Resolve(fns[0], []types.T{types.JSONBType, r}); err != nil {
			return nil, b.errAt(n, sqlerr.As(err))
		}
		if args[0], err = b.coerceUnknown(left, args[0], types.JSONBType); err != nil {
			return nil, err
		}
	}
	return b.callFunction(n, fns[0], args)
}

// containmentAmbiguity is PostgreSQL's 42725 for @> and <@ over operands
// none of which is an array: their container side (@>'s left, <@'s right)
// untyped could be a range (anyrange @> anyelement, anyelement <@
// anyrange) as well as jsonb, unless the other side is jsonb. The caller
// turns the error into the operator's message.
func containmentAmbiguity(marker string, l, r types.T) *sqlerr.Error {
	container, other := l, r
	if marker == "pg__op_contained" {
		container, other = r, l
	}
	if !isUnknown(container) || other.Kind == types.String && other.Variant == types.JSONB {
		return nil
	}
	return sqlerr.New(sqlerr.AmbiguousFunction, "function %s is not unique", marker)
}

// typedConcat binds a || b when PostgreSQL's operator for the operands'
// types is byteacat (bytea || bytea), jsonb_concat (jsonb || jsonb),
// bitcat, tsvector_concat or tsquery_or (tsquery || tsquery), an
// unknown literal taking the other side's type; ok is false otherwise.
func (b *binder) typedConcat(n sourceNode, l, r Expr) (e Expr, ok bool, err error) {
	lt, rt := l.Type(), r.Type()
	isBytes := func(t types.T) bool { return t.Kind == types.Bytes || t.Kind == types.Binary }
	isJSONB := func(t types.T) bool { return t.Kind == types.String && t.Variant == types.JSONB }
	var fn string
	var to types.T
	switch {
	case (isBytes(lt) || isUnknown(lt)) && (isBytes(rt) || isUnknown(rt)) && (isBytes(lt) || isBytes(rt)):
		fn, to = "byteacat", types.BytesType
	case (isJSONB(lt) || isUnknown(lt)) && (isJSONB(rt) || isUnknown(rt)) && (isJSONB(lt) || isJSONB(rt)):
		fn, to = "jsonb_concat", types.JSONBType
	case isVariant(lt, types.TSVector) && (isVariant(rt, types.TSVector) || isUnknown(rt)) || isUnknown(lt) && isVariant(rt, types.TSVector):
		fn, to = "tsvector_concat", types.TSVectorType // text search: functions/tsearch.go
	case isVariant(lt, types.TSQuery) && (isVariant(rt, types.TSQuery) || isUnknown(rt)) || isUnknown(lt) && isVariant(rt, types.TSQuery):
		fn, to = "tsquery_or", types.TSQueryType
	case lt.IsBitString() && (rt.IsBitString() || isUnknown(rt)) || isUnknown(lt) && rt.IsBitString():
		fn, to = "bitcat", types.VarBitType(0) // bit strings: binder/bitstring.go
	default:
		return nil, false, nil
	}
	args := []Expr{l, r}
	for i, a := range args {
		if isUnknown(a.Type()) {
			if args[i], err = b.coerceUnknown(n, a, to); err != nil {
				return nil, true, err
			}
		}
	}
	e, err = b.callFunction(n, fn, args)
	return e, true, err
}

// isVariant reports whether t is the String variant v.
func isVariant(t types.T, v types.Variant) bool { return t.Kind == types.String && t.Variant == v }

// namedOperand is t as PostgreSQL names an operand in a failed operator
// lookup: NULL is unknown.
func namedOperand(t types.T) types.T {
	if t.Kind == types.Null {
		return types.UnknownType
	}
	return t
}

// likeOperators are the operators PostgreSQL reads [NOT] [I]LIKE as, by
// (ILIKE, NOT); regexOperators those of ~ ~* !~ !~* by (case-insensitive,
// NOT). A failed lookup names the operator, not the function behind it.
var (
	likeOperators  = map[[2]bool]string{{false, false}: "~~", {true, false}: "~~*", {false, true}: "!~~", {true, true}: "!~~*"}
	regexOperators = map[[2]bool]string{{false, false}: "~", {true, false}: "~*", {false, true}: "!~", {true, true}: "!~*"}
)

// likeWords is how n's operator is spelled in words, where PostgreSQL
// points a failed lookup (at NOT of NOT LIKE).
func likeWords(n *pt.Like) string {
	w := "like"
	if n.ILike {
		w = "ilike"
	}
	if n.Not {
		w = "not " + w
	}
	return w
}

// asPatternOperatorError turns the failed lookup of the function a LIKE
// or regular expression match binds to (like, ilike, regex_match) into
// PostgreSQL's failed lookup of its operator op, at the operator (its
// words when written in words). Other errors pass through.
func (b *binder) asPatternOperatorError(n sourceNode, op, words string, args []Expr, err error) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedFunction || len(args) != 2 {
		return err
	}
	e := noBinaryOperator(op, args[0].Type(), args[1].Type())
	if pos, ok := b.operatorAt(n, words); ok && words != "" {
		return e.WithPosition(pos)
	}
	return b.errAtOperator(n, op, e)
}

// asLikeEscapeError turns the failed lookup of like(x, pattern, escape)
// into PostgreSQL's: it reads x LIKE p ESCAPE e as x ~~ like_escape(p, e),
// so a pattern no like_escape takes (text, or an untyped literal) names
// that function, and otherwise the operator finds x beside a text (or
// bytea) pattern.
// Both are placed at the LIKE keyword, as PostgreSQL's parser records them.
func (b *binder) asLikeEscapeError(n sourceNode, op, words string, args []Expr, err error) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedFunction {
		return err
	}
	p, x := args[1].Type(), args[0].Type()
	isBytes := func(t types.T) bool { return t.Kind == types.Bytes || t.Kind == types.Binary }
	var e *sqlerr.Error
	switch {
	case isBytes(p) && (op == "~~" || op == "!~~") && (isUnknown(x) || isBytes(x)):
		return err // bytea's LIKE, which sqlgate lacks
	case isBytes(p): // like_escape(bytea, bytea), and no ~~ of x and bytea
		e = noBinaryOperator(op, x, p)
	case isUnknown(p) || (p.Kind == types.String || p.Kind == types.Char) && p.Variant == types.NoVariant:
		e = noBinaryOperator(op, x, types.StringType)
	default:
		e = functions.UndefinedFunction("pg_catalog.like_escape", []types.T{namedOperand(p), types.UnknownType})
	}
	if pos, ok := b.operatorAt(n, words); ok {
		return e.WithPosition(pos)
	}
	return b.errAt(n, e)
}

// asPowerOperatorError turns the failed lookup of power, which a ^ b binds
// to, into PostgreSQL's failed lookup of ^ at the operator; the operands
// are bound again for their types (only on this error path).
func (b *binder) asPowerOperatorError(s *scope, n *pt.Binary, err error) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedFunction {
		return err
	}
	l, lerr := b.bindTree(s, n.L)
	r, rerr := b.bindTree(s, n.R)
	if lerr != nil || rerr != nil {
		return err
	}
	return b.operatorError(n, "^", l.Type(), r.Type())
}

// bindPrefixPlus binds + x: PostgreSQL's prefix + exists for the numeric
// types only (not interval, text ...), and reads an untyped literal or
// NULL as float8, the numeric category's preferred type.
func (b *binder) bindPrefixPlus(n *pt.Unary, x Expr) (Expr, error) {
	switch t := x.Type(); {
	case t.Kind == types.Null:
		return &Const{Value: nil, T: types.Float64Type}, nil
	case isUnknown(t):
		return b.coerceUnknown(n.X, x, types.Float64Type)
	case !t.IsNumeric():
		return nil, b.errAt(n, noOperator("+", t))
	}
	return x, nil
}

// prefixMinusAmbiguity is PostgreSQL's 42725 for - of an untyped literal or
// NULL: prefix - has candidates in two categories (numeric and interval),
// so an unknown operand picks none.
func prefixMinusAmbiguity(x Expr) *sqlerr.Error {
	if c, ok := x.(*Const); !ok || !isUnknown(c.T) {
		return nil
	}
	return sqlerr.New(sqlerr.Code("42725"), "operator is not unique: - unknown").
		WithHint("Could not choose a best candidate operator. You might need to add explicit type casts.")
}

// bindBangPrefix binds ! x and !! x, which TiDB's grammar reads as NOT:
// PostgreSQL 15 has no prefix ! and only tsquery's !! (tsquery_not, an
// untyped operand read as a tsquery), so another typed operand has no
// operator (42883 "operator does not exist: !! integer"). ok is false for
// NOT spelled as a word and for ! of an untyped operand, which bind as NOT.
func (b *binder) bindBangPrefix(s *scope, n *pt.Unary) (e Expr, ok bool, err error) {
	if b.stmt == nil {
		return nil, false, nil
	}
	text, start := b.stmt.Rewritten, n.OriginTextPosition()
	if start < 0 || start >= len(text) || text[start] != '!' {
		return nil, false, nil
	}
	op, operand := "!", n.X
	if inner, isNot := n.X.(*pt.Unary); isNot && inner.Op == pt.UNot && strings.HasPrefix(text[start:], "!!") {
		op, operand = "!!", inner.X
	}
	x, err := b.bindTree(s, operand)
	if err != nil {
		return nil, true, err
	}
	if op == "!!" && (isUnknown(x.Type()) || x.Type().Kind == types.String && x.Type().Variant == types.TSQuery) {
		// tsquery's NOT (tsquery_not); an untyped operand is a tsquery
		if isUnknown(x.Type()) {
			if x, err = b.coerceUnknown(n, x, types.TSQueryType); err != nil {
				return nil, true, err
			}
		}
		e, err := b.callFunction(n, "pg__op_tsquery_not", []Expr{x})
		return e, true, err
	}
	if isUnknown(x.Type()) {
		return nil, false, nil
	}
	return nil, true, b.errAt(n, noOperator(op, x.Type()))
}

// keyListOperators are the markers of jsonb's ?| and ?& (jsonb ?| text[]),
// by the operator's spelling.
var keyListOperators = map[string]string{"pg__op_exists_any": "?|", "pg__op_exists_all": "?&"}

// keyListResolution is PostgreSQL's resolution of l ?| r and l ?& r
// before any literal is read: two untyped operands of ?| are ambiguous
// (point ?| point is an operator too), and a key list must be an array of
// a string type (int4[] does not convert to text[]).
func (b *binder) keyListResolution(n sourceNode, op string, l, r types.T) *sqlerr.Error {
	if op == "?|" && isUnknown(l) && isUnknown(r) {
		return b.errAtOperator(n, op, sqlerr.New(sqlerr.AmbiguousFunction,
			"operator is not unique: unknown %s unknown", op).
			WithHint("Could not choose a best candidate operator. You might need to add explicit type casts."))
	}
	if r.Kind == types.Array && r.Elem != nil && !stringElement(*r.Elem) {
		return b.operatorError(n, op, l, r)
	}
	return nil
}

// stringElement reports whether an array of t converts to text[]
// implicitly: t is text, varchar or char(n) (or an untyped element).
func stringElement(t types.T) bool {
	return isUnknown(t) || (t.Kind == types.String || t.Kind == types.Char) && t.Variant == types.NoVariant
}
