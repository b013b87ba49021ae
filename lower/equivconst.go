package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// impliedConstants are the equalities of a column with a constant that
// the conjuncts cs of an inner join's condition and the filter over it
// imply and do not hold: a = b AND a = 5 implies b = 5, as PostgreSQL's
// equivalence classes do (generate_base_implied_equalities_const), which
// then filter each input by its own member, the constant reaching a
// grouped derived table's key below its aggregation (SELECT .. FROM (SELECT
// g, sum(1/v) FROM t GROUP BY g) s JOIN u ON u.k = s.g WHERE u.k = 1
// aggregates group 1 only). Columns are equated with columns of their own
// type, and with a constant of their type or, widened, of a wider integer
// type (int4 = 1::bigint, PostgreSQL's integer_ops family); PostgreSQL's
// other cross-type classes are left out.
func impliedConstants(cs []binder.Expr) []binder.Expr {
	parent := map[int]int{}
	find := func(c int) int {
		for {
			p, ok := parent[c]
			if !ok || p == c {
				return c
			}
			c = p
		}
	}
	cols := map[int]*binder.ColumnRef{}
	type fixed struct {
		col  *binder.ColumnRef
		cast *binder.Cast // the column widened to the constant's integer type, or nil
		k    *binder.Const
	}
	var consts []fixed
	has := map[int]bool{} // columns with a constant of their own
	for _, c := range cs {
		b, ok := c.(*binder.BinaryOp)
		if !ok || b.Op != binder.OpEq {
			continue
		}
		l, lok := b.L.(*binder.ColumnRef)
		r, rok := b.R.(*binder.ColumnRef)
		if lok && rok {
			if l.Index != r.Index && l.T.Same(&r.T) {
				cols[l.Index], cols[r.Index] = l, r
				parent[find(l.Index)] = find(r.Index)
			}
			continue
		}
		side, k := b.L, b.R
		if _, ok := k.(*binder.Const); !ok {
			side, k = b.R, b.L
		}
		kc, ok := k.(*binder.Const)
		if !ok || kc.Value == nil {
			continue
		}
		// a column of the constant's type, or an integer column widened
		// to it (int4 = 1::bigint: PostgreSQL's integer_ops family)
		switch x := side.(type) {
		case *binder.ColumnRef:
			if x.T.Same(&kc.T) {
				consts = append(consts, fixed{col: x, k: kc})
				has[x.Index] = true
			}
		case *binder.Cast:
			if col, ok := x.X.(*binder.ColumnRef); ok && !x.Assign && col.T.IsInteger() && x.T.IsInteger() && col.T.Kind <= x.T.Kind && x.T.Same(&kc.T) {
				consts = append(consts, fixed{col: col, cast: x, k: kc})
				has[col.Index] = true
			}
		}
	}
	if len(consts) == 0 || len(cols) == 0 {
		return nil
	}
	byClass := map[int]fixed{}
	for _, f := range consts {
		if _, ok := cols[f.col.Index]; !ok {
			continue
		}
		if root := find(f.col.Index); byClass[root].k == nil {
			byClass[root] = f
		}
	}
	var out []binder.Expr
	for i, col := range cols {
		f := byClass[find(i)]
		if f.k == nil || has[i] {
			continue
		}
		has[i] = true
		var l binder.Expr = col
		if f.cast != nil {
			l = &binder.Cast{X: col, T: f.cast.T}
		}
		out = append(out, &binder.BinaryOp{Op: binder.OpEq, L: l, R: f.k, T: types.BoolType})
	}
	// in column order, so that a plan does not depend on a map's order
	slices.SortFunc(out, func(a, b binder.Expr) int { return leftColumn(a) - leftColumn(b) })
	return out
}

func leftColumn(e binder.Expr) int {
	l := e.(*binder.BinaryOp).L
	if c, ok := l.(*binder.Cast); ok {
		l = c.X
	}
	return l.(*binder.ColumnRef).Index
}
