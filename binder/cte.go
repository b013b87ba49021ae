package binder

import (
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

// cteAliases reads a WITH item's column alias list (the names as
// written), its SEARCH/CYCLE clause (nil when none: searchcycle.go takes
// the rewrite's record of it) and how it is to be materialized.
func cteAliases(cte *pt.CTE) ([]string, *sql.SearchCycle, materialization) {
	mat := materializeDefault
	switch cte.Materialized {
	case pt.Materialized:
		mat = materializeAlways
	case pt.NotMaterialized:
		mat = materializeNever
	}
	if cte.Search == nil && cte.Cycle == nil {
		return cte.Columns, nil, mat
	}
	sc := &sql.SearchCycle{ClausePos: cte.ClauseAt}
	if s := cte.Search; s != nil {
		sc.Search, sc.BreadthFirst, sc.SearchBy, sc.SearchSet = true, s.Breadth, s.By, s.Set
	}
	if c := cte.Cycle; c != nil {
		sc.Cycle, sc.CycleCols, sc.CycleMark, sc.CyclePath, sc.MarkValue, sc.MarkDflt = true, c.Columns, c.Mark, c.Path, c.MarkValue, c.MarkDefault
	}
	return cte.Columns, sc, mat
}

// bindWith makes the WITH queries of owner (the query or write whose
// clause w is) visible by name. A reference binds the query again (the
// CTE is inlined) unless PostgreSQL evaluates it once (see above).
func (b *binder) bindWith(w *pt.With, owner pt.Node) error {
	if w == nil {
		return nil
	}
	b.countCTERefs(w, owner)
	next := make(map[string]*pt.CTE, len(b.ctes)+len(w.CTEs))
	for k, v := range b.ctes {
		next[k] = v
	}
	seen := make(map[string]bool, len(w.CTEs))
	for _, cte := range w.CTEs {
		if seen[cte.Name] { // an inner WITH may shadow an outer one, not repeat itself
			return sqlerr.New(sqlerr.DuplicateAlias, "WITH query name %q specified more than once", cte.Name)
		}
		seen[cte.Name] = true
		next[cte.Name] = cte
		b.noteCTELevel(cte) // ctecorr.go
	}
	b.ctes = next
	if w.Recursive {
		return b.analyzeWithRecursive(w) // recursive.go
	}
	return nil
}

// bindWithTree is bindWith for a query's own WITH (select.go, values.go,
// setop.go): owner is the query.
func (b *binder) bindWithTree(w *pt.With, owner pt.Query) error {
	return b.bindWith(w, owner)
}

// withoutCTE is ctes without name: a (non-recursive) WITH query does not
// see itself, so "WITH x AS (SELECT * FROM x)" reads a table x, as in
// PostgreSQL, instead of recursing without end.
func withoutCTE(ctes map[string]*pt.CTE, name string) map[string]*pt.CTE {
	out := make(map[string]*pt.CTE, len(ctes))
	for k, v := range ctes {
		if k != name {
			out[k] = v
		}
	}
	return out
}

// bindCTERef binds a name in FROM that names the WITH query cte, under
// alias ("": the name).
func (b *binder) bindCTERef(cte *pt.CTE, alias string) (Node, error) {
	if alias == "" {
		alias = cte.Name
	}
	recursive := b.isRecursive(cte)
	selfRef := b.rec != nil && b.rec.workTables[cte] != nil
	if selfRef || !recursive {
		if n, ok, err := b.bindRecursiveRef(cte, alias); ok { // recursive.go
			return n, err
		}
	}
	names, _, _ := cteAliases(cte)
	if scan, ok, err := b.sharedCTERef(cte); ok || err != nil {
		if err != nil {
			return nil, err
		}
		if recursive { // the union has the alias list's names
			names = nil
		}
		return relabelNames(scan, alias, names)
	}
	if recursive {
		n, _, err := b.bindRecursiveRef(cte, alias)
		return n, err
	}
	saved := b.ctes
	b.ctes = withoutCTE(saved, cte.Name)
	inner, err := b.bindCTEBody(cte) // ctecorr.go
	b.ctes = saved
	if err != nil {
		return nil, err
	}
	if n := len(inner.Columns()); len(names) > n {
		return nil, sqlerr.New(sqlerr.InvalidColumnReference, "WITH query %q has %d columns available but %d columns specified", cte.Name, n, len(names))
	}
	return relabelNames(inner, alias, names)
}

// countCTERefs counts, for each item of w, the FROM references to it in
// owner (the query or write w belongs to) and in the other items' queries
// that see it, as PostgreSQL counts cterefcount while analysing them.
func (b *binder) countCTERefs(w *pt.With, owner pt.Node) {
	if b.cteRefs == nil {
		b.cteRefs = map[*pt.CTE]int{}
	}
	for i, cte := range w.CTEs {
		v := &cteWalker{b: b, mode: walkDeps, self: cte.Name,
			// w is in scope without hiding its names: the walk of owner
			// does not enter it again
			inner: []map[string]bool{{}}, withs: []*pt.With{w}}
		v.walk(owner)
		for j, other := range w.CTEs {
			// a plain list's item sees only the items before it
			if j == i || (!w.Recursive && j < i) || other.Query == nil {
				continue
			}
			v.walk(other.Query)
		}
		b.cteRefs[cte] = v.selfRefs
	}
}

// sharedCTERef binds a reference to cte as a scan of its one evaluation
// when PostgreSQL evaluates it once (see the top of this file); ok is false
// when the reference is to be inlined.
func (b *binder) sharedCTERef(cte *pt.CTE) (Node, bool, error) {
	if s, ok := b.sharedCTEs[cte]; ok {
		if s == nil {
			return nil, false, nil // decided before: inlined
		}
		return NewCTEScan(s, s.Body), true, nil
	}
	_, _, mat := cteAliases(cte)
	refs := b.cteRefs[cte]
	many := refs > 1 && (mat == materializeDefault || b.isRecursive(cte))
	if mat != materializeAlways && !many && !b.mayCallVolatile(cte.Query) {
		return nil, false, nil // each reference decides the same: no entry needed
	}
	body, ok := b.bindUncorrelatedCTE(cte)
	if !ok {
		return nil, false, nil
	}
	shared := mat == materializeAlways || many || callsVolatile(body)
	if b.sharedCTEs == nil {
		b.sharedCTEs = map[*pt.CTE]*SharedCTE{}
	}
	if !shared {
		b.sharedCTEs[cte] = nil
		return nil, false, nil
	}
	s := &SharedCTE{Name: cte.Name, Body: body}
	b.sharedCTEs[cte] = s
	return NewCTEScan(s, body), true, nil
}

// bindUncorrelatedCTE binds cte's query seeing no enclosing query; ok is
// false when it cannot be bound so (it reads an enclosing query's row, or
// has an error the inlined binding reports where it belongs).
func (b *binder) bindUncorrelatedCTE(cte *pt.CTE) (Node, bool) {
	saved := b.ctes
	prevOuter, prevCorr, prevAgg := b.outer, b.corr, b.agg
	recursive := b.isRecursive(cte)
	b.ctes = withoutCTE(saved, cte.Name)
	if recursive {
		b.ctes = saved // the recursive union binds its own self-reference
	}
	b.outer, b.corr, b.agg = nil, nil, nil
	defer func() { b.ctes, b.outer, b.corr, b.agg = saved, prevOuter, prevCorr, prevAgg }()
	var (
		n   Node
		err error
	)
	switch {
	case cte.Query == nil:
		return nil, false
	case recursive:
		if _, isSet := cte.Query.(*pt.SetOp); !isSet {
			return nil, false
		}
		n, err = b.bindRecursiveUnion(cte)
	default:
		n, err = b.bindQueryTree(cte.Query)
	}
	if err != nil {
		return nil, false
	}
	if len(cte.Columns) > len(n.Columns()) {
		return nil, false
	}
	return n, true
}

// mayCallVolatile reports whether a query calls a function that could be
// volatile: one PostgreSQL marks so, or one that is not built in (a
// user-defined function, or a form the rewrite spells as a call). It
// spares the binding of a WITH query referenced once just to learn that
// it is to be inlined. Aggregate and window calls are built in.
func (b *binder) mayCallVolatile(q pt.Query) bool {
	found := false
	pt.Inspect(q, func(n pt.Node) bool {
		if f, ok := n.(*pt.FuncCall); ok && f.Over == nil && !aggregateNames[f.Name] {
			found = found || functions.VolatileInPostgres(f.Name) || len(functions.Lookup(f.Name)) == 0
		}
		return !found
	})
	return found
}

// callsVolatile reports whether a plan calls a function PostgreSQL marks
// volatile (a user-defined function is volatile unless declared otherwise:
// sqlgate's are treated as such).
func callsVolatile(n Node) bool {
	found := false
	visitExprs(n, func(e Expr) { found = found || ContainsVolatile(e) }) // addcolumn.go
	return found
}

// bindSetOpLeaf binds a SELECT or VALUES operand of a set operation.
func (b *binder) bindSetOpLeaf(q pt.Query) (Node, error) {
	return b.bindQueryTree(q) // exprbind.go
}
