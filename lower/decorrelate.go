package lower

import (
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// Subquery decorrelation (the subquery_decorrelation rule).
//
// The binder leaves every subquery as an expression; the executor runs a
// correlated one once per distinct outer row (a nested-loop apply). This
// rule turns the forms whose meaning a join expresses exactly into joins,
// so the inner query runs once and meets the outer rows in a hash join:
//
//   - a WHERE conjunct EXISTS (S) / NOT EXISTS (S) becomes a semi / anti
//     join whose condition is S's correlated predicates;
//   - a WHERE conjunct x op ANY (S) (x IN (S)) becomes a semi join on
//     x op y; x op ALL (S) (x NOT IN (S)) an anti join that keeps
//     PostgreSQL's NULL rules (below). An uncorrelated S that PostgreSQL
//     pulls up and whose output is a constant c makes x op c a filter of
//     the outer rows, computed for each whatever S holds, under a semi
//     join without a key (restrictedSemiJoin);
//   - a correlated scalar subquery whose value is an aggregate over rows
//     picked by equalities with the outer row, anywhere in a SELECT list or
//     WHERE clause, becomes a left join with that aggregate grouped by the
//     correlation keys; an outer row without a group gets the aggregate's
//     value over no rows (0 for count, NULL for the others). In an
//     aggregate's argument too: the join is below the Aggregate.
//
// Only WHERE conjuncts become semi and anti joins: there a NULL result
// drops the row just as false does, while in a SELECT list (or under NOT,
// OR, CASE ...) the NULL of x NOT IN (S) is a value and the fallback keeps
// it. A subquery the rule cannot prove equal to a join stays the apply
// fallback; so does one whose join would have no equality key (a nested
// loop over a materialised inner side is no better than the apply, which
// streams), and an uncorrelated EXISTS or scalar subquery, which already
// runs once per execution.
//
// NOT IN. In a WHERE clause x NOT IN (S) keeps an outer row exactly when no
// row of S (those matching the correlated predicates) has x = y true or
// NULL. Uncorrelated, that is the hash join's null-aware anti join (an
// empty S keeps every row, a NULL y keeps none, a NULL x is not kept); a
// correlated S is judged per outer row, which the null-aware join (one
// verdict for the whole build side) cannot do, so the anti join's residual
// carries the rule itself: x = y OR x IS NULL OR y IS NULL, which becomes
// plain x = y when both sides are declared NOT NULL.

// decorrelateRule is the rule's entry: most plans hold no subquery, and
// one walk that finds none leaves them as they are, where decorrelate would
// still visit (and, for projections and aggregates, copy lists of) every
// node.
func decorrelateRule(n binder.Node) binder.Node {
	if !reachesSubquery(n) {
		return n
	}
	return decorrelate(n)
}

// reachesSubquery reports whether an expression decorrelate looks at holds
// a subquery: it follows the nodes decorrelate's rewriteChildren follows
// and reads the Filter, Project and Aggregate expressions it rewrites.
func reachesSubquery(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.Filter:
		return hasSubquery(x.Cond) || reachesSubquery(x.Input)
	case *binder.Project:
		return slices.ContainsFunc(x.Exprs, hasSubquery) || reachesSubquery(x.Input)
	case *binder.Aggregate:
		if slices.ContainsFunc(x.GroupBy, hasSubquery) {
			return true
		}
		for _, a := range x.Aggs {
			if slices.ContainsFunc(a.Args, hasSubquery) || (a.Filter != nil && hasSubquery(a.Filter)) {
				return true
			}
		}
		return reachesSubquery(x.Input)
	case *binder.Sort:
		return reachesSubquery(x.Input)
	case *binder.Limit:
		return reachesSubquery(x.Input)
	case *binder.Distinct:
		return reachesSubquery(x.Input)
	case *binder.DistinctOn:
		return reachesSubquery(x.Input)
	case *binder.Window:
		return reachesSubquery(x.Input)
	case *binder.Join:
		return reachesSubquery(x.Left) || reachesSubquery(x.Right)
	case *binder.SetOp:
		return reachesSubquery(x.Left) || reachesSubquery(x.Right)
	}
	return false
}

// decorrelate rewrites bottom-up: each Filter, Project and Aggregate
// has its subqueries turned into joins where the forms above allow.
func decorrelate(n binder.Node) binder.Node {
	n = rewriteChildren(n, decorrelate)
	switch x := n.(type) {
	case *binder.Filter:
		return decorrelateFilter(x)
	case *binder.Project:
		in := x.Input
		exprs := make([]binder.Expr, len(x.Exprs))
		for i, e := range x.Exprs {
			exprs[i] = replaceScalarAggs(e, &in)
		}
		if in == x.Input {
			return n
		}
		return &binder.Project{Input: in, Exprs: exprs, Cols: x.Cols}
	case *binder.Aggregate: // sum((SELECT count(*) ...)): the arguments read the join
		c := *x
		in := x.Input
		c.GroupBy = make([]binder.Expr, len(x.GroupBy))
		for i, e := range x.GroupBy {
			c.GroupBy[i] = replaceScalarAggs(e, &in)
		}
		c.Aggs = make([]binder.AggCall, len(x.Aggs))
		for i, call := range x.Aggs {
			call.Args = slices.Clone(call.Args)
			for j, e := range call.Args {
				call.Args[j] = replaceScalarAggs(e, &in)
			}
			if call.Filter != nil {
				call.Filter = replaceScalarAggs(call.Filter, &in)
			}
			c.Aggs[i] = call
		}
		if in == x.Input {
			return n
		}
		c.Input = in
		return &c
	}
	return n
}

// decorrelateFilter joins the filter's input with each decorrelated
// subquery of its conjuncts; the other conjuncts stay in a filter above.
func decorrelateFilter(f *binder.Filter) binder.Node {
	in := f.Input
	nl := len(in.Columns())
	var rest []binder.Expr
	reordered := false
	for _, c := range conjuncts(f.Cond) {
		if j := semiJoinFor(in, c); j != nil {
			in = j // a semi or anti join keeps the left side's columns
			continue
		}
		cs := nestLoopExists(c)
		reordered = reordered || len(cs) != 1 || cs[0] != c
		rest = append(rest, cs...)
	}
	for i, c := range rest {
		if raisesBeside(f.Input, c) {
			// the conjunct rejects the NULL of an outer row without a
			// group, so the left join would be reduced to an inner
			// one (filterIntoJoin) that drops the row before its other
			// operands are computed, where PostgreSQL's SubPlan is
			// computed with them for every row: (SELECT max(..) WHERE
			// k = t.a) = t.b % t.c fails on t.c = 0 whatever the
			// subquery returns
			continue
		}
		rest[i] = replaceScalarAggs(c, &in)
	}
	if in == f.Input && !reordered {
		return f
	}
	var out binder.Node = in
	if len(rest) > 0 {
		out = &binder.Filter{Input: in, Cond: and(rest)}
	}
	if len(in.Columns()) != nl { // left joins appended the aggregates: drop them again
		cols := f.Input.Columns()
		p := &binder.Project{Input: out, Cols: cols}
		for i, c := range cols {
			p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: i, Name: c.Name, T: c.T})
		}
		out = p
	}
	return out
}

// semiJoinFor returns the semi or anti join of in with the subquery of WHERE
// conjunct c, or nil when c is not one of the forms that become one.
func semiJoinFor(in binder.Node, c binder.Expr) *binder.Join {
	neg := false
	if u, ok := c.(*binder.UnaryOp); ok && u.Op == binder.OpNot {
		neg, c = true, u.X
	}
	sq, ok := c.(*binder.Subquery)
	if !ok || sq.SubPlan {
		return nil
	}
	nl := len(in.Columns())
	var (
		typ       binder.JoinType
		cond      []binder.Expr
		nullAware bool
	)
	switch sq.Mode {
	case binder.ExistsSubquery:
		if len(sq.Outer) == 0 {
			return nil // runs once per execution already
		}
		body, preds, ok := pull(sq.Plan, pullMode{set: true, exists: true, top: true})
		if !ok {
			return nil
		}
		typ = binder.SemiJoin
		if neg {
			typ = binder.AntiJoin
		}
		cond = joinPredicates(preds, sq.Outer, nl)
		return finishSemiJoin(in, body, typ, cond, false)
	case binder.AnySubquery, binder.AllSubquery:
		all, op := sq.Mode == binder.AllSubquery, sq.Op
		if neg { // NOT (x op ANY S) is x negop ALL S, and the reverse
			all, op = !all, negateCmp[op]
		}
		if _, ok := negateCmp[op]; !ok {
			return nil
		}
		x := sq.X
		if x == nil || !readsColumns(x) && !sq.FoldedX || hasUDF(x) {
			return nil
		}
		if y, ok := constantOutput(sq); ok && !all && !sq.RowWise {
			// x op c is a filter of the outer side, where a subquery
			// of x is a SubPlan of its scan, as PostgreSQL's
			return restrictedSemiJoin(in, sq.Plan, &binder.BinaryOp{Op: op, L: x, R: y, T: types.BoolType})
		}
		if sq.RowWise && op == binder.OpEq && !all {
			// (x1, ..., xn) IN (SELECT c1, ..., cn ...): the quals
			// x1 = c1 ... xn = cn all go to the outer scan alike
			if ys, ok := constantRow(sq); ok && len(ys) == len(binder.RowFields(x)) {
				var cmps []binder.Expr
				for i, xi := range binder.RowFields(x) {
					if strictNull(ys[i]) {
						return restrictedSemiJoin(in, sq.Plan, nullQual())
					}
					cmps = append(cmps, &binder.BinaryOp{Op: binder.OpEq, L: xi, R: ys[i], T: types.BoolType})
				}
				return restrictedSemiJoin(in, sq.Plan, and(cmps))
			}
		}
		if p, ok := sq.Plan.(*binder.Project); ok && !all && !sq.RowWise && len(sq.Outer) == 0 && len(p.Exprs) == 1 && pullableInput(p.Input) {
			if y, ok := constantThrough(p, p.Exprs[0]); ok && strictNull(y) {
				return restrictedSemiJoin(in, sq.Plan, nullQual())
			}
		}
		if hasSubquery(x) {
			return nil
		}
		if sq.RowWise {
			if all || op != binder.OpEq {
				return nil // NOT IN and ALL over rows stay exec's row-wise comparison
			}
			return rowSemiJoin(in, sq)
		}
		if y, ok := constantOutput(sq); ok && !all {
			return restrictedSemiJoin(in, sq.Plan, &binder.BinaryOp{Op: op, L: x, R: y, T: types.BoolType})
		}
		if sq.FoldedX && !readsColumns(x) {
			if all || len(sq.Outer) != 0 {
				return nil
			}
			// x op y reads the subquery's row alone: PostgreSQL's qual
			// goes below the semi join to the subquery's scan, and the
			// join has no clause (a nested loop reading the inner side
			// up to its first row)
			body, preds, ok := pull(sq.Plan, pullMode{set: true, top: true})
			if !ok || len(preds) != 0 {
				return nil
			}
			yc := body.Columns()[0]
			y := &binder.ColumnRef{Index: 0, Name: yc.Name, T: yc.T}
			inner := &binder.Filter{Input: body, Cond: &binder.BinaryOp{Op: op, L: x, R: y, T: types.BoolType}}
			return binder.NewJoin(in, decorrelate(inner), binder.SemiJoin, nil)
		}
		if len(sq.Outer) == 0 && !(op == binder.OpEq && !all) && !(op == binder.OpNe && all && hashedSubPlan(sq)) {
			// only IN and NOT IN have a hash key of their own; an x <> ALL
			// written so (or of types without hashing) PostgreSQL reads
			// only as far as each row's comparisons need (subplanhash.go)
			return nil
		}
		body, preds, ok := pull(sq.Plan, pullMode{set: true, top: true})
		if !ok {
			return nil
		}
		cond = joinPredicates(preds, sq.Outer, nl)
		yc := body.Columns()[0]
		y := &binder.ColumnRef{Index: nl, Name: yc.Name, T: yc.T}
		cmp := func(op binder.Op) binder.Expr {
			return &binder.BinaryOp{Op: op, L: x, R: y, T: types.BoolType}
		}
		switch {
		case !all:
			typ = binder.SemiJoin
			cond = append([]binder.Expr{cmp(op)}, cond...)
		case len(sq.Outer) == 0: // x NOT IN (uncorrelated S)
			if canRaise(x) {
				// the anti join computes x for every row; PostgreSQL's
				// hashed subplan does not when S is empty, so an x that
				// can fail stays a subquery (exec skips x then too)
				return nil
			}
			typ, nullAware = binder.AntiJoin, true
			cond = []binder.Expr{cmp(binder.OpEq)}
		default:
			// keep the outer row when no row of S makes x op y anything but
			// true: an anti join on NOT (x op y) IS NOT FALSE
			typ = binder.AntiJoin
			var fails binder.Expr = cmp(negateCmp[op])
			if !x.Type().NotNull || !outputNotNull(body) {
				fails = or(fails, &binder.IsNull{X: x}, &binder.IsNull{X: y})
			}
			cond = append([]binder.Expr{fails}, cond...)
		}
		return finishSemiJoin(in, body, typ, cond, nullAware)
	}
	return nil
}

// nestLoopExists is WHERE conjunct c, [NOT] EXISTS (S) correlated
// through S's WHERE with no equality to hash on, computed as PostgreSQL
// computes it: it pulls S up into a semi (anti) join
// (convert_EXISTS_sublink_to_join) that only a nested loop runs. S's
// conditions on S's rows alone are at S's scan, computed for every inner
// row read; the ones that read the outer row are the join's filter,
// computed after them, and the inner scan stops at the first row that
// passes it (single_match). A semi join's condition on the outer row
// alone goes below the join to the outer scan, so a row it rejects never
// reads S; an anti join keeps it in its join filter, so for such a row S
// is read to its end. So c becomes the semi join's outer conditions, then
// true = ANY (SELECT f FROM S'), or for the anti join false = ALL
// (SELECT COALESCE(f, false) FROM S'): S' is S without the join filter f,
// which its select list computes after S's own conditions, and the
// subquery stops at the row that decides (exec's ANY and ALL). Any other
// c is returned as it is.
func nestLoopExists(c binder.Expr) []binder.Expr {
	neg := false
	e := c
	if u, ok := e.(*binder.UnaryOp); ok && u.Op == binder.OpNot {
		neg, e = true, u.X
	}
	sq, ok := e.(*binder.Subquery)
	if !ok || sq.SubPlan || sq.Mode != binder.ExistsSubquery || len(sq.Outer) == 0 {
		return []binder.Expr{c}
	}
	body, preds, ok := pull(sq.Plan, pullMode{set: true, exists: true, top: true})
	if !ok || len(preds) == 0 {
		return []binder.Expr{c} // not correlated through its WHERE: a SubPlan
	}
	if slices.ContainsFunc(preds, mustCompute) || !planDeterministic(body) {
		return []binder.Expr{c} // a volatile WHERE is not pulled up
	}
	var outerOnly, join []binder.Expr
	for _, p := range preds {
		if !neg && !readsColumns(p) {
			outerOnly = append(outerOnly, p)
			continue
		}
		join = append(join, p)
	}
	if len(join) == 0 {
		// a semi join over outer conditions alone: the subquery's
		// one-time filter reads S for none of the rows they reject
		return []binder.Expr{c}
	}
	f := and(join)
	if neg {
		f = &binder.Coalesce{Args: []binder.Expr{f, &binder.Const{Value: false, T: types.BoolType}}, T: types.BoolType}
	}
	r := *sq
	r.Plan = &binder.Project{Input: body, Exprs: []binder.Expr{f}, Cols: []binder.Column{{Name: "?column?", T: types.BoolType}}}
	r.Mode, r.Op, r.X = binder.AnySubquery, binder.OpEq, &binder.Const{Value: !neg, T: types.BoolType}
	if neg {
		r.Mode = binder.AllSubquery
	}
	var out []binder.Expr
	for _, p := range outerOnly {
		out = append(out, replaceOuterRefs(p, sq.Outer))
	}
	return append(out, &r)
}

// replaceOuterRefs is e, which reads no column of its subquery, with each
// OuterRef slot replaced by the outer expression it stands for.
func replaceOuterRefs(e binder.Expr, outer []binder.Expr) binder.Expr {
	if o, ok := e.(*binder.OuterRef); ok {
		return outer[o.Slot]
	}
	out, _ := binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) { return replaceOuterRefs(c, outer), nil })
	return out
}

// planDeterministic reports whether a pulled subquery body's filters call
// nothing volatile (PostgreSQL pulls no EXISTS whose WHERE does).
func planDeterministic(n binder.Node) bool {
	if f, ok := n.(*binder.Filter); ok && mustCompute(f.Cond) {
		return false
	}
	for _, c := range n.Children() {
		if !planDeterministic(c) {
			return false
		}
	}
	return true
}

// constantOutput is the output expression of the uncorrelated subquery
// of x op ANY (S) when PostgreSQL pulls S up into a semi join
// (convert_ANY_sublink_to_join, then pull_up_subqueries: S is a plain
// SELECT of scans, filters and joins, is_simple_subquery) and that
// expression reads no column of S: a constant, which replaces S's column
// in x op y.
func constantOutput(sq *binder.Subquery) (binder.Expr, bool) {
	p, ok := sq.Plan.(*binder.Project)
	if len(sq.Outer) > 0 || !ok || len(p.Exprs) != 1 || !pullableInput(p.Input) {
		return nil, false
	}
	y, ok := constantThrough(p, p.Exprs[0])
	return y, ok && !strictNull(y)
}

// constantRow is constantOutput for (x1, ..., xn) IN (SELECT y1, ...,
// yn ...): the n constants, where every yi is one (strictNull ones
// among them).
func constantRow(sq *binder.Subquery) ([]binder.Expr, bool) {
	p, ok := sq.Plan.(*binder.Project)
	if len(sq.Outer) > 0 || !ok || len(p.Exprs) != 1 || !pullableInput(p.Input) {
		return nil, false
	}
	ys := binder.RowFields(p.Exprs[0])
	if ys == nil {
		return nil, false
	}
	out := make([]binder.Expr, len(ys))
	for i, y := range ys {
		if out[i], ok = constantThrough(p, y); !ok {
			return nil, false
		}
	}
	return out, true
}

// constantThrough is output expression y of projection p when it reads no
// column of the plan below, through the projections the binder stacks.
func constantThrough(p *binder.Project, y binder.Expr) (binder.Expr, bool) {
	for {
		// through the projections the binder stacks (a cast of the
		// SELECT list's column to x's type)
		if mustCompute(y) {
			return nil, false
		}
		in, ok := p.Input.(*binder.Project)
		if !ok || !readsColumns(y) {
			break
		}
		y, p = substitute(y, in.Exprs), in
	}
	if readsColumns(y) || hasOuterRef(y) || hasSubquery(y) || hasUDF(y) || !deterministic(y) {
		return nil, false
	}
	return y, true
}

// strictNull reports whether e is NULL through strict operators and
// casts alone (NULL, -7 * NULL::smallint): PostgreSQL's
// eval_const_expressions folds x op e to a NULL constant there, so the
// pulled-up comparison never computes x; the semi join keeps S's column.
func strictNull(e binder.Expr) bool {
	switch y := e.(type) {
	case *binder.Const:
		return y.Value == nil
	case *binder.Cast:
		return strictNull(y.X)
	case *binder.UnaryOp:
		return y.Op == binder.OpNeg && strictNull(y.X)
	case *binder.BinaryOp:
		return (y.Op.IsArithmetic() || y.Op.IsComparison()) && (strictNull(y.L) || strictNull(y.R))
	}
	return false
}

// nullQual is x op c where c is NULL through strict operators
// (strictNull): PostgreSQL's eval_const_expressions folds it to a NULL
// constant, a one-time filter of the outer relation that is never true,
// so neither x, the outer rows nor S are computed.
func nullQual() binder.Expr { return &binder.Const{Value: nil, T: types.BoolType} }

// restrictedSemiJoin is x op ANY (S) where S's output is the constant of
// cmp (constantOutput): the comparison then reads the outer row alone, and
// PostgreSQL makes it a restriction of the outer relation, computed for
// every one of its rows whatever S holds (an error there is the
// statement's even when S is empty), under a semi join without a
// condition (a nested loop that reads every outer row) that keeps a row
// when S has any.
func restrictedSemiJoin(in, body binder.Node, cmp binder.Expr) *binder.Join {
	return binder.NewJoin(&binder.Filter{Input: in, Cond: cmp}, decorrelate(body), binder.SemiJoin, nil)
}

// rowSemiJoin decorrelates (x1, ..., xn) IN (SELECT y1, ..., yn ...)
// where its falsity and NULL are alike (a WHERE condition's conjunct): a
// semi join on x1 = y1 AND ... AND xn = yn, which holds exactly when the
// row-wise = is true.
func rowSemiJoin(in binder.Node, sq *binder.Subquery) *binder.Join {
	xs := binder.RowFields(sq.X)
	p, ok := sq.Plan.(*binder.Project)
	if xs == nil || !ok || len(p.Exprs) != 1 {
		return nil
	}
	ys := binder.RowFields(p.Exprs[0])
	if len(ys) != len(xs) || slices.ContainsFunc(ys, hasOuterRef) || slices.ContainsFunc(ys, hasSubquery) {
		return nil
	}
	body, preds, ok := pull(p.Input, pullMode{set: true, top: true})
	if !ok {
		return nil
	}
	nl := len(in.Columns())
	var cond []binder.Expr
	for i := range xs {
		cond = append(cond, &binder.BinaryOp{Op: binder.OpEq, L: xs[i], R: shiftColumns(ys[i], nl), T: types.BoolType})
	}
	cond = append(cond, joinPredicates(preds, sq.Outer, nl)...)
	return finishSemiJoin(in, body, binder.SemiJoin, cond, false)
}

// finishSemiJoin builds the join when its condition has an equality key
// (see the package comment on why there must be one), decorrelating the
// subquery body's own subqueries too.
func finishSemiJoin(in, body binder.Node, typ binder.JoinType, cond []binder.Expr, nullAware bool) *binder.Join {
	if len(cond) == 0 || !hasEquiKey(cond, len(in.Columns())) {
		return nil
	}
	j := binder.NewJoin(in, decorrelate(body), typ, and(cond))
	j.NullAware = nullAware
	return j
}

// outputNotNull reports whether a plan's first column is declared NOT NULL
// (a SELECT list's columns are typed nullable, so its expression is asked).
func outputNotNull(n binder.Node) bool {
	if p, ok := n.(*binder.Project); ok && len(p.Exprs) > 0 {
		return p.Exprs[0].Type().NotNull
	}
	return n.Columns()[0].T.NotNull
}

func hasEquiKey(cond []binder.Expr, nl int) bool {
	for _, c := range cond {
		if _, _, ok := equiKey(c, nl); ok {
			return true
		}
	}
	return false
}

var negateCmp = map[binder.Op]binder.Op{
	binder.OpEq: binder.OpNe, binder.OpNe: binder.OpEq,
	binder.OpLt: binder.OpGe, binder.OpGe: binder.OpLt,
	binder.OpGt: binder.OpLe, binder.OpLe: binder.OpGt,
}

// replaceScalarAggs replaces each correlated scalar aggregate subquery of e
// that decorrelates by an expression over *in, which it extends with a left
// join to the grouped aggregate.
func replaceScalarAggs(e binder.Expr, in *binder.Node) binder.Expr {
	if sq, ok := e.(*binder.Subquery); ok && sq.Mode == binder.ScalarSubquery {
		if r, next, ok := scalarAggJoin(sq, *in); ok {
			*in = next
			return r
		}
		return e
	}
	out, _ := binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) { return replaceScalarAggs(c, in), nil })
	return out
}

// raisesBeside reports whether computing e over n's columns can fail
// outside its scalar subqueries (keyCanRaise over e with each replaced by
// a NULL).
func raisesBeside(n binder.Node, e binder.Expr) bool {
	var strip func(binder.Expr) (binder.Expr, error)
	strip = func(x binder.Expr) (binder.Expr, error) {
		if sq, ok := x.(*binder.Subquery); ok && sq.Mode == binder.ScalarSubquery {
			return nullOf(sq.Type()), nil
		}
		return binder.MapChildren(x, strip)
	}
	out, _ := strip(e)
	return keyCanRaise(n, out)
}

// emptyAggNull are the aggregates whose value over no rows is NULL (count's
// is 0; an aggregate in neither list keeps the fallback).
var emptyAggNull = map[string]bool{
	"sum": true, "avg": true, "min": true, "max": true, "bool_and": true, "bool_or": true, "every": true,
	"string_agg": true, "array_agg": true, "stddev": true, "stddev_samp": true, "stddev_pop": true,
	"variance": true, "var_samp": true, "var_pop": true, "corr": true, "covar_pop": true, "covar_samp": true,
	"regr_avgx": true, "regr_avgy": true, "regr_intercept": true, "regr_r2": true, "regr_slope": true,
	"regr_sxx": true, "regr_sxy": true, "regr_syy": true, "bit_and": true, "bit_or": true, "bit_xor": true,
}

// scalarAggJoin decorrelates (SELECT f(agg...) FROM ... WHERE inner = outer
// AND ...): the aggregate without GROUP BY is grouped by the inner sides of
// the correlated equalities and left-joined to in on the outer sides. It
// returns the subquery's value as an expression over the join's columns.
func scalarAggJoin(sq *binder.Subquery, in binder.Node) (binder.Expr, binder.Node, bool) {
	if len(sq.Outer) == 0 {
		return nil, nil, false
	}
	var (
		agg  *binder.Aggregate
		expr binder.Expr // the subquery's value over agg's columns
	)
	switch p := sq.Plan.(type) {
	case *binder.Project:
		a, ok := p.Input.(*binder.Aggregate)
		if !ok || len(p.Exprs) != 1 {
			return nil, nil, false
		}
		agg, expr = a, p.Exprs[0]
	case *binder.Aggregate:
		if len(p.Aggs) != 1 {
			return nil, nil, false
		}
		agg, expr = p, &binder.ColumnRef{Index: 0, Name: p.Columns()[0].Name, T: p.Columns()[0].T}
	default:
		return nil, nil, false
	}
	if len(agg.GroupBy) > 0 || hasSubquery(expr) || hasUDF(expr) {
		return nil, nil, false
	}
	for _, call := range agg.Aggs {
		if call.Func != "count" && !emptyAggNull[call.Func] {
			return nil, nil, false
		}
		es := append([]binder.Expr{}, call.Args...)
		if call.Filter != nil {
			es = append(es, call.Filter)
		}
		for _, k := range call.OrderBy {
			es = append(es, k.Expr)
		}
		for _, e := range es {
			if hasOuterRef(e) {
				return nil, nil, false
			}
		}
	}
	body, preds, ok := pull(agg.Input, pullMode{})
	if !ok || len(preds) == 0 {
		return nil, nil, false
	}
	// every correlated predicate must be inner = outer, to group by
	var innerKeys, outerKeys []binder.Expr
	for _, p := range preds {
		b, ok := p.(*binder.BinaryOp)
		if !ok || b.Op != binder.OpEq {
			return nil, nil, false
		}
		l, r := b.L, b.R
		if hasOuterRef(l) {
			l, r = r, l
		}
		if !readsColumns(l) || hasOuterRef(l) || readsColumns(r) || !hasOuterRef(r) {
			return nil, nil, false
		}
		innerKeys, outerKeys = append(innerKeys, l), append(outerKeys, r)
	}
	nl := len(in.Columns())
	for _, o := range joinPredicates(outerKeys, sq.Outer, 0) {
		if slices.ContainsFunc(columnsOf(o), func(c int) bool { return columnCanRaise(in, c) }) {
			// a derived table's expression that can fail: PostgreSQL
			// pulls it up into the SubPlan, which computes it per row
			// of its scan past the quals before it, never over an empty
			// table, where the left join would compute it for every
			// outer row (an outer key written in the subquery is
			// computed per outer row as before: decorrelating it is
			// sqlgate's choice)
			return nil, nil, false
		}
	}
	body, innerKeys, aggs := narrow(decorrelate(body), innerKeys, agg.Aggs)
	grouped := binder.NewAggregate(body, innerKeys, aggs)
	k := len(innerKeys)
	var cond []binder.Expr
	for i, o := range joinPredicates(outerKeys, sq.Outer, nl) {
		kc := grouped.Columns()[i]
		cond = append(cond, &binder.BinaryOp{Op: binder.OpEq, L: o, R: &binder.ColumnRef{Index: nl + i, Name: kc.Name, T: kc.T.Nullable()}, T: types.BoolType})
	}
	j := binder.NewJoin(in, grouped, binder.LeftJoin, and(cond))
	var value func(e binder.Expr) binder.Expr
	value = func(e binder.Expr) binder.Expr {
		switch x := e.(type) {
		case *binder.ColumnRef:
			call := agg.Aggs[x.Index]
			var ref binder.Expr = &binder.ColumnRef{Index: nl + k + x.Index, Name: x.Name, T: call.T.Nullable()}
			if call.Func == "count" { // no group: count over no rows
				ref = &binder.Coalesce{Args: []binder.Expr{ref, &binder.Const{Value: int64(0), T: types.Int64Type}}, T: call.T}
			}
			return ref
		case *binder.OuterRef:
			return sq.Outer[x.Slot]
		}
		out, _ := binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) { return value(c), nil })
		return out
	}
	return value(expr), j, true
}

// keyCanRaise reports whether computing e over n's columns can fail,
// looking through the projections that define them (a derived table's
// expression, which PostgreSQL pulls up into the SubPlan): canRaise, but
// a widening integer cast (PostgreSQL's cross-type operators) cannot.
func keyCanRaise(n binder.Node, e binder.Expr) bool {
	raises := anyExpr(e, func(x binder.Expr) bool {
		if c, ok := x.(*binder.Cast); ok {
			from, to := c.X.Type(), c.T
			return !(from.IsInteger() && to.IsInteger() && to.Kind >= from.Kind || from.Kind == to.Kind)
		}
		switch y := x.(type) {
		case *binder.BinaryOp:
			return y.Op.IsArithmetic() || y.Op == binder.OpConcat
		case *binder.UnaryOp:
			return y.Op == binder.OpNeg
		case *binder.FuncCall, *binder.UDFCall, *binder.Subquery:
			return true
		}
		return false
	})
	if raises {
		return true
	}
	for _, c := range columnsOf(e) {
		if columnCanRaise(n, c) {
			return true
		}
	}
	return false
}

// columnCanRaise reports whether n's column i is an expression that can
// fail (keyCanRaise) of a projection below, through filters, sorts and
// joins.
func columnCanRaise(n binder.Node, i int) bool {
	switch x := n.(type) {
	case *binder.Project:
		return keyCanRaise(x.Input, x.Exprs[i])
	case *binder.Filter:
		return columnCanRaise(x.Input, i)
	case *binder.Sort:
		return columnCanRaise(x.Input, i)
	case *binder.Limit:
		return columnCanRaise(x.Input, i)
	case *binder.Join:
		if nl := len(x.Left.Columns()); i >= nl {
			return columnCanRaise(x.Right, i-nl)
		}
		return columnCanRaise(x.Left, i)
	}
	return false
}

// narrow puts a projection of only the columns the grouped aggregate reads
// over its input, so that the scan below decodes only those (the
// projection_pushdown rule sees a projection above the scan).
func narrow(body binder.Node, keys []binder.Expr, aggs []binder.AggCall) (binder.Node, []binder.Expr, []binder.AggCall) {
	cols := body.Columns()
	p := &binder.Project{Input: body}
	remap := map[int]int{}
	use := func(e binder.Expr) binder.Expr {
		binder.Walk(e, func(x binder.Expr) {
			if c, ok := x.(*binder.ColumnRef); ok {
				if _, seen := remap[c.Index]; !seen {
					remap[c.Index] = len(p.Exprs)
					p.Exprs = append(p.Exprs, &binder.ColumnRef{Index: c.Index, Name: cols[c.Index].Name, T: cols[c.Index].T})
					p.Cols = append(p.Cols, cols[c.Index])
				}
			}
		})
		return remapColumns(e, remap)
	}
	outKeys := make([]binder.Expr, len(keys))
	for i, k := range keys {
		outKeys[i] = use(k)
	}
	outAggs := make([]binder.AggCall, len(aggs))
	for i, a := range aggs {
		c := a
		c.Args = nil
		for _, e := range a.Args {
			c.Args = append(c.Args, use(e))
		}
		if a.Filter != nil {
			c.Filter = use(a.Filter)
		}
		c.OrderBy = nil
		for _, k := range a.OrderBy {
			k.Expr = use(k.Expr)
			c.OrderBy = append(c.OrderBy, k)
		}
		outAggs[i] = c
	}
	return p, outKeys, outAggs
}

// pullMode says what of a subquery's result matters where it is used.
type pullMode struct {
	// set: only which rows exist, not how often (EXISTS, IN, ALL), so a
	// DISTINCT can go.
	set bool
	// exists: not even the columns (EXISTS), so a LIMIT of at least one row
	// can go and the SELECT list is not computed (as PostgreSQL, which
	// never evaluates an EXISTS subquery's target list).
	exists bool
	// top: n is the subquery's own SELECT, not a derived table under it.
	top bool
}

// below is m for an input of a node that uses its input's columns.
func (m pullMode) below() pullMode {
	m.top = false
	return m
}

// pull removes the correlated conjuncts from a subquery plan: it returns the
// plan without them, now uncorrelated, and the conjuncts, over the returned
// plan's columns (the original ones first, then any appended for the
// conjuncts) and the subquery's OuterRef slots. It fails (ok false) where a
// correlated expression is not a filter conjunct that it can move, or it
// would have to move one through a node that does not commute with it.
func pull(n binder.Node, m pullMode) (binder.Node, []binder.Expr, bool) {
	if !nodeCorrelated(n) {
		return n, nil, true
	}
	switch x := n.(type) {
	case *binder.Filter:
		in, preds, ok := pull(x.Input, m.below())
		if !ok {
			return nil, nil, false
		}
		var keep []binder.Expr
		for _, c := range conjuncts(x.Cond) {
			if !hasOuterRef(c) {
				keep = append(keep, c)
				continue
			}
			if hasSubquery(c) || hasUDF(c) {
				return nil, nil, false
			}
			preds = append(preds, c)
		}
		if len(keep) == 0 {
			return in, preds, true
		}
		return &binder.Filter{Input: in, Cond: and(keep)}, preds, true
	case *binder.Project:
		drop := m.exists && m.top
		for _, e := range x.Exprs {
			if hasOuterRef(e) && !drop {
				return nil, nil, false
			}
		}
		in, preds, ok := pull(x.Input, m.below())
		if !ok {
			return nil, nil, false
		}
		out := &binder.Project{Input: in}
		if drop { // EXISTS ignores the SELECT list
			out.Exprs = []binder.Expr{&binder.Const{Value: int64(1), T: types.Int64Type}}
			out.Cols = []binder.Column{{Name: "?column?", T: types.Int64Type}}
		} else {
			out.Exprs = append(out.Exprs, x.Exprs...)
			out.Cols = append(out.Cols, x.Cols...)
		}
		inCols := in.Columns()
		remap := map[int]int{}
		for _, p := range preds {
			binder.Walk(p, func(e binder.Expr) {
				c, ok := e.(*binder.ColumnRef)
				if !ok {
					return
				}
				if _, seen := remap[c.Index]; !seen {
					remap[c.Index] = len(out.Exprs)
					out.Exprs = append(out.Exprs, &binder.ColumnRef{Index: c.Index, Name: inCols[c.Index].Name, T: inCols[c.Index].T})
					out.Cols = append(out.Cols, inCols[c.Index])
				}
			})
		}
		for i, p := range preds {
			preds[i] = remapColumns(p, remap)
		}
		return out, preds, true
	case *binder.Sort: // where pull is used the order of rows never matters
		return pull(x.Input, m)
	case *binder.Distinct:
		if m.set {
			return pull(x.Input, m)
		}
	case *binder.Limit:
		if c, ok := constInt(x.Count); m.exists && x.Count != nil && ok && c >= 1 {
			if off, ok := constInt(x.Offset); ok && off == 0 {
				return pull(x.Input, m)
			}
		}
	}
	return nil, nil, false
}

// joinPredicates rewrites pulled predicates to the join's columns: the
// subquery's column i becomes nl+i, and an OuterRef slot the outer value it
// stands for (an expression over the join's left side).
func joinPredicates(preds []binder.Expr, outer []binder.Expr, nl int) []binder.Expr {
	var sub func(e binder.Expr) binder.Expr
	sub = func(e binder.Expr) binder.Expr {
		switch x := e.(type) {
		case *binder.ColumnRef:
			c := *x
			c.Index += nl
			return &c
		case *binder.OuterRef:
			return outer[x.Slot]
		}
		out, _ := binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) { return sub(c), nil })
		return out
	}
	out := make([]binder.Expr, len(preds))
	for i, p := range preds {
		out[i] = sub(p)
	}
	return out
}

func hasOuterRef(e binder.Expr) bool {
	found := false
	binder.Walk(e, func(x binder.Expr) {
		if _, ok := x.(*binder.OuterRef); ok {
			found = true
		}
	})
	return found
}

func hasSubquery(e binder.Expr) bool {
	return anyExpr(e, func(x binder.Expr) bool {
		_, ok := x.(*binder.Subquery)
		return ok
	})
}

func readsColumns(e binder.Expr) bool {
	found := false
	binder.Walk(e, func(x binder.Expr) {
		if _, ok := x.(*binder.ColumnRef); ok {
			found = true
		}
	})
	return found
}

// nodeCorrelated reports whether a plan reads an OuterRef of its subquery
// anywhere (a node kind it does not know counts as correlated).
func nodeCorrelated(n binder.Node) bool {
	var es []binder.Expr
	switch x := n.(type) {
	case *binder.Scan, *binder.Distinct, *binder.DistinctOn, *binder.SetOp:
	case *binder.Filter:
		es = []binder.Expr{x.Cond}
	case *binder.Project:
		es = x.Exprs
	case *binder.Sort:
		for _, k := range x.Keys {
			es = append(es, k.Expr)
		}
	case *binder.Limit:
		for _, e := range []binder.Expr{x.Count, x.Offset} {
			if e != nil {
				es = append(es, e)
			}
		}
	case *binder.Join:
		if x.Cond != nil {
			es = []binder.Expr{x.Cond}
		}
	case *binder.Values:
		for _, r := range x.Rows {
			es = append(es, r...)
		}
	case *binder.Aggregate:
		es = append(es, x.GroupBy...)
		for _, c := range x.Aggs {
			es = append(es, c.Args...)
			if c.Filter != nil {
				es = append(es, c.Filter)
			}
			for _, k := range c.OrderBy {
				es = append(es, k.Expr)
			}
		}
	case *binder.Window:
		es = append(append(es, x.Call.Args...), x.Call.Partition...)
		for _, k := range x.Call.Order {
			es = append(es, k.Expr)
		}
	default:
		return true
	}
	for _, e := range es {
		if hasOuterRef(e) {
			return true
		}
	}
	for _, c := range n.Children() {
		if nodeCorrelated(c) {
			return true
		}
	}
	return false
}

func or(es ...binder.Expr) binder.Expr {
	out := es[0]
	for _, e := range es[1:] {
		out = &binder.BinaryOp{Op: binder.OpOr, L: out, R: e, T: types.BoolType}
	}
	return out
}
