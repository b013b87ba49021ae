package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/types"
)

// bindTree binds a scalar expression of sqlgate's parsed tree in scope s
// (nil: no columns visible). The kinds not moved onto the tree yet bind
// from the TiDB node they were made from (bindUntransformed); issue 32
// moves them here one by one.
func (b *binder) bindTree(s *scope, e pt.Expr) (Expr, error) {
	switch n := e.(type) {
	case *pt.ColumnRef:
		return b.bindColumn(s, n, n.Table, n.Name)
	case *pt.Param:
		return b.bindParam(n, n.Order)
	case *pt.Literal:
		v, ok := goValue(n.Value)
		return b.bindLiteral(n, v, ok)
	case *pt.Unary:
		return b.bindUnary(s, n)
	case *pt.Binary:
		return b.bindBinary(s, n)
	case *pt.IsNull:
		x, err := b.bindTree(s, n.X)
		if err != nil {
			return nil, err
		}
		return &IsNull{X: b.resolveUnknown(x, types.StringType), Not: n.Not}, nil
	case *pt.IsBool:
		x, err := b.bindTree(s, n.X)
		if err != nil {
			return nil, err
		}
		x, err = b.coerce(n.X, x, types.BoolType, "argument of IS TRUE")
		if err != nil {
			return nil, err
		}
		// x IS TRUE = x IS NOT DISTINCT FROM true; IS NOT TRUE negates it.
		want := &Const{Value: n.Value, T: types.BoolType}
		op := OpIsNotDistinct
		if n.Not {
			op = OpIsDistinct
		}
		return &BinaryOp{Op: op, L: x, R: want, T: types.BoolType}, nil
	case *pt.Between:
		if !n.Symmetric {
			return b.bindBetween(s, n) // inlist.go
		}
		// BETWEEN SYMMETRIC: (x >= a AND x <= b) OR (x >= b AND x <= a), as
		// PostgreSQL expands it (NULL bounds included); the expansion's
		// nodes have no place of their own.
		lo := &pt.Binary{Op: pt.Ge, L: n.X, R: n.Lo}
		hi := &pt.Binary{Op: pt.Le, L: n.X, R: n.Hi}
		swapped := &pt.Binary{Op: pt.And,
			L: &pt.Binary{Op: pt.Ge, L: n.X, R: n.Hi},
			R: &pt.Binary{Op: pt.Le, L: n.X, R: n.Lo}}
		var x pt.Expr = &pt.Binary{Op: pt.Or, L: &pt.Binary{Op: pt.And, L: lo, R: hi}, R: swapped}
		if n.Not {
			x = &pt.Unary{Op: pt.UNot, X: x}
		}
		return b.bindTree(s, x)
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
	}
	return b.bindUntransformed(s, e)
}
