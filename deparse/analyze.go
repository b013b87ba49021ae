package deparse

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// The analysis of a stored expression's syntax tree into the tree
// PostgreSQL's parse analysis (parse_expr.c) makes of it: literals typed
// (an integer int4, a decimal numeric, a quoted string unknown until its
// context types it), BETWEEN and IN expanded as transformAExprBetween and
// transformAExprIn expand them, operators and functions resolved over
// the catalog tables and their arguments coerced to the chosen
// signature. The deparser prints that tree; an expression it cannot
// analyse is an error, and its caller shows the text as written.

// analyzer analyses one expression over a relation's columns.
type analyzer struct {
	cols  []Column
	value *types.T // a domain CHECK's VALUE
	// types are the user-defined types casts may name (Scope.Types).
	types binder.TypeCatalog
	// schema is Scope.Schema: an unqualified relation name's schema.
	schema string
	// funcs are Scope.Functions (a view's: its queryAnalyzer's).
	funcs []Function
	// lv is a view query's level its column references resolve in (nil
	// for a stored expression), qa the analysis it belongs to and ctes
	// the WITH items its subqueries see.
	lv   *level
	qa   *queryAnalyzer
	ctes []*cteDef
	// q is the query whose select list, WHERE ... is analysed (window
	// functions register there)
	q *query
}

// errUnsupported is the error of a construct the deparser does not
// analyse (its caller falls back to the text as written).
func errUnsupported(what string, args ...any) error {
	return fmt.Errorf("deparse: "+what, args...)
}

// parseType is the type a type name names: binder.ParseType's, except
// that varchar without a length is varchar (the binder reads it as text).
func parseType(name string) (types.T, error) {
	t, err := binder.ParseType(name)
	if err != nil {
		return t, err
	}
	if tn, err := sql.ParseTypeName(name); err == nil && len(tn.Args) == 0 && (tn.Name == "varchar" || tn.Name == "character varying") && t.Kind == types.String && t.Length == 0 && t.Elem == nil {
		t.Length = -1
	}
	return t, nil
}

// userCastType is the type a cast names when it is a user-defined one
// (an enum, a domain) of ut.
func userCastType(name string, ut binder.TypeCatalog) (types.T, error) {
	tn, err := sql.ParseTypeName(name)
	if err != nil {
		return types.T{}, err
	}
	return binder.TypeOfIn(tn, ut)
}

func (a *analyzer) expr(e pt.Expr) (node, error) {
	switch n := e.(type) {
	case *pt.ColumnRef:
		return a.column(n)
	case *pt.Literal:
		return literal(n, false)
	case *pt.Unary:
		return a.unary(n)
	case *pt.Binary:
		return a.binary(n)
	case *pt.Operator:
		var args []node
		for _, x := range []pt.Expr{n.L, n.R} {
			if x == nil {
				continue
			}
			v, err := a.expr(x)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
		return a.op(n.Op, args...)
	case *pt.IsNull:
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		return &nullTestNode{arg: x, not: n.Not}, nil
	case *pt.IsBool:
		x, err := a.boolArg(n.X)
		if err != nil {
			return nil, err
		}
		return &boolTestNode{arg: x, test: n.Clause()}, nil
	case *pt.Between:
		return a.between(n)
	case *pt.InList:
		return a.inList(n)
	case *pt.Like:
		op := map[[2]bool]string{{false, false}: "~~", {true, false}: "!~~", {false, true}: "~~*", {true, true}: "!~~*"}[[2]bool{n.Not, n.ILike}]
		if n.Escape != '\\' {
			return a.likeEscape(op, n)
		}
		return a.binaryOp(op, n.X, n.Pattern)
	case *pt.Regexp:
		op := map[[2]bool]string{{false, false}: "~", {true, false}: "!~", {false, true}: "~*", {true, true}: "!~*"}[[2]bool{n.Not, n.IgnoreCase}]
		return a.binaryOp(op, n.X, n.Pattern)
	case *pt.Case:
		return a.caseExpr(n)
	case *pt.Cast:
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		t, err := parseType(n.Type)
		if err != nil && a.types != nil {
			t, err = userCastType(n.Type, a.types)
		}
		if err != nil {
			return nil, err
		}
		if arr, ok := n.X.(*pt.Array); ok {
			if tt := typeOfT(t); tt.elem != nil && tt.base == nil {
				// transformTypeCast: ARRAY[..] under a cast to an array
				// type is built as that type
				x, err = a.arrayAs(arr.Elems, tt)
				if err != nil {
					return nil, err
				}
			}
		}
		return a.coerce(x, typeOfT(t), castExplicit)
	case *pt.FuncCall:
		return a.call(n)
	case *pt.Extract:
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		return a.syntax("EXTRACT", typeOfOID(oidNumeric), []typ{unknownType, x.typeOf()}, &constNode{t: typeOfOID(oidText), text: strings.ToLower(n.Field)}, x)
	case *pt.Position:
		sub, err := a.expr(n.Sub)
		if err != nil {
			return nil, err
		}
		str, err := a.expr(n.Str)
		if err != nil {
			return nil, err
		}
		return a.syntax("POSITION", typeOfOID(oidInt4), []typ{typeOfOID(oidText), typeOfOID(oidText)}, str, sub)
	case *pt.Trim:
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		kind := map[pt.TrimDir]string{pt.TrimBoth: "BOTH", pt.TrimLeading: "LEADING", pt.TrimTrailing: "TRAILING"}[n.Dir]
		if n.Chars == nil {
			return a.syntax(kind, typeOfOID(oidText), []typ{typeOfOID(oidText)}, x)
		}
		chars, err := a.expr(n.Chars)
		if err != nil {
			return nil, err
		}
		return a.syntax(kind, typeOfOID(oidText), []typ{typeOfOID(oidText), typeOfOID(oidText)}, x, chars)
	case *pt.Array:
		return a.array(n.Elems)
	case *pt.Subscript:
		return a.subscript(n)
	case *pt.Subquery:
		return a.subLink(subLinkExpr, nil, "", n)
	case *pt.Exists:
		x, err := a.subLink(subLinkExists, nil, "", n.Query)
		if err != nil || !n.Not {
			return x, err
		}
		return &boolNode{kind: boolNot, args: []node{x}}, nil
	case *pt.InSubquery:
		l, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		x, err := a.subLink(subLinkAny, l, "=", n.Query)
		if err != nil || !n.Not {
			return x, err
		}
		return &boolNode{kind: boolNot, args: []node{x}}, nil
	case *pt.Quantified:
		if sq, ok := n.Right.(*pt.Subquery); ok {
			l, err := a.expr(n.X)
			if err != nil {
				return nil, err
			}
			kind := subLinkAny
			if n.All {
				kind = subLinkAll
			}
			return a.subLink(kind, l, n.Op, sq)
		}
		arr, ok := n.Right.(*pt.Array)
		if !ok {
			return nil, errUnsupported("ANY/ALL over %T", n.Right)
		}
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		r, err := a.array(arr.Elems)
		if err != nil {
			return nil, err
		}
		return a.arrayOp(n.Op, !n.All, x, r)
	}
	return nil, errUnsupported("%T", e)
}

func (a *analyzer) column(n *pt.ColumnRef) (node, error) {
	if a.lv != nil {
		return a.lv.lookup(n)
	}
	if a.value != nil && n.Table == "" && n.Name == "value" {
		return &varNode{t: typeOfT(*a.value)}, nil
	}
	for _, c := range a.cols {
		if c.Name == n.Name {
			return &varNode{name: c.Name, t: columnType(c)}, nil
		}
	}
	return nil, errUnsupported("column %q", n.Name)
}

// literal types a literal as PostgreSQL's make_const does; negative is a
// numeric literal under a unary minus, which the grammar folds into a
// negative constant.
func literal(n *pt.Literal, negative bool) (node, error) {
	sign := ""
	if negative {
		sign = "-"
	}
	switch n.Kind {
	case pt.LitNull:
		return &constNode{t: unknownType, isNull: true}, nil
	case pt.LitBool:
		return &constNode{t: boolType, text: map[bool]string{true: "t", false: "f"}[n.Int != 0]}, nil
	case pt.LitInt:
		v := n.Int
		if negative {
			v = -v
		}
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return &constNode{t: typeOfOID(oidInt4), text: strconv.FormatInt(v, 10)}, nil
		}
		return &constNode{t: typeOfOID(oidInt8), text: strconv.FormatInt(v, 10)}, nil
	case pt.LitUint:
		if negative && n.Uint == 1<<63 { // -9223372036854775808 fits int8
			return &constNode{t: typeOfOID(oidInt8), text: strconv.FormatInt(math.MinInt64, 10)}, nil
		}
		return numericConst(sign + strconv.FormatUint(n.Uint, 10))
	case pt.LitDecimal:
		return numericConst(sign + n.Text)
	case pt.LitFloat:
		return numericConst(sign + strconv.FormatFloat(n.Float, 'f', -1, 64))
	case pt.LitString:
		if negative {
			return nil, errUnsupported("negative string")
		}
		return &constNode{t: unknownType, text: n.Text}, nil
	}
	return nil, errUnsupported("literal of kind %v", n.Kind)
}

// signedNumber peels the minus signs over a number literal, through
// parentheses: PostgreSQL's grammar writes each into the constant
// (doNegate), so -(-5) is the integer 5 and -(-2147483648) the bigint
// 2147483648, typed by the signed text's value as the binder types them
// (binder/exprops.go, negatedLiteral). odd: the literal is negated.
func signedNumber(n *pt.Unary) (lit *pt.Literal, odd bool, ok bool) {
	lit, odd, ok = pt.SignedLiteral(n)
	if !ok {
		return nil, false, false
	}
	switch lit.Kind {
	case pt.LitInt, pt.LitUint, pt.LitDecimal, pt.LitFloat:
		return lit, odd, true
	}
	return nil, false, false
}

func numericConst(s string) (node, error) {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return nil, err
	}
	if s == "-0" || strings.HasPrefix(s, "-") && d.IsZero() {
		d.Negative = false
	}
	return &constNode{t: typeOfOID(oidNumeric), text: d.Text('f')}, nil
}

func (a *analyzer) unary(n *pt.Unary) (node, error) {
	switch n.Op {
	case pt.UMinus:
		if l, odd, ok := signedNumber(n); ok {
			return literal(l, odd)
		}
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		return a.op("-", x)
	case pt.UPlus:
		x, err := a.expr(n.X)
		if err != nil {
			return nil, err
		}
		return a.op("+", x)
	}
	// NOT: x IS DISTINCT FROM y is NOT over IS NOT DISTINCT FROM in the
	// tree (NotDistinct), which NOT (x IS NOT DISTINCT FROM y) is too:
	// both print as IS DISTINCT FROM
	if b, ok := n.X.(*pt.Binary); ok && b.Op == pt.NotDistinct {
		return a.distinct(b)
	}
	x, err := a.boolArg(n.X)
	if err != nil {
		return nil, err
	}
	return &boolNode{kind: boolNot, args: []node{x}}, nil
}

func (a *analyzer) distinct(b *pt.Binary) (node, error) {
	l, err := a.expr(b.L)
	if err != nil {
		return nil, err
	}
	r, err := a.expr(b.R)
	if err != nil {
		return nil, err
	}
	eq, err := a.op("=", l, r)
	if err != nil {
		return nil, err
	}
	o := eq.(*opNode)
	return &distinctNode{l: o.args[0], r: o.args[1]}, nil
}

// binaryOps are the operators the tree names, by PostgreSQL's spelling.
var binaryOps = map[pt.BinaryOp]string{
	pt.Add: "+", pt.Sub: "-", pt.Mul: "*", pt.Div: "/", pt.Mod: "%", pt.Pow: "^",
	pt.Eq: "=", pt.Ne: "<>", pt.Lt: "<", pt.Le: "<=", pt.Gt: ">", pt.Ge: ">=",
	pt.BitAnd: "&", pt.BitOr: "|", pt.Shl: "<<", pt.Shr: ">>",
}

func (a *analyzer) binary(n *pt.Binary) (node, error) {
	switch n.Op {
	case pt.And, pt.Or:
		kind := boolAnd
		if n.Op == pt.Or {
			kind = boolOr
		}
		l, err := a.boolArg(n.L)
		if err != nil {
			return nil, err
		}
		r, err := a.boolArg(n.R)
		if err != nil {
			return nil, err
		}
		// the grammar's makeAndExpr / makeOrExpr flatten a left operand
		// of the same kind: a AND b AND c is one AND of three
		if lb, ok := l.(*boolNode); ok && lb.kind == kind && isBoolSyntax(n.L, n.Op) {
			lb.args = append(lb.args, r)
			return lb, nil
		}
		return &boolNode{kind: kind, args: []node{l, r}}, nil
	case pt.NotDistinct:
		d, err := a.distinct(n)
		if err != nil {
			return nil, err
		}
		return &boolNode{kind: boolNot, args: []node{d}}, nil
	}
	op, ok := binaryOps[n.Op]
	if !ok {
		return nil, errUnsupported("operator %v", n.Op)
	}
	return a.binaryOp(op, n.L, n.R)
}

// isBoolSyntax reports whether x is written as op (AND or OR) itself.
func isBoolSyntax(x pt.Expr, op pt.BinaryOp) bool {
	b, ok := x.(*pt.Binary)
	return ok && b.Op == op
}

func (a *analyzer) binaryOp(op string, l, r pt.Expr) (node, error) {
	x, err := a.expr(l)
	if err != nil {
		return nil, err
	}
	y, err := a.expr(r)
	if err != nil {
		return nil, err
	}
	return a.op(op, x, y)
}

// boolArg analyses an argument of AND, OR, NOT, WHEN, IS TRUE: coerced to
// boolean (an unknown literal becomes a boolean constant).
func (a *analyzer) boolArg(e pt.Expr) (node, error) {
	x, err := a.expr(e)
	if err != nil {
		return nil, err
	}
	return a.coerce(x, boolType, castImplicit)
}

// op resolves operator name over args and coerces them to its signature.
func (a *analyzer) op(name string, args ...node) (node, error) {
	p, out, t, err := a.apply(pgOperators, name, args)
	if err != nil {
		return nil, err
	}
	return &opNode{name: p.name, args: out, t: t}, nil
}

// apply resolves name over args among list, and returns the chosen proc,
// the arguments coerced to its argument types and the result type.
func (a *analyzer) apply(list []proc, name string, args []node) (proc, []node, typ, error) {
	args = toBaseTypes(args)
	ts := make([]typ, len(args))
	for i, x := range args {
		ts[i] = x.typeOf()
	}
	p, ok := resolve(candidates(list, name, len(args)), ts)
	if !ok {
		return proc{}, nil, typ{}, errUnsupported("no unique %s for %d arguments", name, len(args))
	}
	// a polymorphic argument takes the type of the first known argument
	// at a polymorphic place (text when all are unknown)
	poly := typeOfOID(oidText)
	params := p.args()
	for i, o := range params {
		if isPolymorphic(o) && ts[i].oid != oidUnknown {
			poly = ts[i]
			if ts[i].elem != nil && (o == oidAnyElement || o == oidAnyCompatible) {
				poly = *ts[i].elem
			}
			if ts[i].elem != nil && (o == oidAnyArray || o == oidAnyCompatibleArray) {
				poly = *ts[i].elem
			}
			break
		}
	}
	out := make([]node, len(args))
	for i, o := range params {
		want := typeOfOID(o)
		switch {
		case isPolymorphic(o) && ts[i].oid == oidUnknown && (o == oidAnyArray || o == oidAnyCompatibleArray):
			want = arrayOf(poly) // an unknown literal at an array's place is an array
		case isPolymorphic(o) && ts[i].oid == oidUnknown:
			want = poly
		case isPolymorphic(o):
			out[i] = args[i]
			continue
		}
		x, err := a.coerce(args[i], want, castImplicit)
		if err != nil {
			return proc{}, nil, typ{}, err
		}
		out[i] = x
	}
	ret := typeOfOID(p.ret)
	switch p.ret {
	case oidAnyElement, oidAnyCompatible, oidAnyNonArray:
		ret = poly
	case oidAnyArray, oidAnyCompatibleArray:
		ret = arrayOf(poly)
	}
	return p, out, ret, nil
}

// coerce converts x to type to as coerce_type does: an unknown literal
// becomes a constant of the type (under a length coercion when to has a
// modifier), a value of another type gets a coercion node, a value of
// the type is left alone unless its modifier changes.
func (a *analyzer) coerce(x node, to typ, form castForm) (node, error) {
	from := x.typeOf()
	if isPolymorphic(to.oid) {
		return x, nil
	}
	if from.oid == to.oid && (from.mod == to.mod || to.mod < 0 && form == castImplicit) {
		// coerce_type leaves a value of the type alone; an explicit cast
		// to it without the value's modifier is a RelabelType, shown
		return x, nil
	}
	if k, ok := x.(*constNode); ok && from.oid == oidUnknown {
		base := to
		if to.oid != oidInterval {
			base.mod = -1
			base.t = typeOfOID(to.oid).t
			if base.t.Kind == 0 {
				base.t = to.t
			}
			if to.elem != nil {
				// an array's constant too has no modifier: its
				// elements' (varchar(5)[]) is the length coercion's
				if e := typeOfOID(to.oid); e.elem != nil {
					base.elem = e.elem
				}
			}
		}
		c, err := typedConst(k, base, a.schema)
		if err != nil {
			return nil, err
		}
		if base.mod == to.mod {
			return c, nil
		}
		return &coerceNode{arg: c, t: to, form: form}, nil
	}
	if from.oid == oidUnknown {
		return nil, errUnsupported("coercion of an unknown expression")
	}
	if form == castImplicit && from.oid != to.oid && !canCoerce(from, to.oid) {
		return nil, errUnsupported("no implicit cast from %d to %d", from.oid, to.oid)
	}
	if from.oid != to.oid && to.mod >= 0 {
		// coerce_to_target_type: the conversion to the type, then a
		// length coercion to the modifier, the inner one shown as
		// implicit under an explicit cast
		inner := to
		inner.mod = -1
		return &coerceNode{arg: &coerceNode{arg: x, t: inner, form: castImplicit}, t: to, form: form}, nil
	}
	return &coerceNode{arg: x, t: to, form: form}, nil
}

// typedConst is an unknown literal's constant of type t: its text read
// and printed by the type, as PostgreSQL stores the value the type's input
// function made.
func typedConst(k *constNode, t typ, schema string) (node, error) {
	if k.isNull {
		return &constNode{t: t, isNull: true}, nil
	}
	s := k.text
	switch t.oid {
	case oidText, oidVarchar, oidBPChar, oidName:
		return &constNode{t: t, text: s}, nil
	case oidRegclass:
		return &constNode{t: t, text: regclassText(s, schema)}, nil
	case oidNumeric:
		c, err := numericConst(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		c.(*constNode).t = t
		return c, nil
	case oidBool:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "t", "true", "y", "yes", "on", "1":
			return &constNode{t: t, text: "t"}, nil
		case "f", "false", "n", "no", "off", "0":
			return &constNode{t: t, text: "f"}, nil
		}
		return nil, errUnsupported("boolean %q", s)
	case oidFloat4, oidFloat8:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, err
		}
		bits := 64
		if t.oid == oidFloat4 {
			bits = 32
		}
		return &constNode{t: t, text: strconv.FormatFloat(f, 'g', -1, bits)}, nil
	}
	if t.t.IsEnum() {
		if _, err := t.t.Registry().ParseEnum(s, t.t.TypeOID); err != nil {
			return nil, err
		}
		return &constNode{t: t, text: s}, nil
	}
	if t.elem != nil {
		return arrayConst(s, t)
	}
	if t.t.Kind == 0 {
		return nil, errUnsupported("constant of type %d", t.oid)
	}
	v, err := types.ParseText(s, t.t)
	if err != nil {
		return nil, err
	}
	return &constNode{t: t, text: types.FormatText(v, t.t)}, nil
}

// regclassText is a regclass constant's relation name, schema-qualified
// (an unqualified name is schema's, else public's), each part quoted
// where it must be; the printer drops the schema where the search path
// has it (regclassName).
func regclassText(s, schema string) string {
	parts := nameParts(strings.TrimSpace(s))
	if len(parts) == 1 {
		if schema == "" {
			schema = "public"
		}
		parts = []string{schema, parts[0]}
	}
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// nameParts splits a possibly qualified name (app.t, "My App"."T") into
// its identifiers: quoted ones as written, others lower-cased.
func nameParts(s string) []string {
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case ch == '"':
			quoted = !quoted
		case ch == '.' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		case quoted:
			cur.WriteByte(ch)
		default:
			cur.WriteString(strings.ToLower(string(ch)))
		}
	}
	return append(parts, cur.String())
}

// likeEscape is x LIKE p ESCAPE e: the pattern is like_escape(p, e)
// (transformAExprOp's rewrite of the grammar's call).
func (a *analyzer) likeEscape(op string, n *pt.Like) (node, error) {
	x, err := a.expr(n.X)
	if err != nil {
		return nil, err
	}
	pat, err := a.expr(n.Pattern)
	if err != nil {
		return nil, err
	}
	esc := ""
	if n.Escape != 0 {
		esc = string(rune(n.Escape))
	}
	p, args, t, err := a.apply(pgFunctions, "like_escape", []node{pat, &constNode{t: unknownType, text: esc}})
	if err != nil {
		return nil, err
	}
	return a.op(op, x, &funcNode{name: p.name, args: args, t: t})
}

func (a *analyzer) between(n *pt.Between) (node, error) {
	if n.Symmetric {
		return a.betweenSymmetric(n)
	}
	// x BETWEEN a AND b is x >= a AND x <= b; NOT BETWEEN x < a OR x > b
	lo, hi, kind := ">=", "<=", boolAnd
	if n.Not {
		lo, hi, kind = "<", ">", boolOr
	}
	l, err := a.binaryOp(lo, n.X, n.Lo)
	if err != nil {
		return nil, err
	}
	h, err := a.binaryOp(hi, n.X, n.Hi)
	if err != nil {
		return nil, err
	}
	return &boolNode{kind: kind, args: []node{l, h}}, nil
}

// betweenSymmetric is x BETWEEN SYMMETRIC a AND b: (x >= a AND x <= b)
// OR (x >= b AND x <= a); NOT: (x < a OR x > b) AND (x < b OR x > a).
func (a *analyzer) betweenSymmetric(n *pt.Between) (node, error) {
	lo, hi, inner, outer := ">=", "<=", boolAnd, boolOr
	if n.Not {
		lo, hi, inner, outer = "<", ">", boolOr, boolAnd
	}
	var parts []node
	for _, ends := range [][2]pt.Expr{{n.Lo, n.Hi}, {n.Hi, n.Lo}} {
		l, err := a.binaryOp(lo, n.X, ends[0])
		if err != nil {
			return nil, err
		}
		h, err := a.binaryOp(hi, n.X, ends[1])
		if err != nil {
			return nil, err
		}
		parts = append(parts, &boolNode{kind: inner, args: []node{l, h}})
	}
	return &boolNode{kind: outer, args: parts}, nil
}

// inList is transformAExprIn: the items without column references, when
// there are two or more, become x = ANY (ARRAY[..]) (x <> ALL for NOT
// IN) of their common type with x; each other item is its own
// comparison, ORed (ANDed for NOT IN).
func (a *analyzer) inList(n *pt.InList) (node, error) {
	x, err := a.expr(n.X)
	if err != nil {
		return nil, err
	}
	op, kind := "=", boolOr
	if n.Not {
		op, kind = "<>", boolAnd
	}
	var consts, vars []node
	for _, item := range n.List {
		v, err := a.expr(item)
		if err != nil {
			return nil, err
		}
		if hasVar(v) {
			vars = append(vars, v)
		} else {
			consts = append(consts, v)
		}
	}
	var parts []node
	if len(consts) > 1 {
		ts := []typ{x.typeOf()}
		for _, c := range consts {
			ts = append(ts, c.typeOf())
		}
		common, ok := commonType(ts)
		if !ok || arrayOID(common) == 0 {
			return nil, errUnsupported("IN list without a common type")
		}
		common.mod = -1
		elems := make([]node, len(consts))
		for i, c := range consts {
			if elems[i], err = a.coerce(c, common, castImplicit); err != nil {
				return nil, err
			}
		}
		arr := &arrayNode{elems: elems, t: arrayOf(common)}
		sa, err := a.arrayOp(op, !n.Not, x, arr)
		if err != nil {
			return nil, err
		}
		parts = append(parts, sa)
	} else {
		vars = append(consts, vars...)
	}
	for _, v := range vars {
		c, err := a.op(op, x, v)
		if err != nil {
			return nil, err
		}
		parts = append(parts, c)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return &boolNode{kind: kind, args: parts}, nil
}

func hasVar(n node) bool {
	found := false
	walk(n, func(x node) {
		if _, ok := x.(*varNode); ok {
			found = true
		}
	})
	return found
}

// arrayOp is make_scalar_array_op: op resolved over x and the array's
// element type, the array coerced to the array of the operator's right
// type.
func (a *analyzer) arrayOp(op string, useOr bool, x, arr node) (node, error) {
	x = toBaseTypes([]node{x})[0]
	at := arr.typeOf()
	if at.elem == nil {
		return nil, errUnsupported("ANY over a non-array")
	}
	p, ok := resolve(candidates(pgOperators, op, 2), []typ{x.typeOf(), *at.elem})
	if !ok || p.ret != oidBool {
		return nil, errUnsupported("operator %s for ANY", op)
	}
	l, err := a.coerce(x, typeOfOID(p.l), castImplicit)
	if err != nil {
		return nil, err
	}
	r := arr
	if p.r != at.elem.oid && !isPolymorphic(p.r) {
		want := arrayOf(typeOfOID(p.r))
		if an, ok := arr.(*arrayNode); ok && hasUnknown(an) {
			// an ARRAY of unknown literals takes the element type
			for i, e := range an.elems {
				if an.elems[i], err = a.coerce(e, typeOfOID(p.r), castImplicit); err != nil {
					return nil, err
				}
			}
			an.t = want
		} else {
			r = &coerceNode{arg: arr, t: want, form: castImplicit}
		}
	}
	return &arrayOpNode{name: p.name, useOr: useOr, l: l, r: r}, nil
}

func hasUnknown(an *arrayNode) bool {
	for _, e := range an.elems {
		if e.typeOf().oid == oidUnknown {
			return true
		}
	}
	return false
}

// exprs analyses a list of expressions (a call's arguments, an array's
// elements).
func (a *analyzer) exprs(list []pt.Expr) ([]node, error) {
	var out []node
	for _, x := range list {
		v, err := a.expr(x)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// array is ARRAY[..]: its elements coerced to their common type.
func (a *analyzer) array(items []pt.Expr) (node, error) {
	elems, err := a.exprs(items)
	if err != nil {
		return nil, err
	}
	var ts []typ
	for _, v := range elems {
		ts = append(ts, v.typeOf())
	}
	common, ok := commonType(ts)
	if !ok || arrayOID(common) == 0 {
		return nil, errUnsupported("ARRAY without a common type")
	}
	for i, e := range elems {
		var err error
		if elems[i], err = a.coerce(e, common, castImplicit); err != nil {
			return nil, err
		}
	}
	return &arrayNode{elems: elems, t: arrayOf(common)}, nil
}

// arrayAs is transformArrayExpr with the target array type t of a cast
// around it: each element cast explicitly to t's element type (with its
// typmod), the array of t's type, whose typmod is its elements' when
// they all have one (exprTypmod: an empty array has none, so the cast
// around it still applies the typmod).
func (a *analyzer) arrayAs(items []pt.Expr, t typ) (node, error) {
	elems, err := a.exprs(items)
	if err != nil {
		return nil, err
	}
	for i, e := range elems {
		if elems[i], err = a.coerce(e, *t.elem, castExplicit); err != nil {
			return nil, err
		}
	}
	out := withoutMod(t)
	if len(elems) > 0 {
		out = t
	}
	return &arrayNode{elems: elems, t: out}, nil
}

// withoutMod is array type t with no typmod (format_type_with_typemod's
// -1).
func withoutMod(t typ) typ {
	t.mod = -1
	if t.elem != nil {
		e := *t.elem
		e.mod = -1
		t.elem = &e
	}
	return t
}

func (a *analyzer) caseExpr(n *pt.Case) (node, error) {
	out := &caseNode{}
	var test *varNode
	if n.Operand != nil {
		arg, err := a.expr(n.Operand)
		if err != nil {
			return nil, err
		}
		out.arg = arg
		test = &varNode{name: "", t: arg.typeOf()}
	}
	var results []node
	var ts []typ
	for _, w := range n.Whens {
		var cond node
		var err error
		if test != nil {
			v, err := a.expr(w.Cond)
			if err != nil {
				return nil, err
			}
			eq, err := a.op("=", test, v)
			if err != nil {
				return nil, err
			}
			cond = eq.(*opNode).args[1]
		} else if cond, err = a.boolArg(w.Cond); err != nil {
			return nil, err
		}
		r, err := a.expr(w.Result)
		if err != nil {
			return nil, err
		}
		out.whens = append(out.whens, whenNode{cond: cond})
		results = append(results, r)
		ts = append(ts, r.typeOf())
	}
	var els node
	if n.Else != nil {
		var err error
		if els, err = a.expr(n.Else); err != nil {
			return nil, err
		}
		ts = append(ts, els.typeOf())
	}
	common, ok := commonType(ts)
	if !ok {
		return nil, errUnsupported("CASE without a common type")
	}
	out.t = common
	for i, r := range results {
		c, err := a.coerce(r, common, castImplicit)
		if err != nil {
			return nil, err
		}
		out.whens[i].result = c
	}
	if els == nil {
		out.els = &constNode{t: common, isNull: true}
	} else {
		c, err := a.coerce(els, common, castImplicit)
		if err != nil {
			return nil, err
		}
		out.els = c
	}
	return out, nil
}

// sqlValues are the SQL-standard value keywords (SQLValueFunction) and
// their types.
var sqlValues = map[string]uint32{
	"current_date": oidDate, "current_time": oidTimeTZ, "current_timestamp": oidTimestampTZ,
	"localtime": oidTime, "localtimestamp": oidTimestamp,
	"current_user": oidName, "current_role": oidName, "session_user": oidName, "user": oidName,
	"current_catalog": oidName, "current_schema": oidName,
}

func (a *analyzer) call(n *pt.FuncCall) (node, error) {
	if n.Over != nil && n.Schema == "" {
		return a.window(n, strings.ToLower(n.Name))
	}
	if a.lv != nil && isAggregate(strings.ToLower(n.Name)) && n.Schema == "" {
		return a.aggregate(n, strings.ToLower(n.Name))
	}
	if n.Over != nil || n.Filter != nil || n.Distinct || len(n.OrderBy) > 0 {
		return nil, errUnsupported("call of %s", n.Name)
	}
	name := strings.ToLower(n.Name)
	if n.Schema != "" && n.Schema != "pg_catalog" {
		return a.userCall(n.Schema, name, n.Args, nil)
	}
	if name == sql.NamedNoMatch {
		return a.namedUserCall(n) // usercall.go
	}
	if _, ok := variadicArg(n.Args); ok && n.Schema == "" && a.hasUserFunction(name) {
		return a.userCall("", name, n.Args, nil)
	}
	if oid, ok := sqlValues[name]; ok {
		text := strings.ToUpper(name)
		if name == "user" || name == "current_role" {
			text = "CURRENT_USER"
		}
		if len(n.Args) == 1 {
			l, ok := n.Args[0].(*pt.Literal)
			if !ok || l.Kind != pt.LitInt {
				return nil, errUnsupported("%s precision", name)
			}
			text += "(" + strconv.FormatInt(l.Int, 10) + ")"
		} else if len(n.Args) > 1 {
			return nil, errUnsupported("%s arguments", name)
		}
		return &sqlValueNode{text: text, t: typeOfOID(oid)}, nil
	}
	args, err := a.exprs(n.Args)
	if err != nil {
		return nil, err
	}
	switch name {
	case "substring":
		if len(args) == 2 || len(args) == 3 {
			want := []typ{typeOfOID(oidText), typeOfOID(oidInt4), typeOfOID(oidInt4)}
			return a.syntax("SUBSTRING", typeOfOID(oidText), want[:len(args)], args...)
		}
	case "timezone":
		// the rewrite's spelling of x AT TIME ZONE zone
		if len(args) == 2 {
			switch args[1].typeOf().oid {
			case oidTimestamp:
				return a.syntax("AT TIME ZONE", typeOfOID(oidTimestampTZ), []typ{typeOfOID(oidText), args[1].typeOf()}, args...)
			case oidTimestampTZ:
				return a.syntax("AT TIME ZONE", typeOfOID(oidTimestamp), []typ{typeOfOID(oidText), args[1].typeOf()}, args...)
			}
		}
	case "coalesce", "greatest", "least":
		return a.listFunc(strings.ToUpper(name), args)
	case "nullif":
		if len(args) != 2 {
			return nil, errUnsupported("NULLIF arguments")
		}
		eq, err := a.op("=", args[0], args[1])
		if err != nil {
			return nil, err
		}
		o := eq.(*opNode)
		return &listFuncNode{name: "NULLIF", args: o.args, t: o.args[0].typeOf()}, nil
	case "concat":
		// the rewrite makes a || b a call of concat
		if len(args) == 2 {
			return a.op("||", args...)
		}
	}
	p, out, t, err := a.apply(pgFunctions, name, args)
	if err != nil {
		if n.Schema == "" && a.hasUserFunction(name) {
			// not pg_catalog's: the search path's (a user's function)
			return a.userCall("", name, n.Args, nil)
		}
		return nil, err
	}
	return &funcNode{name: p.name, args: out, t: t}, nil
}

// listFunc is COALESCE, GREATEST or LEAST: the arguments coerced to their
// common type.
func (a *analyzer) listFunc(name string, args []node) (node, error) {
	ts := make([]typ, len(args))
	for i, x := range args {
		ts[i] = x.typeOf()
	}
	common, ok := commonType(ts)
	if !ok {
		return nil, errUnsupported("%s without a common type", name)
	}
	out := make([]node, len(args))
	for i, x := range args {
		c, err := a.coerce(x, common, castImplicit)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return &listFuncNode{name: name, args: out, t: common}, nil
}

// walk calls f on n and every node under it.
func walk(n node, f func(node)) {
	if n == nil {
		return
	}
	f(n)
	switch x := n.(type) {
	case *opNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *arrayOpNode:
		walk(x.l, f)
		walk(x.r, f)
	case *distinctNode:
		walk(x.l, f)
		walk(x.r, f)
	case *boolNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *nullTestNode:
		walk(x.arg, f)
	case *boolTestNode:
		walk(x.arg, f)
	case *coerceNode:
		walk(x.arg, f)
	case *funcNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *caseNode:
		walk(x.arg, f)
		for _, w := range x.whens {
			walk(w.cond, f)
			walk(w.result, f)
		}
		walk(x.els, f)
	case *listFuncNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *arrayNode:
		for _, c := range x.elems {
			walk(c, f)
		}
	case *aggNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *subLinkNode:
		walk(x.test, f)
	case *syntaxNode:
		for _, c := range x.args {
			walk(c, f)
		}
	case *subscriptNode:
		walk(x.arg, f)
		walk(x.index, f)
	case *winNode:
		for _, c := range x.args {
			walk(c, f)
		}
	}
}

// syntax is a function PostgreSQL prints in SQL syntax: its arguments
// coerced to want (unknown: left as they are), its result t.
func (a *analyzer) syntax(kind string, t typ, want []typ, args ...node) (node, error) {
	out := make([]node, len(args))
	for i, x := range args {
		if want[i].oid == oidUnknown {
			out[i] = x
			continue
		}
		if x.typeOf().oid != oidUnknown && x.typeOf().oid != want[i].oid && !canCoerce(x.typeOf(), want[i].oid) {
			return nil, errUnsupported("%s of type %d", kind, x.typeOf().oid)
		}
		c, err := a.coerce(x, want[i], castImplicit)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return &syntaxNode{kind: kind, args: out, t: t}, nil
}
