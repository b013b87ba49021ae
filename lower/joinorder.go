package lower

import (
	"math"

	"github.com/sqlgate/sqlgate/binder"
)

// orderJoins reorders each tree of inner and cross joins over the graph of
// its conditions, greedily: of the pairs of relations (or already joined
// groups) that an equality connects, it joins the pair with the smallest
// estimated result first, and repeats; only when no condition connects
// what is left does it fall back to a condition that is not an equality,
// and only when none connects anything to a cross product (of the two
// smallest), so a connected graph never gets one. Each join's build side
// (the right input of the hash join) is the smaller estimated input. Every
// condition goes to the lowest join that has all its columns; a projection
// on top restores the original column order, so the plan's schema is kept.
func (e *estimator) orderJoins(n binder.Node) binder.Node {
	j, ok := n.(*binder.Join)
	if !ok || !innerJoin(j) {
		return rewriteChildren(n, e.orderJoins)
	}
	g := &joinGraph{}
	g.collect(j, 0, e)
	if len(g.leaves) < 2 {
		return rewriteChildren(n, e.orderJoins)
	}
	return g.order(e, j.Columns())
}

func innerJoin(j *binder.Join) bool {
	return j.Type == binder.InnerJoin || j.Type == binder.CrossJoin
}

// joinGraph is one tree of inner joins flattened: its leaves (each already
// reordered inside) and its conditions over the leaves' columns numbered
// in the tree's output order.
type joinGraph struct {
	leaves []binder.Node
	rows   []float64
	first  []int // each leaf's first column in the global numbering
	leafOf []int // global column -> leaf
	conds  []binder.Expr
}

func (g *joinGraph) collect(n binder.Node, offset int, e *estimator) {
	if j, ok := n.(*binder.Join); ok && innerJoin(j) {
		g.collect(j.Left, offset, e)
		g.collect(j.Right, offset+len(j.Left.Columns()), e)
		if j.Cond != nil {
			for _, c := range conjuncts(j.Cond) {
				g.conds = append(g.conds, shiftColumns(c, offset))
			}
		}
		return
	}
	leaf := e.orderJoins(n)
	g.first = append(g.first, offset)
	for range leaf.Columns() {
		g.leafOf = append(g.leafOf, len(g.leaves))
	}
	g.leaves = append(g.leaves, leaf)
	g.rows = append(g.rows, e.rows(leaf))
}

// group is a set of leaves joined so far.
type group struct {
	node binder.Node
	rows float64
	cols []int // the global column each of node's columns is
}

// pending is a condition not placed yet.
type pending struct {
	expr   binder.Expr
	leaves []int // the leaves it reads
	equi   bool  // an equality between two leaves' expressions
	// For an equality of two columns with known distinct counts: each
	// side's leaf and count (ndvOK false otherwise).
	ndvLeaf [2]int
	ndvVal  [2]float64
	ndvOK   bool
}

// keyNDV is the divisor of the join estimate p gives between groups (the
// larger side's distinct count, each capped by its group's rows); 0 when
// unknown.
func (p *pending) keyNDV(groups []*group, groupOf []int) float64 {
	if !p.ndvOK {
		return 0
	}
	a := math.Min(p.ndvVal[0], groups[groupOf[p.ndvLeaf[0]]].rows)
	b := math.Min(p.ndvVal[1], groups[groupOf[p.ndvLeaf[1]]].rows)
	return math.Max(a, b)
}

// setNDV records the distinct counts of an equality's two columns.
func (g *joinGraph) setNDV(p *pending, e *estimator) {
	b := p.expr.(*binder.BinaryOp)
	for i, side := range []binder.Expr{b.L, b.R} {
		c := underlyingColumn(side)
		if c == nil {
			return
		}
		leaf := g.leafOf[c.Index]
		v, ok := e.colNDV(g.leaves[leaf], c.Index-g.first[leaf])
		if !ok {
			return
		}
		p.ndvLeaf[i], p.ndvVal[i] = leaf, v
	}
	p.ndvOK = true
}

func (g *joinGraph) order(e *estimator, out []binder.Column) binder.Node {
	groups := make([]*group, len(g.leaves))
	groupOf := make([]int, len(g.leaves)) // leaf -> index in groups
	for i, l := range g.leaves {
		cols := make([]int, len(l.Columns()))
		for k := range cols {
			cols[k] = g.first[i] + k
		}
		groups[i] = &group{node: l, rows: g.rows[i], cols: cols}
		groupOf[i] = i
	}
	var conds []*pending
	var constant []binder.Expr // conditions that read no column
	for _, c := range g.conds {
		p := &pending{expr: c}
		seen := map[int]bool{}
		for _, col := range columnsOf(c) {
			if l := g.leafOf[col]; !seen[l] {
				seen[l] = true
				p.leaves = append(p.leaves, l)
			}
		}
		if len(p.leaves) == 0 {
			constant = append(constant, c)
			continue
		}
		p.equi = isEquiJoin(c, g.leafOf)
		if p.equi {
			g.setNDV(p, e)
		}
		conds = append(conds, p)
	}
	alive := len(groups)
	for alive > 1 {
		a, b := g.pick(groups, groupOf, conds)
		ga, gb := groups[a], groups[b]
		// conditions within the two groups join them
		var here []binder.Expr
		equi, ndv := 0, 0.0
		rest := conds[:0]
		for _, p := range conds {
			if within(p.leaves, groupOf, a, b) {
				here = append(here, p.expr)
				if p.equi {
					equi++
					ndv = math.Max(ndv, p.keyNDV(groups, groupOf))
				}
				continue
			}
			rest = append(rest, p)
		}
		conds = rest
		rows := joinRows(ga.rows, gb.rows, binder.InnerJoin, equi, len(here), ndv)
		left, right := ga, gb
		if right.rows > left.rows {
			left, right = right, left // build the hash table on the smaller input
		}
		merged := &group{rows: rows, cols: append(append([]int{}, left.cols...), right.cols...)}
		typ, cond := binder.CrossJoin, binder.Expr(nil)
		if len(here) > 0 {
			pos := map[int]int{}
			for i, c := range merged.cols {
				pos[c] = i
			}
			typ, cond = binder.InnerJoin, remapColumns(and(here), pos)
		}
		merged.node = binder.NewJoin(left.node, right.node, typ, cond)
		groups[a], groups[b] = merged, nil
		for l, gi := range groupOf {
			if gi == b {
				groupOf[l] = a
			}
		}
		alive--
	}
	var top *group
	for _, gr := range groups {
		if gr != nil {
			top = gr
		}
	}
	var node binder.Node = top.node
	if len(constant) > 0 {
		node = &binder.Filter{Input: node, Cond: and(constant)}
	}
	pos := make([]int, len(top.cols))
	for i, c := range top.cols {
		pos[c] = i
	}
	cols := node.Columns()
	p := &binder.Project{Input: node, Cols: out}
	for i := range out {
		c := cols[pos[i]]
		p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: pos[i], Name: c.Name, T: c.T})
	}
	return p
}

// pick chooses the two groups to join next: connected by an equality with
// the smallest estimated result; else connected by any condition; else the
// two smallest.
func (g *joinGraph) pick(groups []*group, groupOf []int, conds []*pending) (int, int) {
	best, ba, bb := math.Inf(1), -1, -1
	for _, equiOnly := range []bool{true, false} {
		for _, p := range conds {
			if equiOnly && !p.equi {
				continue
			}
			a, b, ok := twoGroups(p.leaves, groupOf)
			if !ok {
				continue
			}
			ga, gb := groups[a], groups[b]
			ndv := 0.0
			if p.equi {
				ndv = p.keyNDV(groups, groupOf)
			}
			est := joinRows(ga.rows, gb.rows, binder.InnerJoin, b2i(p.equi), 1, ndv)
			// ties go to the pair seen first, which keeps the written order
			if est < best {
				best, ba, bb = est, a, b
			}
		}
		if ba >= 0 {
			return min(ba, bb), max(ba, bb)
		}
	}
	// no condition connects two groups: a cross product of the smallest
	for i, gr := range groups {
		switch {
		case gr == nil:
		case ba < 0 || gr.rows < groups[ba].rows:
			ba, bb = i, ba
		case bb < 0 || gr.rows < groups[bb].rows:
			bb = i
		}
	}
	return min(ba, bb), max(ba, bb)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// twoGroups reports the two groups a condition's leaves lie in, if exactly two.
func twoGroups(leaves []int, groupOf []int) (int, int, bool) {
	a, b := -1, -1
	for _, l := range leaves {
		switch gi := groupOf[l]; {
		case a < 0 || gi == a:
			a = gi
		case b < 0 || gi == b:
			b = gi
		default:
			return 0, 0, false
		}
	}
	return a, b, b >= 0
}

func within(leaves []int, groupOf []int, a, b int) bool {
	for _, l := range leaves {
		if gi := groupOf[l]; gi != a && gi != b {
			return false
		}
	}
	return true
}

// isEquiJoin reports whether c is l = r with l and r reading disjoint,
// non-empty sets of leaves (a hash-join key once those sides meet).
func isEquiJoin(c binder.Expr, leafOf []int) bool {
	b, ok := c.(*binder.BinaryOp)
	if !ok || b.Op != binder.OpEq {
		return false
	}
	ls, rs := map[int]bool{}, map[int]bool{}
	for _, col := range columnsOf(b.L) {
		ls[leafOf[col]] = true
	}
	for _, col := range columnsOf(b.R) {
		rs[leafOf[col]] = true
	}
	if len(ls) == 0 || len(rs) == 0 {
		return false
	}
	for l := range ls {
		if rs[l] {
			return false
		}
	}
	return true
}
