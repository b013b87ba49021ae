package lower

import "github.com/sqlgate/sqlgate/binder"

// Outer-join reduction (PostgreSQL's reduce_outer_joins): a WHERE
// condition that cannot be true when one side's columns are all NULL
// removes every row the join NULL-extends on that side, so the join is
// planned as if that side were not NULL-extended: a LEFT join whose WHERE
// rejects NULLs of its right side is an inner join. Besides the cheaper
// plan, this is observable through errors: the condition then runs on that
// side's rows below the join (filterIntoJoin), rows the join would remove
// included, as PostgreSQL runs it there.

// reduceOuterJoin returns j's type once the conjuncts of the WHERE
// condition above it are applied (nl is the left input's width).
func reduceOuterJoin(j *binder.Join, conds []binder.Expr, nl int) binder.JoinType {
	var rejects int // 1: NULLs of the left side, 2: of the right side
	side := splitAt(nl)
	for _, c := range conds {
		rejects |= nullRejected(c, side, true)
	}
	return reducedType(j.Type, rejects)
}

// splitAt is nullRejected's sides of a join whose left input is nl wide.
func splitAt(nl int) func(int) int {
	return func(i int) int {
		if i < nl {
			return 1
		}
		return 2
	}
}

// reducedType is an outer join's type once the NULL-extended rows of the
// sides rejects names (bits 1 left, 2 right) are known to be removed.
func reducedType(t binder.JoinType, rejects int) binder.JoinType {
	switch t {
	case binder.LeftJoin:
		if rejects&2 != 0 {
			return binder.InnerJoin
		}
	case binder.RightJoin:
		if rejects&1 != 0 {
			return binder.InnerJoin
		}
	case binder.FullJoin:
		switch rejects {
		case 3:
			return binder.InnerJoin
		case 1: // the left side's NULL-extended rows go: what is left is right-preserving
			return binder.LeftJoin
		case 2:
			return binder.RightJoin
		}
	}
	return t
}

// reduceBelowJoin is outer-join reduction by a join's own condition, as
// reduce_outer_joins passes a join's quals down to the inputs they filter:
// an input of j that is itself an outer join loses the NULL-extended rows
// of a side whose NULLs the condition rejects, when j keeps only rows
// where its condition holds on that input's rows (both inputs of an inner
// or semi join; the NULL-extended input of a LEFT, RIGHT or anti join,
// whose preserved input's rows the condition does not filter). So
// (x FULL JOIN y ON x.a > 1) RIGHT JOIN z ON z.id = x.id runs its FULL
// JOIN as x LEFT JOIN y, which PostgreSQL accepts with any condition
// (fulljoinquals.go).
func reduceBelowJoin(j *binder.Join) *binder.Join {
	if j.Cond == nil {
		return j
	}
	var toLeft, toRight bool
	switch j.Type {
	case binder.InnerJoin, binder.CrossJoin, binder.SemiJoin:
		toLeft, toRight = true, true
	case binder.LeftJoin:
		toRight = true
	case binder.AntiJoin:
		// NOT IN's anti join (NullAware) drops a left row that meets a
		// NULL comparison, so a NULL-extended right row matters to it:
		// only NOT EXISTS's rejects them as a filter would.
		toRight = !j.NullAware
	case binder.RightJoin:
		toLeft = true
	}
	toLeft = toLeft && outerJoinInput(j.Left) != nil
	toRight = toRight && outerJoinInput(j.Right) != nil
	if !toLeft && !toRight {
		return j // the common case, without allocating
	}
	conds := conjuncts(j.Cond)
	nl := len(j.Left.Columns())
	out := j
	if toLeft {
		if in, ok := reduceInput(j.Left, conds, 0); ok {
			c := *out
			c.Left, out = in, &c
		}
	}
	if toRight {
		if in, ok := reduceInput(j.Right, conds, nl); ok {
			c := *out
			c.Right, out = in, &c
		}
	}
	return out
}

// outerJoinInput is the outer join n is, or that a filter n is over; nil
// when there is none.
func outerJoinInput(n binder.Node) *binder.Join {
	if f, ok := n.(*binder.Filter); ok {
		n = f.Input
	}
	if j, ok := n.(*binder.Join); ok && (j.Type == binder.LeftJoin || j.Type == binder.RightJoin || j.Type == binder.FullJoin) {
		return j
	}
	return nil
}

// reduceInput reduces the outer join n (or the one under a filter n), an
// input of a join whose columns it holds from offset on, by the join's
// condition conds; ok is false when nothing changes.
func reduceInput(n binder.Node, conds []binder.Expr, offset int) (binder.Node, bool) {
	f, _ := n.(*binder.Filter)
	j := outerJoinInput(n)
	if j == nil {
		return nil, false
	}
	nl, width := len(j.Left.Columns()), len(j.Columns())
	side := func(i int) int {
		switch {
		case i < offset || i >= offset+width:
			return 0 // the other input's column
		case i < offset+nl:
			return 1
		}
		return 2
	}
	rejects := 0
	for _, c := range conds {
		rejects |= nullRejected(c, side, true)
	}
	t := reducedType(j.Type, rejects)
	if t == j.Type {
		return nil, false
	}
	reduced := *j
	reduced.Type = t
	if f != nil {
		return &binder.Filter{Input: &reduced, Cond: f.Cond}, true
	}
	return &reduced, true
}

// nullRejected returns the join sides (bits 1 left, 2 right) whose columns
// being all NULL make e NULL or false (find_nonnullable_rels): a column is
// NULL when its side is; a strict operator, cast or function is NULL when
// an operand is; AND at the top of a condition when either operand
// rejects (either being false or NULL removes the row), below it (an
// operand of an operator, NOT, ...) only when both do, as OR: there one
// NULL operand still leaves false AND NULL = false, a value, so
// ((b.i IS NULL) AND a.f) >= b.f is true for a's NULLs where b.f is false
// (find_nonnullable_rels_walker's AND_EXPR below top level falls through
// to OR_EXPR's intersection); NOT when its operand does; IS NOT NULL (at
// the top of a condition) when its operand does.
func nullRejected(e binder.Expr, side func(int) int, top bool) int {
	switch x := e.(type) {
	case *binder.ColumnRef:
		return side(x.Index)
	case *binder.BinaryOp:
		switch x.Op {
		case binder.OpAnd:
			if !top {
				return nullRejected(x.L, side, false) & nullRejected(x.R, side, false)
			}
			return nullRejected(x.L, side, top) | nullRejected(x.R, side, top)
		case binder.OpOr:
			return nullRejected(x.L, side, top) & nullRejected(x.R, side, top)
		case binder.OpIsDistinct, binder.OpIsNotDistinct:
			return 0
		case binder.OpConcat:
			if !plainText(x.L.Type()) || !plainText(x.R.Type()) {
				return 0 // array || x is not strict
			}
		}
		return nullRejected(x.L, side, false) | nullRejected(x.R, side, false)
	case *binder.UnaryOp:
		return nullRejected(x.X, side, false)
	case *binder.Cast:
		return nullRejected(x.X, side, false)
	case *binder.IsNull:
		if x.Not && top {
			return nullRejected(x.X, side, false)
		}
		return 0
	case *binder.FuncCall:
		if x.Volatile || !strictFunc(x.Name) {
			return 0
		}
		s := 0
		for _, a := range x.Args {
			s |= nullRejected(a, side, false)
		}
		return s
	}
	return 0
}
