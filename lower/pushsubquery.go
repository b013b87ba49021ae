package lower

import (
	"context"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// subquery_push_qual: PostgreSQL plans a derived table it does not pull
// up (DISTINCT, GROUP BY or aggregates, a window function, ORDER BY, a
// UNION or INTERSECT, a volatile output) as a query of its own, and
// before it does, set_subquery_pathlist moves each of the derived table's
// restriction clauses that is safe to move into it (subquery_push_qual:
// the clause with the derived table's output expressions in place of its
// columns, appended to the subquery's WHERE, or to its HAVING when it
// aggregates). The subquery's planning then folds that WHERE
// (eval_const_expressions) with the subquery's constants in it, so
//
//	SELECT * FROM (SELECT DISTINCT 'AB' FROM t) s(c) WHERE c::boolean
//
// fails while planning though t is empty, and a clause that folds to
// false makes the subquery empty without computing its select list.
// pushSubqueryQuals moves the clauses there before the first fold, so
// that folding meets them where PostgreSQL does:
//
//   - the clauses are a WHERE's conjuncts over the derived table, through
//     the derived tables PostgreSQL pulls up, the inputs of inner joins
//     and the preserved side of outer ones, and the conjuncts of an inner
//     join's ON (an outer join's, over its nullable side) that read one
//     input: the derived table's baserestrictinfo;
//   - a clause moves when it reads a column, no subquery and nothing
//     volatile (qual_is_pushdown_safe), and none of the columns
//     check_output_expressions finds unsafe: a volatile output, one not
//     among DISTINCT ON's keys, one not in every window's PARTITION BY,
//     a set operation branch's column of another type than the result's;
//   - a derived table with LIMIT or OFFSET, grouping sets, EXCEPT, a
//     set-returning function, a branch that is a set operation with its
//     own clauses, or a UNION ALL PostgreSQL flattens into an append
//     relation (whose simple branches it reads as PlaceHolderVars) takes
//     none (subquery_is_pushdown_safe);
//   - into a set operation, every branch gets the clause over its own
//     outputs (recurse_push_qual), and a clause moved into a WHERE is
//     offered to the derived tables under it in turn, as the subquery's
//     own planning does.

// pushSubqueryQuals is the subquery_push_qual rule over n and the plans
// below it (not the plans of its subqueries and LATERAL items: the fold
// applies it to each as it folds them), in the session of ctx.
func pushSubqueryQuals(ctx context.Context, n binder.Node) binder.Node {
	if !reachesAny(n) {
		return n // nothing to move: no folder made
	}
	fo := newFolder(ctx)
	return (&pusher{fold: fo.foldTop}).push(n)
}

// pusher moves the clauses; fold is eval_const_expressions at the query
// level the clause comes from, which PostgreSQL runs over it before it
// moves it: an error there is that level's (a clause that fails to fold
// stays, for the level's own fold to raise), and what moves is the
// folded clause.
type pusher struct {
	fold func(binder.Expr) (binder.Expr, error)
}

func (pu *pusher) push(n binder.Node) binder.Node {
	n = rewriteChildren(n, pu.push)
	switch x := n.(type) {
	case *binder.Filter:
		return pu.pushFilterQuals(x)
	case *binder.Join:
		return pu.pushJoinQuals(x)
	}
	return n
}

// reachesAny reports whether some filter or join condition of n reaches
// a derived table PostgreSQL does not pull up.
func reachesAny(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Filter:
		if reachesLevel(x.Input) {
			return true
		}
	case *binder.Join:
		if x.Cond != nil && (reachesLevel(x.Left) || reachesLevel(x.Right)) {
			return true
		}
	}
	// the common nodes without Children's slice: planning's allocations
	// are budgeted (frontend_allocs_norace_test.go)
	switch x := n.(type) {
	case *binder.Scan, *binder.Values:
		return false
	case *binder.Filter:
		return reachesAny(x.Input)
	case *binder.Project:
		return reachesAny(x.Input)
	case *binder.Sort:
		return reachesAny(x.Input)
	case *binder.Limit:
		return reachesAny(x.Input)
	case *binder.Aggregate:
		return reachesAny(x.Input)
	case *binder.Join:
		return reachesAny(x.Left) || reachesAny(x.Right)
	}
	for _, c := range n.Children() {
		if reachesAny(c) {
			return true
		}
	}
	return false
}

// movable is c folded at its own level when it is a clause PostgreSQL
// may move into a derived table: it reads a column, calls nothing
// volatile, holds no subquery, and folds without an error and to
// something that still reads a column. A clause reading the enclosing
// query's row (an OuterRef) stays: PostgreSQL moves it as a Param, but
// there the derived table's uncorrelated initplans run once for all the
// enclosing rows, while here a derived table made correlated would run
// them again for each (a nextval in its select list called per row), and
// a correlated clause folds to no error of its own.
func (pu *pusher) movable(c binder.Expr) (binder.Expr, bool) {
	if len(columnsOf(c)) == 0 || !deterministic(c) || anyExpr(c, isSubquery) || anyExpr(c, isOuterRef) {
		return nil, false
	}
	f, err := pu.fold(c)
	if err != nil || len(columnsOf(f)) == 0 {
		return nil, false
	}
	return f, true
}

// pushFilterQuals moves f's conjuncts that reach a derived table PostgreSQL
// does not pull up into it.
func (pu *pusher) pushFilterQuals(f *binder.Filter) binder.Node {
	if !reachesLevel(f.Input) {
		return f // no split of the condition: the common case
	}
	cs := conjuncts(f.Cond)
	in, placed := pu.placeQuals(f.Input, cs)
	if in == f.Input {
		return f
	}
	keep := unplaced(cs, placed)
	if len(keep) == 0 {
		return in
	}
	return &binder.Filter{Input: in, Cond: and(keep)}
}

// pushJoinQuals moves the conjuncts of j's ON condition that are a
// restriction of one input (an inner join's, an outer join's over its
// nullable side) into the derived tables of that input.
func (pu *pusher) pushJoinQuals(j *binder.Join) binder.Node {
	var left, right bool
	switch j.Type {
	case binder.InnerJoin, binder.CrossJoin:
		left, right = true, true
	case binder.LeftJoin:
		// PostgreSQL removes a LEFT JOIN to at most one row that nothing
		// above reads (join_is_removable) before it plans that side
		right = !atMostOneRow(j.Right)
	case binder.RightJoin:
		left = !atMostOneRow(j.Left)
	}
	if j.Cond == nil || !(left && reachesLevel(j.Left) || right && reachesLevel(j.Right)) {
		return j
	}
	cs := conjuncts(j.Cond)
	l, r, placed := pu.placeSides(j, cs, left, right)
	if l == j.Left && r == j.Right {
		return j
	}
	c := *j
	c.Left, c.Right = l, r
	c.Cond = nil
	if keep := unplaced(cs, placed); len(keep) > 0 {
		c.Cond = and(keep)
	}
	return &c
}

// unplaced is the conjuncts of cs placed does not mark.
func unplaced(cs []binder.Expr, placed []bool) []binder.Expr {
	var keep []binder.Expr
	for i, c := range cs {
		if !placed[i] {
			keep = append(keep, c)
		}
	}
	return keep
}

// reachesLevel reports whether a restriction over n can reach a derived
// table PostgreSQL does not pull up (placeQuals' walk, without building
// anything).
func reachesLevel(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Project:
		if pulledUpLevel(x) && !grouped(x.Input) {
			return reachesLevel(x.Input)
		}
		return !x.Generated
	case *binder.Filter:
		return reachesLevel(x.Input)
	case *binder.Join:
		return reachesLevel(x.Left) || reachesLevel(x.Right)
	case *binder.Distinct, *binder.DistinctOn, *binder.Sort:
		return true
	case *binder.SetOp:
		return true
	}
	return false
}

// pulledUpLevel reports whether a restriction over p's outputs is one over
// p's input once PostgreSQL has pulled p up: a projection of columns, or
// a simple derived table (pullupconst.go's simpleInput) with no volatile
// output.
func pulledUpLevel(p *binder.Project) bool {
	if p.Generated {
		return false
	}
	if _, ok := columnRefs(p.Exprs); ok {
		return true
	}
	if !simpleInput(p.Input) {
		return false
	}
	for _, e := range p.Exprs {
		if mustCompute(e) {
			return false
		}
	}
	return true
}

// grouped reports whether n is what a query level's select list of
// columns alone reads when the level aggregates or has windows (a
// projection of columns over n is that level's select list).
func grouped(n binder.Node) bool {
	switch n.(type) {
	case *binder.Aggregate, *binder.Window, *binder.ProjectSet:
		return true
	}
	return false
}

// placeQuals moves the conjuncts cs, over n's columns, into the derived
// tables under n they restrict; placed marks the ones it moved.
func (pu *pusher) placeQuals(n binder.Node, cs []binder.Expr) (binder.Node, []bool) {
	placed := make([]bool, len(cs))
	switch x := n.(type) {
	case *binder.Project:
		if !pulledUpLevel(x) || grouped(x.Input) {
			return pu.pushIntoLevel(x, cs)
		}
		// through the pulled-up projection: each conjunct over its input
		var idx []int
		var sub []binder.Expr
		for i, c := range cs {
			if allDeterministic(x.Exprs, columnsOf(c)) {
				idx = append(idx, i)
				sub = append(sub, substitute(c, x.Exprs))
			}
		}
		in, p := pu.placeQuals(x.Input, sub)
		if in == x.Input {
			return n, placed
		}
		for k, i := range idx {
			placed[i] = p[k]
		}
		c := *x
		c.Input = in
		return &c, placed
	case *binder.Filter:
		in, p := pu.placeQuals(x.Input, cs)
		if in == x.Input {
			return n, placed
		}
		return &binder.Filter{Input: in, Cond: x.Cond}, p
	case *binder.Join:
		var left, right bool
		switch x.Type {
		case binder.InnerJoin, binder.CrossJoin:
			left, right = true, true
		case binder.LeftJoin, binder.SemiJoin, binder.AntiJoin:
			left = true
		case binder.RightJoin:
			right = true
		}
		l, r, p := pu.placeSides(x, cs, left, right)
		if l == x.Left && r == x.Right {
			return n, placed
		}
		c := *x
		c.Left, c.Right = l, r
		return &c, p
	case *binder.SetOp:
		if !x.Kept {
			return pu.pushIntoBranches(x, cs)
		}
		return pu.pushIntoLevel(n, cs)
	case *binder.Distinct, *binder.DistinctOn, *binder.Sort:
		return pu.pushIntoLevel(n, cs)
	}
	return n, placed
}

// pushIntoBranches moves the conjuncts of cs, over the outputs of a UNION
// ALL that PostgreSQL flattens into an append relation, into each branch:
// the append relation's restrictions are each member's, folded with the
// member's outputs in place (apply_child_basequals), and offered to the
// derived tables the member reads.
func (pu *pusher) pushIntoBranches(x *binder.SetOp, cs []binder.Expr) (binder.Node, []bool) {
	placed := make([]bool, len(cs))
	var push []binder.Expr
	for i, c := range cs {
		if f, ok := pu.movable(c); ok {
			placed[i] = true
			push = append(push, f)
		}
	}
	if len(push) == 0 {
		return x, placed
	}
	c := *x
	c.Left, c.Right = pu.intoBranch(x.Left, push), pu.intoBranch(x.Right, push)
	return &c, placed
}

// intoBranch is the branch b with the conjuncts cs over its outputs in a
// WHERE of its own, under the projection that converts its untyped
// literals to the result's types (PostgreSQL types them in the branch).
func (pu *pusher) intoBranch(b binder.Node, cs []binder.Expr) binder.Node {
	if p, ok := b.(*binder.Project); ok && conversion(p) {
		sub := make([]binder.Expr, len(cs))
		for i, c := range cs {
			sub[i] = substitute(c, p.Exprs)
		}
		c := *p
		c.Input = pu.intoBranch(p.Input, sub)
		return &c
	}
	return pu.pushFilterQuals(&binder.Filter{Input: b, Cond: and(cs)})
}

// placeSides places the conjuncts of cs, over j's columns, that read one
// input of j only into that input, when left (right) allows it.
func (pu *pusher) placeSides(j *binder.Join, cs []binder.Expr, left, right bool) (binder.Node, binder.Node, []bool) {
	placed := make([]bool, len(cs))
	nl := len(j.Left.Columns())
	var li, ri []int
	var lc, rc []binder.Expr
	for i, c := range cs {
		cols := columnsOf(c)
		if len(cols) == 0 {
			continue // a one-time filter: pseudoconstant, never pushed
		}
		lo, hi := cols[0], cols[0]
		for _, k := range cols {
			lo, hi = min(lo, k), max(hi, k)
		}
		switch {
		case left && hi < nl:
			li, lc = append(li, i), append(lc, c)
		case right && lo >= nl:
			ri, rc = append(ri, i), append(rc, shiftColumns(c, -nl))
		}
	}
	l, r := j.Left, j.Right
	if len(lc) > 0 {
		var p []bool
		if l, p = pu.placeQuals(j.Left, lc); l != j.Left {
			for k, i := range li {
				placed[i] = p[k]
			}
		}
	}
	if len(rc) > 0 {
		var p []bool
		if r, p = pu.placeQuals(j.Right, rc); r != j.Right {
			for k, i := range ri {
				placed[i] = p[k]
			}
		}
	}
	return l, r, placed
}

// pushIntoLevel moves the conjuncts of cs, over the outputs of n, a
// derived table PostgreSQL plans as a query of its own, that are safe to
// move (qual_is_pushdown_safe) into it.
func (pu *pusher) pushIntoLevel(n binder.Node, cs []binder.Expr) (binder.Node, []bool) {
	placed := make([]bool, len(cs))
	unsafe, ok := levelSafety(n, false)
	if !ok {
		return n, placed
	}
	var push []binder.Expr
	for i, c := range cs {
		safe := true
		for _, k := range columnsOf(c) {
			safe = safe && !unsafe[k]
		}
		if !safe {
			continue
		}
		if f, ok := pu.movable(c); ok {
			placed[i] = true
			push = append(push, f)
		}
	}
	if len(push) == 0 {
		return n, placed
	}
	return pu.pushConds(n, push), placed
}

func isOuterRef(x binder.Expr) bool {
	_, ok := x.(*binder.OuterRef)
	return ok
}

func isSubquery(x binder.Expr) bool {
	_, ok := x.(*binder.Subquery)
	return ok
}

// levelSafety is subquery_is_pushdown_safe over n, a derived table's plan
// (arm: a set operation's branch): ok says a clause may move into it at
// all, unsafe marks the output columns no moved clause may read
// (check_output_expressions, compare_tlist_datatypes).
func levelSafety(n binder.Node, arm bool) (unsafe []bool, ok bool) {
	switch x := n.(type) {
	case *binder.Sort, *binder.Distinct:
		return levelSafety(n.Children()[0], arm)
	case *binder.DistinctOn:
		unsafe, ok = levelSafety(x.Input, arm)
		if !ok {
			return nil, false
		}
		out := make([]bool, len(unsafe))
		for i := range out {
			out[i] = true
		}
		for _, k := range x.Keys {
			out[k] = unsafe[k]
		}
		return out, true
	case *binder.SetOp:
		// a branch that is a set operation with clauses of its own (under
		// a sort or DISTINCT) is a subquery with set operations
		if arm || !x.Kept {
			return nil, false
		}
		return setOpSafety(x)
	case *binder.Project:
		if x.Generated {
			return nil, false
		}
		if refs, isRefs := columnRefs(x.Exprs); isRefs {
			in, ok := levelSafety(x.Input, arm)
			if !ok {
				return nil, false
			}
			out := make([]bool, len(refs))
			for i, r := range refs {
				out[i] = in[r]
			}
			return out, true
		}
		windows, base, ok := levelWindows(x.Input)
		if !ok {
			return nil, false
		}
		unsafe = make([]bool, len(x.Exprs))
		for i, e := range x.Exprs {
			later := false
			for _, k := range columnsOf(e) {
				later = later || k >= base
			}
			unsafe[i] = later || mustCompute(e) || !inAllPartitions(e, windows)
		}
		return unsafe, true
	case *binder.Aggregate:
		return make([]bool, len(x.Columns())), !x.GroupingSet
	case *binder.Filter, *binder.Scan, *binder.Values, *binder.Join:
		return make([]bool, len(n.Columns())), true
	}
	return nil, false
}

// setOpSafety is levelSafety over the set operations of one query's tree
// (recurse_pushdown_safe): none under EXCEPT, and a column unsafe in one
// branch is unsafe in all.
func setOpSafety(x *binder.SetOp) ([]bool, bool) {
	if x.Kind == binder.Except {
		return nil, false
	}
	unsafe := make([]bool, len(x.Columns()))
	for _, b := range []binder.Node{x.Left, x.Right} {
		var u []bool
		ok := false
		if s, nested := b.(*binder.SetOp); nested {
			u, ok = setOpSafety(s)
		} else {
			u, ok = branchSafety(b)
		}
		if !ok {
			return nil, false
		}
		for i := range unsafe {
			unsafe[i] = unsafe[i] || u[i]
		}
	}
	return unsafe, true
}

// branchSafety is levelSafety over a set operation's branch: the
// projection that converts its columns to the result's types marks a
// column whose type differs (not an untyped literal, which PostgreSQL
// types in the branch itself) unsafe.
func branchSafety(b binder.Node) ([]bool, bool) {
	p, ok := b.(*binder.Project)
	if !ok || !conversion(p) {
		return levelSafety(b, true)
	}
	unsafe, ok := levelSafety(p.Input, true)
	if !ok {
		return nil, false
	}
	in := p.Input.Columns()
	for i, e := range p.Exprs {
		if _, isCast := e.(*binder.Cast); isCast && in[i].T.Kind != types.Unknown && in[i].T.Kind != types.Null {
			unsafe[i] = true
		}
	}
	return unsafe, true
}

// conversion reports whether p has the shape of the projection the binder
// puts over a set operation's branch to convert its columns to the
// result's types: each output its input's column of the same position,
// cast or not.
func conversion(p *binder.Project) bool {
	if p.Generated || len(p.Exprs) != len(p.Input.Columns()) {
		return false
	}
	for i, e := range p.Exprs {
		if c, isCast := e.(*binder.Cast); isCast {
			e = c.X
		}
		if r, isRef := e.(*binder.ColumnRef); !isRef || r.Index != i {
			return false
		}
	}
	return true
}

// levelWindows is the window calls between a query level's select list
// and its aggregation or FROM, and how many columns the node below them
// and the level's set-returning functions has: a select list's output
// that reads a later one (a window's or a set-returning call's result) is
// unsafe. False: grouping sets there, which take no clause.
func levelWindows(n binder.Node) ([]binder.WindowCall, int, bool) {
	var out []binder.WindowCall
	for {
		switch x := n.(type) {
		case *binder.Window:
			out = append(out, x.Call)
			n = x.Input
		case *binder.ProjectSet:
			n = x.Input
		case *binder.Aggregate:
			return out, len(x.Columns()), !x.GroupingSet
		case *binder.Sort, *binder.Limit, *binder.Distinct, *binder.DistinctOn, *binder.LockRows, *binder.SetOp:
			// a select list over a set operation: grouping sets, whose
			// grouping the binder builds as a UNION ALL of aggregations
			return nil, 0, false
		default:
			return out, len(n.Columns()), true
		}
	}
}

// inAllPartitions reports whether e is among every window's PARTITION BY
// keys (targetIsInAllPartitionLists).
func inAllPartitions(e binder.Expr, windows []binder.WindowCall) bool {
	for _, w := range windows {
		found := false
		for _, p := range w.Partition {
			found = found || binder.SameExpr(e, p)
		}
		if !found {
			return false
		}
	}
	return true
}

// pushConds puts the conjuncts cs, over n's outputs, into the WHERE (or
// HAVING) of the query levels of n, which levelSafety accepted.
func (pu *pusher) pushConds(n binder.Node, cs []binder.Expr) binder.Node {
	switch x := n.(type) {
	case *binder.Sort:
		return &binder.Sort{Input: pu.pushConds(x.Input, cs), Keys: x.Keys}
	case *binder.Distinct:
		return &binder.Distinct{Input: pu.pushConds(x.Input, cs)}
	case *binder.DistinctOn:
		return &binder.DistinctOn{Input: pu.pushConds(x.Input, cs), Keys: x.Keys}
	case *binder.SetOp:
		c := *x
		c.Left, c.Right = pu.pushConds(x.Left, cs), pu.pushConds(x.Right, cs)
		return &c
	case *binder.Project:
		sub := make([]binder.Expr, len(cs))
		for i, c := range cs {
			sub[i] = substitute(c, x.Exprs)
		}
		c := *x
		if _, isRefs := columnRefs(x.Exprs); isRefs || conversion(x) {
			c.Input = pu.pushConds(x.Input, sub)
		} else {
			c.Input = pu.placeInLevel(x.Input, sub)
		}
		return &c
	}
	return pu.placeInLevel(n, cs)
}

// placeInLevel appends cs to the WHERE of the query level whose FROM (or
// windows, or aggregation) is n, or to its HAVING when it aggregates
// (subquery_push_qual), and offers a WHERE's new conjuncts to the derived
// tables below it.
func (pu *pusher) placeInLevel(n binder.Node, cs []binder.Expr) binder.Node {
	switch x := n.(type) {
	case *binder.Window:
		return x.Over(pu.placeInLevel(x.Input, cs), x.Call)
	case *binder.ProjectSet:
		c := *x // its columns: the input's, which a filter keeps, then the calls'
		c.Input = pu.placeInLevel(x.Input, cs)
		return &c
	case *binder.Filter:
		if _, having := x.Input.(*binder.Aggregate); having {
			// folded as HAVING, apart from the WHERE below: a WHERE that
			// folds to false does not spare it (subquery_planner folds
			// the two before it moves HAVING conditions to WHERE)
			return &binder.Filter{Input: x.Input, Cond: and(append(conjuncts(x.Cond), cs...))}
		}
		return pu.pushFilterQuals(&binder.Filter{Input: x.Input, Cond: and(append(conjuncts(x.Cond), cs...))})
	case *binder.Aggregate:
		return &binder.Filter{Input: x, Cond: and(cs)}
	}
	return pu.pushFilterQuals(&binder.Filter{Input: n, Cond: and(cs)})
}

// staysPerRow reports whether the condition c, over columns computed by
// exprs, reads only constants among them: moved below them it would read
// no column, a one-time filter computed before any row, where PostgreSQL
// computes it for each row of the derived table (a clause it moves into
// a derived table subquery_push_qual has moved and folded already; the
// ones left read a column it may not move a clause on).
func staysPerRow(c binder.Expr, exprs []binder.Expr) bool {
	cols := columnsOf(c)
	if len(cols) == 0 {
		return false
	}
	for _, i := range cols {
		if len(columnsOf(exprs[i])) > 0 {
			return false
		}
	}
	return true
}
