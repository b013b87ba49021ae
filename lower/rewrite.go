package lower

import (
	"maps"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/types"
)

// The rules of this file rewrite the logical plan without changing its
// results: boolean simplification, predicate pushdown, LIMIT pushdown and
// the removal of sorts and projections that do nothing. Each is a pure
// function of the plan (rules.go orders them).

// simplifyBoolean folds the constant parts of filter and join conditions
// and simplifies the boolean structure around them: x AND true is x, x OR
// false is x, x AND false is false, x OR true is true, NOT NOT x is x. A
// filter that is always true goes away; one that is never true (false or
// NULL) makes its subtree an empty relation, which nothing below is read
// for.
func simplifyBoolean(n binder.Node) binder.Node {
	n = rewriteChildren(n, simplifyBoolean)
	switch x := n.(type) {
	case *binder.Filter:
		if emptyRelation(x.Input) && !mustCompute(x.Cond) {
			// over a provably empty input (PostgreSQL's dummy relation,
			// a derived table's WHERE false pulled up into this level)
			// no condition is computed, not even a one-time one that
			// reads nothing: SELECT 1 FROM (SELECT 'b' FROM t WHERE
			// false) s(c) WHERE (c || concat(c))::int > 0 fails nothing
			return &binder.Values{Cols: x.Columns()}
		}
		cond := simplifyCond(x.Cond)
		if v, ok := boolConst(cond); ok {
			if v {
				return x.Input
			}
			return &binder.Values{Cols: x.Columns()}
		}
		if isNullConst(cond) {
			return &binder.Values{Cols: x.Columns()}
		}
		if cond == x.Cond {
			return x // nothing simplified: no copy
		}
		return &binder.Filter{Input: x.Input, Cond: cond}
	case *binder.Join:
		if emptyJoin(x) {
			// a side that is provably empty makes the join so
			// (PostgreSQL's dummy relations: populate_joinrel_with_paths),
			// and the other side is never read either: x = ANY (SELECT
			// c WHERE false) computes x for no row (restrictedSemiJoin's
			// filter below the semi join goes with it)
			if x.Cond == nil || x.Type == binder.SemiJoin || x.Type == binder.AntiJoin {
				// (a semi or anti join's condition reads the right side's
				// columns, which its output has not)
				return &binder.Values{Cols: x.Columns()}
			}
			return &binder.Filter{Input: &binder.Values{Cols: x.Columns()}, Cond: x.Cond}
		}
		if x.Cond == nil {
			return x
		}
		cond := simplifyCond(x.Cond)
		if v, ok := boolConst(cond); ok && v {
			cond = nil
		}
		if v, ok := boolConst(cond); ok && !v || isNullConst(cond) {
			// An ON condition that no row pair meets: the side whose rows
			// could only be matched is never read (PostgreSQL plans it
			// away), so what computing its rows would raise is not raised.
			switch x.Type {
			case binder.InnerJoin, binder.SemiJoin:
				// no row at all; the condition stays over the empty
				// input so that its constants still fold (and raise) when
				// it is lowered, as PostgreSQL's planning folds them
				return &binder.Filter{Input: &binder.Values{Cols: x.Columns()}, Cond: x.Cond}
			case binder.LeftJoin, binder.AntiJoin:
				if !emptyValues(x.Right) {
					c := *x
					c.Right = &binder.Values{Cols: x.Right.Columns()}
					return &c
				}
			case binder.RightJoin:
				if !emptyValues(x.Left) {
					c := *x
					c.Left = &binder.Values{Cols: x.Left.Columns()}
					return &c
				}
			}
		}
		if cond == x.Cond {
			return x
		}
		c := *x
		c.Cond = cond
		return &c
	case *binder.Lateral:
		// the same for a LATERAL join: the side run for each left row
		// is not run (LEFT JOIN LATERAL (SELECT 1/t.b) q ON false)
		if x.Cond == nil || emptyValues(x.Right) {
			return x
		}
		cond := simplifyCond(x.Cond)
		if v, ok := boolConst(cond); ok && !v || isNullConst(cond) {
			switch x.Type {
			case binder.InnerJoin, binder.SemiJoin:
				return &binder.Filter{Input: &binder.Values{Cols: x.Columns()}, Cond: x.Cond}
			case binder.LeftJoin, binder.AntiJoin:
				return binder.NewLateral(x.Left, &binder.Values{Cols: x.Right.Columns()}, x.Outer, x.Type, x.Cond)
			}
		}
	}
	return n
}

// emptyJoin reports whether a join has no row because an input it
// needs a row of is empty (emptyRelation): either side of an inner or
// semi join, the preserved side of an outer or anti join. PostgreSQL marks
// such a join a dummy relation and plans neither input.
func emptyJoin(j *binder.Join) bool {
	switch j.Type {
	case binder.InnerJoin, binder.SemiJoin:
		return emptyRelation(j.Left) || emptyRelation(j.Right)
	case binder.LeftJoin, binder.AntiJoin:
		return emptyRelation(j.Left)
	case binder.RightJoin:
		return emptyRelation(j.Right)
	case binder.FullJoin:
		return emptyRelation(j.Left) && emptyRelation(j.Right)
	}
	return false
}

// emptyRelation reports whether n is provably empty: a VALUES list of no
// rows (what simplifyBoolean leaves of a condition that is never true),
// under projections and filters.
func emptyRelation(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Values:
		return len(x.Rows) == 0
	case *binder.Project:
		return emptyRelation(x.Input)
	case *binder.Filter:
		return emptyRelation(x.Input)
	}
	return false
}

// emptyValues reports whether n is a VALUES list of no rows.
func emptyValues(n binder.Node) bool {
	v, ok := n.(*binder.Values)
	return ok && len(v.Rows) == 0
}

// simplifyCond simplifies a boolean expression (see simplifyBoolean). Its
// leaves that read nothing row-dependent are folded by the lowering's own
// constant folding; a leaf whose evaluation fails stays as it is, to fail
// at execution only if it is reached.
func simplifyCond(e binder.Expr) binder.Expr {
	switch x := e.(type) {
	case *binder.BinaryOp:
		if x.Op != binder.OpAnd && x.Op != binder.OpOr {
			break
		}
		if x.Eager {
			// an IN list's items, computed together: a constant one
			// that decides does not spare the others (pgfold.go's
			// foldEager)
			return foldLeaf(e)
		}
		l, r := simplifyCond(x.L), simplifyCond(x.R)
		and := x.Op == binder.OpAnd
		// the absorbing value (false for AND, true for OR) decides the result
		for _, s := range []binder.Expr{l, r} {
			if v, ok := boolConst(s); ok && v != and {
				return boolExpr(v)
			}
		}
		// the neutral value (true for AND, false for OR) drops out
		if v, ok := boolConst(l); ok && v == and {
			return r
		}
		if v, ok := boolConst(r); ok && v == and {
			return l
		}
		if l == x.L && r == x.R {
			return e // nothing simplified below: no copy
		}
		c := *x
		c.L, c.R = l, r
		return &c
	case *binder.UnaryOp:
		if x.Op != binder.OpNot {
			break
		}
		in := simplifyCond(x.X)
		if v, ok := boolConst(in); ok {
			return boolExpr(!v)
		}
		if inner, ok := in.(*binder.UnaryOp); ok && inner.Op == binder.OpNot {
			return inner.X // NOT NOT x is x, NULL included
		}
		if in == x.X {
			return e
		}
		c := *x
		c.X = in
		return &c
	}
	return foldLeaf(e)
}

// foldLeaf replaces a constant expression by its value, computed the way
// lowering computes it.
func foldLeaf(e binder.Expr) binder.Expr {
	// readsRow(e) || !deterministic(e), in one walk of e
	if _, ok := e.(*binder.Const); ok || anyExpr(e, func(x binder.Expr) bool { return readsRowNode(x) || volatileNode(x) }) {
		return e
	}
	le, err := lowerExpr(e)
	if err != nil {
		return e
	}
	return constOf(le, e)
}

// readsRow reports whether e reads a column, parameter or outer row.
func readsRow(e binder.Expr) bool { return anyExpr(e, readsRowNode) }

// readsRowNode reports whether x itself reads a column, parameter or outer
// row.
func readsRowNode(x binder.Expr) bool {
	switch x.(type) {
	case *binder.ColumnRef, *binder.Param, *binder.OuterRef, *binder.Subquery:
		return true
	}
	return false
}

// anyExpr reports whether pred holds for e or a sub-expression, parents
// first, stopping at the first (binder.Walk visits every node): the rules
// ask such questions of every conjunct.
func anyExpr(e binder.Expr, pred func(binder.Expr) bool) bool {
	if pred(e) {
		return true
	}
	switch x := e.(type) { // the commonest nodes without MapChildren's callback
	case *binder.ColumnRef, *binder.Const:
		return false
	case *binder.BinaryOp:
		return anyExpr(x.L, pred) || anyExpr(x.R, pred)
	case *binder.Cast:
		return anyExpr(x.X, pred)
	case *binder.FuncCall:
		for _, a := range x.Args {
			if anyExpr(a, pred) {
				return true
			}
		}
		return false
	}
	found := false
	binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) {
		found = found || anyExpr(c, pred)
		return c, nil
	})
	return found
}

// deterministic reports whether e gives the same value each time it is
// evaluated on the same row: no volatile function, subquery or opaque UDF
// (whose evaluation the rules must neither repeat nor move).
func deterministic(e binder.Expr) bool { return !anyExpr(e, volatileNode) }

// volatileNode reports whether x itself may give a different value each
// time (deterministic's test of each node).
func volatileNode(x binder.Expr) bool {
	switch f := x.(type) {
	case *binder.FuncCall:
		return f.Volatile
	case *binder.Subquery, *binder.UDFCall:
		return true
	}
	return false
}

func boolConst(e binder.Expr) (bool, bool) {
	c, ok := e.(*binder.Const)
	if !ok {
		return false, false
	}
	v, ok := c.Value.(bool)
	return v, ok
}

func isNullConst(e binder.Expr) bool {
	c, ok := e.(*binder.Const)
	return ok && c.Value == nil
}

func boolExpr(v bool) binder.Expr { return &binder.Const{Value: v, T: types.BoolType} }

// pushJoinConditions moves the conjuncts of a join's ON condition that
// read one side only below the join, where that is the same: into either
// side of an inner join; into the NULL-extended side of an outer join (a
// row that fails them never matches, which is what filtering it first
// does); into the inner side of a semi or anti join, and the outer side of
// a semi join.
func pushJoinConditions(n binder.Node) binder.Node {
	n = rewriteChildren(n, pushJoinConditions)
	j, ok := n.(*binder.Join)
	if !ok || j.Cond == nil || j.NullAware {
		return n
	}
	nl := len(j.Left.Columns())
	var left, right, keep []binder.Expr
	cs := conjuncts(j.Cond)
	if j.Type == binder.InnerJoin {
		cs = append(slices.Clip(cs), impliedConstants(cs)...) // equivconst.go
	}
	for _, c := range cs {
		if !deterministic(c) {
			keep = append(keep, c)
			continue
		}
		switch side := sidesOf(c, nl); {
		case side == 1 && (j.Type == binder.InnerJoin || j.Type == binder.CrossJoin || j.Type == binder.RightJoin || j.Type == binder.SemiJoin):
			left = append(left, c)
		case side == 2 && j.Type != binder.RightJoin && j.Type != binder.FullJoin:
			right = append(right, c)
		default:
			keep = append(keep, c)
		}
	}
	if len(left)+len(right) == 0 {
		return n
	}
	out := *j
	if len(left) > 0 {
		out.Left = &binder.Filter{Input: j.Left, Cond: and(left)}
	}
	if len(right) > 0 {
		out.Right = &binder.Filter{Input: j.Right, Cond: shiftColumns(and(right), -nl)}
	}
	out.Cond = nil
	if len(keep) > 0 {
		out.Cond = and(keep)
	}
	return &out
}

// shiftColumns adds delta to every column index of e.
func shiftColumns(e binder.Expr, delta int) binder.Expr {
	if c, ok := e.(*binder.ColumnRef); ok {
		out := *c
		out.Index += delta
		return &out
	}
	out, _ := binder.MapChildren(e, func(x binder.Expr) (binder.Expr, error) { return shiftColumns(x, delta), nil })
	return out
}

// substitute replaces each column reference i of e by exprs[i].
func substitute(e binder.Expr, exprs []binder.Expr) binder.Expr {
	if c, ok := e.(*binder.ColumnRef); ok {
		return exprs[c.Index]
	}
	out, _ := binder.MapChildren(e, func(x binder.Expr) (binder.Expr, error) { return substitute(x, exprs), nil })
	return out
}

// columnsOf lists the column indexes e reads.
func columnsOf(e binder.Expr) []int {
	var out []int
	binder.Walk(e, func(x binder.Expr) {
		if c, ok := x.(*binder.ColumnRef); ok {
			out = append(out, c.Index)
		}
	})
	return out
}

// pushFilters moves filter conjuncts as far down as they stay the same:
// through projections (rewritten over the projection's input), through an
// aggregation when they read grouping columns only (rewritten over the
// grouping expressions), into both inputs of a set operation, below a
// sort, and into joins (filterIntoJoin's rules). Only deterministic
// conjuncts move, and only through deterministic expressions, so nothing
// is evaluated a different number of times per row or group.
func pushFilters(n binder.Node) binder.Node {
	f, ok := n.(*binder.Filter)
	if !ok {
		return rewriteChildren(n, pushFilters)
	}
	switch f.Input.(type) {
	case *binder.Filter, *binder.Project, *binder.Aggregate, *binder.SetOp, *binder.Sort, *binder.Join:
	default: // nothing to push into (a scan, most often): skip splitting the condition
		return rewriteChildren(n, pushFilters)
	}
	var push, keep []binder.Expr
	cs := conjuncts(f.Cond) // a fresh slice: push may be it
	push = cs[:0]
	for _, c := range cs {
		if deterministic(c) {
			push = append(push, c) // never overtakes the range over cs
		} else {
			keep = append(keep, c)
		}
	}
	if len(push) == 0 {
		return rewriteChildren(n, pushFilters)
	}
	wrap := func(in binder.Node, rest []binder.Expr) binder.Node {
		if len(rest) == 0 {
			return in
		}
		return &binder.Filter{Input: in, Cond: and(rest)}
	}
	switch in := f.Input.(type) {
	case *binder.Filter:
		return pushFilters(&binder.Filter{Input: in.Input, Cond: and(append(conjuncts(in.Cond), conjuncts(f.Cond)...))})
	case *binder.Project:
		var below []binder.Expr
		for _, c := range push {
			// a condition over a PlaceHolderVar stays above the
			// projection: computed for each row (pullupconst.go)
			if allDeterministic(in.Exprs, columnsOf(c)) && !readsPlaceholder(c, in) && !staysPerRow(c, in.Exprs) {
				below = append(below, substitute(c, in.Exprs))
			} else {
				keep = append(keep, c)
			}
		}
		if len(below) == 0 {
			break
		}
		p := *in
		p.Input = pushFilters(&binder.Filter{Input: in.Input, Cond: and(below)})
		return wrap(&p, keep)
	case *binder.Aggregate:
		var below []binder.Expr
		for _, c := range push {
			if groupingOnly(c, len(in.GroupBy)) && allDeterministic(in.GroupBy, columnsOf(c)) && !staysPerRow(c, in.GroupBy) {
				below = append(below, substitute(c, in.GroupBy))
			} else {
				keep = append(keep, c)
			}
		}
		if len(below) == 0 || len(in.GroupBy) == 0 {
			break
		}
		a := *in
		a.Input = pushFilters(&binder.Filter{Input: in.Input, Cond: and(below)})
		return wrap(&a, keep)
	case *binder.SetOp:
		// not into EXCEPT: PostgreSQL computes a condition over its
		// result for the rows it gives only (subquery_is_pushdown_safe)
		if in.Kind == binder.Except || !sameTypes(in.Columns(), in.Left.Columns()) || !sameTypes(in.Columns(), in.Right.Columns()) {
			break
		}
		s := *in
		s.Left = pushFilters(&binder.Filter{Input: in.Left, Cond: and(push)})
		s.Right = pushFilters(&binder.Filter{Input: in.Right, Cond: and(push)})
		return wrap(&s, keep)
	case *binder.Sort:
		s := *in
		s.Input = pushFilters(&binder.Filter{Input: in.Input, Cond: and(push)})
		return wrap(&s, keep)
	case *binder.Join:
		out := filterIntoJoin(f)
		if g, ok := out.(*binder.Filter); ok {
			if j, ok := g.Input.(*binder.Join); ok {
				return &binder.Filter{Input: rewriteChildren(j, pushFilters), Cond: g.Cond}
			}
		}
		return rewriteChildren(out, pushFilters)
	}
	return rewriteChildren(n, pushFilters)
}

func allDeterministic(exprs []binder.Expr, cols []int) bool {
	for _, i := range cols {
		if !deterministic(exprs[i]) {
			return false
		}
	}
	return true
}

func groupingOnly(c binder.Expr, keys int) bool {
	for _, i := range columnsOf(c) {
		if i >= keys {
			return false
		}
	}
	return true
}

func sameTypes(a, b []binder.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].T.Same(&b[i].T) {
			return false
		}
	}
	return true
}

// pushLimits moves a LIMIT below the projections under it, towards the sort
// (which becomes a top-N) or the scan (which stops early), and gives each
// input of a UNION ALL the limit too (LIMIT + OFFSET rows of each are all
// the outer limit can use).
func pushLimits(n binder.Node) binder.Node {
	l, ok := n.(*binder.Limit)
	if !ok {
		return rewriteChildren(n, pushLimits)
	}
	switch in := l.Input.(type) {
	case *binder.Project:
		p := *in
		lim := *l
		lim.Input = in.Input
		p.Input = pushLimits(&lim)
		return &p
	case *binder.SetOp:
		count, okc := constInt(l.Count)
		off, oko := constInt(l.Offset)
		if in.Kind != binder.Union || !in.All || l.Count == nil || !okc || !oko || count < 0 || off < 0 {
			break
		}
		each := &binder.Const{Value: count + off, T: types.Int64Type}
		s := *in
		s.Left = pushLimits(&binder.Limit{Input: in.Left, Count: each})
		s.Right = pushLimits(&binder.Limit{Input: in.Right, Count: each})
		lim := *l
		lim.Input = &s
		return &lim
	}
	return rewriteChildren(n, pushLimits)
}

// eliminateSorts removes sorts whose order nobody sees: one under an
// aggregation or a (hash) DISTINCT whose results do not depend on input
// order (through projections and filters), and one directly under another
// sort, whose keys the outer sort then takes as tie-breakers (the sort is
// stable, so the order stays the same).
func eliminateSorts(n binder.Node) binder.Node {
	n = rewriteChildren(n, eliminateSorts)
	switch x := n.(type) {
	case *binder.Aggregate:
		if !orderInsensitive(x.Aggs) {
			return n
		}
		a := *x
		a.Input = dropSorts(x.Input)
		return &a
	case *binder.Distinct:
		return &binder.Distinct{Input: dropSorts(x.Input)}
	case *binder.Sort:
		inner, ok := x.Input.(*binder.Sort)
		if !ok {
			return n
		}
		return &binder.Sort{Input: inner.Input, Keys: append(x.Keys[:len(x.Keys):len(x.Keys)], inner.Keys...)}
	}
	return n
}

// dropSorts removes the sorts of a chain of projections, filters and sorts.
func dropSorts(n binder.Node) binder.Node {
	switch x := n.(type) {
	case *binder.Sort:
		return dropSorts(x.Input)
	case *binder.Project:
		p := *x
		p.Input = dropSorts(x.Input)
		return &p
	case *binder.Filter:
		f := *x
		f.Input = dropSorts(x.Input)
		return &f
	}
	return n
}

// orderInsensitive reports whether aggregates give the same result for any
// order of their input: not array_agg or string_agg (whose result is the
// order), nor a floating-point sum (whose rounding depends on it).
func orderInsensitive(aggs []binder.AggCall) bool {
	for _, a := range aggs {
		switch a.Func {
		case "count", "min", "max", "bool_and", "bool_or", "every", "bit_and", "bit_or", "bit_xor":
		case "sum", "avg":
			if len(a.Args) != 1 {
				return false
			}
			switch a.Args[0].Type().Kind {
			case types.Int16, types.Int32, types.Int64, types.Decimal:
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// eliminateProjections removes projections that keep every input column in
// order under the same names, and merges a projection into the one below
// when either only picks columns of the other.
func eliminateProjections(n binder.Node) binder.Node {
	n = rewriteChildren(n, eliminateProjections)
	p, ok := n.(*binder.Project)
	if !ok {
		return n
	}
	p = dropUnreadWindows(p)
	if inner, ok := p.Input.(*binder.Project); ok {
		if refs, ok := columnRefs(p.Exprs); ok && singleUse(refs, inner.Exprs) && dropsOnlyUnneeded(refs, inner.Exprs) {
			exprs := make([]binder.Expr, len(refs))
			for i, r := range refs {
				exprs[i] = inner.Exprs[r]
			}
			p = &binder.Project{Input: inner.Input, Exprs: exprs, Cols: p.Cols}
		} else if _, ok := columnRefs(inner.Exprs); ok {
			exprs := make([]binder.Expr, len(p.Exprs))
			for i, e := range p.Exprs {
				exprs[i] = substitute(e, inner.Exprs)
			}
			p = &binder.Project{Input: inner.Input, Exprs: exprs, Cols: p.Cols}
		} else if narrow, remap, ok := narrowProjectOver(inner, p.Exprs); ok {
			exprs := make([]binder.Expr, len(p.Exprs))
			for i, e := range p.Exprs {
				exprs[i] = remapColumns(e, remap)
			}
			p = &binder.Project{Input: narrow, Exprs: exprs, Cols: p.Cols}
		}
	}
	// (also what a merge above exposed: a derived table's UNION ALL or
	// grouping sets under the query's own projection)
	if throughDerived(p.Input) {
		need := map[int]bool{}
		for _, e := range p.Exprs {
			markColumns(e, need)
		}
		if narrow, remap, ok := narrowThrough(p.Input, need); ok {
			exprs := make([]binder.Expr, len(p.Exprs))
			for i, e := range p.Exprs {
				exprs[i] = remapColumns(e, remap)
			}
			p = &binder.Project{Input: narrow, Exprs: exprs, Cols: p.Cols}
		}
	}
	p = dropUnreadWindows(p) // what the merge exposed
	in := p.Input.Columns()
	if len(in) != len(p.Exprs) {
		return p
	}
	for i, e := range p.Exprs {
		c, ok := e.(*binder.ColumnRef)
		if !ok || c.Index != i || in[i].Name != p.Cols[i].Name || !in[i].T.Same(&p.Cols[i].T) {
			return p
		}
	}
	return p.Input
}

// dropUnreadWindows is p without the window functions right under it
// whose result it does not read (a window's is its last column), unless
// they mustCompute: PostgreSQL removes a derived table's unread outputs
// (remove_unused_subquery_outputs) and then finds no window function to
// plan a WindowAgg for (grouping_planner's find_window_functions), so
// SELECT k FROM (SELECT k, sum(1 / a) OVER () FROM t) s divides nothing.
// A query's own select list reads its window functions, and a window an
// ORDER BY or DISTINCT reads is under that node, not a projection.
func dropUnreadWindows(p *binder.Project) *binder.Project {
	switch in := p.Input.(type) {
	case *binder.Window:
	case *binder.Project:
		if _, ok := in.Input.(*binder.Window); !ok {
			return p
		}
	default:
		return p // (planning runs this for every projection: no map for them)
	}
	need := map[int]bool{}
	for _, e := range p.Exprs {
		markColumns(e, need)
	}
	switch in := p.Input.(type) {
	case *binder.Window:
		if need[len(in.Input.Columns())] || windowMustCompute(in.Call) || keysOnly(in.Call) {
			return p
		}
		if windowKeysMayFail(in.Call, in.Input) {
			return &binder.Project{Input: in.Over(in.Input, windowKeysOnly(in.Call)), Exprs: p.Exprs, Cols: p.Cols}
		}
		return dropUnreadWindows(&binder.Project{Input: in.Input, Exprs: p.Exprs, Cols: p.Cols})
	case *binder.Project:
		// the binder's projection between two windows of one select list
		if _, ok := in.Input.(*binder.Window); !ok {
			return p
		}
		narrow, remap, ok := narrowProjectTo(in, need)
		if !ok || narrow.Input == in.Input {
			return p
		}
		out := &binder.Project{Input: narrow, Exprs: make([]binder.Expr, len(p.Exprs)), Cols: p.Cols}
		for i, e := range p.Exprs {
			out.Exprs[i] = remapColumns(e, remap)
		}
		return out
	}
	return p
}

// windowKeysOnly is an unread window call c reduced to its PARTITION BY
// and ORDER BY keys, with NULL for a result: PostgreSQL's
// remove_unused_subquery_outputs replaces the unread window function by
// NULL but keeps every target its window clauses sort or group by (a
// ressortgroupref), so SELECT k FROM (SELECT k, rank() OVER (ORDER BY
// 1 / a) FROM t) s divides by every a although no WindowAgg is left.
func windowKeysOnly(c binder.WindowCall) binder.WindowCall {
	return binder.WindowCall{Func: "first_value", Args: []binder.Expr{&binder.Const{Value: nil, T: c.T.Nullable()}},
		Partition: c.Partition, Order: c.Order, T: c.T}
}

// windowKeysMayFail reports whether computing c's PARTITION BY and ORDER
// BY keys over in may raise an error (mayFail, through the projections
// and filters that compute the columns they read; a column of any other
// node but a scan may): only then does an unread window keep them
// (windowKeysOnly), a sort that changes nothing else.
func windowKeysMayFail(c binder.WindowCall, in binder.Node) bool {
	if slices.ContainsFunc(c.Partition, func(e binder.Expr) bool { return computedMayFail(e, in) }) {
		return true
	}
	return slices.ContainsFunc(c.Order, func(k binder.SortKey) bool { return computedMayFail(k.Expr, in) })
}

// computedMayFail reports whether e over in may raise an error, a column
// read as the expression in computes it by.
func computedMayFail(e binder.Expr, in binder.Node) bool {
	c, ok := e.(*binder.ColumnRef)
	if !ok {
		return mayFail(e)
	}
	switch n := in.(type) {
	case *binder.Scan, *scanProjection, *pkLookup:
		return false // a stored column
	case *binder.Join:
		if nl := len(n.Left.Columns()); c.Index < nl {
			return computedMayFail(e, n.Left)
		} else {
			return computedMayFail(&binder.ColumnRef{Index: c.Index - nl, Name: c.Name, T: c.T}, n.Right)
		}
	case *binder.Filter:
		return computedMayFail(e, n.Input)
	case *binder.Project:
		return computedMayFail(n.Exprs[c.Index], n.Input)
	case *binder.Window:
		return c.Index >= len(n.Input.Columns()) || computedMayFail(e, n.Input)
	}
	return true
}

// keysOnly reports whether c is windowKeysOnly's.
func keysOnly(c binder.WindowCall) bool {
	if c.Func != "first_value" || len(c.Args) != 1 || c.Frame != nil || c.Filter != nil {
		return false
	}
	k, ok := c.Args[0].(*binder.Const)
	return ok && k.Value == nil
}

// windowMustCompute reports whether a window call computes something
// volatile (its arguments, FILTER, PARTITION BY or ORDER BY).
func windowMustCompute(c binder.WindowCall) bool {
	if slices.ContainsFunc(c.Args, mustCompute) || slices.ContainsFunc(c.Partition, mustCompute) ||
		c.Filter != nil && mustCompute(c.Filter) {
		return true
	}
	return slices.ContainsFunc(c.Order, func(k binder.SortKey) bool { return mustCompute(k.Expr) })
}

// narrowProject drops from inner the expressions that nothing in uses
// reads, as PostgreSQL drops a subquery's unused outputs
// (remove_unused_subquery_outputs), so that they are not computed and
// their errors (a division by zero, a scalar subquery of several rows)
// are not raised: SELECT x FROM (SELECT a AS x, 1/0 AS y FROM t) s reads
// no y. What mustCompute stays, as there. It returns the narrowed projection
// and where each kept column now is; ok is false when nothing is dropped.
func narrowProject(inner *binder.Project, uses []binder.Expr) (*binder.Project, map[int]int, bool) {
	need := map[int]bool{}
	for _, e := range uses {
		markColumns(e, need)
	}
	return narrowProjectTo(inner, need)
}

// narrowProjectOver is narrowProject, and through a derived table's
// UNION ALL, LIMIT or ORDER BY right below inner (narrowThrough) when
// there is one: SELECT 1 FROM (SELECT 1, sum(10 / b) FROM t GROUP BY
// GROUPING SETS ((), ())) s reads nothing of the grouping sets' union
// either, whose branches' aggregates then go unread
// (aggregate_output_pruning), as PostgreSQL's remove_unused_subquery_outputs
// leaves it no aggregate to compute.
func narrowProjectOver(inner *binder.Project, uses []binder.Expr) (binder.Node, map[int]int, bool) {
	if !throughDerived(inner.Input) {
		return narrowProject(inner, uses)
	}
	need := map[int]bool{}
	for _, e := range uses {
		markColumns(e, need)
	}
	return narrowThrough(inner, need)
}

// narrowThrough is narrowProjectTo for a derived table's projection under
// a LIMIT or an ORDER BY (whose keys it keeps), or the projections of the
// branches of a UNION ALL that PostgreSQL flattens into an append relation
// (not binder.SetOp's Kept), whose branches it plans as subqueries of
// their own: SELECT x FROM (SELECT a AS x, 1/0 AS y FROM t LIMIT 1) s reads no
// y there either. It returns the narrowed node and where each column of
// need now is; ok is false when nothing is dropped.
func narrowThrough(n binder.Node, need map[int]bool) (binder.Node, map[int]int, bool) {
	switch x := n.(type) {
	case *binder.Project:
		out, remap, ok := narrowProjectTo(x, need)
		if !ok {
			out = x
			remap = map[int]int{}
			for i := range x.Exprs {
				remap[i] = i
			}
		}
		_, inner := x.Input.(*binder.Project)
		if _, window := x.Input.(*binder.Window); !inner && !window && !throughDerived(x.Input) {
			return out, remap, ok
		}
		// what it keeps reads of a derived table's projection (a LATERAL
		// item's select list under its alias's), LIMIT, UNION ALL..: a
		// rule's projection, aggregation pushdown's over a join input
		below := map[int]bool{}
		for _, e := range out.Exprs {
			markColumns(e, below)
		}
		in, inRemap, inOK := narrowThrough(x.Input, below)
		if !inOK {
			return out, remap, ok
		}
		np := &binder.Project{Input: in, Cols: out.Cols}
		for _, e := range out.Exprs {
			np.Exprs = append(np.Exprs, remapColumns(e, inRemap))
		}
		return np, remap, true
	case *binder.Limit:
		if in, remap, ok := narrowThrough(x.Input, need); ok {
			return &binder.Limit{Input: in, Count: x.Count, Offset: x.Offset}, remap, true
		}
	case *binder.Filter:
		// a WHERE over a derived table that OFFSET 0 keeps from being
		// merged: its condition's columns are read
		all := maps.Clone(need)
		markColumns(x.Cond, all)
		if in, remap, ok := narrowThrough(x.Input, all); ok {
			return &binder.Filter{Input: in, Cond: remapColumns(x.Cond, remap)}, remap, true
		}
	case *binder.Sort:
		all := maps.Clone(need)
		for _, k := range x.Keys {
			markColumns(k.Expr, all)
		}
		in, remap, ok := narrowThrough(x.Input, all)
		if !ok {
			break
		}
		keys := make([]binder.SortKey, len(x.Keys))
		for i, k := range x.Keys {
			keys[i] = binder.SortKey{Expr: remapColumns(k.Expr, remap), Desc: k.Desc, NullsFirst: k.NullsFirst}
		}
		return &binder.Sort{Input: in, Keys: keys}, remap, true
	case *binder.Window:
		// a derived table's window over its aggregation: unread, it goes
		// or keeps its keys only, and its input narrows (pruneWindow)
		out, remap := pruneWindow(x, need)
		return out, remap, true
	case *binder.SetOp:
		if x.Kind != binder.Union || !x.All || x.Mixed != nil || x.Kept {
			break // PostgreSQL computes every output of a set operation it does not flatten
		}
		// a column that one branch must compute is computed in each, as
		// there (the set operation's output is what is pruned)
		keep := slices.Collect(maps.Keys(need)) // sorted below
		for c := range x.Columns() {
			if !need[c] && outputMustCompute(x, c) {
				keep = append(keep, c)
			}
		}
		slices.Sort(keep)
		if len(keep) == len(x.Columns()) {
			break // nothing to narrow (a union of no columns: GROUP BY GROUPING SETS ((), ()))
		}
		// none kept: branches of no columns, which still give their rows
		// (a flattened branch computes none of its outputs)
		l, lok := pickThrough(x.Left, keep)
		r, rok := pickThrough(x.Right, keep)
		if !lok && !rok {
			break
		}
		remap := map[int]int{}
		for i, c := range keep {
			remap[c] = i
		}
		return x.Narrowed(l, r, keep), remap, true
	}
	return nil, nil, false
}

// outputMustCompute reports whether column c of n is an expression that
// mustCompute, through what narrowThrough goes through.
func outputMustCompute(n binder.Node, c int) bool {
	switch x := n.(type) {
	case *binder.Project:
		return mustCompute(x.Exprs[c])
	case *binder.Limit:
		return outputMustCompute(x.Input, c)
	case *binder.Sort:
		return outputMustCompute(x.Input, c)
	case *binder.Filter:
		return outputMustCompute(x.Input, c)
	case *binder.SetOp:
		return outputMustCompute(x.Left, c) || outputMustCompute(x.Right, c)
	case *binder.Window:
		if c == len(x.Input.Columns()) {
			return windowMustCompute(x.Call)
		}
		return outputMustCompute(x.Input, c)
	}
	return false
}

// throughDerived reports whether narrowThrough goes through n to the
// projections under it.
func throughDerived(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Limit, *binder.Sort:
		return true
	case *binder.Filter:
		_, ok := x.Input.(*binder.Project)
		return ok || throughDerived(x.Input)
	case *binder.SetOp:
		return x.Kind == binder.Union && x.All && x.Mixed == nil && !x.Kept
	}
	return false
}

// pickThrough is n with exactly the columns keep, in order, narrowed by
// narrowThrough where it can be, else n under a projection that picks
// them; ok when either drops a column.
func pickThrough(n binder.Node, keep []int) (binder.Node, bool) {
	need := map[int]bool{}
	for _, c := range keep {
		need[c] = true
	}
	cols := n.Columns()
	in, remap, ok := narrowThrough(n, need)
	if !ok {
		in = n
		remap = map[int]int{}
		for _, c := range keep {
			remap[c] = c
		}
	}
	if len(in.Columns()) == len(keep) {
		same := true
		for i, c := range keep {
			same = same && remap[c] == i
		}
		if same {
			return in, ok
		}
	}
	p := &binder.Project{Input: in}
	for _, c := range keep {
		p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: remap[c], Name: cols[c].Name, T: cols[c].T})
		p.Cols = append(p.Cols, cols[c])
	}
	// a pick that drops an aggregation's columns narrows too: its unread
	// aggregates go (aggregate_output_pruning), as in a grouping set's
	_, agg := n.(*binder.Aggregate)
	return p, ok || agg && len(keep) < len(cols)
}

// narrowProjectTo is narrowProject with the columns read given.
func narrowProjectTo(inner *binder.Project, need map[int]bool) (*binder.Project, map[int]int, bool) {
	keep := func(i int) bool { return need[i] || mustCompute(inner.Exprs[i]) }
	remap := map[int]int{}
	out := &binder.Project{Input: inner.Input}
	for i, e := range inner.Exprs {
		if !keep(i) {
			continue
		}
		remap[i] = len(out.Exprs)
		out.Exprs = append(out.Exprs, e)
		out.Cols = append(out.Cols, inner.Cols[i])
	}
	if len(out.Exprs) == len(inner.Exprs) {
		return nil, nil, false
	}
	return dropUnreadWindows(out), remap, true
}

// mustCompute reports whether e is computed even when nothing reads its
// value, as PostgreSQL keeps a subquery's output that
// contain_volatile_functions finds (remove_unused_subquery_outputs): it
// calls a volatile function (nextval, random, pg_advisory_lock; not a
// stable one such as now()) or a UDF, itself or in a subquery. Every rule
// that drops an expression nothing reads asks it, so that they agree.
func mustCompute(e binder.Expr) bool { return binder.ContainsVolatile(e) }

// dropsOnlyUnneeded reports whether picking refs of exprs drops no
// expression that mustCompute.
func dropsOnlyUnneeded(refs []int, exprs []binder.Expr) bool {
	for i, e := range exprs {
		if !slices.Contains(refs, i) && mustCompute(e) {
			return false
		}
	}
	return true
}

// columnRefs returns the column indexes of exprs when each is a column.
func columnRefs(exprs []binder.Expr) ([]int, bool) {
	out := make([]int, len(exprs))
	for i, e := range exprs {
		c, ok := e.(*binder.ColumnRef)
		if !ok {
			return nil, false
		}
		out[i] = c.Index
	}
	return out, true
}

// singleUse reports whether picking refs of exprs evaluates no
// non-deterministic expression twice.
func singleUse(refs []int, exprs []binder.Expr) bool {
	seen := map[int]bool{}
	for _, r := range refs {
		if seen[r] && !deterministic(exprs[r]) {
			return false
		}
		seen[r] = true
	}
	return true
}

// constOf turns a lowered expression that folded to a constant back into a
// bound constant of e's type (e otherwise).
func constOf(le exec.Expr, e binder.Expr) binder.Expr {
	if c, ok := le.(*exec.ConstExpr); ok {
		return &binder.Const{Value: c.Value, T: e.Type()}
	}
	return e
}
