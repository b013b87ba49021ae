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
	for _, c := range conds {
		rejects |= nullRejected(c, nl, true)
	}
	switch j.Type {
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
	return j.Type
}

// nullRejected returns the join sides (bits 1 left, 2 right) whose columns
// being all NULL make e NULL or false (find_nonnullable_rels): a column is
// NULL when its side is; a strict operator, cast or function is NULL when
// an operand is; AND when either operand rejects, OR when both do; NOT
// when its operand does; IS NOT NULL (at the top of a condition) when its
// operand does.
func nullRejected(e binder.Expr, nl int, top bool) int {
	switch x := e.(type) {
	case *binder.ColumnRef:
		if x.Index < nl {
			return 1
		}
		return 2
	case *binder.BinaryOp:
		switch x.Op {
		case binder.OpAnd:
			return nullRejected(x.L, nl, top) | nullRejected(x.R, nl, top)
		case binder.OpOr:
			return nullRejected(x.L, nl, top) & nullRejected(x.R, nl, top)
		case binder.OpIsDistinct, binder.OpIsNotDistinct:
			return 0
		case binder.OpConcat:
			if !plainText(x.L.Type()) || !plainText(x.R.Type()) {
				return 0 // array || x is not strict
			}
		}
		return nullRejected(x.L, nl, false) | nullRejected(x.R, nl, false)
	case *binder.UnaryOp:
		return nullRejected(x.X, nl, false)
	case *binder.Cast:
		return nullRejected(x.X, nl, false)
	case *binder.IsNull:
		if x.Not && top {
			return nullRejected(x.X, nl, false)
		}
		return 0
	case *binder.FuncCall:
		if x.Volatile || !strictFunc(x.Name) {
			return 0
		}
		s := 0
		for _, a := range x.Args {
			s |= nullRejected(a, nl, false)
		}
		return s
	}
	return 0
}
