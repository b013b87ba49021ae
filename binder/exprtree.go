package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"strings"
)

// bindTree binds a scalar expression of sqlgate's parsed tree in scope s
// (nil: no columns visible). The few kinds whose binders live in other
// files bind through exprbind.go's bindBridged.
func (b *binder) bindTree(s *scope, e pt.Expr) (Expr, error) {
	switch n := e.(type) {
	case *pt.ColumnRef:
		return b.bindColumn(s, n, n.Table, n.Name)
	case *pt.Param:
		return b.bindParam(n, n.Order)
	case *pt.Literal:
		v, ok := goValue(n.Value)
		return b.bindLiteral(n, v, ok)
	case *pt.Ordinal:
		// a number TiDB's grammar made a position where SQL99's rules
		// read it as the constant it is (a window's ORDER BY, an
		// aggregate's)
		if n.Param != nil {
			return b.bindTree(s, n.Param)
		}
		return b.bindLiteral(n, int64(n.N), true)
	case *pt.Unary:
		return b.bindUnary(s, n)
	case *pt.Binary:
		return b.bindBinary(s, n)
	case *pt.IsNull:
		x, err := b.bindTree(s, n.X)
		if err != nil {
			return nil, err
		}
		return b.nullTest(n, b.resolveUnknown(x, types.StringType), n.Not) // rows.go
	case *pt.IsBool:
		x, err := b.bindTree(s, n.X)
		if err != nil {
			return nil, err
		}
		// every test's argument is boolean, and the error names the test
		// (parse_expr.c's transformBooleanTest: coerce_to_boolean)
		x, err = b.coerce(n.X, x, types.BoolType, "argument of "+n.Clause())
		if err != nil {
			return nil, err
		}
		if n.Unknown {
			return &IsNull{X: x, Not: n.Not}, nil
		}
		// x IS TRUE = x IS NOT DISTINCT FROM true; IS NOT TRUE negates it.
		want := &Const{Value: n.Value, T: types.BoolType}
		op := OpIsNotDistinct
		if n.Not {
			op = OpIsDistinct
		}
		return &BinaryOp{Op: op, L: x, R: want, T: types.BoolType}, nil
	case *pt.Between:
		return b.bindBetween(s, n) // inlist.go
	case *pt.InList:
		return b.bindInList(s, n) // inlist.go
	case *pt.Case:
		return b.bindCase(s, n) // conditional.go
	case *pt.Cast:
		return b.bindCast(s, n) // funcs.go
	case *pt.Like:
		return b.bindLike(s, n) // funcs.go
	case *pt.Regexp:
		return b.bindRegexp(s, n) // funcs.go
	case *pt.FuncCall:
		return b.bindFuncCall(s, n) // calls.go
	case *pt.Operator:
		return b.bindOperator(s, n) // calls.go
	case *pt.Array:
		return b.bindArrayConstructor(s, n) // arrays.go
	case *pt.Map:
		return b.bindMapConstructor(s, n) // mapvalues.go
	case *pt.Subscript:
		return b.bindSubscript(s, n) // arrays.go
	case *pt.Slice:
		return b.bindSlice(s, n) // arrays.go
	case *pt.SubscriptedValue:
		return b.bindSubscriptedValue(s, n) // arrayassign.go
	case *pt.ArraySubquery:
		return b.bindArraySubquery(s, n) // arrays.go
	case *pt.Quantified:
		return b.bindQuantifiedTree(s, n) // subquery.go, arrays.go
	case *pt.Subquery:
		return b.bindScalarSubquery(s, n) // subquery.go
	case *pt.Exists:
		return b.bindExists(s, n) // subquery.go
	case *pt.InSubquery:
		return b.bindInSubquery(s, n) // subquery.go
	case *pt.Extract:
		// EXTRACT(field FROM x): extract('field', x), the field an unknown
		// literal as the rewrite wrote it
		field := &pt.Literal{At: pt.At{Offset: n.Offset}, Value: pt.Value{Kind: pt.LitString, Text: n.Field}}
		return b.bindSyntaxCall(s, "extract", &pt.FuncCall{At: n.At, Name: "extract", Args: []pt.Expr{field, n.X}})
	case *pt.Position:
		// position(sub IN str) is pg_catalog.position(str, sub), which
		// PostgreSQL has for text, bytea and bit strings (strpos is text's
		// and bit's only)
		return b.bindSyntaxCall(s, "position", &pt.FuncCall{At: n.At, Name: "position", Args: []pt.Expr{n.Str, n.Sub}})
	case *pt.Trim:
		// TRIM(BOTH | LEADING | TRAILING chars FROM x) is btrim, ltrim or
		// rtrim(x, chars)
		name := map[pt.TrimDir]string{pt.TrimBoth: "btrim", pt.TrimLeading: "ltrim", pt.TrimTrailing: "rtrim"}[n.Dir]
		args := []pt.Expr{n.X}
		if n.Chars != nil {
			args = append(args, n.Chars)
		}
		return b.bindSyntaxCall(s, name, &pt.FuncCall{At: n.At, Name: name, Args: args})
	case *pt.TimeUnit:
		// a unit where TiDB's grammar takes one (its EXTRACT, date_add):
		// the library takes it as text
		return &Const{Value: n.Unit, T: types.UnknownType}, nil
	case *pt.Excluded:
		return b.bindExcluded(s, n)
	case *pt.Collate:
		return b.bindCollate(s, n) // collate.go
	}
	return b.bindBridged(s, e) // exprbind.go
}

// bindExcluded binds MySQL's VALUES(col), which the rewrite of ON
// CONFLICT DO UPDATE makes of EXCLUDED.col: the proposed row's column.
func (b *binder) bindExcluded(s *scope, n *pt.Excluded) (Expr, error) {
	if b.excludedScope == nil {
		return nil, b.errAt(n, sqlerr.NotSupported("VALUES() outside ON CONFLICT DO UPDATE"))
	}
	name := n.Column
	if s != b.excludedScope {
		// in a subquery of DO UPDATE: a reference to the enclosing row
		return b.resolve(s, n, "excluded", name)
	}
	for i, c := range b.excludedScope.cols {
		if c.Table == "excluded" && c.Name == name {
			return &ColumnRef{Index: i, Name: "excluded." + name, T: c.T}, nil
		}
	}
	return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedColumn, "column excluded.%s does not exist", name))
}

// bindSyntaxCall binds the function call PostgreSQL's grammar makes of SQL
// syntax (EXTRACT, POSITION, TRIM): the call is to pg_catalog's function,
// and PostgreSQL's errors name it so ("function pg_catalog.extract(unknown,
// integer) does not exist"), by the name the grammar calls.
func (b *binder) bindSyntaxCall(s *scope, name string, call *pt.FuncCall) (Expr, error) {
	e, err := b.bindFuncCall(s, call)
	if err != nil {
		return nil, systemFunctionError(err, call.Name, name)
	}
	return e, nil
}

// systemFunctionError renames the function of a "does not exist" or "is
// not unique" error about call to pg_catalog.name; other errors pass.
func systemFunctionError(err error, call, name string) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedFunction && se.Code != sqlerr.Code("42725") {
		return err
	}
	prefix := "function " + call + "("
	if !strings.HasPrefix(se.Message, prefix) {
		return err
	}
	c := *se
	c.Message = "function pg_catalog." + name + "(" + se.Message[len(prefix):]
	return &c
}
