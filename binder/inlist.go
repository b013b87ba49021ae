package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindInList binds x IN (a, b, ...) as x = a OR x = b ..., with SQL's
// three-valued logic, and NOT IN as its negation. x is bound once per item,
// as the expansion x = a OR x = b would bind it, so every comparison
// types its own copy (a parameter or literal x takes each item's type in
// turn, as PostgreSQL's expansion does), without building that expansion
// as syntax first.
func (b *binder) bindInList(s *scope, n *pt.InList) (Expr, error) {
	if len(n.List) == 0 {
		return nil, b.errAt(n, sqlerr.NotSupported("IN with an empty list"))
	}
	var e Expr
	for _, item := range n.List {
		eq, err := b.bindComparison(s, OpEq, n.X, item)
		if err != nil {
			return nil, err
		}
		if e == nil {
			e = eq
		} else if e, err = b.makeBinary(expansion{}, OpOr, e, eq); err != nil {
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
// BETWEEN SYMMETRIC is expanded as syntax by bindTree.
func (b *binder) bindBetween(s *scope, n *pt.Between) (Expr, error) {
	lo, err := b.bindComparison(s, OpGe, n.X, n.Lo)
	if err != nil {
		return nil, err
	}
	hi, err := b.bindComparison(s, OpLe, n.X, n.Hi)
	if err != nil {
		return nil, err
	}
	e, err := b.makeBinary(expansion{}, OpAnd, lo, hi)
	if err != nil {
		return nil, err
	}
	if n.Not {
		return &UnaryOp{Op: OpNot, X: e, T: types.BoolType}, nil
	}
	return e, nil
}

// bindComparison binds x op y from syntax, x bound afresh for this one
// comparison: the expansions of IN and BETWEEN bind their left operand once
// per comparison, so each comparison types its own copy.
func (b *binder) bindComparison(s *scope, op Op, x, y pt.Expr) (Expr, error) {
	l, err := b.bindTree(s, x)
	if err != nil {
		return nil, err
	}
	r, err := b.bindTree(s, y)
	if err != nil {
		return nil, err
	}
	return b.makeBinary(expansion{}, op, l, r)
}

// expansion is the syntax node errors name for the operators of an
// expansion (x IN (a, b) is x = a OR x = b): like the syntax nodes such an
// expansion would build, it has no position of its own (errAt reports
// offset 0 for it). It is empty, so passing one costs nothing; the binder
// used to embed a 240-byte TiDB operator node for this, half of its size.
type expansion struct{}

func (expansion) OriginTextPosition() int { return 0 }
