package binder

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Which WITH queries are evaluated once, as PostgreSQL 15 decides it
// (subselect.c, SS_process_ctes): a WITH query is inlined into each place
// that references it, unless it is written MATERIALIZED, calls a volatile
// function (whatever it is written), or is referenced more than once and
// not written NOT MATERIALIZED. A recursive one is never inlined by
// PostgreSQL; inlined here it runs once per reference, which is the same
// when it is referenced once, so it is shared when referenced more than
// once whatever it is written. A shared query
// runs once per execution and every reference reads its rows (a CTEScan
// of one SharedCTE), so that random(), nextval() and a volatile UDF give
// every reference the same rows.
//
// A body that reads a row of an enclosing query is inlined whatever it is
// written: each reference binds it at its own level (bindCTEBody). A
// shared query, reading no enclosing row, is never run again for the same
// execution: its rows last until the execution ends (lower/cte.go), so
// that two scalar subqueries, ARRAY(...) or a correlated subquery run per
// row all read the one evaluation, as in PostgreSQL.

// materialization is how a WITH item is written.
type materialization uint8

const (
	materializeDefault materialization = iota
	materializeAlways                  // AS MATERIALIZED
	materializeNever                   // AS NOT MATERIALIZED
)

// SharedCTE is a WITH query evaluated once per execution for every
// CTEScan of it.
type SharedCTE struct {
	Name string
	Body Node
}

// CTEScan reads the rows of a SharedCTE (PostgreSQL's CTE Scan). Body is
// the CTE's plan (the same for every scan of it, rewritten by the
// planner's rules on its own); which scan runs it is the executor's choice.
type CTEScan struct {
	CTE  *SharedCTE
	Body Node
	cols []Column
}

func (n *CTEScan) Columns() []Column { return n.cols }
func (n *CTEScan) Children() []Node  { return []Node{n.Body} }

// NewCTEScan is a scan of cte over body (the planner's copy of it).
func NewCTEScan(cte *SharedCTE, body Node) *CTEScan {
	return &CTEScan{CTE: cte, Body: body, cols: body.Columns()}
}

// cteAliases splits a WITH item's column alias list into the names and the
// markers the rewrite added (sql/cte.go): its SEARCH/CYCLE clause (nil when
// none) and how it is to be materialized.
func (b *binder) cteAliases(cte *ast.CommonTableExpression) ([]ast.CIStr, *sql.SearchCycle, materialization, error) {
	mat := materializeDefault
	marked := false
	for _, n := range cte.ColNameList {
		switch name := ident(n); {
		case name == sql.MaterializedMarker:
			mat, marked = materializeAlways, true
		case name == sql.NotMaterializedMarker:
			mat, marked = materializeNever, true
		case strings.HasPrefix(name, sql.SearchCycleMarker):
			marked = true
		}
	}
	if !marked {
		return cte.ColNameList, nil, mat, nil
	}
	names, sc, err := b.searchCycleOf(cte)
	if err != nil {
		return nil, nil, mat, err
	}
	kept := names[:0:0]
	for _, n := range names {
		if name := ident(n); name != sql.MaterializedMarker && name != sql.NotMaterializedMarker {
			kept = append(kept, n)
		}
	}
	return kept, sc, mat, nil
}

// searchCycleOf splits a WITH item's column alias list into the names and
// the SEARCH/CYCLE clause the rewrite marked it with (nil when none).
func (b *binder) searchCycleOf(cte *ast.CommonTableExpression) ([]ast.CIStr, *sql.SearchCycle, error) {
	var names []ast.CIStr
	var sc *sql.SearchCycle
	for _, n := range cte.ColNameList {
		idx, ok := strings.CutPrefix(ident(n), sql.SearchCycleMarker)
		if !ok {
			names = append(names, n)
			continue
		}
		i, err := strconv.Atoi(idx)
		if err != nil || b.stmt == nil || i >= len(b.stmt.SearchCycle) {
			return nil, nil, sqlerr.New(sqlerr.InternalError, "SEARCH/CYCLE clause of WITH query %q not found", ident(cte.Name))
		}
		sc = &b.stmt.SearchCycle[i]
	}
	return names, sc, nil
}

// countCTERefs counts, for each item of w, the FROM references to it in
// owner (the statement w belongs to) and in the other items' queries that
// see it, as PostgreSQL counts cterefcount while analysing them.
func (b *binder) countCTERefs(w *ast.WithClause, owner ast.Node) {
	if b.cteRefs == nil {
		b.cteRefs = map[*ast.CommonTableExpression]int{}
	}
	for i, cte := range w.CTEs {
		v := &cteWalker{b: b, mode: walkDeps, self: ident(cte.Name), names: map[string]int{}, deps: map[int]bool{},
			// w is in scope without hiding its names: the walk of owner
			// does not enter it again
			inner: []map[string]bool{{}}, withs: []*ast.WithClause{w}}
		v.walk(owner)
		for j, other := range w.CTEs {
			// a plain list's item sees only the items before it
			if j == i || (!w.IsRecursive && j < i) || other.Query == nil {
				continue
			}
			v.walk(other.Query.Query)
		}
		b.cteRefs[cte] = v.selfRefs
	}
}

// sharedCTERef binds a reference to cte as a scan of its one evaluation
// when PostgreSQL evaluates it once (see the top of this file); ok is false
// when the reference is to be inlined.
func (b *binder) sharedCTERef(cte *ast.CommonTableExpression) (Node, bool, error) {
	if s, ok := b.sharedCTEs[cte]; ok {
		if s == nil {
			return nil, false, nil // decided before: inlined
		}
		return NewCTEScan(s, s.Body), true, nil
	}
	_, _, mat, err := b.cteAliases(cte)
	if err != nil {
		return nil, false, err
	}
	refs := b.cteRefs[cte]
	many := refs > 1 && (mat == materializeDefault || cte.IsRecursive)
	if mat != materializeAlways && !many && !mayCallVolatile(cte.Query.Query) {
		return nil, false, nil // each reference decides the same: no entry needed
	}
	body, ok := b.bindUncorrelatedCTE(cte)
	if !ok {
		return nil, false, nil
	}
	shared := mat == materializeAlways || many || callsVolatile(body)
	if b.sharedCTEs == nil {
		b.sharedCTEs = map[*ast.CommonTableExpression]*SharedCTE{}
	}
	if !shared {
		b.sharedCTEs[cte] = nil
		return nil, false, nil
	}
	s := &SharedCTE{Name: ident(cte.Name), Body: body}
	b.sharedCTEs[cte] = s
	return NewCTEScan(s, body), true, nil
}

// bindUncorrelatedCTE binds cte's query seeing no enclosing query; ok is
// false when it cannot be bound so (it reads an enclosing query's row, or
// has an error the inlined binding reports where it belongs).
func (b *binder) bindUncorrelatedCTE(cte *ast.CommonTableExpression) (Node, bool) {
	saved := b.ctes
	prevOuter, prevCorr, prevAgg := b.outer, b.corr, b.agg
	b.ctes = withoutCTE(saved, ident(cte.Name))
	if cte.IsRecursive {
		b.ctes = saved // the recursive union binds its own self-reference
	}
	b.outer, b.corr, b.agg = nil, nil, nil
	defer func() { b.ctes, b.outer, b.corr, b.agg = saved, prevOuter, prevCorr, prevAgg }()
	var (
		n   Node
		err error
	)
	switch x := cte.Query.Query.(type) {
	case *ast.SelectStmt:
		if cte.IsRecursive {
			return nil, false
		}
		n, err = b.bindSelect(x)
	case *ast.SetOprStmt:
		if cte.IsRecursive {
			n, err = b.bindRecursiveUnion(cte)
		} else {
			n, err = b.bindSetOpr(x)
		}
	default:
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	if names, _, _, err := b.cteAliases(cte); err != nil || len(names) > len(n.Columns()) {
		return nil, false
	}
	return n, true
}

// mayCallVolatile reports whether a parsed query calls a function that
// could be volatile: one PostgreSQL marks so, or one that is not built in
// (a user-defined function, or a form the rewrite spells as a call). It
// spares the binding of a WITH query referenced once just to learn that
// it is to be inlined.
func mayCallVolatile(q ast.Node) bool {
	v := &volatileCallFinder{}
	q.Accept(v)
	return v.found
}

type volatileCallFinder struct{ found bool }

func (v *volatileCallFinder) Enter(n ast.Node) (ast.Node, bool) {
	if f, ok := n.(*ast.FuncCallExpr); ok {
		name := f.FnName.L
		v.found = v.found || functions.VolatileInPostgres(name) || len(functions.Lookup(name)) == 0
	}
	return n, v.found
}

func (v *volatileCallFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// callsVolatile reports whether a plan calls a function PostgreSQL marks
// volatile (a user-defined function is volatile unless declared otherwise:
// sqlgate's are treated as such).
func callsVolatile(n Node) bool {
	found := false
	visitExprs(n, func(e Expr) {
		Walk(e, func(x Expr) {
			switch f := x.(type) {
			case *FuncCall:
				found = found || functions.VolatileInPostgres(f.Name)
			case *UDFCall:
				found = true
			case *Subquery:
				found = found || callsVolatile(f.Plan)
			}
		})
	})
	return found
}

// bindSetOpr binds a set operation of TiDB's AST (a statement, a view's
// definition, EXPLAIN's query): a chain of two or more queries transforms
// into the tree whole (its WITH, ORDER BY and LIMIT included) and binds
// from there (setop.go). One parenthesised query, which TiDB makes a set
// operation of one operand, binds as it always has: ordered by its output
// columns, a second ORDER BY or LIMIT inside refused (the tree would give
// it to the query itself, which PostgreSQL does but this binder never has).
func (b *binder) bindSetOpr(st *ast.SetOprStmt) (Node, error) {
	if st.SelectList != nil && len(st.SelectList.Selects) > 1 && st.SelectList.OrderBy == nil && st.SelectList.Limit == nil {
		q, err := b.trees.QueryToTree(st, b.stmt)
		if err != nil {
			return nil, b.transformError(err)
		}
		return b.bindQueryTree(q, st)
	}
	if st.With != nil {
		saved := b.ctes
		defer func() { b.ctes = saved }()
		if err := b.bindWith(st.With, st); err != nil {
			return nil, err
		}
	}
	if st.SelectList == nil {
		return nil, sqlerr.NotSupported("an empty set operation")
	}
	if st.SelectList.OrderBy != nil || st.SelectList.Limit != nil {
		return nil, sqlerr.NotSupported("ORDER BY or LIMIT inside a parenthesised set operation")
	}
	q, err := b.trees.QueryToTree(st.SelectList, b.stmt)
	if err != nil {
		return nil, b.transformError(err)
	}
	n, err := b.bindSetOpBody(q)
	if err != nil {
		return nil, err
	}
	if st.OrderBy != nil {
		order, err := b.trees.OrderItemsToTree(st.OrderBy)
		if err != nil {
			return nil, b.transformError(err)
		}
		if n, err = b.bindSetOpOrder(n, order); err != nil {
			return nil, err
		}
	}
	if st.Limit != nil {
		return b.bindLimit(n, st.Limit)
	}
	return n, nil
}

// bindSetOpLeaf binds a SELECT or VALUES operand of a set operation from
// the TiDB node it was made from.
func (b *binder) bindSetOpLeaf(q pt.Query) (Node, error) {
	return b.bindQueryTree(q, nil) // exprbind.go
}
