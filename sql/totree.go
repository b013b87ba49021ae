package sql

import (
	"fmt"
	"math"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ToTree transforms one of TiDB's expressions, as Parse leaves it, into
// sqlgate's parsed tree: the pg__* marker calls of the rewrite (see the
// package doc) become the nodes they stand for (casts, subscripts, array
// and row constructors, ANY/ALL, field selection, PostgreSQL's operators,
// EXTRACT, position, FILTER, WITHIN GROUP, aggregate ORDER BY, NULLS
// FIRST/LAST, grouping sets), parentheses disappear, and every node keeps
// its offset in the rewritten text. Markers that belong to a statement
// clause rather than to an expression (pg__srf, pg__colalias, pg__nocols,
// pg__distinct_on, ...) stay calls under their marker name until the
// statement stage of the tree takes them. A construct the tree has no node
// for is 0A000.
func ToTree(e ast.ExprNode) (pt.Expr, error) {
	var t Transformer
	return t.ToTree(e)
}

// Transformer is ToTree with memory: it hands out the nodes a statement
// makes most of (column references, literals, operators, casts and their
// operand lists) from chunks, so that transforming a statement's
// expressions costs a few allocations rather than one per node. Its zero
// value is ready; the nodes stay valid as long as any is referenced.
type Transformer struct {
	cols  chunk[pt.ColumnRef]
	lits  chunk[pt.Literal]
	bins  chunk[pt.Binary]
	unas  chunk[pt.Unary]
	casts chunk[pt.Cast]
	list  []pt.Expr // the unused tail of the current chunk of operand lists
}

// chunk hands out T's from an array of 8 at a time (binder/arena.go's
// size: a bigger chunk wastes more of its tail than it saves calls).
type chunk[T any] struct{ free []T }

func (c *chunk[T]) next() *T {
	if len(c.free) == 0 {
		c.free = make([]T, 8)
	}
	x := &c.free[0]
	c.free = c.free[1:]
	return x
}

// exprList returns a list of n expressions cut from the current chunk.
func (t *Transformer) exprList(n int) []pt.Expr {
	if n > 16 {
		return make([]pt.Expr, n)
	}
	if len(t.list) < n {
		t.list = make([]pt.Expr, 16)
	}
	l := t.list[:n:n]
	t.list = t.list[n:]
	return l
}

// ToTree is the package's ToTree.
func (t *Transformer) ToTree(e ast.ExprNode) (pt.Expr, error) {
	if e == nil {
		return nil, nil
	}
	return t.toTree(e)
}

// OrderItemsToTree transforms an ORDER BY list (nil: none), reading the
// rewrite's pg__nulls(e, 'first'|'last') as NULLS FIRST | LAST.
func (t *Transformer) OrderItemsToTree(o *ast.OrderByClause) ([]pt.OrderItem, error) {
	if o == nil {
		return nil, nil
	}
	return t.byItems(o.Items)
}

var binaryOps = map[opcode.Op]pt.BinaryOp{
	opcode.Plus: pt.Add, opcode.Minus: pt.Sub, opcode.Mul: pt.Mul, opcode.Div: pt.Div,
	opcode.IntDiv: pt.IntDiv, opcode.Mod: pt.Mod, opcode.EQ: pt.Eq, opcode.NE: pt.Ne,
	opcode.LT: pt.Lt, opcode.LE: pt.Le, opcode.GT: pt.Gt, opcode.GE: pt.Ge,
	opcode.LogicAnd: pt.And, opcode.LogicOr: pt.Or, opcode.LogicXor: pt.Xor,
	opcode.And: pt.BitAnd, opcode.Or: pt.BitOr, opcode.Xor: pt.BitXor,
	opcode.LeftShift: pt.Shl, opcode.RightShift: pt.Shr, opcode.NullEQ: pt.NotDistinct,
}

// comparisonText spells a comparison opcode as PostgreSQL does.
var comparisonText = map[opcode.Op]string{
	opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.LE: "<=", opcode.GT: ">", opcode.GE: ">=",
}

// markerOperators are the rewrite's calls for PostgreSQL's operators,
// by the operator's spelling (prefix ones marked in prefixMarkers).
var markerOperators = map[string]string{
	"pg__json_get": "->", "pg__json_get_text": "->>", "pg__json_path": "#>", "pg__json_path_text": "#>>",
	"pg__op_contains": "@>", "pg__op_contained": "<@", "pg__op_exists": "?", "pg__op_exists_any": "?|",
	"pg__op_exists_all": "?&", "pg__op_pattern_lt": "~<~", "pg__op_pattern_le": "~<=~",
	"pg__op_pattern_ge": "~>=~", "pg__op_pattern_gt": "~>~", "pg__op_starts_with": "^@",
	"pg__op_xor": "#", "pg__op_delete_path": "#-", "pg__op_overlap": "&&",
	"pg__op_abs": "@", "pg__op_sqrt": "|/", "pg__op_cbrt": "||/", "pg__op_not": "~",
	"pg__op_path_exists": "@?", "pg__op_path_match": "@@",
	// tsquery's !! and <-> (functions/tsearch.go)
	"pg__op_tsquery_not": "!!", "pg__op_tsquery_phrase": "<->",
}

var prefixMarkers = map[string]bool{"pg__op_abs": true, "pg__op_sqrt": true, "pg__op_cbrt": true, "pg__op_not": true, "pg__op_tsquery_not": true}

// OperatorMarker is the marker call the rewrite makes of PostgreSQL's
// operator op ("" when it makes none): the inverse of markerOperators.
func OperatorMarker(op string) string {
	for m, o := range markerOperators {
		if o == op {
			return m
		}
	}
	return ""
}

var groupingKinds = map[string]pt.GroupingKind{
	"pg__rollup": pt.Rollup, "pg__cube": pt.Cube, "pg__grouping_sets": pt.GroupingSets, "pg__empty_set": pt.EmptySet,
}

// TransformError is ToTree's refusal of a node: Err, a 0A000, is about the
// node refused, whose position the caller reports (At). The error carries
// no TiDB node, so that the binder, which reports it, names none of
// TiDB's types.
type TransformError struct {
	Err *sqlerr.Error
	// the node's offset in the statement's rewritten text, and its name
	// where TiDB records no offset for it (a table's or a column's); node
	// is false for a refusal about no node
	offset int
	name   string
	node   bool
	// query: the node refused is a whole SELECT or set operation (SELECT
	// INTO, a locking clause PostgreSQL lacks), which a statement's query
	// reports without a position (BindQuery)
	query bool
}

func (e *TransformError) Error() string { return e.Err.Error() }
func (e *TransformError) Unwrap() error { return e.Err }

// At is where the error points: the refused node's offset in the
// statement's rewritten text and, where TiDB records none (offset 0), the
// node's name to find in the text (a table's or a column's, as the tree's
// TableName); ok is false for a refusal about no node.
func (e *TransformError) At() (offset int, name string, ok bool) {
	return e.offset, e.name, e.node
}

// refusal is the one place a TransformError is made of the node refused.
func refusal(n ast.Node, err *sqlerr.Error) *TransformError {
	te := &TransformError{Err: err}
	if n == nil {
		return te
	}
	te.node, te.offset = true, n.OriginTextPosition()
	switch x := n.(type) {
	case *ast.TableName:
		te.name = x.Name.O
	case *ast.ColumnName:
		te.name = x.Name.O
	case *ast.SelectStmt, *ast.SetOprStmt:
		te.query = true
	}
	return te
}

func notSupported(n ast.Node) error {
	return refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "expression %s is not supported", strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.")))
}

func at(n ast.Node) pt.At { return pt.At{Offset: n.OriginTextPosition(), Src: n} }

// NodeKind names e's kind for a message: the kind of TiDB's node the
// transformer made it from ("FuncCallExpr"), as the binder's "expression
// X is not supported" has always named it, else the tree's own type name.
// The transformer answers it, so that the binder need not read the TiDB
// node behind a tree node (At.Src).
func NodeKind(e pt.Expr) string {
	if src := e.(interface{ Source() any }).Source(); src != nil {
		return strings.TrimPrefix(fmt.Sprintf("%T", src), "*ast.")
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", e), "*tree.")
}

func (t *Transformer) toTree(e ast.ExprNode) (pt.Expr, error) {
	switch n := e.(type) {
	case *ast.ParenthesesExpr:
		return t.toTree(n.Expr)
	case *ast.ColumnNameExpr:
		c, r := n.Name, t.cols.next()
		*r = pt.ColumnRef{At: at(n), Schema: c.Schema.O, Table: c.Table.O, Name: c.Name.O}
		return r, nil
	case ast.ParamMarkerExpr:
		o, _ := ParamOrder(n)
		return &pt.Param{At: at(n), Order: o}, nil
	case ast.ValueExpr:
		return t.literal(n)
	case *ast.UnaryOperationExpr:
		x, err := t.toTree(n.V)
		if err != nil {
			return nil, err
		}
		u := t.unas.next()
		switch n.Op {
		case opcode.Plus:
			*u = pt.Unary{At: at(n), Op: pt.UPlus, X: x}
			return u, nil
		case opcode.Minus:
			*u = pt.Unary{At: at(n), Op: pt.UMinus, X: x}
			return u, nil
		case opcode.Not, opcode.Not2:
			*u = pt.Unary{At: at(n), Op: pt.UNot, X: x}
			return u, nil
		case opcode.BitNeg:
			// the rewrite spells PostgreSQL's ~ pg__op_not (an Operator);
			// TiDB's own, MySQL's bitwise negation, is refused as the
			// binder always has
			return nil, notSupported(n)
		}
		return nil, refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s is not supported", n.Op))
	case *ast.BinaryOperationExpr:
		if x, at, ok := pipesOperand(n); ok {
			// a | pg__pipes() | b: the rewrite's a || b, TiDB's concat
			// call (binder's isPipes: the node's text is not "concat")
			l, r, err := t.pair(x, n.R)
			if err != nil {
				return nil, err
			}
			return &pt.FuncCall{At: at, Name: "concat", Args: []pt.Expr{l, r}}, nil
		}
		op, ok := binaryOps[n.Op]
		if !ok {
			return nil, refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s is not supported", n.Op))
		}
		l, r, err := t.pair(n.L, n.R)
		if err != nil {
			return nil, err
		}
		e := t.bins.next()
		*e = pt.Binary{At: at(n), Op: op, L: l, R: r}
		return e, nil
	case *ast.IsNullExpr:
		x, err := t.toTree(n.Expr)
		return &pt.IsNull{At: at(n), X: x, Not: n.Not}, err
	case *ast.IsTruthExpr:
		x, err := t.toTree(n.Expr)
		return &pt.IsBool{At: at(n), X: x, Not: n.Not, Value: n.True != 0}, err
	case *ast.BetweenExpr:
		lo, symmetric := n.Left, false
		if f, ok := lo.(*ast.FuncCallExpr); ok && f.FnName.L == "pg__symmetric" && len(f.Args) == 1 {
			lo, symmetric = f.Args[0], true
		}
		x, err := t.toTree(n.Expr)
		if err != nil {
			return nil, err
		}
		l, h, err := t.pair(lo, n.Right)
		if err != nil {
			return nil, err
		}
		return &pt.Between{At: at(n), X: x, Lo: l, Hi: h, Not: n.Not, Symmetric: symmetric}, nil
	case *ast.PatternInExpr:
		x, err := t.toTree(n.Expr)
		if err != nil {
			return nil, err
		}
		sel := n.Sel
		if sel == nil && len(n.List) == 1 && isBareSubquery(n.List[0]) {
			// x IN ((SELECT ...)): PostgreSQL's in_expr takes a
			// select_with_parens, which nests parentheses, before an
			// expression list: a subquery IN, not a list of one scalar
			// subquery
			sel = n.List[0]
		}
		if sel != nil {
			q, err := t.subquery(sel)
			if err != nil {
				return nil, err
			}
			return &pt.InSubquery{At: at(n), X: x, Query: q, Not: n.Not}, nil
		}
		list, err := t.exprs(n.List)
		return &pt.InList{At: at(n), X: x, List: list, Not: n.Not}, err
	case *ast.PatternLikeOrIlikeExpr:
		x, p, err := t.pair(n.Expr, n.Pattern)
		return &pt.Like{At: at(n), X: x, Pattern: p, Escape: n.Escape, Not: n.Not, ILike: !n.IsLike}, err
	case *ast.PatternRegexpExpr:
		pat, ci := n.Pattern, false
		if f, ok := pat.(*ast.FuncCallExpr); ok && f.FnName.L == "pg__ci" && len(f.Args) == 1 {
			pat, ci = f.Args[0], true
		}
		x, p, err := t.pair(n.Expr, pat)
		return &pt.Regexp{At: at(n), X: x, Pattern: p, Not: n.Not, IgnoreCase: ci}, err
	case *ast.CaseExpr:
		c := &pt.Case{At: at(n), Whens: make([]pt.When, len(n.WhenClauses))}
		var err error
		if c.Operand, err = t.ToTree(n.Value); err != nil {
			return nil, err
		}
		for i, w := range n.WhenClauses {
			if c.Whens[i].Cond, c.Whens[i].Result, err = t.pair(w.Expr, w.Result); err != nil {
				return nil, err
			}
		}
		c.Else, err = t.ToTree(n.ElseClause)
		return c, err
	case *ast.SubqueryExpr:
		return t.subquery(n)
	case *ast.ExistsSubqueryExpr:
		q, err := t.subquery(n.Sel)
		return &pt.Exists{At: at(n), Query: q, Not: n.Not}, err
	case *ast.CompareSubqueryExpr:
		op, ok := comparisonText[n.Op]
		if !ok {
			return nil, refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "operator %s is not supported", n.Op))
		}
		x, err := t.toTree(n.L)
		if err != nil {
			return nil, err
		}
		q, err := t.subquery(n.R)
		return &pt.Quantified{At: at(n), X: x, Op: op, All: n.All, Right: q}, err
	case *ast.RowExpr:
		fields, err := t.exprs(n.Values)
		return &pt.Row{At: at(n), Fields: fields}, err
	case *ast.DefaultExpr:
		d := &pt.Default{At: at(n)}
		if n.Name != nil {
			d.Column = n.Name.Name.O
		}
		return d, nil
	case *ast.ValuesExpr:
		if n.Column == nil {
			return nil, notSupported(n)
		}
		return &pt.Excluded{At: at(n), Column: n.Column.Name.Name.O}, nil
	case *ast.TimeUnitExpr:
		return &pt.TimeUnit{At: at(n), Unit: strings.ToLower(n.Unit.String())}, nil
	case *ast.PositionExpr:
		o := &pt.Ordinal{At: at(n), N: n.N}
		var err error
		o.Param, err = t.ToTree(n.P)
		return o, err
	case *ast.FuncCallExpr:
		return t.funcCall(n)
	case *ast.AggregateFuncExpr:
		return t.aggregate(n)
	case *ast.WindowFuncExpr:
		return t.windowCall(n)
	}
	return nil, notSupported(e)
}

func (t *Transformer) pair(a, b ast.ExprNode) (pt.Expr, pt.Expr, error) {
	x, err := t.ToTree(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := t.ToTree(b)
	return x, y, err
}

func (t *Transformer) exprs(list []ast.ExprNode) ([]pt.Expr, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := t.exprList(len(list))
	for i, e := range list {
		x, err := t.toTree(e)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// stripParens is e without the parentheses around it.
func stripParens(e ast.ExprNode) ast.ExprNode {
	for {
		p, ok := e.(*ast.ParenthesesExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// isBareSubquery reports whether e is a subquery in parentheses only (not
// EXISTS, not part of a larger expression).
func isBareSubquery(e ast.ExprNode) bool {
	s, ok := stripParens(e).(*ast.SubqueryExpr)
	return ok && !s.Exists
}

func (t *Transformer) subquery(e ast.ExprNode) (*pt.Subquery, error) {
	e = stripParens(e)
	s, ok := e.(*ast.SubqueryExpr)
	if !ok {
		return nil, notSupported(e)
	}
	return &pt.Subquery{At: at(s), Query: s.Query}, nil
}

func (t *Transformer) literal(n ast.ValueExpr) (pt.Expr, error) {
	lit, ok := LiteralOf(n)
	if !ok || lit.Kind == LitUnknown {
		return nil, refusal(n, sqlerr.New(sqlerr.FeatureNotSupported, "this literal is not supported"))
	}
	if lit.Kind == LitUint && lit.Uint <= math.MaxInt64 {
		// TiDB reads LIMIT and OFFSET counts as unsigned; any integer that
		// fits is an ordinary integer literal in PostgreSQL
		lit = Literal{Kind: LitInt, Int: int64(lit.Uint)}
	}
	l := t.lits.next()
	*l = pt.Literal{At: at(n), Value: lit}
	return l, nil
}

// isSubscriptMarker reports whether e is a subscript or slice marker as
// written, not in parentheses: the inner subscript of a chain x[a][b].
func isSubscriptMarker(e ast.ExprNode) bool {
	f, ok := e.(*ast.FuncCallExpr)
	return ok && (f.FnName.L == "pg__subscript" || f.FnName.L == "pg__slice") && len(f.Args) > 0
}

// markerString reads the string literal a marker call carries ("", false
// when e is none).
func markerString(e ast.ExprNode) (string, bool) {
	lit, ok := LiteralOf(e)
	if !ok || lit.Kind != LitString {
		return "", false
	}
	return lit.Text, true
}

func (t *Transformer) funcCall(n *ast.FuncCallExpr) (pt.Expr, error) {
	name, args := n.FnName.L, n.Args
	if strings.HasPrefix(name, "pg__") {
		if e, ok, err := t.marker(n, name, args); ok {
			return e, err
		}
	}
	if name == "trim" && len(args) == 3 {
		if d, ok := args[2].(*ast.TrimDirectionExpr); ok {
			dir := map[ast.TrimDirectionType]pt.TrimDir{ast.TrimBoth: pt.TrimBoth, ast.TrimLeading: pt.TrimLeading, ast.TrimTrailing: pt.TrimTrailing}[d.Direction]
			if dir != 0 {
				x, chars, err := t.pair(args[0], args[1])
				return &pt.Trim{At: at(n), Dir: dir, X: x, Chars: chars}, err
			}
		}
	}
	args, star := starArgs(args)
	list, err := t.exprs(args)
	if err != nil {
		return nil, err
	}
	return &pt.FuncCall{At: at(n), Schema: n.Schema.O, Name: name, Args: list, Star: star}, nil
}

// starArgs takes the rewrite's pg__star() (emptycall.go) off a call's
// arguments: f(*) is f with no arguments and its Star.
func starArgs(args []ast.ExprNode) ([]ast.ExprNode, bool) {
	if len(args) == 0 {
		return args, false
	}
	if f, ok := args[0].(*ast.FuncCallExpr); ok && f.FnName.L == StarMarker && len(f.Args) == 0 {
		return args[1:], true
	}
	return args, false
}

// qualifiedCall reads qualifiedcall.go's pg__schema('schema', call) as
// the call with its schema, standing where the qualified name starts.
func (t *Transformer) qualifiedCall(n *ast.FuncCallExpr, args []ast.ExprNode) (pt.Expr, bool, error) {
	if len(args) != 2 {
		return nil, false, nil
	}
	schema, ok := markerString(args[0])
	if _, name := markerString(args[1]); !ok || name {
		return nil, false, nil // a function's name in FROM (srf.go): read by funcTable
	}
	x, err := t.toTree(args[1])
	if err != nil {
		return nil, true, err
	}
	f, ok := x.(*pt.FuncCall)
	if !ok {
		return nil, true, refusal(n, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(".")))
	}
	f.At, f.Schema = at(n), schema
	return f, true, nil
}

// trimMarker reads trim.go's pg__btrim(s [, chars]) (pg__ltrim,
// pg__rtrim) as the tree's Trim.
func (t *Transformer) trimMarker(n *ast.FuncCallExpr, name string, args []ast.ExprNode) (pt.Expr, bool, error) {
	dir := map[string]pt.TrimDir{"pg__btrim": pt.TrimBoth, "pg__ltrim": pt.TrimLeading, "pg__rtrim": pt.TrimTrailing}[name]
	x, err := t.toTree(args[0])
	if err != nil {
		return nil, true, err
	}
	tr := &pt.Trim{At: at(n), Dir: dir, X: x}
	if len(args) == 2 {
		if tr.Chars, err = t.toTree(args[1]); err != nil {
			return nil, true, err
		}
	}
	return tr, true, nil
}

// marker reads one of the rewrite's pg__* calls as the node it stands for;
// ok is false for the markers that stay calls.
func (t *Transformer) marker(n *ast.FuncCallExpr, name string, args []ast.ExprNode) (pt.Expr, bool, error) {
	if op, ok := markerOperators[name]; ok {
		if prefixMarkers[name] && len(args) == 1 {
			x, err := t.toTree(args[0])
			return &pt.Operator{At: at(n), Op: op, R: x}, true, err
		}
		if !prefixMarkers[name] && len(args) == 2 {
			l, r, err := t.pair(args[0], args[1])
			return &pt.Operator{At: at(n), Op: op, L: l, R: r}, true, err
		}
		return nil, false, nil
	}
	if k, ok := groupingKinds[name]; ok {
		items, err := t.exprs(args)
		return &pt.GroupingSet{At: at(n), Kind: k, Items: items}, true, err
	}
	switch name {
	case SchemaMarker: // schema.f(..) OVER w and the other call forms (qualifiedcall.go)
		return t.qualifiedCall(n, args)
	case "pg__op_other": // an operator we have none of (operators.go)
		if len(args) < 2 || len(args) > 3 {
			return nil, false, nil
		}
		op, ok := markerString(args[len(args)-1])
		if !ok {
			return nil, false, nil
		}
		if len(args) == 2 {
			x, err := t.toTree(args[0])
			return &pt.Operator{At: at(n), Op: op, R: x}, true, err
		}
		l, r, err := t.pair(args[0], args[1])
		return &pt.Operator{At: at(n), Op: op, L: l, R: r}, true, err
	case "pg__btrim", "pg__ltrim", "pg__rtrim": // trim(..) (trim.go)
		if len(args) == 1 || len(args) == 2 {
			return t.trimMarker(n, name, args)
		}
		// no such function (trim('y' FROM s, 'x')): the library's error
		// (PostgreSQL's names it pg_catalog.btrim)
		list, err := t.exprs(args)
		return &pt.FuncCall{At: at(n), Schema: "pg_catalog", Name: name[len("pg__"):], Args: list}, true, err
	case "pg__cast":
		if len(args) != 2 {
			return nil, false, nil
		}
		typ, ok := markerString(args[1])
		if !ok {
			return nil, false, nil
		}
		x, err := t.toTree(args[0])
		c := t.casts.next()
		*c = pt.Cast{At: at(n), X: x, Type: typ, TypeAt: at(args[1])}
		return c, true, err
	case "pg__is_unknown", "pg__is_not_unknown": // x IS [NOT] UNKNOWN (rewrite.go)
		if len(args) != 1 {
			return nil, false, nil
		}
		x, err := t.toTree(args[0])
		return &pt.IsBool{At: at(n), X: x, Not: name == "pg__is_not_unknown", Unknown: true}, true, err
	case "pg__power":
		if len(args) != 2 {
			return nil, false, nil
		}
		l, r, err := t.pair(args[0], args[1])
		return &pt.Binary{At: at(n), Op: pt.Pow, L: l, R: r}, true, err
	case "pg__position":
		if len(args) != 2 {
			return nil, false, nil
		}
		str, sub, err := t.pair(args[0], args[1])
		return &pt.Position{At: at(n), Sub: sub, Str: str}, true, err
	case "pg__extract":
		if len(args) != 2 {
			return nil, false, nil
		}
		field, ok := markerString(args[0])
		if !ok {
			return nil, false, nil
		}
		x, err := t.toTree(args[1])
		return &pt.Extract{At: at(n), Field: field, X: x}, true, err
	case "pg__array":
		elems, err := t.exprs(args)
		return &pt.Array{At: at(n), Elems: elems}, true, err
	case "pg__array_subquery":
		if len(args) != 1 {
			return nil, false, nil
		}
		q, err := t.subquery(args[0])
		return &pt.ArraySubquery{At: at(n), Query: q}, true, err
	case subscriptedSetMarker:
		// a VALUES cell of INSERT INTO t (col[..]): upsert.go
		if len(args) != 2 {
			return nil, false, nil
		}
		target, v, err := t.pair(args[0], args[1])
		return &pt.SubscriptedValue{At: at(n), Target: target, Value: v}, true, err
	case "pg__subscript":
		if len(args) != 2 {
			return nil, false, nil
		}
		x, i, err := t.pair(args[0], args[1])
		return &pt.Subscript{At: at(n), X: x, Index: i, Chained: isSubscriptMarker(args[0])}, true, err
	case "pg__slice":
		if len(args) != 3 {
			return nil, false, nil
		}
		x, err := t.toTree(args[0])
		if err != nil {
			return nil, true, err
		}
		bound := func(e ast.ExprNode) (pt.Expr, error) {
			if f, ok := e.(*ast.FuncCallExpr); ok && f.FnName.L == "pg__open" && len(f.Args) == 0 {
				return nil, nil
			}
			return t.toTree(e)
		}
		lo, err := bound(args[1])
		if err != nil {
			return nil, true, err
		}
		hi, err := bound(args[2])
		return &pt.Slice{At: at(n), X: x, Lo: lo, Hi: hi, Chained: isSubscriptMarker(args[0])}, true, err
	case "pg__map":
		kv, err := t.exprs(args)
		return &pt.Map{At: at(n), KeysValues: kv}, true, err
	case "pg__row":
		fields, err := t.exprs(args)
		return &pt.Row{At: at(n), Fields: fields, Explicit: true}, true, err
	case "pg__collate": // x COLLATE name (collations.go)
		if len(args) < 2 {
			return nil, false, nil
		}
		var parts []string
		for _, a := range args[1:] {
			p, ok := markerString(a)
			if !ok {
				return nil, false, nil
			}
			parts = append(parts, p)
		}
		x, err := t.toTree(args[0])
		return &pt.Collate{At: at(n), X: x, Name: parts, NameAt: at(args[1])}, true, err
	case "pg__field":
		if len(args) != 2 {
			return nil, false, nil
		}
		f, ok := markerString(args[1])
		if !ok {
			return nil, false, nil
		}
		x, err := t.toTree(args[0])
		return &pt.FieldSelect{At: at(n), X: x, Field: f}, true, err
	case "pg__any", "pg__all":
		if len(args) != 3 {
			return nil, false, nil
		}
		op, ok := markerString(args[1])
		if !ok {
			return nil, false, nil
		}
		x, r, err := t.pair(args[0], args[2])
		return &pt.Quantified{At: at(n), X: x, Op: op, All: name == "pg__all", Right: r, OpAt: at(args[1])}, true, err
	case "pg__filter":
		if len(args) != 2 {
			return nil, false, nil
		}
		agg, err := t.toTree(args[0])
		if err != nil {
			return nil, true, err
		}
		f, ok := agg.(*pt.FuncCall)
		if !ok || f.Filter != nil || f.Over != nil {
			return nil, false, nil
		}
		f.At = at(n) // the node stands for the whole marker call
		f.Filter, err = t.toTree(args[1])
		return f, true, err
	}
	return nil, false, nil
}

func (t *Transformer) aggregate(n *ast.AggregateFuncExpr) (pt.Expr, error) {
	name, args := strings.ToLower(n.F), n.Args
	f := &pt.FuncCall{At: at(n), Name: name, Distinct: n.Distinct, Aggregate: true}
	if name == "group_concat" && len(args) > 0 {
		if s, ok := markerString(args[len(args)-1]); ok && strings.HasPrefix(s, AggregateMarkerPrefix) {
			// agg(args ORDER BY keys) and f(args) WITHIN GROUP (ORDER BY
			// keys), which the rewrite hands over as group_concat (aggorder.go,
			// withingroup.go)
			f.Name, args = strings.TrimPrefix(s, AggregateMarkerPrefix), args[:len(args)-1]
			if len(args) == 1 {
				if w, ok := args[0].(*ast.FuncCallExpr); ok && w.FnName.L == "pg__within_group" {
					f.WithinGroup, args = true, w.Args
					if len(args) == 1 {
						if star, ok := args[0].(*ast.FuncCallExpr); ok && star.FnName.L == StarMarker && len(star.Args) == 0 {
							f.Star, args = true, nil // f(*) WITHIN GROUP (withingroup.go)
						}
					}
				}
			}
		}
	}
	var err error
	if f.Args, err = t.exprs(args); err != nil {
		return nil, err
	}
	f.OrderBy, err = t.OrderItemsToTree(n.Order)
	return f, err
}

func (t *Transformer) windowCall(n *ast.WindowFuncExpr) (pt.Expr, error) {
	f := &pt.FuncCall{At: at(n), Name: strings.ToLower(n.Name), Distinct: n.Distinct, IgnoreNulls: n.IgnoreNull, FromLast: n.FromLast}
	args := n.Args
	var err error
	if s, ok := windowAggregateMarker(f.Name, args); ok {
		name := strings.TrimPrefix(s, AggregateMarkerPrefix)
		mk, isCall := args[len(args)-2].(*ast.FuncCallExpr) // windowAggregateMarker: two or more
		if isCall && (mk.FnName.L == WindowFilterMarker || mk.FnName.L == WindowOrderedMarker) {
			// an aggregate TiDB takes no OVER after, or one with FILTER
			// or ORDER BY: group_concat(args, pg__window_filter([cond])
			// SEPARATOR 'pg__agg:NAME') OVER w (windowagg.go)
			f.Name, f.Aggregate, args = name, true, args[:len(args)-2]
			f.OrderedOver = mk.FnName.L == WindowOrderedMarker
			if len(mk.Args) == 1 {
				if f.Filter, err = t.toTree(mk.Args[0]); err != nil {
					return nil, err
				}
			}
		} else {
			// a one-argument aggregate called with several
			// (group_concat(args SEPARATOR 'pg__agg:NAME') OVER w,
			// aggorder.go's multiArgAggregateAt): the binder's 42883
			f.Name, f.Aggregate, args = name, true, args[:len(args)-1]
		}
	}
	args, f.Star = starArgs(args)
	if f.Args, err = t.exprs(args); err != nil {
		return nil, err
	}
	f.Over, err = t.WindowToTree(&n.Spec)
	return f, err
}

// windowAggregateMarker is the aggregate marker ending a group_concat
// call's arguments under OVER (the rewrite's spelling of an aggregate TiDB
// does not take there), if there is one.
func windowAggregateMarker(name string, args []ast.ExprNode) (string, bool) {
	if name != "group_concat" || len(args) < 2 {
		return "", false
	}
	s, ok := markerString(args[len(args)-1])
	return s, ok && strings.HasPrefix(s, AggregateMarkerPrefix)
}

// WindowToTree transforms a window specification (OVER's or a WINDOW
// clause's).
func (t *Transformer) WindowToTree(s *ast.WindowSpec) (*pt.Window, error) {
	w := &pt.Window{At: at(s), Name: s.Name.O, Ref: s.Ref.O, OnlyName: s.OnlyAlias}
	var err error
	if s.PartitionBy != nil {
		items := s.PartitionBy.Items
		if len(items) > 0 {
			if f, ok := items[0].Expr.(*ast.FuncCallExpr); ok && f.FnName.L == FrameMarker {
				// the rewrite's frame (frame.go)
				if w.Frame, err = t.frameMarker(f); err != nil {
					return nil, err
				}
				items = items[1:]
			}
		}
		if len(items) > 0 {
			w.PartitionBy = make([]pt.Expr, len(items))
		}
		for i, it := range items {
			if w.PartitionBy[i], err = t.toTree(it.Expr); err != nil {
				return nil, err
			}
		}
	}
	if w.OrderBy, err = t.OrderItemsToTree(s.OrderBy); err != nil {
		return nil, err
	}
	if s.Frame != nil && w.Frame == nil {
		fr := &pt.Frame{Rows: s.Frame.Type == ast.Rows, Groups: s.Frame.Type == ast.Groups}
		if fr.Start, err = t.frameBound(&s.Frame.Extent.Start); err != nil {
			return nil, err
		}
		if fr.End, err = t.frameBound(&s.Frame.Extent.End); err != nil {
			return nil, err
		}
		w.Frame = fr
	}
	return w, nil
}

// frameMarker reads the rewrite's pg__frame('unit', 'exclusion', 'kind',
// [offset,] ...) back into a frame.
func (t *Transformer) frameMarker(f *ast.FuncCallExpr) (*pt.Frame, error) {
	bad := func() (*pt.Frame, error) {
		return nil, refusal(f, sqlerr.New(sqlerr.InternalError, "malformed frame marker"))
	}
	args := f.Args
	if len(args) < 3 {
		return bad()
	}
	unit, ok1 := markerString(args[0])
	excl, ok2 := markerString(args[1])
	if !ok1 || !ok2 {
		return bad()
	}
	fr := &pt.Frame{Rows: unit == "rows", Groups: unit == "groups", Where: pt.At{Offset: args[0].OriginTextPosition()}, SpecWhere: pt.At{Offset: args[1].OriginTextPosition()}}
	if excl != "no others" {
		fr.Exclude = excl
	}
	var bounds []pt.FrameBound
	for i := 2; i < len(args); i++ {
		kind, ok := markerString(args[i])
		if !ok {
			return bad()
		}
		b := pt.FrameBound{Kind: kind, Where: pt.At{Offset: args[i].OriginTextPosition()}}
		if kind == "preceding" || kind == "following" {
			if i+1 >= len(args) {
				return bad()
			}
			i++
			x, err := t.toTree(args[i])
			if err != nil {
				return nil, err
			}
			b.Offset = x
		}
		bounds = append(bounds, b)
	}
	switch len(bounds) {
	case 1:
		fr.Start, fr.End, fr.Single = bounds[0], pt.FrameBound{Kind: "current row"}, true
	case 2:
		fr.Start, fr.End = bounds[0], bounds[1]
	default:
		return bad()
	}
	return fr, nil
}

func (t *Transformer) frameBound(b *ast.FrameBound) (pt.FrameBound, error) {
	var fb pt.FrameBound
	switch {
	case b.Type == ast.CurrentRow:
		fb.Kind = "current row"
	case b.UnBounded && b.Type == ast.Preceding:
		fb.Kind = "unbounded preceding"
	case b.UnBounded:
		fb.Kind = "unbounded following"
	case b.Type == ast.Preceding:
		fb.Kind = "preceding"
	default:
		fb.Kind = "following"
	}
	if b.Unit != ast.TimeUnitInvalid {
		return fb, refusal(b, sqlerr.New(sqlerr.FeatureNotSupported, "a frame offset with a MySQL INTERVAL unit is not supported"))
	}
	var err error
	fb.Offset, err = t.ToTree(b.Expr)
	return fb, err
}

func (t *Transformer) byItems(items []*ast.ByItem) ([]pt.OrderItem, error) {
	out := make([]pt.OrderItem, len(items))
	for i, it := range items {
		e := orderItemMarkers(it.Expr, &out[i])
		x, err := t.toTree(e)
		if err != nil {
			return nil, err
		}
		out[i].X, out[i].Desc = x, it.Desc
	}
	return out, nil
}

// orderItemMarkers reads the rewrite's markers around an ORDER BY key,
// pg__nulls(e, 'first'|'last') and inside it pg__using(e, 'op')
// (orderusing.go), into o, and returns the key.
func orderItemMarkers(e ast.ExprNode, o *pt.OrderItem) ast.ExprNode {
	if f, ok := e.(*ast.FuncCallExpr); ok && f.FnName.L == "pg__nulls" && len(f.Args) == 2 {
		if s, ok := markerString(f.Args[1]); ok && (s == "first" || s == "last") {
			e, o.Nulls = f.Args[0], s
		}
	}
	if f, ok := e.(*ast.FuncCallExpr); ok && f.FnName.L == UsingMarker && len(f.Args) == 2 {
		if s, ok := markerString(f.Args[1]); ok {
			e, o.Using, o.UsingAt = f.Args[0], s, pt.At{Offset: f.Args[1].OriginTextPosition()}
		}
	}
	return e
}

// PipesMarker is the marker of the rewrite's a || b: a | pg__pipes() | b.
const PipesMarker = "pg__pipes"

// pipesOperand reads n as the rewrite's a | pg__pipes() | b: a, and the
// marker's place (the || in the user's text).
func pipesOperand(n *ast.BinaryOperationExpr) (ast.ExprNode, pt.At, bool) {
	if n.Op != opcode.Or {
		return nil, pt.At{}, false
	}
	l, ok := n.L.(*ast.BinaryOperationExpr)
	if !ok || l.Op != opcode.Or {
		return nil, pt.At{}, false
	}
	f, ok := l.R.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != PipesMarker || len(f.Args) != 0 {
		return nil, pt.At{}, false
	}
	// the node is the whole (its source, transformed again, is the
	// tree), placed where the expression starts, as every two-operand
	// node is (PostgreSQL's exprLocation: an operator error finds the
	// operator itself, binder's errAtOperator)
	off := f.OriginTextPosition()
	if p := n.OriginTextPosition(); p > 0 && p < off {
		off = p
	}
	return l.L, pt.At{Offset: off, Src: n}, true
}
