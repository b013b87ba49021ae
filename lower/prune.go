package lower

import (
	"maps"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// pruneJoinInputs makes each input of the joins under a projection keep
// only the columns that something above reads (the projection, a filter
// between, the join conditions): the input gets a projection of those
// columns, which projection pushdown then turns into a scan that decodes
// only them, and the joins carry narrower rows. Filters and projections
// between are gone through (a projection that a rule put over a join
// whose inputs it swapped computes only what is read). The projection on
// top is rewritten over the narrower join, so the plan's schema stays. The same
// goes through the left input of a LATERAL join (what the right side
// reads of the left row is read) and the input of a window function
// (what it partitions, orders and aggregates by is read): a derived
// table's output that nothing reads is computed nowhere, as PostgreSQL,
// which pulls the derived table up, never computes an unreferenced
// target (SELECT 1 FROM (SELECT 1/0 AS z, x FROM t) s, LATERAL (SELECT
// s.x) l reads no z).
func pruneJoinInputs(n binder.Node) binder.Node {
	p, ok := n.(*binder.Project)
	if !ok {
		return rewriteChildren(n, pruneJoinInputs)
	}
	if !narrowsInputs(p.Input) {
		return rewriteChildren(n, pruneJoinInputs)
	}
	need := map[int]bool{}
	for _, e := range p.Exprs {
		markColumns(e, need)
	}
	out, remap, _ := pruneNode(p.Input, need)
	np := &binder.Project{Input: out, Cols: p.Cols}
	for _, e := range p.Exprs {
		np.Exprs = append(np.Exprs, remapColumns(e, remap))
	}
	return np
}

func markColumns(e binder.Expr, need map[int]bool) {
	for _, c := range columnsOf(e) {
		need[c] = true
	}
}

// pruneJoin narrows j's inputs to the columns in need (of j's output) and
// its condition's; it returns the new join and where each needed column of
// j now is.
func pruneJoin(j *binder.Join, need map[int]bool) (binder.Node, map[int]int) {
	nl := len(j.Left.Columns())
	if j.Type == binder.LeftJoin && removableRight(j.Right, nl, need) {
		return pruneInput(j.Left, need)
	}
	ln, rn := map[int]bool{}, map[int]bool{}
	all := map[int]bool{}
	for c := range need {
		all[c] = true
	}
	if j.Cond != nil {
		markColumns(j.Cond, all)
	}
	for c := range all {
		if c < nl {
			ln[c] = true
		} else {
			rn[c-nl] = true
		}
	}
	left, lmap := pruneInput(j.Left, ln)
	right, rmap := pruneInput(j.Right, rn)
	nlNew := len(left.Columns())
	remap := map[int]int{}
	for c := range all {
		if c < nl {
			remap[c] = lmap[c]
		} else {
			remap[c] = nlNew + rmap[c-nl]
		}
	}
	var cond binder.Expr
	if j.Cond != nil {
		cond = remapColumns(j.Cond, remap)
	}
	out := binder.NewJoin(left, right, j.Type, cond)
	out.NullAware = j.NullAware
	return out, remap
}

// narrowsInputs reports whether pruneNode narrows n: a join, a LATERAL
// join or a window, under filters and projections or not (a rule's
// projection over a join whose inputs it swapped, a WHERE over it).
func narrowsInputs(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Join, *binder.Lateral, *binder.Window:
		return true
	case *binder.Filter:
		return narrowsInputs(x.Input)
	case *binder.Project:
		return narrowsInputs(x.Input)
	}
	return false
}

// pruneNode narrows the join, LATERAL join or window n to what computes
// the columns in need (of n's output), returning the new node and where
// each needed column of n now is; ok is false for any other node.
func pruneNode(n binder.Node, need map[int]bool) (binder.Node, map[int]int, bool) {
	switch x := n.(type) {
	case *binder.Join:
		out, remap := pruneJoin(x, need)
		return out, remap, true
	case *binder.Lateral:
		out, remap := pruneLateral(x, need)
		return out, remap, true
	case *binder.Window:
		out, remap := pruneWindow(x, need)
		return out, remap, true
	case *binder.Filter:
		if !narrowsInputs(x.Input) {
			break
		}
		all := maps.Clone(need)
		markColumns(x.Cond, all)
		in, remap, _ := pruneNode(x.Input, all)
		return &binder.Filter{Input: in, Cond: remapColumns(x.Cond, remap)}, remap, true
	case *binder.Project:
		if !narrowsInputs(x.Input) {
			break
		}
		// what nothing reads is not computed (what mustCompute is)
		below := map[int]bool{}
		var kept []int
		for i, e := range x.Exprs {
			if need[i] || mustCompute(e) {
				kept = append(kept, i)
				markColumns(e, below)
			}
		}
		in, inRemap, _ := pruneNode(x.Input, below)
		out := &binder.Project{Input: in}
		remap := map[int]int{}
		for _, i := range kept {
			remap[i] = len(out.Exprs)
			out.Exprs = append(out.Exprs, remapColumns(x.Exprs[i], inRemap))
			out.Cols = append(out.Cols, x.Cols[i])
		}
		return out, remap, true
	}
	return nil, nil, false
}

// columnsBelow is the columns of need under n: those an input of n
// columns gives (a node's own columns follow its input's).
func columnsBelow(need map[int]bool, n int) map[int]bool {
	out := make(map[int]bool, len(need))
	for c := range need {
		if c < n {
			out[c] = true
		}
	}
	return out
}

// pruneLateral narrows l's left input to the columns in need and those
// the right side (through its outer values) and the condition read, and
// its right side, when that is a derived table's projection (or what
// narrowThrough goes through), to the columns in need and the
// condition's: PostgreSQL pulls a simple LATERAL subquery up, or removes
// its unread outputs (remove_unused_subquery_outputs), so an output
// nothing reads is computed for no left row (SELECT t.k FROM t, LATERAL
// (SELECT 1/0 AS z, t.k AS k2) l). A right side of any other kind (a
// function in FROM) stays as it is.
func pruneLateral(l *binder.Lateral, need map[int]bool) (binder.Node, map[int]int) {
	nl := len(l.Left.Columns())
	if l.Type == binder.LeftJoin && removableRight(l.Right, nl, need) {
		return pruneInput(l.Left, need)
	}
	ln := columnsBelow(need, nl)
	rn := map[int]bool{}
	for c := range need {
		if c >= nl {
			rn[c-nl] = true
		}
	}
	if l.Cond != nil {
		for _, c := range columnsOf(l.Cond) {
			if c < nl {
				ln[c] = true
			} else {
				rn[c-nl] = true
			}
		}
	}
	right, rmap := pruneLateralRight(l.Right, rn)
	// trimmed as lowerLateral lowers it: a right side that then reads no
	// outer value (an aggregation become one row read from nothing) needs
	// none of the left columns they read (lowerLateral computes none)
	correlated := nodeCorrelated(trimSubqueryPlan(right))
	if correlated {
		for _, e := range l.Outer {
			markColumns(e, ln)
		}
	}
	left, lmap := pruneInput(l.Left, ln)
	nlNew := len(left.Columns())
	remap := map[int]int{}
	for c := range ln {
		remap[c] = lmap[c]
	}
	for c, to := range rmap {
		remap[nl+c] = nlNew + to
	}
	outer := make([]binder.Expr, len(l.Outer))
	for i, e := range l.Outer {
		if !correlated {
			outer[i] = nullOf(e.Type())
			continue
		}
		outer[i] = remapColumns(e, lmap)
	}
	var cond binder.Expr
	if l.Cond != nil {
		cond = remapColumns(l.Cond, remap)
	}
	return binder.NewLateral(left, right, outer, l.Type, cond), remap
}

// pruneLateralRight narrows a LATERAL join's right side to the columns in
// need when it is a derived table's projection (through its LIMIT, ORDER
// BY, WHERE: narrowThrough), keeping one column that cannot fail when
// nothing is read (its rows still count); it returns where each column
// kept now is (every column when it stays as it is).
func pruneLateralRight(r binder.Node, need map[int]bool) (binder.Node, map[int]int) {
	cols := r.Columns()
	all := func() (binder.Node, map[int]int) {
		remap := make(map[int]int, len(cols))
		for i := range cols {
			remap[i] = i
		}
		return r, remap
	}
	if _, ok := r.(*binder.Project); !ok && !throughDerived(r) {
		return all()
	}
	keep := make([]int, 0, len(need))
	for c := range need {
		keep = append(keep, c)
	}
	slices.Sort(keep)
	if len(keep) == 0 {
		if rows := rowsOnly(r); rows != nil {
			return rows, map[int]int{}
		}
		keep = []int{plainColumn(r)}
	}
	if len(keep) == len(cols) {
		return all()
	}
	narrow, ok := pickThrough(r, keep)
	if !ok {
		return all()
	}
	remap := make(map[int]int, len(keep))
	for i, c := range keep {
		remap[c] = i
	}
	return narrow, remap
}

// rowsOnly is the projection n (through the projections under it) with
// its outputs replaced by one constant: its rows, none of its
// expressions, for a join that reads none of them (count(*) over a
// LATERAL item); nil when it computes what mustCompute, or is not a
// projection.
func rowsOnly(n binder.Node) binder.Node {
	p, ok := n.(*binder.Project)
	if !ok || slices.ContainsFunc(p.Exprs, mustCompute) {
		return nil
	}
	if _, inner := p.Input.(*binder.Project); inner {
		return rowsOnly(p.Input)
	}
	return rowsOver(p.Input)
}

// removableRight reports whether a LEFT JOIN (LATERAL or not) whose
// output columns need reads none of its right side's (those from nl on)
// can be its left input alone: PostgreSQL removes such a join
// (analyzejoins.c's join_is_removable) when the right side gives at most
// one row for each left row (rel_is_distinct_for: a derived table that
// aggregates without GROUP BY, or has a HAVING), whatever its ON
// condition, so nothing of the right side is computed, the condition
// neither: SELECT t.a FROM t LEFT JOIN LATERAL (SELECT count(*) FROM u
// WHERE u.k = 10 / t.b) s ON true divides nothing.
func removableRight(right binder.Node, nl int, need map[int]bool) bool {
	for c := range need {
		if c >= nl {
			return false
		}
	}
	return atMostOneRow(right)
}

// atMostOneRow reports whether n is an aggregation without grouping keys
// (one row) under its derived table's projection, windows, HAVING, ORDER
// BY and LIMIT, or one row of VALUES (what a degenerate grouping became).
func atMostOneRow(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Aggregate:
		return len(x.GroupBy) == 0
	case *binder.Values:
		return len(x.Rows) <= 1
	case *binder.Project:
		return atMostOneRow(x.Input)
	case *binder.Filter:
		return atMostOneRow(x.Input)
	case *binder.Sort:
		return atMostOneRow(x.Input)
	case *binder.Limit:
		return atMostOneRow(x.Input)
	case *binder.Window:
		// a window over the aggregation keeps its one row
		// (query_is_distinct_for does not look at windows)
		return atMostOneRow(x.Input)
	}
	return false
}

// aggregateRows is the rows of n, which is overAggregate, under a constant,
// its derived table's outputs dropped (narrowThrough): a column of n kept
// to count its rows would keep an aggregate that
// aggregate_output_pruning drops unread.
func aggregateRows(n binder.Node) binder.Node {
	if narrow, _, ok := narrowThrough(n, map[int]bool{}); ok {
		n = narrow
	}
	return rowsOver(n)
}

// overAggregate reports whether n is an aggregation, under its derived
// table's select list, HAVING, windows, ORDER BY and LIMIT or not (a
// window keeps its input's rows: narrowThrough drops an unread one).
func overAggregate(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Aggregate:
		return true
	case *binder.Window:
		return overAggregate(x.Input)
	case *binder.Project:
		return overAggregate(x.Input)
	case *binder.Filter:
		return overAggregate(x.Input)
	case *binder.Sort:
		return overAggregate(x.Input)
	case *binder.Limit:
		return overAggregate(x.Input)
	}
	return false
}

// rowsOver is n's rows under one constant column.
func rowsOver(n binder.Node) binder.Node {
	one := &binder.Const{Value: int64(1), T: types.Int64Type}
	return &binder.Project{Input: n, Exprs: []binder.Expr{one}, Cols: []binder.Column{{Name: "?column?", T: one.T}}}
}

// pruneWindow narrows w's input to the columns in need and those its
// function reads (arguments, FILTER, PARTITION BY, ORDER BY); the
// function's own column stays, computed over every input row as before,
// when it is read or mustCompute; else the window goes (dropUnreadWindows),
// all but its keys when they may fail (windowKeysOnly).
func pruneWindow(w *binder.Window, need map[int]bool) (binder.Node, map[int]int) {
	nIn := len(w.Input.Columns())
	in := columnsBelow(need, nIn)
	call := w.Call
	if !need[nIn] && !windowMustCompute(w.Call) {
		if !windowKeysMayFail(call, w.Input) {
			return pruneInput(w.Input, in)
		}
		call = windowKeysOnly(call) // its keys are computed still
	}
	for _, e := range call.Args {
		markColumns(e, in)
	}
	for _, e := range call.Partition {
		markColumns(e, in)
	}
	for _, k := range call.Order {
		markColumns(k.Expr, in)
	}
	if call.Filter != nil {
		markColumns(call.Filter, in)
	}
	input, imap := pruneInput(w.Input, in)
	remapAll := func(es []binder.Expr) []binder.Expr {
		out := make([]binder.Expr, len(es))
		for i, e := range es {
			out[i] = remapColumns(e, imap)
		}
		return out
	}
	call.Args, call.Partition = remapAll(call.Args), remapAll(call.Partition)
	call.Order = make([]binder.SortKey, len(w.Call.Order))
	for i, k := range w.Call.Order {
		call.Order[i] = binder.SortKey{Expr: remapColumns(k.Expr, imap), Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	if call.Filter != nil {
		call.Filter = remapColumns(call.Filter, imap)
	}
	remap := map[int]int{nIn: len(input.Columns())}
	for c := range in {
		remap[c] = imap[c]
	}
	return w.Over(input, call), remap
}

// pruneInput narrows n to the columns in need, returning where each is.
func pruneInput(n binder.Node, need map[int]bool) (binder.Node, map[int]int) {
	if out, remap, ok := pruneNode(n, need); ok {
		return out, remap
	}
	n = pruneJoinInputs(n)
	cols := n.Columns()
	if len(cols) == 0 {
		return n, map[int]int{} // rows only already (a degenerate grouping's)
	}
	keep := make([]int, 0, len(need))
	for c := range need {
		keep = append(keep, c)
	}
	slices.Sort(keep)
	if len(keep) == 0 && overAggregate(n) {
		return aggregateRows(n), map[int]int{}
	}
	if len(keep) == 0 {
		if rowsAloneThrough(n) {
			return derivedRows(n), map[int]int{}
		}
		keep = []int{plainColumn(n)} // a join input still counts rows
	}
	remap := map[int]int{}
	if len(keep) == len(cols) && !projectOverDerived(n) {
		for i := range cols {
			remap[i] = i
		}
		return n, remap
	}
	// a derived table's projection, or those under its LIMIT, ORDER BY or
	// UNION ALL: computes only what is read and what mustCompute
	// (narrowThrough)
	if _, ok := n.(*binder.Project); !ok && !throughDerived(n) {
		// nothing to narrow below
	} else if narrow, ok := pickThrough(n, keep); ok {
		for i, c := range keep {
			remap[c] = i
		}
		return narrow, remap
	}
	if len(keep) == len(cols) {
		for i := range cols {
			remap[i] = i
		}
		return n, remap
	}
	if leaf := narrowLeaf(n, keep); leaf != nil {
		for i, c := range keep {
			remap[c] = i
		}
		return leaf, remap
	}
	p := &binder.Project{Input: n}
	for i, c := range keep {
		remap[c] = i
		p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: c, Name: cols[c].Name, T: cols[c].T})
		p.Cols = append(p.Cols, cols[c])
	}
	return p, remap
}

// rowsAloneThrough reports whether n, of which nothing is read, is a
// derived table with no column that cannot fail, or a UNION ALL whose
// branches' columns narrowThrough drops: what counts its rows is then
// derivedRows, not one of its columns.
func rowsAloneThrough(n binder.Node) bool {
	c := plainColumn(n)
	return (!plainAt(n, c) || overUnion(n)) && (throughDerived(n) || projectOverDerived(n))
}

// derivedRows is n's rows alone, under a constant: what PostgreSQL
// computes of a subquery nothing reads (remove_unused_subquery_outputs).
func derivedRows(n binder.Node) binder.Node {
	rows, _ := pickThrough(n, nil)
	return rowsOver(rows)
}

// overUnion reports whether n is a UNION ALL that narrowThrough goes
// through, under a derived table's projection, WHERE, ORDER BY or LIMIT:
// a column of a branch's aggregation counts as plain (plainAt), but the
// branch computes none when nothing reads it (planagg.c's Result).
func overUnion(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.SetOp:
		return throughDerived(x)
	case *binder.Project:
		return overUnion(x.Input)
	case *binder.Filter:
		return overUnion(x.Input)
	case *binder.Limit:
		return overUnion(x.Input)
	case *binder.Sort:
		return overUnion(x.Input)
	}
	return false
}

// projectOverDerived reports whether n is a projection over what
// narrowThrough goes through: it may narrow below n when n keeps all.
func projectOverDerived(n binder.Node) bool {
	p, ok := n.(*binder.Project)
	return ok && throughDerived(p.Input)
}

// plainColumn is the first column of n that is a stored column or a
// constant (through projections, filters and joins), or 0: the one column
// a join input that nothing reads keeps to count its rows, which should
// not be a derived table's expression whose errors PostgreSQL never meets
// (count(*) over a join reads no column of either side).
func plainColumn(n binder.Node) int {
	for i := range n.Columns() {
		if plainAt(n, i) {
			return i
		}
	}
	return 0
}

func plainAt(n binder.Node, i int) bool {
	switch x := n.(type) {
	case *binder.Project:
		switch e := x.Exprs[i].(type) {
		case *binder.ColumnRef:
			return plainAt(x.Input, e.Index)
		case *binder.Const, *binder.OuterRef: // an outer row's column (a LATERAL item's) cannot fail
			return true
		}
		return false
	case *binder.Filter:
		return plainAt(x.Input, i)
	case *binder.Limit:
		return plainAt(x.Input, i)
	case *binder.Sort:
		return plainAt(x.Input, i)
	case *binder.SetOp:
		return plainAt(x.Left, i) && plainAt(x.Right, i)
	case *binder.Window:
		// its function's result may fail (an aggregate's argument)
		return i < len(x.Input.Columns()) && plainAt(x.Input, i)
	case *binder.Aggregate:
		// an aggregate's result may fail too (sum(10 / b)); a group key
		// is as plain as its expression
		if i >= len(x.GroupBy) {
			return false
		}
		switch e := x.GroupBy[i].(type) {
		case *binder.ColumnRef:
			return plainAt(x.Input, e.Index)
		case *binder.Const:
			return true
		}
		return false
	case *binder.Join:
		if nl := len(x.Left.Columns()); i < nl {
			return plainAt(x.Left, i)
		} else if x.Type != binder.SemiJoin && x.Type != binder.AntiJoin {
			return plainAt(x.Right, i-nl)
		}
		return false
	}
	return true
}

// narrowLeaf makes a scan or lookup (under a filter or not) decode only
// the columns keep, or returns nil for any other node.
func narrowLeaf(n binder.Node, keep []int) binder.Node {
	if f, ok := n.(*binder.Filter); ok {
		leaf := narrowLeaf(f.Input, keep)
		if leaf == nil {
			return nil
		}
		remap := map[int]int{}
		for i, c := range keep {
			remap[c] = i
		}
		for _, c := range columnsOf(f.Cond) {
			if _, ok := remap[c]; !ok {
				return nil // the filter reads a column the join does not
			}
		}
		return &binder.Filter{Input: leaf, Cond: remapColumns(f.Cond, remap)}
	}
	cols := n.Columns()
	sub := make([]binder.Column, len(keep))
	for i, c := range keep {
		sub[i] = cols[c]
	}
	switch x := n.(type) {
	case *binder.Scan:
		if x.Binlog {
			return nil
		}
		return &scanProjection{table: x.Table, changelog: x.Changelog, projection: slices.Clone(keep), cols: sub}
	case *scanProjection:
		proj := make([]int, len(keep))
		for i, c := range keep {
			proj[i] = x.projection[c]
		}
		return &scanProjection{table: x.table, changelog: x.changelog, projection: proj, cols: sub}
	case *pkLookup:
		proj := make([]int, len(keep))
		for i, c := range keep {
			proj[i] = x.projection[c]
		}
		return &pkLookup{table: x.table, keys: x.keys, projection: proj, cols: sub}
	}
	return nil
}
