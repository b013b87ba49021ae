package binder

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// WITH RECURSIVE, as PostgreSQL 15 analyses it (parse_cte.c): the items of
// the list see each other in any order, an item that names itself is
// recursive and must have the form non-recursive-term UNION [ALL]
// recursive-term with exactly one reference to itself in an allowed place,
// the column types are the non-recursive term's, and the items must not
// depend on each other in a cycle. The checks run on the parsed tree, as
// PostgreSQL runs them on its raw parse tree, so the errors come in the
// order PostgreSQL reports them.
//
// A reference to a recursive item binds it again (unless it is shared:
// cte.go) into a RecursiveUnion whose recursive term reads
// a WorkTableScan of its own working table.

// RecursiveUnion is a recursive WITH query: NonRec's rows, then the rows
// of Rec run again and again over the rows the previous run produced (its
// WorkTableScan of WT), until a run produces none. Without All, a row
// equal to one produced before is dropped (and not fed back).
type RecursiveUnion struct {
	Name        string
	NonRec, Rec Node
	All         bool
	// WT identifies the working table the recursive term's WorkTableScan
	// reads.
	WT   *WorkTable
	cols []Column
}

// WorkTable identifies the working table of one RecursiveUnion.
type WorkTable struct {
	Name string
}

// WorkTableScan reads the rows of the working table of the RecursiveUnion
// whose recursive term holds it.
type WorkTableScan struct {
	WT   *WorkTable
	cols []Column
}

func (n *RecursiveUnion) Columns() []Column { return n.cols }
func (n *RecursiveUnion) Children() []Node  { return []Node{n.NonRec, n.Rec} }
func (n *WorkTableScan) Columns() []Column  { return n.cols }
func (n *WorkTableScan) Children() []Node   { return nil }

// recState is the binder's state for WITH RECURSIVE: the working table a
// reference to a recursive item binds to while its recursive term is bound.
type recState struct {
	workTables map[*ast.CommonTableExpression]*WorkTableScan
}

// recursion contexts: where a self-reference stands (parse_cte.c's
// RecursionContext).
type recContext uint8

const (
	recOK recContext = iota
	recNonRecursiveTerm
	recSublink
	recOuterJoin
	recIntersect
	recExcept
)

var recContextMessages = [...]string{
	recNonRecursiveTerm: "recursive reference to query %q must not appear within its non-recursive term",
	recSublink:          "recursive reference to query %q must not appear within a subquery",
	recOuterJoin:        "recursive reference to query %q must not appear within an outer join",
	recIntersect:        "recursive reference to query %q must not appear within INTERSECT",
	recExcept:           "recursive reference to query %q must not appear within EXCEPT",
}

func invalidRecursion(format string, args ...any) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidRecursion, format, args...)
}

// analyzeWithRecursive finds which items of a WITH RECURSIVE list are
// recursive (marking them IsRecursive), refuses cycles between items and
// checks each recursive item's form.
func (b *binder) analyzeWithRecursive(w *ast.WithClause) error {
	names := map[string]int{}
	for i, cte := range w.CTEs {
		names[ident(cte.Name)] = i
	}
	deps := make([]map[int]bool, len(w.CTEs))
	for i, cte := range w.CTEs {
		v := &cteWalker{b: b, mode: walkDeps, names: names, self: ident(cte.Name), deps: map[int]bool{}}
		v.walk(cte.Query)
		cte.IsRecursive = v.selfRefs > 0
		delete(v.deps, i)
		deps[i] = v.deps
	}
	// a topological order exists unless the items depend on each other
	// in a cycle (TopologicalSort)
	done := make([]bool, len(w.CTEs))
	for range w.CTEs {
		found := -1
		for i := range w.CTEs {
			if done[i] {
				continue
			}
			ready := true
			for d := range deps[i] {
				if !done[d] {
					ready = false
					break
				}
			}
			if ready {
				found = i
				break
			}
		}
		if found < 0 {
			for i, cte := range w.CTEs {
				if !done[i] {
					return b.errAt(cte, sqlerr.New(sqlerr.FeatureNotSupported, "mutual recursion between WITH items is not implemented"))
				}
			}
		}
		done[found] = true
	}
	for _, cte := range w.CTEs {
		if cte.IsRecursive {
			if err := b.checkWellFormedRecursion(cte); err != nil {
				return err
			}
		}
	}
	return nil
}

// recursiveTerms splits a recursive item's query into its non-recursive
// term (every operand but the last of the top-level chain) and its
// recursive term (the last, joined by UNION or UNION ALL).
func recursiveTerms(cte *ast.CommonTableExpression) (st *ast.SetOprStmt, nonRec ast.ResultSetNode, rec ast.ResultSetNode, all bool, ok bool) {
	st, isSet := cte.Query.Query.(*ast.SetOprStmt)
	if !isSet || st.SelectList == nil || len(st.SelectList.Selects) < 2 {
		return nil, nil, nil, false, false
	}
	sels := st.SelectList.Selects
	last := sels[len(sels)-1]
	var op *ast.SetOprType
	switch x := last.(type) {
	case *ast.SelectStmt:
		op, rec = x.AfterSetOperator, x
	case *ast.SetOprSelectList:
		op, rec = x.AfterSetOperator, &ast.SetOprStmt{SelectList: x}
	default:
		return nil, nil, nil, false, false
	}
	if op == nil || (*op != ast.Union && *op != ast.UnionAll) {
		return nil, nil, nil, false, false
	}
	if len(sels) == 2 {
		switch x := sels[0].(type) {
		case *ast.SelectStmt:
			nonRec = x
		case *ast.SetOprSelectList:
			nonRec = &ast.SetOprStmt{SelectList: x}
		default:
			return nil, nil, nil, false, false
		}
	} else {
		nonRec = &ast.SetOprStmt{SelectList: &ast.SetOprSelectList{Selects: sels[:len(sels)-1]}}
	}
	return st, nonRec, rec, *op == ast.UnionAll, true
}

// checkWellFormedRecursion checks a recursive item as PostgreSQL's
// checkWellFormedRecursion does.
func (b *binder) checkWellFormedRecursion(cte *ast.CommonTableExpression) error {
	name := ident(cte.Name)
	st, nonRec, rec, _, ok := recursiveTerms(cte)
	if !ok {
		return b.errAt(cte, invalidRecursion("recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name))
	}
	v := &cteWalker{b: b, mode: walkCheck, self: name, ctx: recNonRecursiveTerm}
	if st.With != nil {
		// the query's own WITH: its names hide the item's, in both terms
		v.pushWith(st.With)
	}
	v.walk(nonRec)
	if v.err != nil {
		return v.err
	}
	v.ctx, v.selfRefs = recOK, 0
	v.walk(rec)
	if v.err != nil {
		return v.err
	}
	for _, sel := range v.selfLevels {
		// (each clause checked only when present: a nil clause in an
		// ast.Node is not a nil interface)
		agg := sel.Fields != nil && b.containsAggregate(sel.Fields)
		agg = agg || (sel.Having != nil && b.containsAggregate(sel.Having))
		agg = agg || (sel.OrderBy != nil && b.containsAggregate(sel.OrderBy))
		if agg {
			return b.errAt(sel, invalidRecursion("aggregate functions are not allowed in a recursive query's recursive term"))
		}
	}
	if st.OrderBy != nil {
		return b.errAt(st.OrderBy, sqlerr.New(sqlerr.FeatureNotSupported, "ORDER BY in a recursive query is not implemented"))
	}
	if st.Limit != nil && st.Limit.Offset != nil {
		return b.errAt(st.Limit.Offset, sqlerr.New(sqlerr.FeatureNotSupported, "OFFSET in a recursive query is not implemented"))
	}
	if st.Limit != nil && st.Limit.Count != nil {
		return b.errAt(st.Limit.Count, sqlerr.New(sqlerr.FeatureNotSupported, "LIMIT in a recursive query is not implemented"))
	}
	if sel, ok := rec.(*ast.SelectStmt); ok && sel.LockInfo != nil && sel.LockInfo.LockType != ast.SelectLockNone {
		return sqlerr.New(sqlerr.FeatureNotSupported, "FOR UPDATE/SHARE in a recursive query is not implemented")
	}
	return nil
}

type walkMode uint8

const (
	walkDeps  walkMode = iota // find the references to the items of a WITH RECURSIVE list
	walkCheck                 // check the self-references of a recursive item
)

// cteWalker walks a parsed query for references to WITH items by name,
// honouring the names inner WITH clauses hide (parse_cte.c's
// makeDependencyGraphWalker and checkWellFormedRecursionWalker).
type cteWalker struct {
	b     *binder
	mode  walkMode
	self  string         // the item whose references are looked for
	names map[string]int // walkDeps: the list's items
	deps  map[int]bool   // walkDeps: the items referenced
	// inner are the names inner WITH clauses define, innermost last;
	// withs are those clauses.
	inner    []map[string]bool
	withs    []*ast.WithClause
	ctx      recContext
	selfRefs int
	err      *sqlerr.Error
	// selfLevels are the SELECTs whose own FROM reads the self-reference
	// (where aggregates are not allowed).
	selfLevels []*ast.SelectStmt
}

func (v *cteWalker) walk(n ast.Node) {
	if n != nil && v.err == nil {
		n.Accept(v)
	}
}

func (v *cteWalker) hidden(name string) bool {
	for _, m := range v.inner {
		if m[name] {
			return true
		}
	}
	return false
}

// pushWith walks an inner WITH clause's queries and makes its names hide
// the outer ones (all of them at once for RECURSIVE; each after its own
// query otherwise). The caller pops it.
func (v *cteWalker) pushWith(w *ast.WithClause) {
	m := map[string]bool{}
	v.inner = append(v.inner, m)
	v.withs = append(v.withs, w)
	if w.IsRecursive {
		for _, c := range w.CTEs {
			m[ident(c.Name)] = true
		}
	}
	for _, c := range w.CTEs {
		// the query itself, not its SubqueryExpr wrapper: an inner WITH
		// query is no subquery to PostgreSQL's check (a self-reference
		// there is allowed)
		if c.Query != nil {
			v.walk(c.Query.Query)
		}
		m[ident(c.Name)] = true
	}
}

func (v *cteWalker) popWith() {
	v.inner = v.inner[:len(v.inner)-1]
	v.withs = v.withs[:len(v.withs)-1]
}

// withScope walks n, whose WITH clause *with is, under that clause's
// names. TiDB hangs the WITH of a parenthesised query on both the list and
// its SELECT: a clause already in scope is walked once.
func (v *cteWalker) withScope(n ast.Node, with **ast.WithClause) {
	w := *with
	active := false
	for _, a := range v.withs {
		active = active || a == w
	}
	if !active {
		v.pushWith(w)
	}
	*with = nil
	v.walk(n)
	*with = w
	if !active {
		v.popWith()
	}
}

// refersToSelf reports whether a FROM item names the item itself (not
// through a derived table).
func (v *cteWalker) refersToSelf(rs ast.ResultSetNode) bool {
	switch x := rs.(type) {
	case *ast.Join:
		return v.refersToSelf(x.Left) || (x.Right != nil && v.refersToSelf(x.Right))
	case *ast.TableSource:
		if tn, ok := x.Source.(*ast.TableName); ok {
			return tn.Schema.O == "" && ident(tn.Name) == v.self && !v.hidden(v.self)
		}
		if j, ok := x.Source.(*ast.Join); ok {
			return v.refersToSelf(j)
		}
	}
	return false
}

func (v *cteWalker) tableRef(tn *ast.TableName) {
	name := ident(tn.Name)
	if tn.Schema.O != "" || v.hidden(name) {
		return
	}
	if v.mode == walkDeps {
		if name == v.self {
			v.selfRefs++
		} else if i, ok := v.names[name]; ok {
			v.deps[i] = true
		}
		return
	}
	if name != v.self {
		return
	}
	if v.ctx != recOK {
		v.err = v.b.errAt(tn, invalidRecursion(recContextMessages[v.ctx], v.self))
		return
	}
	v.selfRefs++
	if v.selfRefs > 1 {
		v.err = v.b.errAt(tn, invalidRecursion("recursive reference to query %q must not appear more than once", v.self))
	}
}

// isFullJoin reports whether a LEFT JOIN is the rewrite's spelling of a
// FULL JOIN (sql/fulljoin.go).
func isFullJoin(j *ast.Join) bool {
	if j.On == nil {
		return false
	}
	f, ok := j.On.Expr.(*ast.FuncCallExpr)
	return ok && strings.HasPrefix(f.FnName.L, "pg__full_join")
}

// setOpChain walks the operands of a set-operation chain as PostgreSQL's
// left-deep tree of them: ((a op b) op c).
func (v *cteWalker) setOpChain(sels []ast.Node) {
	if len(sels) == 1 {
		v.walk(sels[0])
		return
	}
	last := sels[len(sels)-1]
	var op *ast.SetOprType
	switch x := last.(type) {
	case *ast.SelectStmt:
		op = x.AfterSetOperator
	case *ast.SetOprSelectList:
		op = x.AfterSetOperator
	}
	save := v.ctx
	left, right := save, save
	if save == recOK && op != nil {
		switch *op {
		case ast.IntersectAll:
			left, right = recIntersect, recIntersect
		case ast.Except:
			right = recExcept
		case ast.ExceptAll:
			left, right = recExcept, recExcept
		}
	}
	v.ctx = left
	v.setOpChain(sels[:len(sels)-1])
	v.ctx = right
	v.walk(last)
	v.ctx = save
}

func (v *cteWalker) Enter(n ast.Node) (ast.Node, bool) {
	if v.err != nil {
		return n, true
	}
	switch x := n.(type) {
	case *ast.TableName:
		v.tableRef(x)
		return n, true
	case *ast.SubqueryExpr:
		save := v.ctx
		if v.mode == walkCheck {
			v.ctx = recSublink
		}
		v.walk(x.Query)
		v.ctx = save
		return n, true
	case *ast.Join:
		if v.mode == walkDeps || x.Right == nil {
			return n, false
		}
		save := v.ctx
		left, right := save, save
		if save == recOK {
			switch {
			case x.Tp == ast.LeftJoin && isFullJoin(x):
				left, right = recOuterJoin, recOuterJoin
			case x.Tp == ast.LeftJoin:
				right = recOuterJoin
			case x.Tp == ast.RightJoin:
				left = recOuterJoin
			}
		}
		v.ctx = left
		v.walk(x.Left)
		v.ctx = right
		v.walk(x.Right)
		v.ctx = save
		if x.On != nil {
			v.walk(x.On)
		}
		return n, true
	case *ast.WithClause:
		return n, true // walked by pushWith, under the names' scope
	case *ast.SelectStmt:
		if x.With != nil {
			v.withScope(x, &x.With)
			return n, true
		}
		if v.mode == walkCheck && v.ctx == recOK && x.From != nil && x.From.TableRefs != nil && v.refersToSelf(x.From.TableRefs) {
			v.selfLevels = append(v.selfLevels, x)
		}
	case *ast.SetOprStmt:
		if x.With != nil {
			v.withScope(x, &x.With)
			return n, true
		}
	case *ast.SetOprSelectList:
		if x.With != nil {
			v.withScope(x, &x.With)
			return n, true
		}
		if v.mode == walkCheck {
			v.setOpChain(x.Selects)
			if x.OrderBy != nil {
				v.walk(x.OrderBy)
			}
			if x.Limit != nil {
				v.walk(x.Limit)
			}
			return n, true
		}
	}
	return n, false
}

func (v *cteWalker) Leave(n ast.Node) (ast.Node, bool) { return n, v.err == nil }

// bindRecursiveRef binds a reference to a WITH RECURSIVE item: the working
// table while the item's own recursive term is bound, else (for a
// recursive item) a RecursiveUnion; ok is false for a non-recursive item.
func (b *binder) bindRecursiveRef(cte *ast.CommonTableExpression, alias string) (Node, bool, error) {
	if b.rec != nil {
		if wt := b.rec.workTables[cte]; wt != nil {
			n, err := relabel(wt, alias, nil)
			return n, true, err
		}
	}
	if !cte.IsRecursive {
		if _, sc, _, err := b.cteAliases(cte); err != nil || sc != nil {
			if err == nil {
				err = scError(sc, sqlerr.SyntaxError, "WITH query is not recursive")
			}
			return nil, true, err
		}
		return nil, false, nil
	}
	n, err := b.bindRecursiveUnion(cte)
	if err != nil {
		return nil, true, err
	}
	out, err := relabel(n, alias, nil)
	return out, true, err
}

func (b *binder) bindRecursiveUnion(cte *ast.CommonTableExpression) (Node, error) {
	name := ident(cte.Name)
	st, _, _, _, ok := recursiveTerms(cte)
	if !ok { // analyzeWithRecursive checked the form
		return nil, invalidRecursion("recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	// The terms bind from sqlgate's tree: the chain (without the query's
	// own WITH, bound below over TiDB's clause with the rest of WITH's
	// bookkeeping) transformed once, split as PostgreSQL's UNION node is.
	q, err := b.trees.QueryToTree(st.SelectList, b.stmt)
	if err != nil {
		return nil, b.transformError(err)
	}
	nonRecTree, recTree, all, ok := recursiveTermsTree(q)
	if !ok {
		return nil, invalidRecursion("recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	saved := b.ctes
	defer func() { b.ctes = saved }()
	if st.With != nil {
		if err := b.bindWith(st.With, st); err != nil {
			return nil, err
		}
	}
	withSelf := b.ctes
	b.ctes = withoutCTE(withSelf, name)
	nonRec, err := b.bindRecursiveTerm(nonRecTree)
	if err != nil {
		return nil, err
	}
	names, sc, _, err := b.cteAliases(cte)
	if err != nil {
		return nil, err
	}
	in := nonRec.Columns()
	if len(names) > len(in) {
		return nil, b.errAt(cte, sqlerr.New(sqlerr.InvalidColumnReference, "WITH query %q has %d columns available but %d columns specified", name, len(in), len(names)))
	}
	// The item's columns: the alias list's names, the non-recursive
	// term's types, an unknown literal's as text (analyzeCTETargetList).
	cols := make([]Column, len(in))
	cast := false
	for i, c := range in {
		t := c.T.Nullable()
		if isUnknown(t) {
			t, cast = types.StringType, true
		}
		if t.Kind == types.Int8 { // as a set operation's column (makeSetOp)
			t, cast = types.Int16Type, true
		}
		cols[i] = Column{Name: c.Name, T: t}
		if i < len(names) {
			cols[i].Name = ident(names[i])
		}
	}
	if cast {
		p := &Project{Input: nonRec}
		for i, c := range in {
			p.Exprs = append(p.Exprs, b.castTo(&ColumnRef{Index: i, Name: c.Name, T: c.T}, cols[i].T))
			p.Cols = append(p.Cols, Column{Name: c.Name, T: cols[i].T})
		}
		nonRec = p
	}
	// SEARCH / CYCLE add columns to both terms (searchcycle.go)
	var scp *searchCyclePlan
	allCols := cols
	if sc != nil {
		if scp, err = b.prepareSearchCycle(sc, name, cols, b.searchCycleFormOf(name, nonRecTree, recTree)); err != nil {
			return nil, err
		}
		allCols = append(append([]Column(nil), cols...), scp.extra...)
	}
	wt := &WorkTable{Name: name}
	scan := &WorkTableScan{WT: wt, cols: allCols}
	if b.rec == nil {
		b.rec = &recState{workTables: map[*ast.CommonTableExpression]*WorkTableScan{}}
	}
	prev := b.rec.workTables[cte]
	b.rec.workTables[cte] = scan
	b.ctes = withSelf
	// a literal of the recursive term is typed by the UNION, as a set
	// operation branch's ('x' where the column is integer is an integer)
	b.setOpBranch = isOneQuery(recTree)
	if scp != nil {
		// (prepareSearchCycle refused a recursive term that is no SELECT)
		withWorkTableColumns(recTree.(*pt.Select), name, scp.extra)
	}
	rec, err := b.bindRecursiveTerm(recTree)
	b.setOpBranch = false
	b.rec.workTables[cte] = prev
	if err != nil {
		return nil, err
	}
	if scp != nil {
		return b.searchCycleUnion(name, scp, nonRec, rec, cols, allCols, wt, all)
	}
	// The types are the non-recursive term's: the UNION of both terms must
	// resolve to them (analyzeCTE's check), the recursive term is cast.
	u, err := b.makeSetOp(nonRec, rec, Union, all)
	if err != nil {
		return nil, err
	}
	set := u.(*SetOp)
	for i, c := range set.Columns() {
		if !c.T.Nullable().Equal(cols[i].T) {
			return nil, recursiveTypeMismatch(name, i, cols[i].T, c.T)
		}
	}
	return &RecursiveUnion{Name: name, NonRec: set.Left, Rec: set.Right, All: all, WT: wt, cols: cols}, nil
}

// recursiveTypeMismatch is analyzeCTE's error for column i whose type
// overall is not the non-recursive term's.
func recursiveTypeMismatch(name string, i int, nonRec, overall types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.DatatypeMismatch, "recursive query %q column %d has type %s in non-recursive term but type %s overall",
		name, i+1, typeWithModifier(nonRec), typeWithModifier(overall)).WithHint("Cast the output of the non-recursive term to the correct type.")
}

// typeWithModifier names a type as PostgreSQL's format_type_with_typemod
// does (character varying(3), numeric(10,2)).
func typeWithModifier(t types.T) string {
	name := t.PGName()
	switch {
	case t.Variant != types.NoVariant:
	case t.Kind == types.String && t.Length < 0: // varchar without a limit (types.T.Length)
		return "character varying"
	case t.Kind == types.Char && t.Length <= 0: // bpchar without a length, as format_type names it
		return "bpchar"
	case (t.Kind == types.String || t.Kind == types.Char) && t.Length > 0:
		return fmt.Sprintf("%s(%d)", name, t.Length)
	case t.Kind == types.Decimal && t.Precision > 0:
		return fmt.Sprintf("%s(%d,%d)", name, t.Precision, t.Scale)
	}
	return name
}

// searchCycleFormOf reads a recursive item's terms for its SEARCH or CYCLE
// clause's checks (searchcycle.go).
func (b *binder) searchCycleFormOf(name string, nonRec, rec pt.Query) searchCycleForm {
	var f searchCycleForm
	f.nonRecSelect = isOneQuery(nonRec)
	f.recSelect = isOneQuery(rec)
	sel, ok := rec.(*pt.Select)
	if !ok {
		return f
	}
	f.selfAtTop = sel.From != nil && fromNamesTable(sel.From, name)
	f.groups = len(sel.GroupBy) > 0 || sel.Having != nil || sel.Limit != nil || sel.QueryClauses.Offset != nil || len(sel.Windows) > 0
	for _, t := range sel.Targets {
		f.groups = f.groups || (t.X != nil && b.containsWindowTree(t.X))
	}
	return f
}

// isOneQuery reports whether a term is one SELECT (VALUES and TABLE
// included, as TiDB's SELECT statement holds them), not a set operation.
func isOneQuery(q pt.Query) bool {
	switch q.(type) {
	case *pt.Select, *pt.Values:
		return true
	}
	return false
}

// fromNamesTable reports whether a FROM item names the table name itself
// (not through a derived table): a FROM item of its SELECT, or of a join
// there.
func fromNamesTable(it pt.FromItem, name string) bool {
	switch x := it.(type) {
	case *pt.Join:
		return fromNamesTable(x.L, name) || (x.R != nil && fromNamesTable(x.R, name))
	case *pt.TableRef:
		return x.Name != nil && x.Name.Schema == "" && x.Name.Name == name
	}
	return false
}

// recursiveTermsTree splits a recursive item's query into its
// non-recursive term and its recursive term, joined by UNION or UNION ALL.
func recursiveTermsTree(q pt.Query) (nonRec, rec pt.Query, all, ok bool) {
	so, isSet := q.(*pt.SetOp)
	if !isSet || so.Op != pt.Union {
		return nil, nil, false, false
	}
	return so.L, so.R, so.All, true
}

// bindRecursiveTerm binds a term of a recursive query as a derived table
// (seeing no enclosing row). A parenthesised set operation ordering or
// limiting its rows is refused there, as it has always been.
func (b *binder) bindRecursiveTerm(q pt.Query) (Node, error) {
	if so, ok := q.(*pt.SetOp); ok && (len(so.OrderBy) > 0 || so.Limit != nil || so.QueryClauses.Offset != nil) {
		return nil, sqlerr.NotSupported("ORDER BY or LIMIT inside a parenthesised set operation")
	}
	n, _, err := b.bindSubqueryPlan(nil, &pt.Subquery{At: pt.At{Offset: q.Pos()}, Tree: q})
	return n, err
}

// withWorkTableColumns appends to the recursive SELECT's list the working
// table's clause columns (alias.seq, alias.mark, alias.path); sel is the
// tree transformed for this binding alone.
func withWorkTableColumns(sel *pt.Select, name string, extra []Column) {
	alias := name
	var find func(it pt.FromItem)
	find = func(it pt.FromItem) {
		switch x := it.(type) {
		case *pt.Join:
			find(x.L)
			if x.R != nil {
				find(x.R)
			}
		case *pt.TableRef:
			if x.Name != nil && x.Name.Schema == "" && x.Name.Name == name && x.Alias.Name != "" {
				alias = x.Alias.Name
			}
		}
	}
	find(sel.From)
	targets := append([]*pt.Target(nil), sel.Targets...)
	for _, c := range extra {
		targets = append(targets, &pt.Target{X: &pt.ColumnRef{Table: alias, Name: c.Name}})
	}
	sel.Targets = targets
}
