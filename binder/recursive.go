package binder

import (
	"fmt"

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

// recState is the binder's state for WITH RECURSIVE: the items found
// recursive (analyzeWithRecursive), and the working table a reference to a
// recursive item binds to while its recursive term is bound.
type recState struct {
	recursive  map[*pt.CTE]bool
	workTables map[*pt.CTE]*WorkTableScan
}

// isRecursive reports whether cte is an item of a WITH RECURSIVE list
// that references itself.
func (b *binder) isRecursive(cte *pt.CTE) bool {
	return b.rec != nil && b.rec.recursive[cte]
}

// recs is b.rec, made when first needed.
func (b *binder) recs() *recState {
	if b.rec == nil {
		b.rec = &recState{recursive: map[*pt.CTE]bool{}, workTables: map[*pt.CTE]*WorkTableScan{}}
	}
	return b.rec
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
// recursive (recState.recursive), refuses cycles between items and checks
// each recursive item's form.
func (b *binder) analyzeWithRecursive(w *pt.With) error {
	names := make(map[string]int, len(w.CTEs))
	for i, cte := range w.CTEs {
		names[cte.Name] = i
	}
	rs := b.recs()
	deps := make([]map[int]bool, len(w.CTEs))
	for i, cte := range w.CTEs {
		v := &cteWalker{b: b, mode: walkDeps, names: names, self: cte.Name, deps: map[int]bool{}}
		v.walk(cte.Query)
		rs.recursive[cte] = v.selfRefs > 0
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
		if rs.recursive[cte] {
			if err := b.checkWellFormedRecursion(cte); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkWellFormedRecursion checks a recursive item as PostgreSQL's
// checkWellFormedRecursion does.
func (b *binder) checkWellFormedRecursion(cte *pt.CTE) error {
	name := cte.Name
	nonRec, rec, _, ok := recursiveTermsTree(cte.Query)
	if !ok {
		return b.errAt(cte, invalidRecursion("recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name))
	}
	so := cte.Query.(*pt.SetOp)
	v := &cteWalker{b: b, mode: walkCheck, self: name, ctx: recNonRecursiveTerm}
	if so.With != nil {
		// the query's own WITH: its names hide the item's, in both terms
		v.pushWith(so.With)
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
		agg := sel.Having != nil && b.containsAggregateTree(sel.Having)
		for _, t := range sel.Targets {
			agg = agg || (t.X != nil && b.containsAggregateTree(t.X))
		}
		for _, o := range sel.OrderBy {
			agg = agg || b.containsAggregateTree(o.X)
		}
		if agg {
			return b.errAt(sel, invalidRecursion("aggregate functions are not allowed in a recursive query's recursive term"))
		}
	}
	if len(so.OrderBy) > 0 {
		return b.errAt(so.OrderBy[0].X, sqlerr.New(sqlerr.FeatureNotSupported, "ORDER BY in a recursive query is not implemented"))
	}
	if so.QueryClauses.Offset != nil {
		return b.errAt(so.QueryClauses.Offset, sqlerr.New(sqlerr.FeatureNotSupported, "OFFSET in a recursive query is not implemented"))
	}
	if so.Limit != nil {
		return b.errAt(so.Limit, sqlerr.New(sqlerr.FeatureNotSupported, "LIMIT in a recursive query is not implemented"))
	}
	if sel, ok := rec.(*pt.Select); ok && sel.Locking != nil {
		return sqlerr.New(sqlerr.FeatureNotSupported, "FOR UPDATE/SHARE in a recursive query is not implemented")
	}
	return nil
}

type walkMode uint8

const (
	walkDeps  walkMode = iota // find the references to the items of a WITH RECURSIVE list
	walkCheck                 // check the self-references of a recursive item
)

// cteWalker walks a query of the tree (pt.Inspect) for references to WITH
// items by name, honouring the names inner WITH clauses hide (parse_cte.c's
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
	withs    []*pt.With
	ctx      recContext
	selfRefs int
	err      *sqlerr.Error
	// selfLevels are the SELECTs whose own FROM reads the self-reference
	// (where aggregates are not allowed).
	selfLevels []*pt.Select
	visit      func(pt.Node) bool // enter, made once
}

func (v *cteWalker) walk(n pt.Node) {
	if n == nil || v.err != nil {
		return
	}
	if v.visit == nil {
		v.visit = v.enter
	}
	pt.Inspect(n, v.visit)
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
func (v *cteWalker) pushWith(w *pt.With) {
	m := map[string]bool{}
	v.inner = append(v.inner, m)
	v.withs = append(v.withs, w)
	if w.Recursive {
		for _, c := range w.CTEs {
			m[c.Name] = true
		}
	}
	for _, c := range w.CTEs {
		// an inner WITH query is no subquery to PostgreSQL's check (a
		// self-reference there is allowed)
		v.walk(c.Query)
		m[c.Name] = true
	}
}

func (v *cteWalker) popWith() {
	v.inner = v.inner[:len(v.inner)-1]
	v.withs = v.withs[:len(v.withs)-1]
}

// withScope walks n (a copy of a query or write without its WITH clause
// w) under w's names; a clause already in scope (the one whose references
// countCTERefs counts) is not walked again.
func (v *cteWalker) withScope(w *pt.With, n pt.Node) {
	active := false
	for _, a := range v.withs {
		active = active || a == w
	}
	if !active {
		v.pushWith(w)
	}
	v.walk(n)
	if !active {
		v.popWith()
	}
}

func (v *cteWalker) tableRef(tn *pt.TableName) {
	name := tn.Name
	if tn.Schema != "" || v.hidden(name) {
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

// setOp walks a set operation's operands in the contexts PostgreSQL's
// check gives them, then its ORDER BY, LIMIT and OFFSET.
func (v *cteWalker) setOp(so *pt.SetOp) {
	save := v.ctx
	left, right := save, save
	if save == recOK {
		switch {
		case so.Op == pt.Intersect && so.All:
			left, right = recIntersect, recIntersect
		case so.Op == pt.Except && so.All:
			left, right = recExcept, recExcept
		case so.Op == pt.Except:
			right = recExcept
		}
	}
	v.ctx = left
	v.walk(so.L)
	v.ctx = right
	v.walk(so.R)
	v.ctx = save
	for _, o := range so.OrderBy {
		v.walk(o.X)
	}
	if so.Limit != nil {
		v.walk(so.Limit)
	}
	if so.QueryClauses.Offset != nil {
		v.walk(so.QueryClauses.Offset)
	}
}

// enter is the walk's visitor: false where it walks the node's children
// itself.
func (v *cteWalker) enter(n pt.Node) bool {
	if v.err != nil {
		return false
	}
	switch x := n.(type) {
	case *pt.TableRef:
		if x.Name != nil {
			v.tableRef(x.Name)
		}
		return false
	case *pt.Subquery:
		save := v.ctx
		if v.mode == walkCheck {
			v.ctx = recSublink
		}
		if x.Tree != nil {
			v.walk(x.Tree)
		}
		v.ctx = save
		return false
	case *pt.Join:
		if v.mode == walkDeps {
			return true
		}
		save := v.ctx
		left, right := save, save
		if save == recOK {
			switch x.Kind {
			case pt.FullJoin:
				left, right = recOuterJoin, recOuterJoin
			case pt.LeftJoin:
				right = recOuterJoin
			case pt.RightJoin:
				left = recOuterJoin
			}
		}
		v.ctx = left
		v.walk(x.L)
		v.ctx = right
		v.walk(x.R)
		v.ctx = save
		if x.On != nil {
			v.walk(x.On)
		}
		return false
	case *pt.Select:
		if x.With != nil {
			c := *x
			c.With = nil
			v.withScope(x.With, &c)
			return false
		}
		if v.mode == walkCheck && v.ctx == recOK && x.From != nil && fromNamesTable(x.From, v.self) && !v.hidden(v.self) {
			v.selfLevels = append(v.selfLevels, x)
		}
	case *pt.SetOp:
		if x.With != nil {
			c := *x
			c.With = nil
			v.withScope(x.With, &c)
			return false
		}
		if v.mode == walkCheck {
			v.setOp(x)
			return false
		}
	case *pt.Values:
		if x.With != nil {
			c := *x
			c.With = nil
			v.withScope(x.With, &c)
			return false
		}
	case *pt.Update:
		if x.With != nil {
			c := *x
			c.With = nil
			v.withScope(x.With, &c)
			return false
		}
	case *pt.Delete:
		if x.With != nil {
			c := *x
			c.With = nil
			v.withScope(x.With, &c)
			return false
		}
	}
	return true
}

// bindRecursiveRef binds a reference to a WITH RECURSIVE item: the working
// table while the item's own recursive term is bound, else (for a
// recursive item) a RecursiveUnion; ok is false for a non-recursive item.
func (b *binder) bindRecursiveRef(cte *pt.CTE, alias string) (Node, bool, error) {
	if b.rec != nil {
		if wt := b.rec.workTables[cte]; wt != nil {
			n, err := relabelNames(wt, alias, nil)
			return n, true, err
		}
	}
	if !b.isRecursive(cte) {
		if _, sc, _ := cteAliases(cte); sc != nil {
			return nil, true, scError(sc, sqlerr.SyntaxError, "WITH query is not recursive")
		}
		return nil, false, nil
	}
	n, err := b.bindRecursiveUnion(cte)
	if err != nil {
		return nil, true, err
	}
	out, err := relabelNames(n, alias, nil)
	return out, true, err
}

func (b *binder) bindRecursiveUnion(cte *pt.CTE) (Node, error) {
	name := cte.Name
	// The terms, split as PostgreSQL's UNION node is; the query's own
	// WITH (on the union) binds first.
	nonRecTree, recTree, all, ok := recursiveTermsTree(cte.Query)
	if !ok { // analyzeWithRecursive checked the form
		return nil, invalidRecursion("recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", name)
	}
	so := cte.Query.(*pt.SetOp)
	saved := b.ctes
	defer func() { b.ctes = saved }()
	if so.With != nil {
		if err := b.bindWith(so.With, so); err != nil { // cte.go
			return nil, err
		}
	}
	withSelf := b.ctes
	b.ctes = withoutCTE(withSelf, name)
	nonRec, err := b.bindRecursiveTerm(nonRecTree)
	if err != nil {
		return nil, err
	}
	names, sc, _ := cteAliases(cte)
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
			cols[i].Name = names[i]
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
	b.recs()
	prev := b.rec.workTables[cte]
	b.rec.workTables[cte] = scan
	b.ctes = withSelf
	// a literal of the recursive term is typed by the UNION, as a set
	// operation branch's ('x' where the column is integer is an integer)
	b.setOpBranch = isOneQuery(recTree)
	if scp != nil {
		// (prepareSearchCycle refused a recursive term that is no SELECT;
		// the columns go on a copy: the item's tree binds once per
		// reference)
		sel := *recTree.(*pt.Select)
		withWorkTableColumns(&sel, name, scp.extra)
		recTree = &sel
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
	if q == nil {
		return nil, nil, false, false
	}
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
// table's clause columns (alias.seq, alias.mark, alias.path); sel is a
// copy of the item's SELECT for this binding alone (its list is a new
// slice).
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
