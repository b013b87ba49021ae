package deparse

import (
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
)

// Column is a column an expression may name, with its type; Domain is
// the OID of the domain it was declared with (0: none), Type then the
// domain's base type.
type Column struct {
	Name string
	Type types.T
	// Domain is the domain the column is declared with (nil for none),
	// from its store's registry.
	Domain *types.Domain
}

// Scope is what a stored expression is bound over: a table's columns, or
// for a domain's CHECK the type of VALUE.
type Scope struct {
	Columns []Column
	Value   *types.T
	// Types, when set, knows the user-defined types a cast may name
	// ('ok'::app.mood); without it such a cast is not reproduced.
	Types binder.TypeCatalog
	// Schema is the schema of the table the expression belongs to: an
	// unqualified relation name in it ('people_id_seq'::regclass, the
	// sequence SERIAL made beside the table) is that schema's.
	Schema string
	// Visible, when set, says whether a schema is on the session's search
	// path: a user type or relation outside it prints schema-qualified,
	// as format_type and regclassout print (pg_dump's search_path is
	// empty); nil: public alone is.
	Visible func(schema string) bool
	// Functions are the user-defined functions an expression may call
	// (CHECK (public.f(n))): a call of one prints schema-qualified when
	// its schema is not on the search path, as generate_function_name
	// prints it; a call of a function not here shows the text as
	// written.
	Functions []Function
}

// Function is a user-defined scalar function: its schema, name, argument
// types and result type; ArgNames are its parameters' names (nil: none,
// no call in named notation finds it), Defaults how many trailing
// parameters have a DEFAULT, Variadic that the last is VARIADIC (an
// array type). Calls are resolved in usercall.go.
type Function struct {
	Schema, Name string
	Args         []types.T
	Ret          types.T
	ArgNames     []string
	Defaults     int
	Variadic     bool
}

// Expr is the text PostgreSQL's pg_get_expr prints for the stored
// expression text (as written) bound in scope: pretty false is
// pg_get_expr(e, rel) and the expression of pg_get_constraintdef(oid),
// pretty true their pretty forms. An implicit cast at the top is not
// shown (a DEFAULT's conversion to its column's type). An error says the
// expression holds something the deparser does not reproduce; callers
// show the text as written then.
func Expr(text string, sc Scope, pretty bool) (string, error) {
	_, n, err := analyze(text, sc)
	if err != nil {
		return "", err
	}
	p := &printer{pretty: pretty, visible: sc.Visible}
	p.expr(n, false)
	return p.sb.String(), nil
}

// Default is pg_get_expr of a column default or generated column's
// expression: Expr after the conversion to the column's type t, which
// PostgreSQL stores (and prints only where it changes the text: an
// unknown literal becomes a constant of the column's type, 'x'::text).
func Default(text string, sc Scope, t types.T, pretty bool) (string, error) {
	a, n, err := analyze(text, sc)
	if err != nil {
		return "", err
	}
	if n, err = a.assign(n, typeOfT(t)); err != nil {
		return "", err
	}
	p := &printer{pretty: pretty, visible: sc.Visible}
	p.expr(n, false)
	return p.sb.String(), nil
}

// Check is pg_get_constraintdef's text of a CHECK constraint over the
// expression text: CHECK (expr), NOT VALID after it when the constraint
// was not validated.
func Check(text string, sc Scope, notValid, pretty bool) (string, error) {
	a, n, err := analyze(text, sc)
	if err != nil {
		return "", err
	}
	if n, err = a.coerce(n, boolType, castImplicit); err != nil {
		return "", err
	}
	p := &printer{pretty: pretty, visible: sc.Visible}
	p.expr(n, false)
	var sb strings.Builder
	sb.WriteString("CHECK (" + p.sb.String() + ")")
	if notValid {
		sb.WriteString(" NOT VALID")
	}
	return sb.String(), nil
}

// analyze parses an expression's text and rebuilds the tree PostgreSQL's
// parse analysis would make of it over sc, returning the analyzer for
// the conversions its caller adds.
func analyze(text string, sc Scope) (*analyzer, node, error) {
	x, err := sql.ParseExprText(text)
	if err != nil {
		return nil, nil, err
	}
	a := &analyzer{cols: sc.Columns, value: sc.Value, types: sc.Types, schema: sc.Schema, funcs: sc.Functions}
	n, err := a.expr(x.Tree)
	return a, n, err
}

// assign is the conversion of a value stored into a column of type t
// (coerce_to_target_type, COERCION_ASSIGNMENT): implicit, so not shown
// at the top, but an unknown literal becomes a constant of t.
func (a *analyzer) assign(n node, t typ) (node, error) {
	from := n.typeOf()
	if from.oid == oidUnknown {
		return a.coerce(n, t, castImplicit)
	}
	if from.oid == t.oid && (t.mod < 0 || from.mod == t.mod) {
		return n, nil
	}
	if from.oid != t.oid && t.mod >= 0 {
		// the conversion, then the length coercion (coerce_to_target_type)
		inner := t
		inner.mod = -1
		n = &coerceNode{arg: n, t: inner, form: castImplicit}
	}
	return &coerceNode{arg: n, t: t, form: castImplicit}, nil
}
