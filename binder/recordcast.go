package binder

import (
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's `record` pseudo-type as a cast target: x::record keeps a
// row value as it is, NULL::record is a NULL of an anonymous row type
// (a ROW with no fields here: it prints as record, OID 2249), a string
// literal is refused as PostgreSQL refuses input of anonymous composite
// types, and any other type cannot be cast to it. A record is never a
// column type; only casts name it.

// isRecordTarget reports whether a cast's type text names record.
func isRecordTarget(tn *sql.TypeName) bool { return tn.Name == "record" && tn.ArrayDims == 0 }

// bindRecordCast binds x::record.
func (b *binder) bindRecordCast(s *scope, n *pt.Cast) (Expr, error) {
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	switch t := x.Type(); {
	case t.Kind == types.Row:
		return x, nil // a constructor still (IS DISTINCT FROM, IN): plainRecordOperand
	case t.Kind == types.Null:
		return &Const{Value: nil, T: types.T{Kind: types.Row}}, nil
	case t.Kind == types.Unknown:
		return nil, b.errAt(n, anonRecordInput())
	default:
		return nil, b.errAt(n, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to record", t.PGName()))
	}
}

// plainRecordOperand is operand e of a comparison operator (= <> < <= >
// >=), written as tree: a ROW constructor only when written as one.
// PostgreSQL's transformAExprOp compares field by field only when both
// operands are ROW(...) in the query's text, so ROW(1, 2)::record =
// ROW(1, 2.5)::record goes to record_eq, which fails on the integer and
// numeric pair; IS DISTINCT FROM and IN look at the operands after
// transformation, where the cast to record left the constructor.
func (b *binder) plainRecordOperand(tree pt.Expr, e Expr) Expr {
	if _, ok := tree.(*pt.Row); ok || e.Type().Kind != types.Row {
		return e // a MAP[...] constructor keeps its literal's typing
	}
	return b.forgetCtor(e)
}

// forgetCtor is ROW constructor x as a plain record value, no longer
// written as a constructor. Other values are returned as they are.
func (b *binder) forgetCtor(x Expr) Expr {
	if b.ctors[x] == nil {
		return x
	}
	switch e := x.(type) {
	case *Const:
		c := *e
		return &c
	case *FuncCall:
		c := *e
		return &c
	}
	return x
}

// isNullRecord reports whether e is a NULL of a row type with no fields
// (NULL::record), which compares as NULL with any row.
func isNullRecord(e Expr) bool {
	c, ok := e.(*Const)
	return ok && c.Value == nil && c.T.Kind == types.Row && len(c.T.Fields) == 0
}

// anonRecordInput is PostgreSQL's refusal of text input to an anonymous
// record (record_in without a known composite type): '(1,p)'::record,
// and an untyped literal that an operator, CASE, COALESCE or IN resolves
// to a ROW(...) or whole row's type (ROW(1, 'p') = '(1,p)').
func anonRecordInput() *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
}

// isAnonRecordInput reports whether reading a literal as t would be input
// of an anonymous record: t is one, or an array of them (record[]'s input
// reads each element with record_in). A ROW column's type is a named
// composite and reads its literal.
func isAnonRecordInput(t types.T) bool {
	for t.Kind == types.Array && t.Elem != nil {
		t = *t.Elem
	}
	return t.IsAnonRecord() && !t.IsComposite() // a composite reads its literal (record_in)
}
