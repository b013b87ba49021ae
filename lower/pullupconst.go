package lower

import (
	"github.com/sqlgate/sqlgate/binder"
)

// The pulled-up constants of plan-time folding: PostgreSQL pulls a simple
// derived table up into the query above it (prepjointree.c's
// pull_up_simple_subquery) before it folds that query's expressions
// (preprocess_expression), replacing each reference to the derived
// table's output by the output's expression (pullup_replace_vars). So
//
//	SELECT c0::boolean FROM (SELECT 'AB' FROM t WHERE false) s(c0)
//
// folds 'AB'::boolean and fails though no row qualifies, and
//
//	SELECT CASE WHEN c0 = 1 THEN 1 / 0 END FROM (SELECT 2 FROM t) s(c0)
//
// drops the branch whose condition folds to false without computing it.
// Only a constant output changes what folding computes, so the first fold
// (folder.pullUp) puts a derived table's constant outputs in place of the
// references to them above (foldExpr's ColumnRef and OuterRef), where
// PostgreSQL would, and nowhere else:
//
//   - the derived table is simple (is_simple_subquery): its projection is
//     over scans, filters, joins and derived tables, no aggregation,
//     window, ORDER BY, LIMIT, DISTINCT, FOR UPDATE, set operation or
//     set-returning function (simpleInput), and none of its outputs is
//     volatile; a WITH query read once and not MATERIALIZED is such a
//     derived table (the binder inlines it), a CTE scan is not;
//   - the reference is not above an outer join that NULL-extends the
//     derived table (PostgreSQL wraps a constant there in a
//     PlaceHolderVar, which folding does not look into), except in that
//     join's own ON condition, which is below the nulling;
//   - the query level does not group by grouping sets (wrap_non_vars: every
//     pulled-up expression is a PlaceHolderVar there);
//   - a group key that is such a constant is one above its aggregation,
//     and a constant the enclosing query hands a correlated subquery
//     (binder.Subquery's Outer) is one inside it, as pullup_replace_vars
//     replaces the outer references of a sublink too.
//
// A UNION ALL branch's outputs are never constants above the set
// operation (an appendrel member's are PlaceHolderVars).

// pulledUp returns the constants of n's output columns as the node above
// n reads them once PostgreSQL has pulled n's derived tables up (nil
// entries: not a constant; nil: none). wrap says n's query level wraps
// pulled-up expressions (grouping sets).
func pulledUp(n binder.Node, wrap bool) []binder.Expr {
	switch x := n.(type) {
	case *binder.Project:
		if wrap || x.Generated || !simpleInput(x.Input) {
			return nil
		}
		out := constsOf(x.Exprs, x.Input, len(x.Exprs))
		if out != nil {
			for _, e := range x.Exprs {
				if mustCompute(e) {
					return nil // is_simple_subquery: no volatile output
				}
			}
		}
		return out
	case *binder.Filter:
		return pulledUp(x.Input, wrap)
	case *binder.Join:
		var l, r []binder.Expr
		switch x.Type {
		case binder.InnerJoin, binder.CrossJoin:
			l, r = pulledUp(x.Left, wrap), pulledUp(x.Right, wrap)
		case binder.LeftJoin, binder.SemiJoin, binder.AntiJoin:
			l = pulledUp(x.Left, wrap)
		case binder.RightJoin:
			r = pulledUp(x.Right, wrap)
		}
		if x.Type == binder.SemiJoin || x.Type == binder.AntiJoin {
			return l
		}
		return joinConsts(l, r, len(x.Left.Columns()), len(x.Right.Columns()))
	case *binder.Lateral:
		// its right input is folded on its own (rewriteChildren visits
		// the left only): the left's constants alone
		if x.Type == binder.InnerJoin || x.Type == binder.CrossJoin || x.Type == binder.LeftJoin {
			return joinConsts(pulledUp(x.Left, wrap), nil, len(x.Left.Columns()), len(x.Right.Columns()))
		}
	case *binder.Aggregate:
		if x.GroupingSet {
			return nil
		}
		return constsOf(x.GroupBy, x.Input, len(x.Columns()))
	case *binder.Window:
		// the window's own level: its input's columns pass through
		if in := pulledUp(x.Input, wrap); in != nil {
			return append(in[:len(in):len(in)], nil)
		}
	}
	return nil
}

// constsOf is the constants among es, expressions over input, in a list
// of n columns (nil: none): a constant, or a column of input passed
// through whole (an alias list's projection, a group key) that is one
// of input's.
func constsOf(es []binder.Expr, input binder.Node, n int) []binder.Expr {
	var out, in []binder.Expr
	for i, e := range es {
		k, ok := e.(*binder.Const)
		if r, isRef := e.(*binder.ColumnRef); isRef {
			if in == nil {
				if in = pulledUp(input, false); in == nil {
					in = []binder.Expr{}
				}
			}
			if c := pulledConst(in, r.Index, r); c != nil {
				k, ok = c.(*binder.Const), true
			}
		}
		if ok {
			if out == nil {
				out = make([]binder.Expr, n)
			}
			out[i] = k
		}
	}
	return out
}

// joinConsts is the constants of a join's columns, the left input's then
// the right's (nil when neither has one).
func joinConsts(l, r []binder.Expr, nl, nr int) []binder.Expr {
	if l == nil && r == nil {
		return nil
	}
	out := make([]binder.Expr, nl+nr)
	copy(out, l)
	copy(out[nl:], r)
	return out
}

// simpleInput reports whether a projection over in is a query level
// PostgreSQL pulls up (is_simple_subquery): nothing between the level's
// FROM and its select list but WHERE.
func simpleInput(in binder.Node) bool {
	for {
		switch x := in.(type) {
		case *binder.Filter:
			in = x.Input
		case *binder.Aggregate, *binder.Window, *binder.Sort, *binder.Limit, *binder.Distinct,
			*binder.DistinctOn, *binder.SetOp, *binder.RecursiveUnion, *binder.LockRows, *binder.ProjectSet:
			return false
		default:
			return true
		}
	}
}

// inputConsts is the constants of the columns n's own expressions read
// (a join's condition reads both inputs' before the join NULL-extends
// either), for the first fold; nil when there are none.
func (fo *folder) inputConsts(n binder.Node) []binder.Expr {
	if !fo.pullUp {
		return nil
	}
	switch x := n.(type) {
	case *binder.Filter:
		return pulledUp(x.Input, fo.wrap)
	case *binder.Project:
		if x.Generated {
			return nil // the executor's, from the new row
		}
		return pulledUp(x.Input, false)
	case *binder.Aggregate:
		return pulledUp(x.Input, x.GroupingSet)
	case *binder.Join:
		if x.Type == binder.FullJoin {
			// PostgreSQL keeps a FULL JOIN's condition over the outputs
			// of both sides (SELECT * FROM (SELECT 'a' FROM t WHERE
			// false) a(x) FULL JOIN (...) b(y) ON x::int = y fails
			// nothing), where a LEFT or RIGHT JOIN's reads both sides'
			// constants
			return nil
		}
		return joinConsts(pulledUp(x.Left, fo.wrap), pulledUp(x.Right, fo.wrap), len(x.Left.Columns()), len(x.Right.Columns()))
	}
	return nil
}

// pulledConst is the constant that replaces a reference of type t to an
// entry of consts (nil: none): only one of the reference's own type,
// nullability aside.
func pulledConst(consts []binder.Expr, i int, ref binder.Expr) binder.Expr {
	if i < 0 || i >= len(consts) || consts[i] == nil {
		return nil
	}
	k := consts[i].(*binder.Const)
	t := ref.Type()
	if !k.T.Same(&t) {
		return nil
	}
	return &binder.Const{Value: k.Value, T: t}
}

// outerConsts is the constants among a subquery's Outer values (nil: none).
func outerConsts(outer []binder.Expr) []binder.Expr {
	var out []binder.Expr
	for i, e := range outer {
		if k, ok := e.(*binder.Const); ok {
			if out == nil {
				out = make([]binder.Expr, len(outer))
			}
			out[i] = k
		}
	}
	return out
}

// pulledRef is the pulled-up constant a column or outer reference reads
// (fo.cols, fo.outer), else the reference itself.
func (fo *folder) pulledRef(e binder.Expr) binder.Expr {
	var k binder.Expr
	switch r := e.(type) {
	case *binder.ColumnRef:
		k = pulledConst(fo.cols, r.Index, r)
	case *binder.OuterRef:
		k = pulledConst(fo.outer, r.Slot, r)
	}
	if k == nil {
		return e
	}
	return k
}

// pullUpRefs is e with the references foldExpr would replace by pulled-up
// constants replaced, nothing folded: a projection's output whose fold
// failed is left for the rules to drop (deferOutputs) as PostgreSQL would
// have it, the constant in place, so that folding what the rules kept
// computes it.
func (fo *folder) pullUpRefs(e binder.Expr) binder.Expr {
	if fo.cols == nil && fo.outer == nil {
		return e
	}
	var walk func(binder.Expr) (binder.Expr, error)
	walk = func(x binder.Expr) (binder.Expr, error) {
		switch x.(type) {
		case *binder.ColumnRef, *binder.OuterRef:
			return fo.pulledRef(x), nil
		}
		return binder.MapChildren(x, walk)
	}
	out, _ := walk(e)
	return out
}

// nullableSides is j with the derived tables on the sides it NULL-extends
// marked as read through PlaceHolderVars (markPlaceholders); j itself when
// it extends neither.
func nullableSides(j *binder.Join) binder.Node {
	left := j.Type == binder.RightJoin || j.Type == binder.FullJoin
	right := j.Type == binder.LeftJoin || j.Type == binder.FullJoin
	if !left && !right {
		return j
	}
	c := *j
	if left {
		c.Left = markPlaceholders(j.Left)
	}
	if right {
		c.Right = markPlaceholders(j.Right)
	}
	return &c
}

// markPlaceholders marks the projections of n whose constants the node
// above would read as pulled up (pulledUp's walk) as Placeholders:
// pull_up_simple_subquery wraps a derived table's constant outputs in
// PlaceHolderVars when an outer join above NULL-extends it, and they stay
// PlaceHolderVars when a strict WHERE later reduces that join to an inner
// one (reduce_outer_joins runs after the pull-up): a condition over one
// is then computed for each of the derived table's rows, where the
// constant itself would make it a one-time filter computed before any.
func markPlaceholders(n binder.Node) binder.Node {
	switch x := n.(type) {
	case *binder.Project:
		if x.Generated || !simpleInput(x.Input) {
			return n
		}
		c := *x
		c.Placeholders = true
		c.Input = markPlaceholders(x.Input)
		return &c
	case *binder.Filter:
		return rewriteChildren(x, markPlaceholders)
	case *binder.Join:
		c := *x
		switch x.Type {
		case binder.InnerJoin, binder.CrossJoin:
			c.Left, c.Right = markPlaceholders(x.Left), markPlaceholders(x.Right)
		case binder.LeftJoin, binder.SemiJoin, binder.AntiJoin:
			c.Left = markPlaceholders(x.Left)
		case binder.RightJoin:
			c.Right = markPlaceholders(x.Right)
		}
		return &c
	}
	return n
}

// readsPlaceholder reports whether cond, over p's outputs, reads one
// that is a constant p's Placeholders marks as a PlaceHolderVar.
func readsPlaceholder(cond binder.Expr, p *binder.Project) bool {
	if !p.Placeholders {
		return false
	}
	for _, i := range columnsOf(cond) {
		if _, ok := p.Exprs[i].(*binder.Const); ok {
			return true
		}
	}
	return false
}

// foldLateral folds x's right plan as a correlated subquery's
// (foldSubqueryPlans): PostgreSQL pulls a LATERAL subquery up or plans it
// as a query of its own, folding its expressions either way, and
// pullup_replace_vars replaces a lateral reference to a pulled-up
// constant of the left input by the constant, so SELECT * FROM (SELECT
// 'AB' FROM t WHERE false) s(c), LATERAL (SELECT c::boolean) l fails
// while planning. The rules leave the right plan be (rewriteChildren).
func (fo *folder) foldLateral(x *binder.Lateral) (binder.Node, error) {
	right := x.Right
	if fo.pruneSubqueries {
		right = trimSubqueryPlan(right) // as lowerLateral lowers it
	}
	outer, cols, wrap := fo.outer, fo.cols, fo.wrap
	if fo.pullUp {
		fo.outer, fo.wrap = outerConsts(lateralRefs(x, fo.wrap)), false
		right = pushSubqueryQuals(fo.ctx, right) // pushsubquery.go
	}
	right, err := fo.foldPlan(right)
	fo.outer, fo.cols, fo.wrap = outer, cols, wrap
	if err != nil || right == x.Right || fo.pruneSubqueries {
		return x, err
	}
	return binder.NewLateral(x.Left, right, x.Outer, x.Type, x.Cond), nil
}

// lateralRefs is x's Outer values with each reference to a pulled-up
// constant of the left input replaced by the constant.
func lateralRefs(x *binder.Lateral, wrap bool) []binder.Expr {
	left := pulledUp(x.Left, wrap)
	if left == nil {
		return nil
	}
	out := make([]binder.Expr, len(x.Outer))
	for i, o := range x.Outer {
		out[i] = o
		if r, ok := o.(*binder.ColumnRef); ok {
			if k := pulledConst(left, r.Index, r); k != nil {
				out[i] = k
			}
		}
	}
	return out
}
