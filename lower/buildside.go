package lower

import "github.com/sqlgate/sqlgate/binder"

// outerBuildSide makes the smaller estimated input of an outer hash join
// its build side (the right input), as join ordering does for inner joins:
// L LEFT JOIN R with R the larger becomes R RIGHT JOIN L (and the other way
// round; a FULL join stays FULL), the condition rewritten over the swapped
// columns and a projection on top restoring the column order. Semi and
// anti joins keep their sides: the hash join builds their right input and
// has no form that builds the left. Joins without an equality (nested
// loops) are left alone.
func (e *estimator) outerBuildSide(n binder.Node) binder.Node {
	n = rewriteChildren(n, e.outerBuildSide)
	j, ok := n.(*binder.Join)
	if !ok || j.Cond == nil {
		return n
	}
	var swapped binder.JoinType
	switch j.Type {
	case binder.LeftJoin:
		swapped = binder.RightJoin
	case binder.RightJoin:
		swapped = binder.LeftJoin
	case binder.FullJoin:
		swapped = binder.FullJoin
	default:
		return n
	}
	nl := len(j.Left.Columns())
	if countEqui(conjuncts(j.Cond), nl) == 0 || e.rows(j.Right) <= e.rows(j.Left) {
		return n
	}
	nr := len(j.Right.Columns())
	pos := map[int]int{} // old column -> its place in the swapped join
	for i := range nl {
		pos[i] = nr + i
	}
	for k := range nr {
		pos[nl+k] = k
	}
	nj := binder.NewJoin(j.Right, j.Left, swapped, remapColumns(j.Cond, pos))
	cols := j.Columns()
	njc := nj.Columns()
	p := &binder.Project{Input: nj, Cols: cols}
	for i := range cols {
		p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: pos[i], Name: njc[pos[i]].Name, T: njc[pos[i]].T})
	}
	return p
}
