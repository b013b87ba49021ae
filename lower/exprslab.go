package lower

import (
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
)

// exprSlab holds the commonest lowered expression nodes of one lowering
// (an expression, or all of a node's expressions) in one array per kind,
// sized by counting the bound expressions first: a projection or filter
// then costs a handful of allocations instead of one per node. The counts
// are an upper estimate (a folded constant leaves its slots unused); a
// kind that runs out is allocated one node at a time.
type exprSlab struct {
	cols   []exec.ColExpr
	consts []exec.ConstExpr
	cmps   []exec.CmpExpr
	logics []exec.LogicExpr
	ariths []exec.ArithExpr
	// n counts the nodes of each kind (add) before make sizes the arrays.
	n struct{ cols, consts, cmps, logics, ariths int }
}

// newExprSlab sizes a slab for lowering es.
func newExprSlab(es ...binder.Expr) exprSlab {
	var s exprSlab
	s.add(es...)
	s.make()
	return s
}

// add counts the nodes of es (nil entries are skipped) for make.
func (s *exprSlab) add(es ...binder.Expr) {
	for _, e := range es {
		if e == nil {
			continue
		}
		if _, ok := e.(*binder.Const); ok {
			// a VALUES row's cells are mostly constants: counted
			// without the walk's closure call
			s.n.consts++
			continue
		}
		binder.Walk(e, func(x binder.Expr) {
			switch x := x.(type) {
			case *binder.ColumnRef:
				s.n.cols++
			case *binder.Const:
				// a cast of a literal folds into one constant: the
				// literal's count covers it
				s.n.consts++
			case *binder.BinaryOp:
				switch {
				case x.Op == binder.OpAnd || x.Op == binder.OpOr:
					s.n.logics++
				case x.Op == binder.OpConcat:
				default:
					if _, ok := arithOp(x.Op); ok {
						s.n.ariths++
					} else if _, ok := cmpOp(x.Op); ok {
						s.n.cmps++
					}
				}
			}
		})
	}
}

// make allocates the arrays add counted.
func (s *exprSlab) make() {
	s.cols = sized[exec.ColExpr](s.n.cols)
	s.consts = sized[exec.ConstExpr](s.n.consts)
	s.cmps = sized[exec.CmpExpr](s.n.cmps)
	s.logics = sized[exec.LogicExpr](s.n.logics)
	s.ariths = sized[exec.ArithExpr](s.n.ariths)
}

// sized is an empty slice with room for n, or nil: a kind the expressions
// lack costs nothing, and one that has a single node one allocation as
// before.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}

// take returns the next free element of *s, or a new one when *s is full.
func take[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		return new(T)
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}
