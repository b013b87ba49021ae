package binder

import (
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Aggregates of an enclosing query's level (PostgreSQL's agglevelsup,
// parse_agg.c's check_agg_arguments). An aggregate belongs to the query
// of the lowest level its arguments' columns come from: in
//
//	SELECT (SELECT sum(t.a) FROM u LIMIT 1) FROM t
//
// sum(t.a) reads only t's columns, so it aggregates t's rows (t's query
// groups, into one row), and the subquery reads its result as an outer
// value. An aggregate without columns (count(*), sum(1)) is its own
// query's. The aggregate is bound in the enclosing query's aggregate
// binder and passed down to the subquery as an outer reference, one
// correlation slot per level in between (corrState.passDown). Where that
// query cannot aggregate (its WHERE, JOIN ON, GROUP BY, LIMIT) it is
// 42803 "aggregate functions are not allowed in <clause>". A query that
// did not know it aggregates (no aggregate of its own) is bound again
// aggregating (queryLevel.needAgg).

// queryLevel is what an aggregate of a lower query needs of a SELECT
// being bound: its aggregate binder (nil until its select list is bound,
// or when it does not aggregate), the clause being bound when that one
// cannot hold an aggregate, and its FROM scope for the level of a name.
type queryLevel struct {
	agg *aggState
	// place is the clause being bound where aggregates are refused
	// ("WHERE", "JOIN conditions", "GROUP BY", "LIMIT", "OFFSET"); ""
	// where they are allowed.
	place string
	// scope is the query's FROM scope (nil until its FROM is bound).
	scope *scope
	// needAgg is set when an aggregate of this level was met while the
	// query was not aggregating; forceAgg binds it again aggregating.
	needAgg, forceAgg bool
}

// refuseAggregates sets the place of the query being bound to place
// (aggregates of its level refused there) and returns the restore.
func (b *binder) refuseAggregates(place string) (restore func()) {
	lvl := b.level
	if lvl == nil {
		// a statement's own WHERE (UPDATE, DELETE): a level of its own
		b.level = &queryLevel{place: place}
		return func() { b.level = nil }
	}
	prev := lvl.place
	lvl.place = place
	return func() { lvl.place = prev }
}

// nameLevel is the query level a column name resolves at: 0 for the
// query being bound (or a name resolved nowhere, whose error its binding
// gives), k for the k-th enclosing query.
func (b *binder) nameLevel(table, name string) int {
	if b.level == nil || b.level.scope == nil || b.level.scope.has(table, name) {
		return 0
	}
	k := 1
	for c := b.corr; c != nil; c = c.parent {
		if c.outer != nil && c.outer.has(table, name) {
			return k
		}
		k++
	}
	return 0
}

// aggLevel is the level of an aggregate call with these arguments,
// FILTER and ORDER BY: the lowest level of their column names, outside
// subqueries and nested aggregate calls (PostgreSQL's min_varlevel), 0
// when they name none. nested is the first aggregate call among them.
func (b *binder) aggLevel(args []pt.Expr, filter pt.Expr, order []pt.OrderItem) (level int, nested pt.Expr) {
	if b.level == nil || b.level.scope == nil || b.corr == nil {
		return 0, nil
	}
	level = -1
	visit := func(n pt.Expr) bool {
		switch x := n.(type) {
		case *pt.Subquery, *pt.Exists, *pt.ArraySubquery:
			return false
		case *pt.FuncCall:
			if x.Over == nil && (x.Aggregate || aggregateNames[x.Name]) {
				if nested == nil {
					nested = x
				}
				return false
			}
		case *pt.ColumnRef:
			if l := b.nameLevel(x.Table, x.Name); level < 0 || l < level {
				level = l
			}
		}
		return true
	}
	for _, a := range args {
		pt.Walk(a, visit)
	}
	if filter != nil {
		pt.Walk(filter, visit)
	}
	for _, o := range order {
		pt.Walk(o.X, visit)
	}
	return max(level, 0), nested
}

// ownAggregate reports whether c, an aggregate call (or GROUPING) of the
// query being bound as written, is that query's: not an aggregate of an
// enclosing query's level.
func (b *binder) ownAggregate(c *pt.FuncCall) bool {
	if c.Name == "grouping" && !c.Aggregate {
		return true
	}
	level, _ := b.aggLevel(c.Args, c.Filter, c.OrderBy)
	return level == 0
}

// bindOuterAggregate binds an aggregate call of the query level levels
// above the one being bound (bind binds it there, in that query's
// aggregate binder) and returns the outer reference that reads its
// result in the query being bound. nested, an aggregate call of a lower
// level in its arguments, is an error at that call.
func (b *binder) bindOuterAggregate(node sourceNode, levels int, nested pt.Expr, bind func() (Expr, error)) (Expr, error) {
	chain := make([]*corrState, 0, levels)
	c := b.corr
	for range levels {
		chain = append(chain, c)
		if c.parent == nil {
			break
		}
		c = c.parent
	}
	c = chain[len(chain)-1]
	lvl := c.level
	switch {
	case nested != nil:
		return nil, b.errAt(nested, sqlerr.New(sqlerr.GroupingError, "aggregate function calls cannot be nested"))
	case lvl == nil:
		return nil, b.errAt(node, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed here"))
	case lvl.place != "":
		return nil, b.errAt(node, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %s", lvl.place))
	case lvl.agg == nil:
		// that query did not know it aggregates: it binds again, aggregating
		lvl.needAgg = true
		return nil, b.errAt(node, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed here"))
	}
	prevAgg, prevCorr, prevOuter, prevLevel, prevWin, prevSrf := b.agg, b.corr, b.outer, b.level, b.win, b.srf
	b.agg, b.corr, b.outer, b.level, b.win, b.srf = lvl.agg, c.parent, c.outer.parent, lvl, nil, nil
	e, err := bind()
	b.agg, b.corr, b.outer, b.level, b.win, b.srf = prevAgg, prevCorr, prevOuter, prevLevel, prevWin, prevSrf
	if err != nil {
		return nil, err
	}
	o := c.aggSlot(e)
	for i := len(chain) - 2; i >= 0; i-- {
		o = chain[i].passDown(o)
	}
	return o, nil
}

// refusedOuterAggregate is the error the first aggregate of an enclosing
// query's level in targets (outside subqueries) gives when that query's
// clause being bound refuses aggregates, else nil. PostgreSQL reads a
// query's select list before its WHERE, so such an error comes before
// one of the WHERE (clauseorder.go).
func (b *binder) refusedOuterAggregate(targets []*pt.Target) error {
	var first error
	for _, t := range targets {
		if _, star := t.X.(*pt.Star); star || t.X == nil || first != nil {
			continue
		}
		pt.Walk(t.X, func(n pt.Expr) bool {
			if first != nil {
				return false
			}
			switch x := n.(type) {
			case *pt.Subquery, *pt.Exists, *pt.ArraySubquery:
				return false
			case *pt.FuncCall:
				if x.Over != nil || !(x.Aggregate || aggregateNames[x.Name]) {
					return true
				}
				level, _ := b.aggLevel(x.Args, x.Filter, x.OrderBy)
				c := b.corr
				for i := 1; i < level && c != nil; i++ {
					c = c.parent
				}
				if level > 0 && c != nil && c.level != nil && c.level.place != "" {
					first = b.errAt(x, sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %s", c.level.place))
				}
				return false
			}
			return true
		})
	}
	return first
}
