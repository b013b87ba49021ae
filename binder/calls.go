package binder

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindFuncCall binds a function call of sql/tree: a scalar function of the
// library or a Go UDF (callFunction), a || b, COALESCE and its kin
// (conditional.go), an aggregate with its DISTINCT, ORDER BY and FILTER
// (aggregate.go), and MAP's cardinality, map_keys and map_values
// (mapvalues.go), window calls (window.go), ordered-set aggregates
// (orderedset.go), and the rewrite's markers that the transformer leaves
// as calls (bindMarkerCall). Set-returning functions in the SELECT list
// and GROUPING(..) bind through exprbind.go's bridge.
func (b *binder) bindFuncCall(s *scope, n *pt.FuncCall) (Expr, error) {
	if q, ok := b.tempFunctionCall(b.ctx, n); ok { // tempfuncs.go
		return b.bindFuncCallNamed(s, q)
	}
	if n.Schema != "" && !strings.EqualFold(n.Schema, "pg_catalog") && !strings.EqualFold(n.Schema, "information_schema") && !b.isUDF(n.Name) {
		return nil, b.noFunctionInSchema(s, n)
	}
	e, err := b.bindFuncCallNamed(s, n)
	if err != nil && n.Schema != "" {
		err = qualifiedUndefined(n, err)
	}
	return e, err
}

// notAggregateCall is PostgreSQL's answer (ParseFuncOrColumn) to a call
// with an aggregate's decorations (DISTINCT, ORDER BY, FILTER, OVER) of a
// name that is no aggregate: the arguments and the FILTER are bound
// (bind: in the call's scope), the function is looked up as a plain call,
// whose error comes first (42883: now(integer) FILTER (..), lower(DISTINCT
// 1) OVER ()), and a function that exists is refused for the first
// decoration the call has in PostgreSQL's order, OVER last.
func (b *binder) notAggregateCall(bind func(pt.Expr) (Expr, error), n *pt.FuncCall) error {
	var args []Expr
	for _, a := range n.Args {
		e, err := bind(a)
		if err != nil {
			return err
		}
		args = append(args, e)
	}
	if n.Filter != nil {
		f, err := bind(n.Filter)
		if err != nil {
			return err
		}
		if _, err := b.coerce(n.Filter, f, types.BoolType, "argument of FILTER"); err != nil {
			return err
		}
	}
	name := writtenName(n)
	if isOrderedSet(n.Name) {
		// found, an ordered-set aggregate wants WITHIN GROUP before any
		// decoration is looked at (orderedset.go)
		if !orderedSetFound(n.Name, args) {
			return b.errAt(n, undefinedCall(n.Name, args))
		}
		return b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "WITHIN GROUP is required for ordered-set aggregate %s", name))
	}
	if _, err := bind(&pt.FuncCall{At: n.At, Schema: n.Schema, Name: n.Name, Args: n.Args}); err != nil {
		return err
	}
	var err *sqlerr.Error
	switch {
	case n.Distinct:
		err = sqlerr.New(sqlerr.WrongObjectType, "DISTINCT specified, but %s is not an aggregate function", name)
	case n.OrderBy != nil || n.OrderedOver:
		err = sqlerr.New(sqlerr.WrongObjectType, "ORDER BY specified, but %s is not an aggregate function", name)
	case n.Filter != nil:
		err = sqlerr.New(sqlerr.WrongObjectType, "FILTER specified, but %s is not an aggregate function", name)
	default:
		err = sqlerr.New(sqlerr.WrongObjectType, "OVER specified, but %s is not a window function nor an aggregate function", name)
	}
	return b.errAt(n, err)
}

// writtenName is a call's function name as PostgreSQL's messages name it
// (NameListToString): qualified when the call is.
func writtenName(n *pt.FuncCall) string {
	if n.Schema != "" {
		return n.Schema + "." + n.Name
	}
	return n.Name
}

// SchemaChecker is implemented by catalogs that can say whether a schema
// exists (a call qualified by a missing schema is 3F000).
type SchemaChecker interface {
	SchemaExists(ctx context.Context, name string) (bool, error)
}

// noFunctionInSchema is the answer to a call qualified by a schema other
// than pg_catalog (and information_schema), where PostgreSQL's built-in functions live (no
// sqlgate function lives in another schema: Go UDFs are looked up by name
// alone): 3F000 when the schema does not exist, else 42883 naming the call
// as written with its arguments' types.
func (b *binder) noFunctionInSchema(s *scope, n *pt.FuncCall) error {
	if c, ok := b.cat.(SchemaChecker); ok {
		exists, err := c.SchemaExists(b.ctx, n.Schema)
		if err != nil {
			return err
		}
		if !exists {
			return b.errAt(n, sqlerr.New(sqlerr.InvalidSchemaName, "schema \"%s\" does not exist", n.Schema))
		}
	}
	args, err := b.bindTreeList(s, n.Args)
	if err != nil {
		return err
	}
	if n.WithinGroup {
		// WITHIN GROUP's keys are arguments of the lookup too
		for _, o := range n.OrderBy {
			k, err := b.bindTree(s, o.X)
			if err != nil {
				return err
			}
			args = append(args, k)
		}
	}
	return qualifiedUndefined(n, b.errAt(n, undefinedCall(n.Name, args)))
}

// qualifiedUndefined names a schema-qualified call that resolves to no
// function as it was written (function pg_catalog.btrim(unknown, ...) does
// not exist), as PostgreSQL does; the lookups name the function alone.
func qualifiedUndefined(n *pt.FuncCall, err error) error {
	se := sqlerr.As(err)
	prefix := "function " + n.Name + "("
	if se == nil || se.Code != sqlerr.UndefinedFunction || !strings.HasPrefix(se.Message, prefix) {
		return err
	}
	q := *se
	q.Message = "function " + n.Schema + "." + n.Name + "(" + se.Message[len(prefix):]
	return &q
}

// bindFuncCallNamed is bindFuncCall before a qualified name's error.
func (b *binder) bindFuncCallNamed(s *scope, n *pt.FuncCall) (Expr, error) {
	if n.Name == sql.VariadicMarker && len(n.Args) == 1 {
		return b.bindTree(s, n.Args[0]) // a user function's VARIADIC argument: the array (pickUDF)
	}
	if e, ok, err := b.bindEmptyCall(s, n); ok {
		return e, err // f(), f(*): emptycall.go
	}
	if arr := variadicArg(n); arr != nil && !b.isUDF(n.Name) {
		return b.bindBuiltinVariadic(s, n, arr) // variadic.go
	}
	switch {
	case n.Over != nil:
		return b.bindWindowCall(n) // window.go
	case n.WithinGroup:
		return b.bindWithinGroup(n) // orderedset.go
	case n.Aggregate:
		return b.bindAggregateCall(s, n)
	}
	name := n.Name
	if n.Filter != nil {
		// agg(..) FILTER (WHERE ..) of an aggregate TiDB's grammar does
		// not know as one (bool_and, string_agg, ...)
		if !aggregateNames[name] {
			return nil, b.notAggregateCall(func(e pt.Expr) (Expr, error) { return b.bindTree(s, e) }, n)
		}
		return b.bindAggregateCallFiltered(n, aggName(name), n.Args, false, n.Filter, nil)
	}
	switch name {
	case "pg__filter":
		// the rewrite's FILTER around something the transformer could not
		// read as a call (a window call, a cast ...)
		if len(n.Args) != 2 {
			return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed FILTER clause"))
		}
		return nil, b.errAt(n, sqlerr.New(sqlerr.WrongObjectType, "FILTER specified, but it is not an aggregate function"))
	case castFunc:
		// x::type, CAST(x AS type) is a Cast node whenever the rewrite
		// made it, as it always does
		if len(n.Args) != 2 {
			return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed cast"))
		}
		if _, ok := n.Args[1].(*pt.Literal); !ok {
			return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "malformed cast"))
		}
		// a type name that is no string names no type
		return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", ""))
	}
	if name == sql.NamedNoMatch && b.sqlSetFuncName(namedFuncName(n)) {
		return b.bindSetCall(n) // srf.go: a set-returning SQL function in named notation
	}
	if name == sql.NamedNoMatch {
		if e, ok, err := b.namedSQLFuncCall(s, n); ok { // sqlfunc.go
			return e, err
		}
		return nil, b.namedNoMatch(s, n)
	}
	if strings.HasPrefix(name, "pg__") {
		if e, ok, err := b.bindMarkerCall(s, n); ok {
			return e, err
		}
	}
	if isOrderedSet(name) {
		// percentile_cont(0.5, x) without WITHIN GROUP (orderedset.go)
		return nil, b.notAggregateCall(func(e pt.Expr) (Expr, error) { return b.bindTree(s, e) }, n)
	}
	if functions.IsSetFunc(name) || b.sqlSetFuncName(name) {
		return b.bindSetCall(n) // srf.go
	}
	if name == "grouping" {
		return b.bindBridged(s, n) // groupingsets.go
	}
	if name == "cardinality" || name == "map_keys" || name == "map_values" {
		if e, ok, err := b.bindMapFunction(s, n); ok {
			return e, err
		}
	}
	if isConditionalFunc(name) {
		args, err := b.bindTreeList(s, n.Args)
		if err != nil {
			return nil, err
		}
		return b.bindConditionalFunc(n, name, args) // conditional.go
	}
	if aggregateNames[name] {
		return b.bindAggregateCallFiltered(n, aggName(name), n.Args, false, nil, nil)
	}
	if name == "concat" && len(n.Args) == 2 && b.isPipes(n) {
		l, err := b.bindTree(s, n.Args[0])
		if err != nil {
			return nil, err
		}
		r, err := b.bindTree(s, n.Args[1])
		if err != nil {
			return nil, err
		}
		return b.makeConcat(n, l, r)
	}
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		e, err := b.bindFuncArg(s, name, a) // wholerow.go
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	if name == "pg_typeof" && len(args) == 1 {
		if oid := b.exprDomain(s, args[0]); oid != 0 {
			return domainTypeOf(oid), nil // domains.go
		}
	}
	if name == "pg_column_size" && len(args) == 1 {
		name = columnSizeFunc(s, args[0]) // columnsize.go
	}
	if len(args) == 1 && !b.isUDF(name) {
		if e, ok, err := b.funcCast(n, args[0]); ok { // funccast.go
			return e, err
		}
	}
	return b.callFunction(n, name, args)
}

// namedOperator binds a binary operator of named (operator -> function:
// inet's <<= >>=, the ranges' -|- &< &>) as its function, with an
// operator's error when no overload takes the operands; ok is false for
// an operator named does not hold.
func (b *binder) namedOperator(s *scope, n *pt.Operator, named map[string]string) (Expr, bool, error) {
	name, ok := named[n.Op]
	if !ok || n.L == nil {
		return nil, false, nil
	}
	args, err := b.bindTreeList(s, []pt.Expr{n.L, n.R})
	if err != nil {
		return nil, true, err
	}
	if e, ok, err := b.geometricOperator(n, n.Op, args); ok { // geometric.go
		return e, true, err
	}
	ts := operandTypes(args)
	e, err := b.callFunction(n, multirangeFunc(name, ts), args) // multirange.go
	return e, true, b.asOperatorError(n, ts, err)
}

// bindOperator binds one of PostgreSQL's operators TiDB's grammar lacks
// (-> ->> #> ~<~ ...) as the function the rewrite's marker calls
// (functions/opfuncs.go and the JSON functions), or for those whose
// function depends on the operands' kind (@> <@ ? ?| ?&) the one
// operators.go picks.
func (b *binder) bindOperator(s *scope, n *pt.Operator) (Expr, error) {
	for _, named := range []map[string]string{inetOtherOperators, rangeOtherOperators} { // netops.go, ranges.go
		if e, ok, err := b.namedOperator(s, n, named); ok {
			return e, err
		}
	}
	operands := [2]pt.Expr{n.L, n.R}
	list := operands[:]
	if n.L == nil {
		list = operands[1:] // a prefix operator
	}
	name := sql.OperatorMarker(n.Op)
	if name == "" {
		return b.noSuchOperator(s, n, list)
	}
	if fns, byKind := operatorMarkers[name]; byKind {
		args, err := b.bindTreeList(s, list)
		if err != nil {
			return nil, err
		}
		if e, ok, err := b.geometricOperator(n, n.Op, args); ok { // geometric.go
			return e, err
		}
		ts := operandTypes(args)
		e, err := b.bindOperatorMarker(n, name, list[0], args, fns) // operators.go
		return e, b.asOperatorError(n, ts, err)
	}
	args := make([]Expr, len(list))
	for i, a := range list {
		e, err := b.bindFuncArg(s, name, a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	if e, ok, err := b.geometricOperator(n, n.Op, args); ok { // geometric.go
		return e, err
	}
	ts := operandTypes(args)
	e, err := b.callFunction(n, name, args)
	return e, b.asOperatorError(n, ts, err)
}

// noSuchOperator is PostgreSQL's answer to an operator no function
// stands behind (1 <-> 2, 2 !=- 1): its operands are bound, so that their
// own errors come first, and the lookup fails with their types, unless
// the operator is a geometric one over a geometric operand.
func (b *binder) noSuchOperator(s *scope, n *pt.Operator, list []pt.Expr) (Expr, error) {
	args, err := b.bindTreeList(s, list)
	if err != nil {
		return nil, err
	}
	if e, ok, err := b.geometricOperator(n, n.Op, args); ok { // geometric.go
		return e, err
	}
	ts := operandTypes(args)
	if len(ts) == 1 {
		return nil, b.errAt(n, noOperator(n.Op, ts[0]))
	}
	return nil, b.operatorError(n, n.Op, ts[0], ts[1])
}

// operandTypes are the bound operands' types as PostgreSQL names them in a
// failed lookup: an untyped literal or NULL is unknown.
func operandTypes(args []Expr) []types.T {
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.Type()
		if ts[i].Kind == types.Null {
			ts[i] = types.UnknownType
		}
	}
	return ts
}

// asOperatorError turns the failed lookup of the function behind an
// operator the rewrite made a call (a # b is pg__op_xor(a, b), a ? b
// jsonb_exists(a, b)) into PostgreSQL's failed operator lookup: "operator
// does not exist: l op r" at the operator, the operands' types as
// written. Other errors pass through.
func (b *binder) asOperatorError(n *pt.Operator, ts []types.T, err error) error {
	se := sqlerr.As(err)
	if se == nil || len(ts) == 0 || len(ts) > 2 {
		return err
	}
	if se.Code == sqlerr.Code("42725") {
		const hint = "Could not choose a best candidate operator. You might need to add explicit type casts."
		if len(ts) == 1 { // a prefix operator: ~ NULL
			return b.errAt(n, sqlerr.New(sqlerr.Code("42725"), "operator is not unique: %s %s", n.Op, ts[0].OperandName()).WithHint(hint))
		}
		return b.errAtOperator(n, n.Op, sqlerr.New(sqlerr.Code("42725"), "operator is not unique: %s %s %s",
			ts[0].OperandName(), n.Op, ts[1].OperandName()).WithHint(hint))
	}
	if se.Code != sqlerr.UndefinedFunction {
		return err
	}
	if len(ts) == 1 {
		return b.errAt(n, noOperator(n.Op, ts[0]))
	}
	return b.operatorError(n, n.Op, ts[0], ts[1])
}

// markerCalls are the rewrite's markers for operator syntax and the
// function each calls, when the transformer leaves one a call.
var markerCalls = map[string]string{"pg__power": "power", "pg__position": "position", "pg__extract": "extract"}

// malformedMarkers are the errors of the array markers in a form the
// rewrite does not make.
var malformedMarkers = map[string]string{
	"pg__subscript": "malformed subscript", "pg__slice": "malformed array slice",
	"pg__any": "malformed ANY/ALL", "pg__all": "malformed ANY/ALL", "pg__array_subquery": "malformed ARRAY subquery",
}

// bindMarkerCall binds a call of one of the rewrite's markers that the
// transformer leaves a call because it is not in the form the rewrite
// makes (ok false: not such a marker): the operators' markers bind as
// their functions, the array markers are malformed, field selection and
// the grouping constructs bind through the bridge.
func (b *binder) bindMarkerCall(s *scope, n *pt.FuncCall) (Expr, bool, error) {
	name := n.Name
	if fns, ok := operatorMarkers[name]; ok {
		args, err := b.bindTreeList(s, n.Args)
		if err != nil {
			return nil, true, err
		}
		var left sourceNode
		if len(n.Args) > 0 {
			left = n.Args[0]
		}
		e, err := b.bindOperatorMarker(n, name, left, args, fns) // operators.go
		return e, true, err
	}
	if fn, ok := markerCalls[name]; ok {
		c := *n
		c.Name = fn
		e, err := b.bindFuncCall(s, &c)
		return e, true, err
	}
	if msg, ok := malformedMarkers[name]; ok {
		return nil, true, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "%s", msg))
	}
	if name == "pg__field" || isGroupingConstruct(name) {
		e, err := b.bindBridged(s, n) // fields.go, groupingsets.go
		return e, true, err
	}
	return nil, false, nil
}

// bindTreeList binds a list of expressions of sql/tree.
func (b *binder) bindTreeList(s *scope, list []pt.Expr) ([]Expr, error) {
	out := make([]Expr, len(list))
	for i, a := range list {
		e, err := b.bindTree(s, a)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// namedNoMatch is PostgreSQL's 42883 for a call in named notation that
// matches no overload of a built-in: the rewrite's
// pg__named_nomatch('f', name1, arg1, ...) (sql/namedargs.go), each
// argument named by its type as PostgreSQL's func_signature_string does.
func (b *binder) namedNoMatch(s *scope, n *pt.FuncCall) error {
	fn, ok := n.Args[0].(*pt.Literal)
	if !ok || len(n.Args)%2 != 1 {
		return b.errAt(n, sqlerr.New(sqlerr.InternalError, "malformed named-notation call"))
	}
	var names []string
	var args []Expr
	for i := 1; i+1 < len(n.Args); i += 2 {
		e, err := b.bindTree(s, n.Args[i+1])
		if err != nil {
			return err
		}
		name, _ := n.Args[i].(*pt.Literal)
		if name == nil {
			name = &pt.Literal{}
		}
		names, args = append(names, name.Text), append(args, e)
	}
	return b.namedNoMatchArgs(n, fn.Text, names, args)
}

// namedNoMatchArgs is namedNoMatch's 42883 for the arguments bound.
func (b *binder) namedNoMatchArgs(n *pt.FuncCall, fname string, names []string, args []Expr) error {
	parts := make([]string, len(args))
	for i, e := range args {
		part := "unknown"
		if t := e.Type(); !isUnknown(t) {
			part = t.PGName()
		}
		if names[i] != "" {
			part = names[i] + " => " + part
		}
		parts[i] = part
	}
	return b.errAt(n, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", fname, strings.Join(parts, ", ")).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts."))
}
