package binder

import "github.com/sqlgate/sqlgate/types"

// arena hands out the bound expression nodes a statement makes most of
// (literals, column references, operators and casts) from chunks instead
// of one heap allocation each: binding a 200-character SELECT makes about
// sixty of them, and their allocation was most of the binder's time. A
// chunk lives as long as any node in it, i.e. as long as the bound
// statement; the nodes are ordinary pointers to the rest of the code.
type arena struct {
	consts slab[Const]
	refs   slab[ColumnRef]
	bins   slab[BinaryOp]
	casts  slab[Cast]
}

// slab is a chunk of T handed out one element at a time. Chunks grow
// (8, 16, 32) so that a one-literal statement does not pay for a large
// one.
type slab[T any] struct {
	free []T
	next int
}

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.next = min(max(2*s.next, 8), 32)
		s.free = make([]T, s.next)
	}
	x := &s.free[0]
	s.free = s.free[1:]
	return x
}

func (b *binder) newConst(v any, t types.T) *Const {
	c := b.arena.consts.new()
	*c = Const{Value: v, T: t}
	return c
}

func (b *binder) newColumnRef(index int, name string, t types.T) *ColumnRef {
	c := b.arena.refs.new()
	*c = ColumnRef{Index: index, Name: name, T: t}
	return c
}

func (b *binder) newBinaryOp(op Op, l, r Expr, t types.T) *BinaryOp {
	x := b.arena.bins.new()
	*x = BinaryOp{Op: op, L: l, R: r, T: t}
	return x
}

func (b *binder) newCast(x Expr, t types.T) *Cast {
	c := b.arena.casts.new()
	*c = Cast{X: x, T: t}
	return c
}
