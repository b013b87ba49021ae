package binder

import (
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/rowlock"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindSelectTree binds a SELECT of sqlgate's tree: FROM, then WHERE, GROUP
// BY and HAVING, the select list, DISTINCT, ORDER BY and LIMIT, each by its
// own clause binder.
func (b *binder) bindSelectTree(sel *pt.Select) (Node, error) {
	branch, keep := b.setOpBranch, b.keepUnknownOutputs
	lvl := &queryLevel{}
	n, err := b.bindSelectLevel(sel, lvl)
	if err != nil && lvl.needAgg {
		// a subquery holds an aggregate of this query's level, which
		// isAggregating could not see: bind again, aggregating
		// (agglevels.go)
		b.setOpBranch, b.keepUnknownOutputs = branch, keep
		lvl = &queryLevel{forceAgg: true}
		n, err = b.bindSelectLevel(sel, lvl)
	}
	if err == nil && lvl.agg != nil {
		// PostgreSQL checks the select list and ORDER BY (its target
		// list) before HAVING, each one's GROUPING(..) calls first
		for _, err := range []error{lvl.agg.badGrouping, lvl.agg.ungrouped, lvl.agg.badGroupingHaving, lvl.agg.ungroupedHaving} {
			if err != nil {
				return nil, err
			}
		}
	}
	return n, err
}

// ungroupedError reports whether err is rebase's error for a column that
// is neither grouped nor aggregated.
func ungroupedError(err error) bool {
	se := sqlerr.As(err)
	return se != nil && se.Code == sqlerr.GroupingError &&
		(strings.HasSuffix(se.Message, "must appear in the GROUP BY clause or be used in an aggregate function") ||
			strings.HasPrefix(se.Message, "subquery uses ungrouped column"))
}

// bindSelectLevel is bindSelectTree at query level lvl.
func (b *binder) bindSelectLevel(sel *pt.Select, lvl *queryLevel) (Node, error) {
	prevLevel := b.level
	b.level = lvl
	defer func() { b.level = prevLevel }()
	branch := b.setOpBranch
	b.setOpBranch = false // not for the subqueries inside
	keepUnknown := b.keepUnknownOutputs
	b.keepUnknownOutputs = false
	if sel.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWithTree(sel.With, sel); err != nil { // exprbind.go
			return nil, err
		}
	}
	targets := sel.Targets
	if sel.Table {
		// TABLE name is SELECT * FROM name
		targets = []*pt.Target{{At: sel.At, X: &pt.Star{At: sel.At}}}
	}
	prevSrf := b.srf
	b.srf = nil // only this SELECT's own list may hold set-returning calls
	defer func() { b.srf = prevSrf }()
	restoreAgg := b.refuseAggregates("FROM clause of their own query level") // a LATERAL item's (agglevels.go)
	input, err := b.bindFromTree(sel.From, sel)
	restoreAgg()
	if err != nil {
		return nil, err
	}
	lvl.scope = newScope(input)
	aggregating := lvl.forceAgg || b.isAggregating(sel, targets)
	windows := b.hasWindows(sel, targets)
	// SELECT ... FOR UPDATE and the other locking clauses (lockrows.go).
	var lockScan *Scan
	var lockMode rowlock.Mode
	var lockWait rowlock.Wait
	// lockErr is the locking clause's refusal, reported once every other
	// clause is bound, where PostgreSQL's transformLockingClause checks it
	var lockErr error
	if sel.Locking != nil {
		if lockMode, lockWait, err = b.rowLockClause(sel.Locking); err != nil {
			return nil, err
		}
		facts := lockedSelect{aggregating: aggregating, grouped: sel.GroupBy != nil || sel.GroupDistinct, having: sel.Having != nil,
			distinct: sel.Distinct || sel.DistinctOn != nil, windows: windows}
		lockScan, lockErr = b.checkRowLock(facts, input, lockMode, branch)
	}
	if sel.Where != nil {
		from := input
		if b.containsAggregateTree(sel.Where) {
			if err := b.refusedOuterAggregate(targets); err != nil { // agglevels.go
				return nil, err
			}
			at := b.finders.tree.at
			err = b.errAt(at, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in WHERE"))
			if b.finders.tree.grouping {
				err = b.errAt(at, sqlerr.New(sqlerr.GroupingError, "grouping operations are not allowed in WHERE"))
			}
		} else {
			input, err = b.bindWhere(input, sel.Where)
		}
		if err != nil {
			// PostgreSQL binds the select list first (clauseorder.go)
			return nil, b.earlierClauseError(sel, targets, newScope(from), aggregating, windows, branch || keepUnknown, whereClause, err)
		}
	}
	// The level's scope serves unless WHERE made a new input (a scope is
	// replaced, never changed, so sharing it is safe).
	inScope := lvl.scope
	if sel.Where != nil {
		inScope = newScope(input)
	}
	var grouped *groupedSetCalls // GROUP BY's set-returning calls
	// bindOut binds an expression of the select list, HAVING or ORDER BY:
	// over the FROM columns, or over the Aggregate node when grouping.
	bindOut := func(e pt.Expr) (Expr, error) { return b.bindTree(inScope, e) }
	projInput := input
	if aggregating {
		prev := b.agg
		defer func() { b.agg = prev }()
		st := &aggState{input: inScope}
		b.agg = st
		lvl.agg = st
		if sel.GroupBy != nil || sel.GroupDistinct {
			prevWin := b.winPlace
			b.winPlace = "GROUP BY"
			restoreAgg := b.refuseAggregates("GROUP BY") // agglevels.go
			from := inScope
			grouped, err = b.bindGroupByTree(st, &input, &inScope, targets, sel)
			b.winPlace = prevWin
			restoreAgg()
			if err != nil {
				// PostgreSQL binds the select list, HAVING and ORDER BY
				// first (clauseorder.go)
				return nil, b.earlierClauseError(sel, targets, from, aggregating, windows, branch || keepUnknown, groupByClause, err)
			}
		}
		bindOut = func(e pt.Expr) (Expr, error) {
			x, err := b.bindTree(inScope, e)
			if err != nil {
				return nil, err
			}
			r, err := b.rebase(e, x)
			if err != nil && ungroupedError(err) {
				// PostgreSQL checks for ungrouped columns once the
				// whole query is read (parseCheckAggregates): an error
				// of a later clause comes first. The query fails at its
				// end (bindSelectTree); NULL holds the place till then.
				switch {
				case st.inHaving && st.ungroupedHaving == nil:
					st.ungroupedHaving = err
				case !st.inHaving && st.ungrouped == nil:
					st.ungrouped = err
				}
				return &Const{Value: nil, T: x.Type()}, nil
			}
			return r, err
		}
		// Bind the select list and HAVING first so that every aggregate
		// call is registered before the Aggregate node's schema is fixed;
		// ORDER BY may add calls too, so the node is built lazily below.
		projInput = nil
	}
	var win *winState
	if windows || len(sel.Windows) > 0 {
		prev := b.win
		defer func() { b.win = prev }()
		win = &winState{bind: bindOut, defs: sel.Windows, srf: &srfState{bind: bindOut, grouped: grouped}} // WINDOW w AS (..) (windownamed.go)
		b.win = win
		if len(win.defs) > 0 {
			win.defOffsets = windowClauseOffsets(b.stmtText(), lastClauseOffset(sel), len(win.defs))
		}
	}
	srf := &srfState{bind: bindOut, grouped: grouped}
	b.srf = srf
	proj, err := b.bindTargets(inScope, targets, bindOut, branch || keepUnknown)
	if err != nil {
		return nil, err
	}
	b.srf = &srfState{refuse: "HAVING"}
	var having Expr
	if sel.Having != nil {
		if b.agg == nil {
			return nil, sqlerr.New(sqlerr.InternalError, "HAVING outside aggregation")
		}
		// a window call in HAVING is refused, even beside the select
		// list's windows
		prevWin, prevPlace := b.win, b.winPlace
		b.win, b.winPlace = nil, "HAVING"
		b.agg.inHaving = true
		having, err = bindOut(sel.Having)
		b.agg.inHaving = false
		b.win, b.winPlace = prevWin, prevPlace
		if err != nil {
			return nil, err
		}
		if having, err = b.coerce(sel.Having, having, types.BoolType, "argument of HAVING"); err != nil {
			return nil, err
		}
	}
	visible := len(proj.Cols)
	var sortKeys []SortKey
	b.srf = srf
	if sel.OrderBy != nil {
		if sortKeys, err = b.bindOrderItems(proj, sel.OrderBy, bindOut, sel.Distinct && sel.DistinctOn == nil); err != nil {
			return nil, err
		}
	}
	if sel.Distinct && sel.DistinctOn == nil {
		// after ORDER BY, as PostgreSQL's transformDistinctClause
		if err := b.checkDistinctTargets(targets, proj.Cols[:visible]); err != nil {
			return nil, err
		}
	}
	var onKeys []int
	if sel.DistinctOn != nil {
		if onKeys, sortKeys, err = b.bindDistinctOn(proj, visible, sel.DistinctOn, sortKeys, bindOut); err != nil {
			return nil, err
		}
	}
	b.srf = nil
	if win != nil {
		if sel.QueryClauses.Limit != nil || sel.QueryClauses.Offset != nil {
			// PostgreSQL binds OFFSET and LIMIT before the window
			// definitions: their errors first (the clauses bind again
			// below, over the plan)
			if _, err := b.bindLimitTree(nil, sel.QueryClauses.Limit, sel.QueryClauses.Offset, lvl.scope); err != nil {
				return nil, err
			}
		}
		if err := b.checkWindows(win); err != nil {
			return nil, err
		}
	}

	if projInput == nil {
		var n Node = b.agg.node(input)
		if a, ok := n.(*Aggregate); ok {
			a.OneRelation = sel.With == nil && oneRelation(input)
		}
		if having != nil {
			n = &Filter{Input: n, Cond: having}
		}
		projInput = n
	}
	if win != nil && len(win.calls) > 0 {
		if len(win.srf.calls) > 0 {
			if lockScan != nil {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with set-returning functions in the target list", lockClauseName(lockMode))
			}
			projInput = win.inputSetCalls(projInput)
		}
		base := len(projInput.Columns())
		projInput = addWindows(projInput, win.calls)
		for i, e := range proj.Exprs {
			proj.Exprs[i] = resolveWinRefs(e, base)
		}
		for _, c := range srf.calls {
			for i, a := range c.Args {
				c.Args[i] = resolveWinRefs(a, base)
			}
		}
	}
	if len(srf.calls) > 0 {
		if lockScan != nil {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s is not allowed with set-returning functions in the target list", lockClauseName(lockMode))
		}
		projInput, _ = srf.addProjectSet(projInput, proj.Exprs)
	}
	proj.Input = projInput
	var out Node = proj
	if sel.Distinct && sel.DistinctOn == nil {
		out = looseDistinct(out) // a Distinct node, or bpchar's (bpchargroups.go)
	}
	if len(sortKeys) > 0 {
		out = &Sort{Input: out, Keys: sortKeys}
	}
	if onKeys != nil {
		out = &DistinctOn{Input: out, Keys: onKeys}
	}
	if lockScan != nil {
		var cond Expr
		if f, ok := projInput.(*Filter); ok {
			cond = f.Cond
		}
		if out, err = b.lockRows(lockScan, cond, proj, out, lockMode, lockWait); err != nil {
			return nil, err
		}
	}
	if out, err = b.bindLimitClauses(out, &sel.QueryClauses, lvl.scope); err != nil {
		return nil, err
	}
	if lockErr != nil {
		return nil, lockErr
	}
	if len(out.Columns()) > visible {
		out = dropHidden(out, visible)
	}
	return out, nil
}

// bindGroupByTree binds sel's GROUP BY into st. Set-returning calls
// there are allowed, as in PostgreSQL: they are evaluated below the
// aggregation, a ProjectSet over *input that replaces it (and *in, its
// scope, st's input), each input row once per value; the grouped calls
// are returned for the select list, whose same calls are their values.
func (b *binder) bindGroupByTree(st *aggState, input *Node, in **scope, targets []*pt.Target, sel *pt.Select) (*groupedSetCalls, error) {
	s := *in
	raw := func(e pt.Expr) (Expr, error) { return b.bindTree(s, e) }
	gsrf := &srfState{bind: raw}
	prev := b.srf
	b.srf = gsrf
	err := b.bindGroupBy(st, s, targets, sel.GroupBy, sel.GroupDistinct) // groupingsets.go
	b.srf = prev
	if err != nil {
		return nil, err
	}
	if len(gsrf.calls) == 0 {
		b.groupFunctionalDeps(st, namesRead(sel)) // funcdeps.go
		return nil, nil
	}
	n, grouped := gsrf.groupBySetCalls(*input, st.keys)
	ns := newScope(n)
	grouped.raw = func(e pt.Expr) (Expr, error) { return b.bindTree(ns, e) }
	*input, *in, st.input = n, ns, ns
	return grouped, nil
}

// bindDistinctOn binds the DISTINCT ON expressions (like ORDER BY items) and
// returns their columns in proj and the sort keys: PostgreSQL requires the
// ORDER BY to start with them (42P10), and sorts by them when there is no
// ORDER BY.
func (b *binder) bindDistinctOn(proj *Project, visible int, exprs []pt.Expr, sortKeys []SortKey, bindOut func(pt.Expr) (Expr, error)) ([]int, []SortKey, error) {
	keys := make([]SortKey, 0, len(exprs))
	for i, e := range exprs {
		k, err := b.bindOrderItem(proj, pt.OrderItem{X: e}, orderAt{visible: visible, place: listPlace{exprs: exprs[:i]}, clause: "DISTINCT ON"}, bindOut, nil)
		if err != nil {
			return nil, nil, err
		}
		if err := b.checkGroupable(e, k.Expr.Type()); err != nil { // typeops.go
			return nil, nil, err
		}
		keys = append(keys, k)
	}
	on := make([]int, len(keys))
	want := map[int]bool{}
	for i, k := range keys {
		on[i] = k.Expr.(*ColumnRef).Index
		want[on[i]] = true
	}
	if len(sortKeys) == 0 {
		return on, keys, nil
	}
	// PostgreSQL's rule (transformDistinctOnClause): an ORDER BY key that
	// is a DISTINCT ON key may not follow one that is not; a DISTINCT ON
	// key the ORDER BY does not name is sorted by after its keys, unless
	// the ORDER BY skipped one. The error points at the DISTINCT ON
	// expression.
	mismatch := func(i int) error {
		return b.errAt(exprs[i], sqlerr.New(sqlerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions"))
	}
	skipped := false
	sorted, seen := map[int]bool{}, map[int]bool{}
	for _, k := range sortKeys {
		idx := k.Expr.(*ColumnRef).Index
		if seen[idx] {
			continue // a repeated key is no key of PostgreSQL's sort list
		}
		seen[idx] = true
		if !want[idx] {
			skipped = true
			continue
		}
		if skipped {
			return nil, nil, mismatch(slices.Index(on, idx))
		}
		sorted[idx] = true
	}
	out := sortKeys
	for i, idx := range on {
		if sorted[idx] {
			continue
		}
		if skipped {
			return nil, nil, mismatch(i)
		}
		out = append(slices.Clip(out), keys[i])
		sorted[idx] = true
	}
	return on, out, nil
}

// hasWindows reports whether the select list or ORDER BY calls a window function.
func (b *binder) hasWindows(sel *pt.Select, targets []*pt.Target) bool {
	for _, t := range targets {
		if b.containsWindowTree(t.X) {
			return true
		}
	}
	for _, item := range sel.OrderBy {
		if b.containsWindowTree(item.X) {
			return true
		}
	}
	return false
}

// isAggregating reports whether a SELECT groups: GROUP BY, HAVING, or an
// aggregate call in the select list or ORDER BY.
func (b *binder) isAggregating(sel *pt.Select, targets []*pt.Target) bool {
	if sel.GroupBy != nil || sel.GroupDistinct || sel.Having != nil {
		return true
	}
	for _, t := range targets {
		if b.containsAggregateTree(t.X) {
			return true
		}
	}
	for _, item := range sel.OrderBy {
		if b.containsAggregateTree(item.X) {
			return true
		}
	}
	// an aggregate in a WINDOW definition, used or not, groups the query
	// as PostgreSQL does
	for _, w := range sel.Windows {
		for _, p := range w.PartitionBy {
			if b.containsAggregateTree(p) {
				return true
			}
		}
		for _, it := range w.OrderBy {
			if b.containsAggregateTree(it.X) {
				return true
			}
		}
	}
	return false
}

// bindGroupKey is the GROUP BY binder: an output-column ordinal, an input
// column, an output alias (PostgreSQL's fallback), or an expression; place
// says where it follows the list's earlier items (listPlace).
func (b *binder) bindGroupKey(in *scope, targets []*pt.Target, e pt.Expr, place listPlace) (Expr, error) {
	orig := e
	if err := b.noAggregateInGroupBy(e, false); err != nil {
		return nil, err
	}
	idx, ok, err := b.listPosition(e, len(targets), place, "GROUP BY")
	if err != nil {
		return nil, err
	}
	if ok {
		if _, star := targets[idx].X.(*pt.Star); star {
			return nil, b.errAtOrdinal(e, place, sqlerr.New(sqlerr.InvalidColumnReference, "GROUP BY position %d is not in select list", idx+1))
		}
		// a position naming an aggregate is refused as the aggregate
		// written in GROUP BY is (PostgreSQL's position: the call in the
		// select list)
		if err := b.noAggregateInGroupBy(targets[idx].X, true); err != nil {
			return nil, err
		}
		e = targets[idx].X
	}
	switch x := e.(type) {
	case *pt.ColumnRef:
		if x.Table == "" {
			if _, err := b.resolve(in, x, x.Table, x.Name); err != nil {
				for _, t := range targets {
					if _, star := t.X.(*pt.Star); !star && t.Alias == x.Name {
						e = t.X
						break
					}
				}
			}
		}
	}
	k, err := b.bindTree(in, e)
	if err != nil {
		return nil, err
	}
	k = b.resolveUnknown(k, types.StringType)
	if err := b.checkGroupable(orig, k.Type()); err != nil { // typeops.go
		return nil, err
	}
	return k, nil
}

// bindWhere is the WHERE clause binder: its expression must be boolean.
func (b *binder) bindWhere(input Node, where pt.Expr) (Node, error) {
	defer b.refuseSetCalls("WHERE")()
	defer b.refuseAggregates("WHERE")() // agglevels.go
	cond, err := b.bindTree(newScope(input), where)
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(where, cond, types.BoolType, "argument of WHERE"); err != nil {
		return nil, err
	}
	return &Filter{Input: input, Cond: cond}, nil
}

// bindTargets is the SELECT-list binder: it expands wildcards, types each
// expression (an unknown literal becomes text) and names the output columns
// as PostgreSQL does. Its Project has no input yet: the caller sets it once
// the clauses that may still add aggregates are bound.
func (b *binder) bindTargets(s *scope, targets []*pt.Target, bindOut func(pt.Expr) (Expr, error), setOpBranch bool) (*Project, error) {
	p := &Project{Exprs: make([]Expr, 0, len(targets)), Cols: make([]Column, 0, len(targets))}
	for _, f := range targets {
		if star, ok := f.X.(*pt.Star); ok {
			table := star.Table
			if table != "" && !s.hasTable(table) {
				return nil, sqlerr.New(sqlerr.UndefinedTable, "missing FROM-clause entry for table %q", table)
			}
			if table == "" && len(s.cols) == 0 {
				return nil, sqlerr.New(sqlerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			for i, c := range s.cols {
				if table != "" && c.Table != table || table == "" && c.Hidden {
					continue
				}
				if b.agg != nil {
					// an aggregating query's star is its columns named one
					// by one (PostgreSQL expands it before the grouping
					// check): each must be grouped, or depend on a
					// grouped primary key (funcdeps.go)
					ref := &pt.ColumnRef{At: star.At, Table: c.Table, Name: c.Name}
					if c.Merge[0] != 0 {
						ref.Table = "" // a USING join's merged column
					}
					e, err := bindOut(ref)
					if err != nil {
						return nil, err
					}
					p.Exprs = append(p.Exprs, e)
					p.Cols = append(p.Cols, Column{Name: c.Name, T: e.Type().Nullable()})
					continue
				}
				p.Exprs = append(p.Exprs, b.mergedExpr(s.cols, i))
				c.Merge = [2]int{}
				p.Cols = append(p.Cols, c)
			}
			continue
		}
		if fs, ok := f.X.(*pt.FieldSelect); ok && fs.Field == "*" { // (expr).*
			e, err := bindOut(fs.X)
			if err != nil {
				return nil, err
			}
			if err := b.expandRow(fs, e, p); err != nil {
				return nil, err
			}
			continue
		}
		e, err := bindOut(f.X)
		if err != nil {
			return nil, err
		}
		if c, ok := e.(*Const); !setOpBranch || !ok || !isUnknown(c.T) {
			// PostgreSQL types a set operation branch's literal with the
			// other branches ('x' UNION a varchar column is varchar)
			e = b.resolveUnknown(e, types.StringType)
		}
		if e.Type().Kind == types.Null && !setOpBranch {
			e = &Const{T: types.StringType}
		}
		col := Column{Name: b.outputName(f), T: e.Type().Nullable()}
		if ref, ok := e.(*ColumnRef); ok && b.agg == nil {
			src := s.cols[ref.Index]
			col.TableID, col.Ordinal, col.Table, col.Domain, col.Collation = src.TableID, src.Ordinal, src.Table, src.Domain, src.Collation
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, col)
	}
	return p, nil
}

// outputName names a select-list column as PostgreSQL does: the alias, the
// column name for a column reference (also through casts), the type name for
// a cast of anything else, the function name for a call, else ?column?.
func (b *binder) outputName(t *pt.Target) string {
	if t.Alias != "" {
		return t.Alias
	}
	return b.exprName(t.X)
}

// exprName is the column label PostgreSQL gives an unlabelled select-list
// expression (FigureColname in its parse_target.c).
func (b *binder) exprName(e pt.Expr) string {
	if name, strength := b.figureColname(e); strength > 0 {
		return name
	}
	return "?column?"
}

// figureColname follows PostgreSQL's FigureColnameInternal: a name and its
// strength, 2 for a column, function or construct name (ColumnRef,
// FuncCall, CASE's ELSE name, ...), 1 for a cast's type name or "case", 0
// for none (operators, constants: "?column?"). A cast takes its operand's
// name only when that is strong (x::int::text is "x", 1::int::text is
// "text"); CASE takes its ELSE's name only when that is strong.
func (b *binder) figureColname(e pt.Expr) (string, int) {
	switch x := e.(type) {
	case *pt.ColumnRef:
		return x.Name, 2
	case *pt.Case:
		if x.Else != nil {
			if name, strength := b.figureColname(x.Else); strength > 1 {
				return name, strength
			}
		}
		return "case", 1
	case *pt.Exists:
		if !x.Not {
			return "exists", 2
		}
	case *pt.Subquery:
		// (SELECT x ...) is named after its first output column
		q := x.Tree
		for {
			so, ok := q.(*pt.SetOp)
			if !ok {
				break
			}
			q = so.L
		}
		if _, ok := q.(*pt.Values); ok {
			return "column1", 2 // VALUES' first column
		}
		if sel, ok := q.(*pt.Select); ok && len(sel.Targets) > 0 {
			f := sel.Targets[0]
			if _, star := f.X.(*pt.Star); !star {
				if f.Alias != "" {
					return f.Alias, 2
				}
				return b.figureColname(f.X)
			}
		}
	case *pt.Cast:
		if name, strength := b.figureColname(x.X); strength > 1 {
			return name, strength
		}
		return b.castOutputName(x.Type), 1
	case *pt.Extract:
		return "extract", 2
	case *pt.Trim:
		// TRIM(BOTH | LEADING | TRAILING ..) is btrim, ltrim or rtrim
		switch x.Dir {
		case pt.TrimLeading:
			return "ltrim", 2
		case pt.TrimTrailing:
			return "rtrim", 2
		}
		return "btrim", 2
	case *pt.Position:
		return "position", 2
	case *pt.Array, *pt.ArraySubquery:
		return "array", 2
	case *pt.Row:
		return "row", 2 // PostgreSQL's "row", for (a, b) as for ROW(a, b)
	case *pt.Map:
		return "map", 2
	case *pt.Subscript:
		return b.indirectionName(x.X)
	case *pt.Slice:
		return b.indirectionName(x.X)
	case *pt.FieldSelect:
		return x.Field, 2
	case *pt.Collate:
		return b.figureColname(x.X) // x COLLATE c is named as x is
	case *pt.FuncCall:
		if x.Over != nil {
			return x.Name, 2
		}
		switch x.Name {
		case "trim":
			return "btrim", 2 // trim(x) is PostgreSQL's btrim(x)
		case "concat":
			if b.isPipes(x) {
				return "", 0 // a || b
			}
		case sql.NamedNoMatch:
			// a call in named notation: the function's name
			if len(x.Args) > 0 {
				if fn, ok := x.Args[0].(*pt.Literal); ok {
					return fn.Text, 2
				}
			}
		}
		if name, ok := rewriteMarkerName(x.Name); ok {
			return name, min(len(name), 2)
		}
		return aggName(x.Name), 2 // pg__variance is variance
	}
	return "", 0
}

// indirectionName is the label of x[i] and x[lo:hi]: the subscripted
// expression's.
func (b *binder) indirectionName(x pt.Expr) (string, int) {
	if n := b.exprName(x); n != "?column?" {
		return n, 2
	}
	return "", 0
}

// rewriteMarkerName is the label of a call sql's rewrite made from
// PostgreSQL syntax that the transformer left a call: an operator's (""
// : "?column?"), or the name of the construct the user wrote.
func rewriteMarkerName(fn string) (string, bool) {
	switch fn {
	case "pg__power", "pg__json_get", "pg__json_get_text", "pg__json_path", "pg__json_path_text",
		"pg__op_contains", "pg__op_contained", "pg__op_exists", "pg__op_exists_any", "pg__op_exists_all":
		return "", true
	case "pg__position":
		return "position", true
	}
	if strings.HasPrefix(fn, "pg__op_") { // the operators of sql/operators.go
		return "", true
	}
	return "", false
}

// dropHidden projects away the columns ORDER BY added after the visible ones.
func dropHidden(n Node, visible int) Node {
	cols := n.Columns()[:visible]
	exprs := make([]Expr, visible)
	for i, c := range cols {
		exprs[i] = &ColumnRef{Index: i, Name: c.Name, T: c.T}
	}
	return &Project{Input: n, Exprs: exprs, Cols: cols}
}

// treeFinder finds an aggregate (or GROUPING(..)) or, with win set, a
// window call in a tree expression, outside subqueries (which aggregate on
// their own). Its visit function is made once per binder, for both
// searches: a closure per search would be a heap allocation per call.
type treeFinder struct {
	win             bool
	found, grouping bool
	at              pt.Expr // the first call found (PostgreSQL's error position)
	visit           func(pt.Expr) bool
	// own reports whether an aggregate call is the query's own, not an
	// enclosing query's (binder.ownAggregate); set once per binder.
	own func(*pt.FuncCall) bool
}

func (f *treeFinder) find(e pt.Expr, win bool) bool {
	if f.visit == nil {
		f.visit = func(n pt.Expr) bool {
			if f.found {
				return false
			}
			c, ok := n.(*pt.FuncCall)
			switch {
			case !ok:
				return true
			case c.Over != nil:
				// a window call; for aggregates, not one itself, but an
				// aggregate in its arguments or window groups the query:
				// sum(sum(x)) OVER (ORDER BY max(x))
				if f.win {
					f.found, f.at = true, n
					return false
				}
				return true
			case !f.win && (c.Aggregate || aggregateNames[c.Name] || c.Name == "grouping"):
				if f.own != nil && !f.own(c) {
					return false // an enclosing query's (agglevels.go)
				}
				f.found, f.at, f.grouping = true, n, c.Name == "grouping" && !c.Aggregate
				return false
			}
			return true
		}
	}
	f.win, f.found, f.grouping, f.at = win, false, false, nil
	if e != nil {
		pt.Walk(e, f.visit)
	}
	return f.found
}

// noAggregateInGroupBy is 42803 when a GROUP BY key calls an aggregate or
// GROUPING(..), at the call.
//
// A position naming a select-list item is refused as an aggregate either
// way (PostgreSQL's checkTargetlistEntrySQL92 counts GROUPING(..) among
// them): viaPosition.
func (b *binder) noAggregateInGroupBy(e pt.Expr, viaPosition bool) error {
	if !b.containsAggregateTree(e) {
		return nil
	}
	at := b.finders.tree.at
	if b.finders.tree.grouping && !viaPosition {
		return b.errAt(at, sqlerr.New(sqlerr.GroupingError, "grouping operations are not allowed in GROUP BY"))
	}
	return b.errAt(at, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in GROUP BY"))
}

// targetsEnd is the offset of the last select-list item that has one: a
// GROUP BY follows it.
func targetsEnd(targets []*pt.Target) int {
	off := 0
	for _, t := range targets {
		if _, star := t.X.(*pt.Star); !star && t.X != nil {
			off = max(off, t.X.Pos())
		}
	}
	return off
}

// containsAggregateTree reports whether an expression calls an aggregate
// or GROUPING(..); b.finders.tree.at and .grouping say which and where.
func (b *binder) containsAggregateTree(e pt.Expr) bool {
	if b.finders.tree.own == nil {
		b.finders.tree.own = b.ownAggregate
	}
	return b.finders.tree.find(e, false)
}

// containsWindowTree reports whether an expression calls a window function.
func (b *binder) containsWindowTree(e pt.Expr) bool { return b.finders.tree.find(e, true) }

// lastClauseOffset is the offset of the last node of sel's select list,
// WHERE, GROUP BY and HAVING that has one: its WINDOW clause follows.
func lastClauseOffset(sel *pt.Select) int {
	off := 0
	see := func(e pt.Expr) {
		if e != nil {
			off = max(off, e.Pos())
		}
	}
	for _, e := range sel.DistinctOn {
		see(e)
	}
	for _, t := range sel.Targets {
		if _, star := t.X.(*pt.Star); !star {
			see(t.X)
		}
	}
	see(sel.Where)
	for _, e := range sel.GroupBy {
		see(e)
	}
	see(sel.Having)
	return off
}
