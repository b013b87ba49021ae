package binder

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindInList binds x IN (a, b, ...) as x = a OR x = b ..., with SQL's
// three-valued logic, and NOT IN as its negation. x is bound once per item,
// as the expansion x = a OR x = b would bind it, so every comparison
// types its own copy (a parameter or literal x takes each item's type in
// turn, as PostgreSQL's expansion does), without building that expansion
// as syntax first.
func (b *binder) bindInList(s *scope, n *ast.PatternInExpr) (Expr, error) {
	if len(n.List) == 0 {
		return nil, b.errAt(n, sqlerr.NotSupported("IN with an empty list"))
	}
	var e Expr
	for _, item := range n.List {
		l, err := b.bindExpr(s, n.Expr)
		if err != nil {
			return nil, err
		}
		r, err := b.bindExpr(s, item)
		if err != nil {
			return nil, err
		}
		eq, err := b.makeBinary(&b.expanded, OpEq, l, r)
		if err != nil {
			return nil, err
		}
		if e == nil {
			e = eq
		} else if e, err = b.makeBinary(&b.expanded, OpOr, e, eq); err != nil {
			return nil, err
		}
	}
	if n.Not {
		return &UnaryOp{Op: OpNot, X: e, T: types.BoolType}, nil
	}
	return e, nil
}

// bindBetween binds x BETWEEN a AND b as x >= a AND x <= b (NOT BETWEEN as
// its negation), binding x for each comparison as that expansion would.
// BETWEEN SYMMETRIC is expanded as syntax by bindExpr.
func (b *binder) bindBetween(s *scope, n *ast.BetweenExpr) (Expr, error) {
	cmp := func(op Op, bound ast.ExprNode) (Expr, error) {
		l, err := b.bindExpr(s, n.Expr)
		if err != nil {
			return nil, err
		}
		r, err := b.bindExpr(s, bound)
		if err != nil {
			return nil, err
		}
		return b.makeBinary(&b.expanded, op, l, r)
	}
	lo, err := cmp(OpGe, n.Left)
	if err != nil {
		return nil, err
	}
	hi, err := cmp(OpLe, n.Right)
	if err != nil {
		return nil, err
	}
	e, err := b.makeBinary(&b.expanded, OpAnd, lo, hi)
	if err != nil {
		return nil, err
	}
	if n.Not {
		return &UnaryOp{Op: OpNot, X: e, T: types.BoolType}, nil
	}
	return e, nil
}
