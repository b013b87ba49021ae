package binder

// Recheck is what a joined UPDATE ... FROM or DELETE ... USING runs for a
// target row a concurrent transaction changed under it, at READ COMMITTED
// (PostgreSQL's EvalPlanQual): the row's newest version, joined with the
// SAME rows of the other tables it had joined (as the statement first read
// them), not a fresh join. The write's source rows carry those rows'
// columns from At on, for the first pass to keep the deferred ones; Rel
// holds, for the second, each such row as the target's newest columns (in
// table order) followed by them, and Plan is the write's source plan over
// Rel in place of the join: the WHERE re-checked, the SET or RETURNING
// values computed again.
type Recheck struct {
	Rel  *MergeRows
	Plan Node
	At   int
}

// bindRecheck builds the Recheck of a write whose source plan src reads
// input (the target's scan joined with the other tables, filtered by
// WHERE: bindDMLFrom's) through a chain of projections; nil when src has
// another shape, which keeps the second pass a fresh run of the plan.
func bindRecheck(src, input Node) *Recheck {
	var join Node = input
	var cond Expr
	if f, ok := input.(*Filter); ok {
		join, cond = f.Input, f.Cond
	}
	if _, ok := join.(*Join); !ok {
		return nil
	}
	rel := &MergeRows{}
	for _, c := range input.Columns() {
		rel.cols = append(rel.cols, FileColumn{Name: c.Name, Type: c.T})
	}
	var in Node = &FileTable{File: rel, cols: input.Columns()}
	if cond != nil {
		in = &Filter{Input: in, Cond: cond}
	}
	plan := rebase(src, input, in)
	if plan == nil {
		return nil
	}
	return &Recheck{Rel: rel, Plan: plan}
}

// rebase copies the chain of projections from n down to from, with to in
// from's place (nil: the chain holds another node).
func rebase(n, from, to Node) Node {
	if n == from {
		return to
	}
	p, ok := n.(*Project)
	if !ok {
		return nil
	}
	in := rebase(p.Input, from, to)
	if in == nil {
		return nil
	}
	cp := *p
	cp.Input = in
	return &cp
}

// joinedRecheck appends to p the columns of input from ncols on (the
// other tables' columns of a joined write's rows, which p's rows are
// computed from, passed through at the same places), where the first pass
// keeps them, and builds the write's Recheck over p (nil: p's shape keeps
// the second pass a fresh run of the plan).
func (b *binder) joinedRecheck(p *Project, input Node, ncols int) *Recheck {
	at := len(p.Exprs)
	cols := input.Columns()
	for i := ncols; i < len(cols); i++ {
		c := cols[i]
		p.Exprs = append(p.Exprs, &ColumnRef{Index: i, Name: c.Name, T: c.T})
		c.Name = "joined_" + c.Name
		p.Cols = append(p.Cols, c)
	}
	re := bindRecheck(p, input)
	if re != nil {
		re.At = at
		re.Plan = b.finishParams(re.Plan)
	}
	return re
}
