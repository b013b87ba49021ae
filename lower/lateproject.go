package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/pgtypes"
)

// lateProjections computes a derived table's output expressions where
// PostgreSQL computes them once it has pulled the derived table up into
// the join above it (prepjointree.c's pull_up_subqueries): at the join's
// output, for the rows that survive the join and the filters over it, and
// only where something above reads them. Before the join stay only the
// columns the join's equality keys read (a hash join's keys are computed
// per input row there too) and those a filter below the join reads (a
// WHERE conjunct of the derived table's own columns, which filter_pushdown
// has already moved below with the expression substituted, as PostgreSQL
// pushes the qual down to the scan). So
//
//	SELECT s.b FROM (SELECT k, t::boolean AS b FROM t) s JOIN u ON s.k = u.k
//
// casts t only for the rows that find a partner in u: a row of t whose
// text is not a boolean and that joins nothing raises nothing, as there.
//
// A derived table is pulled up only when PostgreSQL's is_simple_subquery
// would: its projection is over scans, filters, projections and joins (no
// aggregation, window, DISTINCT, ORDER BY, LIMIT, set operation, VALUES,
// set-returning function), and no output expression is volatile
// (mustCompute: then every output is computed below, once per row). Only
// deterministic expressions without subqueries or outer references move.
// A derived table is pulled up from either side of an inner or cross
// join, the preserved side of a LEFT or RIGHT join and the outer side of a
// semi or anti join; from a NULL-extended side only its strict
// expressions move (NULL for the NULL-extended rows, computed over them
// without an error): PostgreSQL evaluates a non-strict one there below
// the join, as a PlaceHolderVar (pullup_replace_vars_callback).
//
// Runs after the pruning rules (which have dropped the outputs nothing
// reads) and before projection pushdown; the plan's schema stays: a
// projection over the join gives its columns back.
func lateProjections(n binder.Node) binder.Node {
	switch x := n.(type) {
	case *binder.Project:
		if in, exprs, ok := liftOverJoin(x.Input, slices.ContainsFunc(x.Exprs, correlatedSubquery)); ok {
			out := &binder.Project{Input: in, Cols: x.Cols, Exprs: make([]binder.Expr, len(x.Exprs))}
			for i, e := range x.Exprs {
				out.Exprs[i] = inlineSubPlans(substitute(e, exprs))
			}
			return out
		}
	case *binder.Filter, *binder.Join, *binder.Lateral:
		if in, exprs, ok := liftOverJoin(n, false); ok {
			return &binder.Project{Input: in, Exprs: exprs, Cols: n.Columns()}
		}
	case *binder.Aggregate:
		if x.GroupingSet {
			// PlaceHolderVars: computed below the joins, for every row of
			// the derived table (binder.Aggregate's GroupingSet)
			return n
		}
	}
	return inlineNodeSubPlans(rewriteChildren(n, lateProjections))
}

// inlineNodeSubPlans is inlineSubPlans over the expressions of a
// projection or a filter (where earlier rules substituted a pulled-up
// derived table's expressions for its columns: projection_elimination,
// filter_pushdown).
func inlineNodeSubPlans(n binder.Node) binder.Node {
	switch x := n.(type) {
	case *binder.Project:
		if slices.ContainsFunc(x.Exprs, correlatedSubquery) {
			out := &binder.Project{Input: x.Input, Cols: x.Cols, Exprs: make([]binder.Expr, len(x.Exprs))}
			for i, e := range x.Exprs {
				out.Exprs[i] = inlineSubPlans(e)
			}
			return out
		}
	case *binder.Filter:
		if correlatedSubquery(x.Cond) {
			return &binder.Filter{Input: x.Input, Cond: inlineSubPlans(x.Cond)}
		}
	}
	return n
}

// liftOverJoin lifts the derived tables' expressions out of the join under
// n's filters (whose conditions then compute them), returning the new node
// and, per column of n, the expression over the new node's columns that
// computes it; ok is false when n is no join under filters or nothing
// moves. With subPlans (a correlated subquery above reads n) or under a
// filter holding one, a derived table alone is pulled up too, so that the
// subquery computes its expressions (inlineSubPlans).
func liftOverJoin(n binder.Node, subPlans bool) (binder.Node, []binder.Expr, bool) {
	switch x := n.(type) {
	case *binder.Filter:
		in, exprs, ok := liftOverJoin(x.Input, subPlans || correlatedSubquery(x.Cond))
		if !ok {
			return nil, nil, false
		}
		return &binder.Filter{Input: in, Cond: inlineSubPlans(substitute(x.Cond, exprs))}, exprs, true
	case *binder.Join:
		return liftJoin(x, nil, false)
	case *binder.Lateral:
		if x.Type == binder.InnerJoin || x.Type == binder.CrossJoin || x.Type == binder.LeftJoin {
			return liftLateral(x)
		}
	case *binder.Project:
		if subPlans {
			return liftProject(x, nil, false)
		}
	}
	return nil, nil, false
}

// correlatedSubquery reports whether e holds a subquery that reads the
// row (a SubPlan with parameters).
func correlatedSubquery(e binder.Expr) bool {
	return anyExpr(e, func(x binder.Expr) bool {
		sq, ok := x.(*binder.Subquery)
		return ok && len(sq.Outer) > 0
	})
}

// liftJoin lifts from j's inputs what its type allows, keeping below the
// columns its equality keys read and those of keep (of j's output).
// strict says j is itself on a NULL-extended side.
func liftJoin(j *binder.Join, keep map[int]bool, strict bool) (binder.Node, []binder.Expr, bool) {
	fromLeft, fromRight := true, true
	strictL, strictR := strict, strict
	switch j.Type {
	case binder.LeftJoin:
		strictR = true
	case binder.RightJoin:
		strictL = true
	case binder.FullJoin:
		strictL, strictR = true, true
	case binder.SemiJoin, binder.AntiJoin:
		fromRight = false // read by the condition only
	}
	nl := len(j.Left.Columns())
	keepL, keepR := map[int]bool{}, map[int]bool{}
	for i := range keep {
		if i < nl {
			keepL[i] = true
		} else {
			keepR[i-nl] = true
		}
	}
	if j.Cond != nil {
		for _, c := range conjuncts(j.Cond) {
			if _, _, ok := equiKey(c, nl); !ok && !j.NullAware {
				continue // computed at the join, over the lifted expressions
			}
			for _, i := range columnsOf(c) {
				if i < nl {
					keepL[i] = true
				} else {
					keepR[i-nl] = true
				}
			}
		}
	}
	l, le, lok := liftSide(j.Left, keepL, fromLeft, strictL)
	r, re, rok := liftSide(j.Right, keepR, fromRight, strictR)
	if !lok && !rok {
		return nil, nil, false
	}
	nlNew := len(l.Columns())
	all := make([]binder.Expr, 0, len(le)+len(re))
	all = append(all, le...)
	for _, e := range re {
		all = append(all, shiftColumns(e, nlNew))
	}
	var cond binder.Expr
	if j.Cond != nil {
		cond = substitute(j.Cond, all)
	}
	out := binder.NewJoin(l, r, j.Type, cond)
	out.NullAware = j.NullAware
	if j.Type == binder.SemiJoin || j.Type == binder.AntiJoin {
		return out, le, true
	}
	return out, all, true
}

// liftSide is liftInput when lift holds, else n with its own subtree
// rewritten by lateProjections and every column in place.
func liftSide(n binder.Node, keep map[int]bool, lift, strict bool) (binder.Node, []binder.Expr, bool) {
	if lift {
		if out, exprs, ok := liftInput(n, keep, strict); ok {
			return out, exprs, true
		}
	}
	out := lateProjections(n)
	return out, identityExprs(out.Columns()), out != n
}

// liftInput lifts the expressions of the derived table n (or those of the
// derived tables of the join n) that keep does not hold below.
func liftInput(n binder.Node, keep map[int]bool, strict bool) (binder.Node, []binder.Expr, bool) {
	switch x := n.(type) {
	case *binder.Join:
		return liftJoin(x, keep, strict)
	case *binder.Filter:
		// a filter that stayed over the derived table (one filter_pushdown
		// does not move): what it reads stays below
		below := map[int]bool{}
		for c := range keep {
			below[c] = true
		}
		markColumns(x.Cond, below)
		in, exprs, ok := liftInput(x.Input, below, strict)
		if !ok {
			return nil, nil, false
		}
		return &binder.Filter{Input: in, Cond: substitute(x.Cond, exprs)}, exprs, true
	case *binder.Project:
		return liftProject(x, keep, strict)
	}
	return nil, nil, false
}

// liftProject splits the derived table's projection p: the expressions
// keep holds or that may not move stay; the others are replaced by the
// input columns they read and returned, over the new projection, for the
// node above to compute.
func liftProject(p *binder.Project, keep map[int]bool, strict bool) (binder.Node, []binder.Expr, bool) {
	if !pullableInput(p.Input) {
		return nil, nil, false
	}
	for _, e := range p.Exprs {
		if mustCompute(e) {
			return nil, nil, false // PostgreSQL does not pull the derived table up
		}
	}
	movable := make([]bool, len(p.Exprs))
	moved := false
	need := map[int]bool{} // what the expressions that stay read
	for i, e := range p.Exprs {
		movable[i] = !keep[i] && liftable(e) && (!strict || strictExpr(e))
		moved = moved || movable[i]
		if !movable[i] {
			markColumns(e, need)
		}
	}
	if !moved {
		return nil, nil, false
	}
	// a derived table inside this one is pulled up too
	in, inExprs, ok := liftInput(p.Input, need, strict)
	if !ok {
		in = lateProjections(p.Input)
		inExprs = identityExprs(in.Columns())
	}
	inCols := in.Columns()
	out := &binder.Project{Input: in}
	at := map[int]int{} // column of in -> its plain column in out
	for i, e := range p.Exprs {
		if movable[i] {
			continue
		}
		e = substitute(e, inExprs)
		if c, ok := e.(*binder.ColumnRef); ok {
			if _, seen := at[c.Index]; !seen {
				at[c.Index] = len(out.Exprs)
			}
		}
		out.Exprs = append(out.Exprs, e)
		out.Cols = append(out.Cols, p.Cols[i])
	}
	exprs := make([]binder.Expr, len(p.Exprs))
	kept := 0
	for i, e := range p.Exprs {
		if !movable[i] {
			exprs[i] = &binder.ColumnRef{Index: kept, Name: p.Cols[i].Name, T: p.Cols[i].T}
			kept++
			continue
		}
		e = substitute(e, inExprs)
		for _, c := range columnsOf(e) {
			if _, seen := at[c]; !seen {
				at[c] = len(out.Exprs)
				out.Exprs = append(out.Exprs, &binder.ColumnRef{Index: c, Name: inCols[c].Name, T: inCols[c].T})
				out.Cols = append(out.Cols, inCols[c])
			}
		}
		exprs[i] = remapColumns(e, at)
	}
	if identityOver(out, inCols) {
		return in, exprs, true // only picks in's columns, in order
	}
	return out, exprs, true
}

// identityOver reports whether p gives exactly the columns cols, in order.
func identityOver(p *binder.Project, cols []binder.Column) bool {
	if len(p.Exprs) != len(cols) {
		return false
	}
	for i, e := range p.Exprs {
		c, ok := e.(*binder.ColumnRef)
		if !ok || c.Index != i || p.Cols[i].Name != cols[i].Name || !p.Cols[i].T.Same(&cols[i].T) {
			return false
		}
	}
	return true
}

// liftable reports whether e is computed above the join: an expression
// (not a column or a constant, which cost nothing where they are) that is
// deterministic, reads a column, and reads no outer row or subquery.
func liftable(e binder.Expr) bool {
	switch e.(type) {
	case *binder.ColumnRef, *binder.Const:
		return false
	}
	if !deterministic(e) || len(columnsOf(e)) == 0 {
		return false
	}
	return !anyExpr(e, func(x binder.Expr) bool {
		switch x.(type) {
		case *binder.OuterRef, *binder.Subquery:
			return true
		}
		return false
	})
}

// strictExpr reports whether e is NULL whenever a column it reads is
// (every node strict: casts, arithmetic, comparisons, - and NOT, and the
// calls of functions pg_proc says are strict), so that computed over a
// NULL-extended row it is NULL and raises nothing, as PostgreSQL's
// contain_nonstrict_functions decides.
func strictExpr(e binder.Expr) bool {
	switch x := e.(type) {
	case *binder.FuncCall:
		return strictCall(x) && !slices.ContainsFunc(x.Args, func(a binder.Expr) bool { return !strictExpr(a) })
	case *binder.ColumnRef, *binder.Const:
		return true
	case *binder.Cast:
		return strictExpr(x.X)
	case *binder.BinaryOp:
		switch x.Op {
		case binder.OpAnd, binder.OpOr, binder.OpIsDistinct, binder.OpIsNotDistinct:
			return false
		}
		return strictExpr(x.L) && strictExpr(x.R)
	case *binder.UnaryOp:
		return strictExpr(x.X)
	}
	return false
}

// strictCall reports whether pg_proc says the function f calls is strict
// (proisstrict of its signature, else of every overload of its name); a
// function PostgreSQL does not have (sqlgate's own pg__ helpers) is not.
func strictCall(f *binder.FuncCall) bool {
	args := make([]uint32, len(f.Args))
	for i, a := range f.Args {
		args[i], _, _ = pgtypes.OIDOf(a.Type())
	}
	p, ok := pgproc.Lookup(f.Name, args)
	return ok && p.Strict
}

// pullableInput reports whether a projection over n is a derived table
// PostgreSQL pulls up (is_simple_subquery): n reads tables through
// filters, projections and joins only.
func pullableInput(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Scan, *scanProjection, *pkLookup:
		return true
	case *binder.Filter:
		return pullableInput(x.Input)
	case *binder.Project:
		return pullableInput(x.Input)
	case *binder.Join:
		return pullableInput(x.Left) && pullableInput(x.Right)
	}
	return false
}

// identityExprs is one column reference per column.
func identityExprs(cols []binder.Column) []binder.Expr {
	out := make([]binder.Expr, len(cols))
	for i, c := range cols {
		out[i] = &binder.ColumnRef{Index: i, Name: c.Name, T: c.T}
	}
	return out
}

// liftLateral is liftJoin for a LATERAL join: the derived tables of its
// left input are pulled up as a join's are (its left side is never
// NULL-extended), and what the right side reads of them (Outer, its
// OuterRef slots) becomes their expressions, computed where the right
// side reads them: PostgreSQL's pullup_replace_vars puts the derived
// table's expression into the LATERAL subquery (replace_vars_in_jointree),
// whose scan computes it per row it reads, so that over an empty table it
// is never computed. The right side itself is not lifted from.
func liftLateral(x *binder.Lateral) (binder.Node, []binder.Expr, bool) {
	l, le, ok := liftInput(x.Left, nil, false)
	if !ok {
		return nil, nil, false
	}
	outer := make([]binder.Expr, len(x.Outer))
	for i, e := range x.Outer {
		outer[i] = substitute(e, le)
	}
	right := x.Right
	if r, o, ok := inlineOuter(right, outer); ok {
		right, outer = r, o
	}
	nlNew := len(l.Columns())
	all := slices.Clone(le)
	for i, c := range x.Right.Columns() {
		all = append(all, &binder.ColumnRef{Index: nlNew + i, Name: c.Name, T: c.T})
	}
	var cond binder.Expr
	if x.Cond != nil {
		cond = substitute(x.Cond, all)
	}
	return binder.NewLateral(l, right, outer, x.Type, cond), all, true
}

// inlineSubPlans rewrites the correlated subqueries of e whose Outer
// values are expressions (a pulled-up derived table's, substituted for
// its column) so that their plans compute them where they read them, over
// new OuterRef slots for the columns the expressions read, as
// PostgreSQL's SubPlan computes the pulled-up expression inside (its
// parameters are the Vars alone). A subquery whose plan holds a node
// inlineOuter does not know keeps its Outer values.
func inlineSubPlans(e binder.Expr) binder.Expr {
	if !hasSubquery(e) {
		return e
	}
	if sq, ok := e.(*binder.Subquery); ok {
		c := *sq
		if c.X != nil {
			c.X = inlineSubPlans(c.X)
		}
		if p, o, ok := inlineOuter(c.Plan, c.Outer); ok {
			c.Plan, c.Outer = p, o
		}
		return &c
	}
	out, _ := binder.MapChildren(e, func(x binder.Expr) (binder.Expr, error) { return inlineSubPlans(x), nil })
	return out
}

// inlineOuter rewrites plan, which reads the values outer through its
// OuterRef slots, to read the columns those values read instead, each a
// slot of the returned list, and to compute every value that is a
// liftable expression where its OuterRef stood. ok is false when nothing
// is to be inlined or plan holds a node whose expressions it cannot
// rewrite.
func inlineOuter(plan binder.Node, outer []binder.Expr) (binder.Node, []binder.Expr, bool) {
	inline := false
	for _, e := range outer {
		if _, ok := e.(*binder.ColumnRef); !ok && liftable(e) {
			inline = true
		}
	}
	if !inline {
		return nil, nil, false
	}
	var slots []binder.Expr  // the new Outer list
	colSlot := map[int]int{} // column of the outer row -> its new slot
	by := make([]binder.Expr, len(outer))
	for i, e := range outer {
		if _, ok := e.(*binder.ColumnRef); ok || !liftable(e) {
			name := e.String()
			if c, ok := e.(*binder.ColumnRef); ok {
				name = c.Name
			}
			by[i] = &binder.OuterRef{Slot: len(slots), Name: name, T: e.Type()}
			slots = append(slots, e)
			continue
		}
		var toRef func(x binder.Expr) binder.Expr
		toRef = func(x binder.Expr) binder.Expr {
			if c, ok := x.(*binder.ColumnRef); ok {
				s, seen := colSlot[c.Index]
				if !seen {
					s = len(slots)
					colSlot[c.Index] = s
					slots = append(slots, c)
				}
				return &binder.OuterRef{Slot: s, Name: c.Name, T: c.T}
			}
			out, _ := binder.MapChildren(x, func(y binder.Expr) (binder.Expr, error) { return toRef(y), nil })
			return out
		}
		by[i] = toRef(e)
	}
	var replace func(x binder.Expr) binder.Expr
	replace = func(x binder.Expr) binder.Expr {
		if r, ok := x.(*binder.OuterRef); ok {
			return by[r.Slot]
		}
		out, _ := binder.MapChildren(x, func(y binder.Expr) (binder.Expr, error) { return replace(y), nil })
		return out
	}
	out, ok := mapPlanExprs(plan, replace)
	if !ok {
		return nil, nil, false
	}
	return out, slots, true
}

// mapPlanExprs rewrites every expression of plan's own query level (its
// subqueries' Outer values, not their plans) with fn; ok is false when
// plan holds a node kind whose expressions it does not know (a LATERAL
// join, a window, VALUES, a set operation...).
func mapPlanExprs(n binder.Node, fn func(binder.Expr) binder.Expr) (binder.Node, bool) {
	list := func(es []binder.Expr) []binder.Expr {
		out := make([]binder.Expr, len(es))
		for i, e := range es {
			out[i] = fn(e)
		}
		return out
	}
	keys := func(ks []binder.SortKey) []binder.SortKey {
		out := slices.Clone(ks)
		for i := range out {
			out[i].Expr = fn(out[i].Expr)
		}
		return out
	}
	opt := func(e binder.Expr) binder.Expr {
		if e == nil {
			return nil
		}
		return fn(e)
	}
	switch x := n.(type) {
	case *binder.Scan, *scanProjection, *pkLookup:
		return n, true
	case *binder.Filter:
		in, ok := mapPlanExprs(x.Input, fn)
		return &binder.Filter{Input: in, Cond: fn(x.Cond)}, ok
	case *binder.Project:
		in, ok := mapPlanExprs(x.Input, fn)
		return &binder.Project{Input: in, Exprs: list(x.Exprs), Cols: x.Cols}, ok
	case *binder.Sort:
		in, ok := mapPlanExprs(x.Input, fn)
		c := *x
		c.Input, c.Keys = in, keys(x.Keys)
		return &c, ok
	case *binder.Limit:
		in, ok := mapPlanExprs(x.Input, fn)
		c := *x
		c.Input, c.Count, c.Offset = in, opt(x.Count), opt(x.Offset)
		return &c, ok
	case *binder.Distinct:
		in, ok := mapPlanExprs(x.Input, fn)
		return &binder.Distinct{Input: in}, ok
	case *binder.Aggregate:
		in, ok := mapPlanExprs(x.Input, fn)
		c := *x
		c.Input = in
		c.GroupBy = list(x.GroupBy)
		c.Aggs = slices.Clone(x.Aggs)
		for i := range c.Aggs {
			c.Aggs[i].Args = list(c.Aggs[i].Args)
			c.Aggs[i].Filter = opt(c.Aggs[i].Filter)
			c.Aggs[i].OrderBy = keys(c.Aggs[i].OrderBy)
		}
		return &c, ok
	case *binder.Join:
		l, lok := mapPlanExprs(x.Left, fn)
		r, rok := mapPlanExprs(x.Right, fn)
		c := *x
		c.Left, c.Right, c.Cond = l, r, opt(x.Cond)
		return &c, lok && rok
	}
	return n, false
}
