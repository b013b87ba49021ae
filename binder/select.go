package binder

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/rowlock"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// bindSelect binds a SELECT: FROM, then WHERE, GROUP BY and HAVING, the
// select list, DISTINCT, ORDER BY and LIMIT, each by its own clause binder.
func (b *binder) bindSelect(sel *ast.SelectStmt) (Node, error) {
	if sel.Kind == ast.SelectStmtKindTable {
		sel = tableAsSelect(sel)
	}
	branch := b.setOpBranch
	b.setOpBranch = false // not for the subqueries inside
	keepUnknown := b.keepUnknownOutputs
	b.keepUnknownOutputs = false
	if sel.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWith(sel.With, sel); err != nil {
			return nil, err
		}
	}
	switch {
	case sel.Kind == ast.SelectStmtKindValues:
		return b.bindValues(sel)
	case sel.Kind != ast.SelectStmtKindSelect:
		return nil, sqlerr.NotSupported("this kind of SELECT")
	case sel.SelectIntoOpt != nil:
		return nil, sqlerr.NotSupported("SELECT INTO")
	}
	prevSrf := b.srf
	b.srf = nil // only this SELECT's own list may hold set-returning calls
	defer func() { b.srf = prevSrf }()
	fields, distinctOn := splitDistinctOn(sel.Fields)
	input, err := b.bindFrom(sel.From)
	if err != nil {
		return nil, err
	}
	// SELECT ... FOR UPDATE and the other locking clauses (lockrows.go).
	var lockScan *Scan
	var lockMode rowlock.Mode
	var lockWait rowlock.Wait
	if sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone {
		lock, err := b.trees.LockingToTree(sel, b.stmt)
		if err != nil {
			return nil, sqlerr.As(err) // a form PostgreSQL lacks, refused without a position as before
		}
		if lockMode, lockWait, err = b.rowLockClause(lock); err != nil {
			return nil, err
		}
		facts := lockedSelect{aggregating: b.isAggregating(sel), grouped: sel.GroupBy != nil || sel.Having != nil,
			distinct: sel.Distinct, windows: b.hasWindows(sel)}
		if lockScan, err = b.checkRowLock(facts, input, lockMode, branch); err != nil {
			return nil, err
		}
	}
	if sel.Where != nil {
		if b.containsAggregate(sel.Where) {
			at := b.finders.agg.at
			if b.finders.agg.grouping {
				return nil, b.errAt(at, sqlerr.New(sqlerr.GroupingError, "grouping operations are not allowed in WHERE"))
			}
			return nil, b.errAt(at, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in WHERE"))
		}
		if input, err = b.bindWhere(input, sel.Where); err != nil {
			return nil, err
		}
	}
	inScope := newScope(input)
	// bindOut binds an expression of the select list, HAVING or ORDER BY:
	// over the FROM columns, or over the Aggregate node when grouping.
	bindOut := func(e ast.ExprNode) (Expr, error) { return b.bindExpr(inScope, e) }
	projInput := input
	aggregating := b.isAggregating(sel)
	if aggregating {
		prev := b.agg
		defer func() { b.agg = prev }()
		st := &aggState{input: inScope}
		b.agg = st
		if sel.GroupBy != nil {
			if err := b.bindGroupBy(st, inScope, sel.Fields, sel.GroupBy); err != nil { // groupingsets.go
				return nil, err
			}
		}
		bindOut = func(e ast.ExprNode) (Expr, error) {
			x, err := b.bindExpr(inScope, e)
			if err != nil {
				return nil, err
			}
			return b.rebase(e, x)
		}
		// Bind the select list and HAVING first so that every aggregate
		// call is registered before the Aggregate node's schema is fixed;
		// ORDER BY may add calls too, so the node is built lazily below.
		projInput = nil
	}
	var win *winState
	if b.hasWindows(sel) || len(sel.WindowSpecs) > 0 {
		prev := b.win
		defer func() { b.win = prev }()
		win = &winState{bind: func(e pt.Expr) (Expr, error) {
			x, err := b.bindTree(inScope, e)
			if err != nil || !aggregating {
				return x, err
			}
			return b.rebase(e, x)
		}}
		b.win = win
		for i := range sel.WindowSpecs { // WINDOW w AS (..) (windownamed.go)
			d, err := b.trees.WindowToTree(&sel.WindowSpecs[i])
			if err != nil {
				return nil, sqlerr.As(err)
			}
			win.defs = append(win.defs, d)
		}
		if len(win.defs) > 0 {
			win.defOffsets = windowClauseOffsets(b.stmtText(), lastClauseOffset(sel), len(win.defs))
		}
	}
	srf := &srfState{bind: bindOut}
	b.srf = srf
	proj, err := b.bindSelectList(inScope, fields, bindOut, branch || keepUnknown)
	if err != nil {
		return nil, err
	}
	b.srf = nil
	var having Expr
	if sel.Having != nil {
		if b.agg == nil {
			return nil, sqlerr.New(sqlerr.InternalError, "HAVING outside aggregation")
		}
		if having, err = bindOut(sel.Having.Expr); err != nil {
			return nil, err
		}
		if having, err = b.coerce(sel.Having.Expr, having, types.BoolType, "argument of HAVING"); err != nil {
			return nil, err
		}
	}
	visible := len(proj.Cols)
	var sortKeys []SortKey
	b.srf = srf
	if sel.OrderBy != nil {
		if sortKeys, err = b.bindOrderBy(proj, sel.OrderBy, bindOut, sel.Distinct); err != nil {
			return nil, err
		}
	}
	var onKeys []int
	if distinctOn != nil {
		if onKeys, sortKeys, err = b.bindDistinctOn(proj, distinctOn, sortKeys, bindOut); err != nil {
			return nil, err
		}
	}
	b.srf = nil
	if win != nil {
		if err := b.checkWindows(win); err != nil {
			return nil, err
		}
	}
	if projInput == nil {
		var n Node = b.agg.node(input)
		if having != nil {
			n = &Filter{Input: n, Cond: having}
		}
		projInput = n
	}
	if win != nil && len(win.calls) > 0 {
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
		projInput = srf.addProjectSet(projInput, proj.Exprs)
	}
	proj.Input = projInput
	var out Node = proj
	if sel.Distinct {
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
	if sel.Limit != nil {
		if out, err = b.bindLimit(out, sel.Limit); err != nil {
			return nil, err
		}
	}
	if len(out.Columns()) > visible {
		out = dropHidden(out, visible)
	}
	return out, nil
}

// splitDistinctOn takes the pg__distinct_on(...) marker that the rewrite
// puts first in the select list for SELECT DISTINCT ON (...) back out.
func splitDistinctOn(fields *ast.FieldList) (*ast.FieldList, []ast.ExprNode) {
	if len(fields.Fields) == 0 {
		return fields, nil
	}
	f, ok := fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if ok && f.FnName.L == "pg__nocols" && len(fields.Fields) == 1 {
		// SELECT FROM t: the rewrite's marker of an empty select list
		return &ast.FieldList{}, nil
	}
	if !ok || f.FnName.L != "pg__distinct_on" {
		return fields, nil
	}
	return &ast.FieldList{Fields: fields.Fields[1:]}, f.Args
}

// bindDistinctOn binds the DISTINCT ON expressions (like ORDER BY items) and
// returns their columns in proj and the sort keys: PostgreSQL requires the
// ORDER BY to start with them (42P10), and sorts by them when there is no
// ORDER BY.
func (b *binder) bindDistinctOn(proj *Project, exprs []ast.ExprNode, sortKeys []SortKey, bindOut func(ast.ExprNode) (Expr, error)) ([]int, []SortKey, error) {
	ob := &ast.OrderByClause{}
	for _, e := range exprs {
		ob.Items = append(ob.Items, &ast.ByItem{Expr: e})
	}
	keys, err := b.bindOrderBy(proj, ob, bindOut, false)
	if err != nil {
		return nil, nil, err
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
	if len(sortKeys) < len(on) {
		return nil, nil, sqlerr.New(sqlerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
	}
	for _, k := range sortKeys[:len(on)] {
		if !want[k.Expr.(*ColumnRef).Index] {
			return nil, nil, sqlerr.New(sqlerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
		}
	}
	return on, sortKeys, nil
}

// hasWindows reports whether the select list or ORDER BY calls a window function.
func (b *binder) hasWindows(sel *ast.SelectStmt) bool {
	for _, f := range sel.Fields.Fields {
		if f.Expr != nil && b.containsWindow(f.Expr) {
			return true
		}
	}
	if sel.OrderBy != nil {
		for _, item := range sel.OrderBy.Items {
			if b.containsWindow(item.Expr) {
				return true
			}
		}
	}
	return false
}

// isAggregating reports whether a SELECT groups: GROUP BY, HAVING, or an
// aggregate call in the select list or ORDER BY.
func (b *binder) isAggregating(sel *ast.SelectStmt) bool {
	if sel.GroupBy != nil || sel.Having != nil {
		return true
	}
	for _, f := range sel.Fields.Fields {
		if f.Expr != nil && b.containsAggregate(f.Expr) {
			return true
		}
	}
	if sel.OrderBy != nil {
		for _, item := range sel.OrderBy.Items {
			if b.containsAggregate(item.Expr) {
				return true
			}
		}
	}
	// an aggregate in a WINDOW definition, used or not, groups the query
	// as PostgreSQL does
	for _, w := range sel.WindowSpecs {
		if w.PartitionBy != nil {
			for _, it := range w.PartitionBy.Items {
				if b.containsAggregate(it.Expr) {
					return true
				}
			}
		}
		if w.OrderBy != nil {
			for _, it := range w.OrderBy.Items {
				if b.containsAggregate(it.Expr) {
					return true
				}
			}
		}
	}
	return false
}

// bindGroupKey is the GROUP BY binder: an output-column ordinal, an input
// column, an output alias (PostgreSQL's fallback), or an expression.
func (b *binder) bindGroupKey(in *scope, fields *ast.FieldList, e ast.ExprNode) (Expr, error) {
	if b.containsAggregate(e) {
		return nil, b.errAt(e, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in GROUP BY"))
	}
	pick := func(n int) (ast.ExprNode, error) {
		if n < 1 || n > len(fields.Fields) || fields.Fields[n-1].Expr == nil {
			return nil, b.errAt(e, sqlerr.New(sqlerr.InvalidColumnReference, "GROUP BY position %d is not in select list", n))
		}
		return fields.Fields[n-1].Expr, nil
	}
	if pos, ok := e.(*ast.PositionExpr); ok && pos.P == nil {
		target, err := pick(pos.N)
		if err != nil {
			return nil, err
		}
		e = target
	} else if lv, _ := literalValue(e); lv != nil {
		if n, ok := lv.(int64); ok {
			target, err := pick(int(n))
			if err != nil {
				return nil, err
			}
			e = target
		}
	} else if cn, ok := e.(*ast.ColumnNameExpr); ok && cn.Name.Table.O == "" {
		if _, err := b.resolve(in, cn, ident(cn.Name.Table), ident(cn.Name.Name)); err != nil {
			for _, f := range fields.Fields {
				if f.Expr != nil && ident(f.AsName) == ident(cn.Name.Name) {
					e = f.Expr
					break
				}
			}
		}
	}
	k, err := b.bindExpr(in, e)
	if err != nil {
		return nil, err
	}
	return b.resolveUnknown(k, types.StringType), nil
}

// bindWhere is the WHERE clause binder: its expression must be boolean.
func (b *binder) bindWhere(input Node, where ast.ExprNode) (Node, error) {
	cond, err := b.bindExpr(newScope(input), where)
	if err != nil {
		return nil, err
	}
	if cond, err = b.coerce(where, cond, types.BoolType, "argument of WHERE"); err != nil {
		return nil, err
	}
	return &Filter{Input: input, Cond: cond}, nil
}

// bindSelectList is the SELECT-list binder: it expands wildcards, types each
// expression (an unknown literal becomes text) and names the output columns
// as PostgreSQL does. Its Project has no input yet: the caller sets it once
// the clauses that may still add aggregates are bound.
func (b *binder) bindSelectList(s *scope, fields *ast.FieldList, bindOut func(ast.ExprNode) (Expr, error), setOpBranch bool) (*Project, error) {
	p := &Project{Exprs: make([]Expr, 0, len(fields.Fields)), Cols: make([]Column, 0, len(fields.Fields))}
	for _, f := range fields.Fields {
		if f.WildCard != nil {
			table := ident(f.WildCard.Table)
			if table != "" && !s.hasTable(table) {
				return nil, sqlerr.New(sqlerr.UndefinedTable, "missing FROM-clause entry for table %q", table)
			}
			if table == "" && len(s.cols) == 0 {
				return nil, sqlerr.New(sqlerr.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			if b.agg != nil {
				return nil, sqlerr.New(sqlerr.GroupingError, "SELECT * is not allowed in an aggregating query; name the grouped columns")
			}
			for i, c := range s.cols {
				if table != "" && c.Table != table || table == "" && c.Hidden {
					continue
				}
				p.Exprs = append(p.Exprs, b.newColumnRef(i, c.Name, c.T))
				p.Cols = append(p.Cols, c)
			}
			continue
		}
		if inner, ok := rowExpansion(f.Expr); ok {
			e, err := bindOut(inner)
			if err != nil {
				return nil, err
			}
			if err := b.expandRow(f.Expr, e, p); err != nil {
				return nil, err
			}
			continue
		}
		e, err := bindOut(f.Expr)
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
			col.TableID, col.Ordinal, col.Table = src.TableID, src.Ordinal, src.Table
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, col)
	}
	return p, nil
}

// outputName names a select-list column as PostgreSQL does: the alias, the
// column name for a column reference (also through casts), the type name for
// a cast of anything else, the function name for a call, else ?column?.
func (b *binder) outputName(f *ast.SelectField) string {
	if f.AsName.O != "" {
		return ident(f.AsName)
	}
	return b.exprName(f.Expr)
}

// exprName is the column label PostgreSQL gives an unlabelled select-list
// expression (FigureColname in its parse_target.c).
func (b *binder) exprName(e ast.ExprNode) string {
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
func (b *binder) figureColname(e ast.ExprNode) (string, int) {
	switch x := e.(type) {
	case *ast.ColumnNameExpr:
		return ident(x.Name.Name), 2
	case *ast.ParenthesesExpr:
		return b.figureColname(x.Expr)
	case *ast.AggregateFuncExpr:
		name, _, _ := pgAggregate(x) // array_agg(x ORDER BY y), not group_concat
		return name, 2
	case *ast.CaseExpr:
		if x.ElseClause != nil {
			if name, strength := b.figureColname(x.ElseClause); strength > 1 {
				return name, strength
			}
		}
		return "case", 1
	case *ast.ExistsSubqueryExpr:
		if !x.Not {
			return "exists", 2
		}
	case *ast.SubqueryExpr:
		// (SELECT x ...) is named after its first output column
		var q ast.Node = x.Query
		for {
			so, ok := q.(*ast.SetOprStmt)
			if !ok || so.SelectList == nil || len(so.SelectList.Selects) == 0 {
				break
			}
			q = so.SelectList.Selects[0]
		}
		if sel, ok := q.(*ast.SelectStmt); ok && sel.Fields != nil && len(sel.Fields.Fields) > 0 && sel.Fields.Fields[0].WildCard == nil {
			if f := sel.Fields.Fields[0]; f.AsName.O != "" {
				return ident(f.AsName), 2
			}
			return b.figureColname(sel.Fields.Fields[0].Expr)
		}
	case *ast.WindowFuncExpr:
		return strings.ToLower(x.Name), 2
	case *ast.FuncCallExpr:
		switch x.FnName.L {
		case "pg__filter":
			if len(x.Args) == 2 {
				return b.figureColname(x.Args[0])
			}
		case castFunc:
			if len(x.Args) == 2 {
				if name, strength := b.figureColname(x.Args[0]); strength > 1 {
					return name, strength
				}
				if v, ok := x.Args[1].(ast.ValueExpr); ok {
					return castOutputName(literalString(v)), 1
				}
			}
		case "trim":
			return "btrim", 2 // trim(x) is PostgreSQL's btrim(x)
		case "concat":
			if b.isPipes(x) {
				return "", 0 // a || b
			}
		}
		if name, ok := rewriteMarkerName(x.FnName.L); ok {
			return name, min(len(name), 2)
		}
		if n, ok := arrayMarkerName(b, x); ok {
			if n == "?column?" {
				return "", 0
			}
			return n, 2
		}
		if n, ok := fieldSelectName(x); ok {
			return n, 2
		}
		return aggName(x.FnName.L), 2 // pg__variance is variance
	}
	return "", 0
}

// rewriteMarkerName is the label of a call sql's rewrite made from
// PostgreSQL syntax: an operator's ("" : "?column?"), or the name of the
// construct the user wrote.
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

// tableAsSelect is TABLE name as the SELECT * FROM name it stands for in
// PostgreSQL (TiDB parses the statement with its own kind, the table in
// From, ORDER BY and LIMIT kept).
func tableAsSelect(sel *ast.SelectStmt) *ast.SelectStmt {
	c := *sel
	c.Kind = ast.SelectStmtKindSelect
	c.Fields = &ast.FieldList{Fields: []*ast.SelectField{{WildCard: &ast.WildCardField{}}}}
	return &c
}

// containsAggregate reports whether an expression calls an aggregate
// (outside subqueries, which aggregate on their own). The visitor is the
// binder's (Accept takes an interface, so a new one would be a heap
// allocation per call; a walk never re-enters the binder).
func (b *binder) containsAggregate(n ast.Node) bool {
	if n == nil {
		return false
	}
	b.finders.agg = aggFinder{}
	n.Accept(&b.finders.agg)
	return b.finders.agg.found
}

// grouping is set when what was found is a GROUPING(...) call; at is the
// first call found (PostgreSQL's error position).
type aggFinder struct {
	found, grouping bool
	at              ast.Node
}

func (v *aggFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch x := n.(type) {
	case *ast.AggregateFuncExpr:
		if !v.found {
			v.found, v.at = true, n
		}
		return n, true
	case *ast.FuncCallExpr:
		if aggregateNames[x.FnName.L] || x.FnName.L == "grouping" {
			if !v.found {
				v.found, v.at = true, n
				v.grouping = x.FnName.L == "grouping"
			}
			return n, true
		}
	case *ast.SubqueryExpr:
		return n, true
	case *ast.WindowFuncExpr:
		// not an aggregate itself, but an aggregate in its arguments or
		// window groups the query: sum(sum(x)) OVER (ORDER BY max(x))
		return n, false
	}
	return n, false
}

func (v *aggFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// containsWindow reports whether an expression calls a window function
// (with the binder's visitor, as containsAggregate).
func (b *binder) containsWindow(n ast.Node) bool {
	if n == nil {
		return false
	}
	b.finders.win = winFinder{}
	n.Accept(&b.finders.win)
	return b.finders.win.found
}

type winFinder struct{ found bool }

func (v *winFinder) Enter(n ast.Node) (ast.Node, bool) {
	switch n.(type) {
	case *ast.WindowFuncExpr:
		v.found = true
		return n, true
	case *ast.SubqueryExpr:
		return n, true
	}
	return n, false
}
func (v *winFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// fieldSelectName is PostgreSQL's output column name for (expr).field:
// the field's name.
func fieldSelectName(f *ast.FuncCallExpr) (string, bool) {
	if f.FnName.L != "pg__field" || len(f.Args) != 2 {
		return "", false
	}
	return literalString(f.Args[1]), true
}

// rowExpansion reports whether a select-list item is (expr).*, and returns
// expr.
func rowExpansion(e ast.ExprNode) (ast.ExprNode, bool) {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok || f.FnName.L != "pg__field" || len(f.Args) != 2 || literalString(f.Args[1]) != "*" {
		return nil, false
	}
	return f.Args[0], true
}

// lastClauseOffset is the offset of the last node of sel's select list,
// WHERE, GROUP BY and HAVING that has one: its WINDOW clause follows.
func lastClauseOffset(sel *ast.SelectStmt) int {
	off := 0
	see := func(e ast.ExprNode) {
		if e != nil {
			off = max(off, e.OriginTextPosition())
		}
	}
	if sel.Fields != nil {
		for _, f := range sel.Fields.Fields {
			see(f.Expr)
		}
	}
	see(sel.Where)
	if sel.GroupBy != nil {
		for _, it := range sel.GroupBy.Items {
			see(it.Expr)
		}
	}
	if sel.Having != nil {
		see(sel.Having.Expr)
	}
	return off
}
