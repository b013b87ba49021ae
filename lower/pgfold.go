package lower

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/pgcatalog"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/numeric"
)

// The plan_time_folding rule: PostgreSQL's planner simplifies every
// expression of a query (eval_const_expressions) before anything runs, and
// what it computes there is observable through errors: SELECT 1/0 FROM t
// fails even when t is empty or WHERE false removes every row, while
// CASE WHEN false THEN 1/0 END, COALESCE(1, 1/0), false AND 1/0 = 1 and
// (x / NULL::int) never compute 1/0 or x at all. foldPlan applies the same
// walk to every expression of the plan, its subqueries' plans included,
// before the other rules move or drop anything:
//
//   - an immutable operator, cast or function whose operands are constants
//     is computed; a data exception (class 22) it raises is the
//     statement's error, as PostgreSQL's is raised at planning;
//   - a strict one with a NULL constant operand is NULL, its other
//     operands not computed;
//   - AND and OR stop at the first constant false (true) operand, the
//     operands after it not computed; CASE drops the branches whose
//     condition is constant false or NULL, without computing their
//     results, and those after a constant true condition; COALESCE drops
//     NULL constants and the arguments after a non-NULL constant;
//   - a WHERE, ON or HAVING condition one of whose conjuncts is constant
//     false or NULL keeps no row, and none of its other conjuncts is
//     computed (PostgreSQL makes it a gating one-time filter).
//
// Stable operations (PostgreSQL's date/time input and output, anything
// with a time zone, text concatenation of non-text) are left alone, as
// PostgreSQL leaves them to execution.
//
// The fold runs in the session (folder): an immutable operation whose
// result reads a setting (a float's text follows extra_float_digits, and
// PostgreSQL marks float8out immutable) is computed under the setting in
// force when the statement is planned, as PostgreSQL's planner computes
// it; the engine plans a prepared statement again when those settings
// change (engine/prepare.go, foldSettings).

// folder folds a plan's expressions in a session: ctx holds the
// functions' session (functions.WithSession) whose settings a computed
// constant reads, and bounds nothing else. A nil ctx is PostgreSQL's
// defaults (no session).
type folder struct {
	ctx context.Context
	loc *time.Location
	st  types.Style
	// expr, top and subqueries are foldExpr, foldTop and
	// foldSubqueryPlans as func values, made once: a method value
	// allocates each time it is taken, and the walk takes them per node.
	expr, top, subqueries func(binder.Expr) (binder.Expr, error)
	// deferOutputs says a projection's output that fails to fold is left
	// unfolded, its error counted in deferred, instead of failing the
	// walk: PostgreSQL pulls a derived table up (or removes its unread
	// outputs, remove_unused_subquery_outputs) before it folds, so an
	// output nothing reads is never computed. PlanWith folds the
	// optimised plan again, without deferring, when deferred is not
	// zero: what the rules kept raises then.
	deferOutputs bool
	deferred     int
	// branchOutputs says the node being folded gives a set operation's
	// branch its outputs (through filters, sorts, limits and DISTINCT):
	// PostgreSQL folds a UNION ALL branch's every output (an appendrel's
	// translated_vars) and removes no output of a set operation, so
	// there an output's error (an aggregate's too) is raised at once.
	branchOutputs bool
	// pruneSubqueries says a subquery's plan is folded as lowerExpr
	// lowers it, with its unread derived-table outputs dropped: the
	// second fold, over what the rules kept.
	pruneSubqueries bool
	// pullUp says references to a pulled-up derived table's constant
	// outputs are folded as those constants (pullupconst.go): the
	// first fold, over the plan as bound. cols are the constants of the
	// columns the expressions being folded read, outer those of a
	// subquery's Outer values (OuterRef slots), wrap that the query
	// level being folded groups by grouping sets.
	pullUp bool
	cols   []binder.Expr
	outer  []binder.Expr
	wrap   bool
}

func newFolder(ctx context.Context) *folder {
	if ctx == nil {
		ctx = context.Background()
	}
	fo := &folder{ctx: ctx, loc: functions.LocationOf(ctx), st: functions.StyleOf(ctx)}
	fo.expr, fo.top, fo.subqueries = fo.foldExpr, fo.foldTop, fo.foldSubqueryPlans
	return fo
}

// evalContext is the context a constant is computed in: the session's.
func (fo *folder) evalContext() *exec.EvalContext {
	return &exec.EvalContext{Ctx: fo.ctx, Mem: memory.DefaultAllocator}
}

// foldPlan folds every expression of n; the error is a data exception one
// of them raised.
func (fo *folder) foldPlan(n binder.Node) (binder.Node, error) {
	var err error
	branchOutputs := fo.branchOutputs
	switch n.(type) {
	case *binder.SetOp, *binder.RecursiveUnion:
		fo.branchOutputs = true
	case *binder.Filter, *binder.Sort, *binder.Limit, *binder.Distinct, *binder.DistinctOn, *binder.LockRows:
	default:
		fo.branchOutputs = false
	}
	wrap := fo.wrap
	switch x := n.(type) {
	case *binder.Project:
		fo.wrap = false // a query level of its own below
	case *binder.Aggregate:
		fo.wrap = fo.wrap || x.GroupingSet
	}
	n = rewriteChildren(n, func(c binder.Node) binder.Node {
		if err != nil {
			return c
		}
		var out binder.Node
		out, err = fo.foldPlan(c)
		if err != nil {
			return c
		}
		return out
	})
	fo.branchOutputs = false // for the subqueries of n's expressions
	fo.wrap = wrap
	cols := fo.cols
	fo.cols = fo.inputConsts(n) // pullupconst.go
	defer func() { fo.branchOutputs, fo.cols = branchOutputs, cols }()
	if err != nil {
		return nil, err
	}
	switch x := n.(type) {
	case *binder.Filter:
		cond, err := fo.foldQual(x.Cond)
		if err != nil {
			return nil, err
		}
		if cond == x.Cond {
			return x, nil
		}
		return &binder.Filter{Input: x.Input, Cond: cond}, nil
	case *binder.Join:
		if fo.pullUp {
			x = nullableSides(x).(*binder.Join) // pullupconst.go
		}
		if x.Cond == nil {
			return x, nil
		}
		cond, err := fo.foldQual(x.Cond)
		if err != nil {
			return nil, err
		}
		if cond == x.Cond {
			return x, nil
		}
		c := *x
		c.Cond = cond
		return &c, nil
	case *binder.Project:
		fold := fo.top
		if fo.deferOutputs && !branchOutputs {
			fold = fo.foldOutput
		}
		exprs, changed, err := mapList(x.Exprs, fold)
		if err != nil || !changed {
			return x, err
		}
		c := *x
		c.Exprs = exprs
		return &c, nil
	case *binder.Lateral:
		return fo.foldLateral(x) // pullupconst.go
	case *binder.Sort:
		var keys []binder.SortKey
		for i, k := range x.Keys {
			e, err := fo.foldTop(k.Expr)
			if err != nil {
				return nil, err
			}
			if e != k.Expr && keys == nil {
				keys = append([]binder.SortKey(nil), x.Keys...)
			}
			if keys != nil {
				keys[i].Expr = e
			}
		}
		if keys == nil {
			return x, nil
		}
		return &binder.Sort{Input: x.Input, Keys: keys}, nil
	case *binder.Limit:
		for _, e := range []binder.Expr{x.Count, x.Offset} {
			if e != nil {
				if _, err := fo.foldTop(e); err != nil {
					return nil, err
				}
			}
		}
		return x, nil
	case *binder.Aggregate:
		groups, changed, err := fo.foldList(x.GroupBy)
		if err != nil {
			return nil, err
		}
		aggs := x.Aggs
		for i, a := range x.Aggs {
			args, ch, err := fo.foldList(a.Args)
			if err != nil && fo.deferOutputs && !branchOutputs {
				// PostgreSQL removes an unread aggregate of a derived
				// table before it folds (remove_unused_subquery_outputs):
				// the rules may drop it (aggprune.go).
				fo.deferred++
				if fo.cols != nil {
					if !changed {
						aggs = append([]binder.AggCall(nil), x.Aggs...)
						changed = true
					}
					args := make([]binder.Expr, len(a.Args))
					for j, e := range a.Args {
						args[j] = fo.pullUpRefs(e)
					}
					aggs[i].Args = args
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			filter := a.Filter
			if filter != nil {
				if filter, err = fo.foldTop(filter); err != nil {
					return nil, err
				}
			}
			if ch || filter != a.Filter {
				if !changed {
					aggs = append([]binder.AggCall(nil), x.Aggs...)
					changed = true
				}
				aggs[i].Args, aggs[i].Filter = args, filter
			}
		}
		if !changed {
			return x, nil
		}
		c := *x
		c.GroupBy, c.Aggs = groups, aggs
		return &c, nil
	case *binder.TableFunc:
		// a function in FROM: PostgreSQL folds its arguments while
		// planning (preprocess_expression over the RTE's functions), a
		// LATERAL one's too, whatever rows the left side gives
		args, changed, err := fo.foldList(x.Args)
		if err != nil || !changed {
			return x, err
		}
		c := *x
		c.Args = args
		return &c, nil
	case *binder.Values:
		var rows [][]binder.Expr
		for i, r := range x.Rows {
			out, changed, err := fo.foldRow(r, x.FoldOrder) // valuesfold.go
			if err != nil {
				return nil, err
			}
			if changed && rows == nil {
				rows = append([][]binder.Expr(nil), x.Rows...)
			}
			if rows != nil {
				rows[i] = out
			}
		}
		if rows == nil {
			return x, nil
		}
		return &binder.Values{Rows: rows, Cols: x.Cols, FoldOrder: x.FoldOrder}, nil
	}
	return n, nil
}

// foldOutput folds a projection's output as foldTop does, except that a
// data exception leaves it unfolded and counted (deferOutputs): the rules
// may yet drop it unread.
func (fo *folder) foldOutput(e binder.Expr) (binder.Expr, error) {
	f, err := fo.foldTop(e)
	if err != nil {
		fo.deferred++
		return fo.pullUpRefs(e), nil
	}
	return f, nil
}

func (fo *folder) foldList(es []binder.Expr) ([]binder.Expr, bool, error) {
	return mapList(es, fo.top)
}

// FoldExprs folds expressions a statement evaluates outside its plan (an
// INSERT's ON CONFLICT DO UPDATE SET list) as foldPlan folds a plan's:
// PostgreSQL's planner folds them too, so a constant assignment that
// cannot be coerced fails the statement though no row conflicts. The
// error is the data exception one raised.
// ctx is the session's, as PlanWith's Options.Ctx.
func FoldExprs(ctx context.Context, es []binder.Expr) ([]binder.Expr, error) {
	out, _, err := newFolder(ctx).foldList(es)
	return out, err
}

// Failing is a plan of n's columns whose every execution fails with err:
// the statement's error raised while planning its other expressions
// (FoldExprs), after what its own plan raised.
func Failing(n binder.Node, plan Node, err error) Node {
	if f, ok := plan.(*failNode); ok {
		return f
	}
	return &failNode{out: schemaOf(n.Columns()), err: err}
}

// mapList applies fold to each expression, copying the list on the first
// change only.
func mapList(es []binder.Expr, fold func(binder.Expr) (binder.Expr, error)) ([]binder.Expr, bool, error) {
	var out []binder.Expr
	for i, e := range es {
		f, err := fold(e)
		if err != nil {
			return nil, false, err
		}
		if f != e && out == nil {
			out = append([]binder.Expr(nil), es...)
		}
		if out != nil {
			out[i] = f
		}
	}
	if out == nil {
		return es, false, nil
	}
	return out, true, nil
}

// foldQual folds a condition that keeps the rows it is true for, then
// drops its constants as a condition may (qualConsts).
func (fo *folder) foldQual(e binder.Expr) (binder.Expr, error) {
	f, err := fo.foldTop(e)
	if err != nil {
		return nil, err
	}
	if err := fo.estimateQual(f); err != nil {
		return nil, err
	}
	if f = qualConsts(f); isNullConst(f) {
		return boolExpr(false), nil
	}
	return f, nil
}

// qualConsts is the constant part of PostgreSQL's find_duplicate_ors
// (prepqual.c), which canonicalize_qual runs on a WHERE, ON or HAVING
// condition after folding: in a condition NULL is as good as false, so
// through its AND and OR tree (not under NOT, not into an IN list's Eager
// chain) an AND with a false or NULL operand is false and drops its true
// ones, and an OR drops its false and NULL operands and is true with a
// true one. ((x / 0 >= NULL AND x / 0 <= 1) OR f) is f: the division is
// never computed.
func qualConsts(e binder.Expr) binder.Expr {
	b, ok := e.(*binder.BinaryOp)
	if !ok || b.Eager || (b.Op != binder.OpAnd && b.Op != binder.OpOr) {
		return e
	}
	and := b.Op == binder.OpAnd
	args := appendLogicArgs(make([]binder.Expr, 0, countLogicArgs(b, b.Op, false)), b, b.Op, false)
	kept := args[:0:0]
	changed := false
	for _, a := range args {
		f := qualConsts(a)
		v, isBool := boolConst(f)
		switch {
		case isBool && v == and: // true in an AND, false in an OR
			changed = true
			continue
		case isBool || isNullConst(f):
			if and || isBool { // false or NULL in an AND; true in an OR
				return boolExpr(!and)
			}
			changed = true // NULL in an OR
			continue
		}
		changed = changed || f != a
		kept = append(kept, f)
	}
	switch {
	case !changed:
		return e
	case len(kept) == 0:
		return boolExpr(and)
	}
	return logicChain(b.Op, kept, false)
}

func nullOf(t types.T) binder.Expr { return &binder.Const{Value: nil, T: t} }

// foldTop folds an expression of the plan, then the plans of the
// subqueries left in it.
func (fo *folder) foldTop(e binder.Expr) (binder.Expr, error) {
	if _, ok := e.(*binder.ColumnRef); ok {
		// a column read whole folds nothing: it stays a column, so that
		// the rules still merge and narrow the projections it passes
		// through (a pulled-up constant is seen through it: pulledUp)
		return e, nil
	}
	f, err := fo.foldExpr(e)
	if err != nil {
		return nil, err
	}
	return fo.foldSubqueryPlans(f)
}

// foldSubqueryPlans folds the plan of every subquery in e.
func (fo *folder) foldSubqueryPlans(e binder.Expr) (binder.Expr, error) {
	out, err := binder.MapChildren(e, fo.subqueries)
	if err != nil {
		return nil, err
	}
	sq, ok := out.(*binder.Subquery)
	if !ok {
		return out, nil
	}
	plan := sq.Plan
	if sq.Mode == binder.ExistsSubquery {
		plan = existsTargets(plan)
	}
	if fo.pruneSubqueries {
		plan = trimSubqueryPlan(plan) // as lowerExpr lowers it
	}
	outer, cols, wrap := fo.outer, fo.cols, fo.wrap
	if fo.pullUp || fo.pruneSubqueries {
		// the second fold too: a deferred output kept its subquery as
		// bound (pullUpRefs)
		plan = pushSubqueryQuals(fo.ctx, plan) // pushsubquery.go
	}
	if fo.pullUp {
		fo.outer, fo.wrap = outerConsts(sq.Outer), false
	}
	plan, err = fo.foldPlan(plan)
	fo.outer, fo.cols, fo.wrap = outer, cols, wrap
	if err != nil {
		return nil, err
	}
	if plan == sq.Plan {
		return out, nil
	}
	c := *sq
	c.Plan = plan
	return &c, nil
}

// foldExpr is eval_const_expressions over one expression.
func (fo *folder) foldExpr(e binder.Expr) (binder.Expr, error) {
	switch x := e.(type) {
	case *binder.ColumnRef, *binder.OuterRef:
		return fo.pulledRef(e), nil // pullupconst.go
	case *binder.Const, *binder.Param:
		return e, nil
	case *binder.BinaryOp:
		if x.Op == binder.OpAnd || x.Op == binder.OpOr {
			return fo.foldLogic(x)
		}
		l, err := fo.foldExpr(x.L)
		if err != nil {
			return nil, err
		}
		r, err := fo.foldExpr(x.R)
		if err != nil {
			return nil, err
		}
		out := e
		if l != x.L || r != x.R {
			c := *x
			c.L, c.R = l, r
			out = &c
		}
		if !immutableOp(x) {
			return out, nil
		}
		strict := x.Op != binder.OpIsDistinct && x.Op != binder.OpIsNotDistinct
		if strict && (isNullConst(l) || isNullConst(r)) {
			return nullOf(x.T), nil
		}
		return fo.evalIfConst(out, l, r)
	case *binder.UnaryOp:
		in, err := fo.foldExpr(x.X)
		if err != nil {
			return nil, err
		}
		if isNullConst(in) {
			return nullOf(x.T), nil
		}
		out := e
		if in != x.X {
			c := *x
			c.X = in
			out = &c
		}
		if _, ok := in.(*binder.Const); !ok && x.Op == binder.OpNot {
			// PostgreSQL's negate_clause: NOT is pushed into what it
			// negates, so that NOT (x = a OR x = NULL) (x NOT IN (a,
			// NULL)) is x <> a AND NULL, and a qual holding it keeps
			// nothing.
			if neg, ok := negate(in); ok {
				return fo.foldExpr(neg)
			}
		}
		return fo.evalIfConst(out, in)
	case *binder.IsNull:
		in, err := fo.foldExpr(x.X)
		if err != nil {
			return nil, err
		}
		if in == x.X {
			return fo.evalIfConst(e, in)
		}
		c := *x
		c.X = in
		return fo.evalIfConst(&c, in)
	case *binder.Cast:
		in, err := fo.foldExpr(x.X)
		if err != nil {
			return nil, err
		}
		out := e
		if in != x.X {
			c := *x
			c.X = in
			out = &c
		}
		if isNullConst(in) {
			// a cast of NULL is NULL, stable or not: a strict I/O
			// function or cast function with a NULL constant argument
			// (evaluate_function), as NULL::date::text
			return nullOf(x.T), nil
		}
		if !immutableCast(in.Type(), x.T) {
			return out, nil
		}
		if c, ok := fo.foldConstCast(in, x.T, x.Assign); ok { // valuesfold.go
			return c, nil
		}
		return fo.evalIfConst(out, in)
	case *binder.Case:
		return fo.foldCase(x)
	case *binder.Coalesce:
		return fo.foldCoalesce(x)
	case *binder.FuncCall:
		args, changed, err := mapList(x.Args, fo.expr)
		if err != nil {
			return nil, err
		}
		out := e
		if changed {
			c := *x
			c.Args = args
			out = &c
		}
		// a strict call with a NULL constant argument is NULL whatever
		// its volatility: evaluate_function tests proisstrict before
		// provolatile, so COALESCE(to_char(NULL::int, '9'), 'x')::int
		// is 'x'::int, computed at planning (a call pg_proc does not
		// know, one of sqlgate's own names, only when immutable)
		if strictFunc(x.Name) && (strictCall(x) || !x.Volatile && immutableCall(x)) { // lateproject.go
			for _, a := range args {
				if isNullConst(a) {
					return nullOf(x.T), nil
				}
			}
		}
		if x.Volatile || !immutableCall(x) {
			return out, nil
		}
		return fo.evalConst(out, raisedByCall, args...)
	case *binder.Subquery:
		// Only its operands here: its plan is folded after the whole
		// expression (foldSubqueryPlans), as PostgreSQL plans a sublink
		// only after eval_const_expressions, so a subquery that folding
		// drops ((SELECT 1/0) % NULL) is never planned.
		out, err := binder.MapChildren(e, fo.expr)
		if sq, ok := out.(*binder.Subquery); ok && err == nil && x.X != nil && sq.X != nil && !sq.FoldedX &&
			readsColumns(x.X) && !readsColumns(sq.X) {
			c := *sq
			c.FoldedX = true
			out = &c
		}
		return out, err
	}
	return binder.MapChildren(e, fo.expr)
}

// foldLogic is PostgreSQL's simplify_and_arguments / simplify_or_arguments:
// the operands, flattened, left to right; the absorbing constant (false
// for AND, true for OR) ends the walk, the neutral one drops out, a NULL
// constant is kept once at the end. An Eager chain (the items of an IN
// list that read no column: foldEager) is one operand of the chain around
// it.
func (fo *folder) foldLogic(x *binder.BinaryOp) (binder.Expr, error) {
	and := x.Op == binder.OpAnd
	args := appendLogicArgs(make([]binder.Expr, 0, countLogicArgs(x, x.Op, x.Eager)), x, x.Op, x.Eager)
	if x.Eager {
		kept, folded, err := fo.foldEager(x, args)
		if err != nil || kept != nil {
			return kept, err
		}
		// every comparison folded: the ordinary simplification follows
		args = folded
	}
	var kept []binder.Expr
	var err error
	haveNull, changed := false, false
	for _, a := range args {
		f := a
		if f, err = fo.foldExpr(a); err != nil {
			return nil, err
		}
		if v, ok := boolConst(f); ok {
			if v != and {
				return boolExpr(v), nil
			}
			changed = true
			continue
		}
		if isNullConst(f) {
			haveNull, changed = true, true
			continue
		}
		changed = changed || f != a
		kept = append(kept, f)
	}
	if !changed && !x.Eager {
		return x, nil
	}
	if haveNull {
		kept = append(kept, nullOf(types.BoolType))
	}
	if len(kept) == 0 {
		return boolExpr(and), nil
	}
	return logicChain(x.Op, kept, false), nil
}

// foldEager folds the comparisons of an Eager chain (x = a OR x = b ...,
// NOT IN's x <> a AND x <> b ...: PostgreSQL's x = ANY (ARRAY[a, b]),
// whose array's elements it folds, each, errors raised, before anything
// else). When every comparison folds to a constant, they come back as a
// list (folded; kept nil) for foldLogic's usual simplification, as
// PostgreSQL computes the whole test then. Otherwise nothing is dropped,
// and kept is the Eager chain of the folded comparisons (x itself when
// none changed), so that every item is still computed per row (an item
// that fails fails the row though another matches).
func (fo *folder) foldEager(x *binder.BinaryOp, args []binder.Expr) (kept binder.Expr, folded []binder.Expr, err error) {
	allConst := true
	var slab []binder.BinaryOp // the changed comparisons, one allocation
	for i, a := range args {
		f, err := fo.foldEagerArg(a, &slab, len(args))
		if err != nil {
			return nil, nil, err
		}
		if f != a && folded == nil {
			folded = append([]binder.Expr(nil), args...)
		}
		if folded != nil {
			folded[i] = f
		}
		if _, ok := f.(*binder.Const); !ok {
			allConst = false
		}
	}
	if folded == nil {
		if !allConst {
			return x, nil, nil
		}
		folded = args
	}
	if allConst {
		return nil, folded, nil
	}
	return logicChain(x.Op, folded, true), nil, nil
}

// foldEagerArg folds one comparison of an Eager chain: its operands,
// then the comparison only when both are constants. A NULL x does not
// make it NULL without its item, as a strict operator would: PostgreSQL
// computes the array (the item that fails) whatever x is.
// A changed comparison is taken from *slab (made for n on first use).
func (fo *folder) foldEagerArg(a binder.Expr, slab *[]binder.BinaryOp, n int) (binder.Expr, error) {
	b, ok := a.(*binder.BinaryOp)
	if !ok || b.Op == binder.OpAnd || b.Op == binder.OpOr {
		return fo.foldExpr(a)
	}
	l, err := fo.foldExpr(b.L)
	if err != nil {
		return nil, err
	}
	r, err := fo.foldExpr(b.R)
	if err != nil {
		return nil, err
	}
	_, lc := l.(*binder.Const)
	_, rc := r.(*binder.Const)
	if !lc || !rc {
		if l == b.L && r == b.R {
			return a, nil
		}
		if *slab == nil {
			*slab = make([]binder.BinaryOp, 0, n)
		}
		*slab = append(*slab, *b)
		c := &(*slab)[len(*slab)-1]
		c.L, c.R = l, r
		return c, nil
	}
	c := *b
	c.L, c.R = l, r
	return fo.foldExpr(&c)
}

// logicChain joins es left-deep with op (AND or OR), in one allocation.
func logicChain(op binder.Op, es []binder.Expr, eager bool) binder.Expr {
	out := es[0]
	nodes := make([]binder.BinaryOp, len(es)-1)
	for i, k := range es[1:] {
		nodes[i] = binder.BinaryOp{Op: op, L: out, R: k, T: types.BoolType, Eager: eager}
		out = &nodes[i]
	}
	return out
}

// countLogicArgs is the number of operands appendLogicArgs finds in e, so
// that foldLogic sizes its list once instead of growing it.
func countLogicArgs(e binder.Expr, op binder.Op, eager bool) int {
	if b, ok := e.(*binder.BinaryOp); ok && b.Op == op && b.Eager == eager {
		return countLogicArgs(b.L, op, eager) + countLogicArgs(b.R, op, eager)
	}
	return 1
}

// appendLogicArgs appends the operands of e's tree of op (AND or OR),
// flattened left to right (a named function rather than a recursive
// closure, which put the list it appends to on the heap); the tree is the
// joins that are Eager as e is, an Eager chain under an ordinary one
// being one operand of it.
func appendLogicArgs(out []binder.Expr, e binder.Expr, op binder.Op, eager bool) []binder.Expr {
	if b, ok := e.(*binder.BinaryOp); ok && b.Op == op && b.Eager == eager {
		return appendLogicArgs(appendLogicArgs(out, b.L, op, eager), b.R, op, eager)
	}
	return append(out, e)
}

// foldCase is PostgreSQL's CASE simplification: a branch whose condition
// folds to false or NULL goes without its result being folded; one whose
// condition folds to true becomes the ELSE, and nothing after it is
// folded.
func (fo *folder) foldCase(x *binder.Case) (binder.Expr, error) {
	var whens []binder.When
	var def binder.Expr
	constTrue := false
	for _, w := range x.Whens {
		cond, err := fo.foldExpr(w.Cond)
		if err != nil {
			return nil, err
		}
		if v, ok := boolConst(cond); (ok && !v) || isNullConst(cond) {
			continue
		}
		res, err := fo.foldExpr(w.Result)
		if err != nil {
			return nil, err
		}
		if v, ok := boolConst(cond); ok && v {
			def, constTrue = res, true
			break
		}
		whens = append(whens, binder.When{Cond: cond, Result: res})
	}
	if !constTrue && x.Else != nil {
		var err error
		if def, err = fo.foldExpr(x.Else); err != nil {
			return nil, err
		}
	}
	if def == nil {
		def = nullOf(x.T)
	}
	if len(whens) == 0 {
		return retype(def, x.T), nil
	}
	return &binder.Case{Whens: whens, Else: def, T: x.T}, nil
}

// foldCoalesce is PostgreSQL's COALESCE simplification.
func (fo *folder) foldCoalesce(x *binder.Coalesce) (binder.Expr, error) {
	var args []binder.Expr
	for _, a := range x.Args {
		f, err := fo.foldExpr(a)
		if err != nil {
			return nil, err
		}
		if c, ok := f.(*binder.Const); ok {
			if c.Value == nil {
				continue
			}
			if len(args) == 0 {
				return retype(f, x.T), nil
			}
			args = append(args, f)
			break
		}
		args = append(args, f)
	}
	if len(args) == 0 {
		return nullOf(x.T), nil
	}
	return &binder.Coalesce{Args: args, T: x.T}, nil
}

// retype gives a constant that replaces a CASE or COALESCE the node's own
// type (the binder cast each branch to it, so only nullability differs).
func retype(e binder.Expr, t types.T) binder.Expr {
	if c, ok := e.(*binder.Const); ok {
		return &binder.Const{Value: c.Value, T: t}
	}
	return e
}

// evalIfConst computes e when every operand is a constant. A data
// exception is the statement's error; any other failure (a feature the
// kernels lack) leaves e to execution, as lowering's folding does.
func (fo *folder) evalIfConst(e binder.Expr, operands ...binder.Expr) (binder.Expr, error) {
	return fo.evalConst(e, raisedAtPlanning, operands...)
}

// evalConst is evalIfConst with raised saying which errors are the
// statement's.
func (fo *folder) evalConst(e binder.Expr, raised func(error) bool, operands ...binder.Expr) (binder.Expr, error) {
	for _, o := range operands {
		if _, ok := o.(*binder.Const); !ok {
			return e, nil
		}
	}
	le, err := lowerExpr(e)
	if err != nil {
		return e, nil
	}
	v, err := exec.EvalScalar(fo.evalContext(), le)
	if err != nil {
		if raised(err) {
			return nil, err
		}
		return e, nil
	}
	return &binder.Const{Value: v, T: e.Type()}, nil
}

// raisedByCall reports whether an error computing a call of an immutable
// function is the statement's: whatever the function raises (the 0A000
// of extract(hour from DATE '2020-01-01'), a 54000 of repeat), as
// PostgreSQL's planner calls it, except sqlgate's refusal of a feature it
// lacks, left to execution.
func raisedByCall(err error) bool {
	return raisedAtPlanning(err) || !sqlerr.IsGap(err)
}

// raisedAtPlanning reports whether an error computing a constant is the
// statement's error, as PostgreSQL raises it while planning: a data
// exception (class 22), or a special numeric value converted to an integer
// (0A000 in PostgreSQL too). Any other failure is a feature the kernels
// lack, left to execution.
func raisedAtPlanning(err error) bool {
	return strings.HasPrefix(string(sqlerr.CodeOf(err)), "22") || errors.Is(err, numeric.ErrSpecialValue)
}

// immutableOp reports whether PostgreSQL's operator for x is immutable:
// not one that reads the time zone (timestamptz arithmetic and
// comparisons with other date/time types) or a non-text operand's output
// function (text || anynonarray is stable).
func immutableOp(x *binder.BinaryOp) bool {
	l, r := x.L.Type(), x.R.Type()
	for _, t := range []types.T{l, r, x.T} {
		switch t.Kind {
		case types.TimestampTZ, types.Interval, types.Array, types.Map, types.Row, types.Oid, types.Name, types.Unknown:
			return false
		}
	}
	if x.Op == binder.OpConcat {
		jsonb := func(t types.T) bool { return t.Kind == types.String && t.Variant == types.JSONB }
		return plainText(l) && plainText(r) || jsonb(l) && jsonb(r) // textcat, jsonb_concat
	}
	return true
}

func isFloat(t types.T) bool { return t.Kind == types.Float32 || t.Kind == types.Float64 }

func plainText(t types.T) bool {
	return (t.Kind == types.String || t.Kind == types.Char) && t.Variant == types.NoVariant
}

// immutableCast reports whether PostgreSQL's cast from one type to the
// other is immutable: among booleans, numbers and text, and between date
// and timestamp. Date/time input and output (DateStyle, IntervalStyle)
// and anything with a time zone are stable, and so is an array's or a
// record's text (array_out, record_out). A float's text is immutable
// though it follows extra_float_digits (float4out and float8out are
// marked so): the folder computes it under the session's setting, as
// PostgreSQL's planner does.
func immutableCast(from, to types.T) bool {
	if isFloat(from) && plainText(to) {
		return true
	}
	if exec.CastNeedsSession(from, to) {
		return false
	}
	scalar := func(t types.T) bool {
		switch t.Kind {
		case types.Null, types.Bool, types.Int8, types.Int16, types.Int32, types.Int64, types.Decimal, types.Float32, types.Float64:
			return true
		case types.String, types.Char:
			return t.Variant == types.NoVariant
		}
		return false
	}
	if scalar(from) && scalar(to) {
		return true
	}
	dt := func(t types.T) bool { return t.Kind == types.Date || t.Kind == types.Timestamp }
	if dt(from) && dt(to) {
		return true
	}
	// an I/O conversion: the other type's input (output) function's
	// provolatile, PostgreSQL's (text::cidr calls cidr_in, immutable)
	switch {
	case plainText(from) && !composite(to):
		oid, _, _ := pgtypes.OIDOf(to)
		return ioImmutable(oid, false)
	case plainText(to) && !composite(from):
		oid, _, _ := pgtypes.OIDOf(from)
		return ioImmutable(oid, true)
	}
	// any other cast: its pg_cast row's function's provolatile
	// (jsonb::int is jsonb_int4, immutable); a binary-coercible one is
	// no call at all
	if from.Kind == types.Oid || to.Kind == types.Oid {
		// an OID alias type (regclass ...) reads the catalogs at
		// execution, which the folder has not
		return false
	}
	src, _, _ := pgtypes.OIDOf(from)
	dst, _, _ := pgtypes.OIDOf(to)
	c, ok := pgoper.CastOf(src, dst)
	switch {
	case !ok || c.Method == 'i':
		// no pg_cast row (an explicit cast to or from a string type:
		// find_coercion_pathway's COERCEVIAIO, as int2('x'::name)) or an
		// I/O one: eval_const_expressions folds the CoerceViaIO when the
		// source's output function and the target's input function
		// are both immutable
		return !composite(from) && !composite(to) && ioImmutable(src, true) && ioImmutable(dst, false)
	case c.Method == 'b':
		return true
	case c.Method == 'f':
		pp, ok := pgproc.Lookup(c.FuncName, c.FuncArgs)
		return ok && pp.Volatile == 'i'
	}
	return false
}

// composite reports whether t is an array or a row, whose casts without a
// pg_cast row convert element by element or field by field, not via I/O.
func composite(t types.T) bool { return t.Kind == types.Array || t.Kind == types.Row }

// ioImmutable reports whether the output (or input) function of the type
// with that OID is immutable in pg_proc.
func ioImmutable(oid uint32, output bool) bool {
	v, ok := pgcatalog.IOVolatility(oid, output)
	return ok && v == 'i'
}

// mutableNode reports whether x itself is a call PostgreSQL's
// contain_mutable_functions finds: a function, operator or cast whose
// pg_proc entry is not immutable, by the folder's own tests.
func mutableNode(x binder.Expr) bool {
	switch y := x.(type) {
	case *binder.FuncCall:
		return y.Volatile || !immutableCall(y)
	case *binder.Cast:
		return !immutableCast(y.X.Type(), y.T)
	case *binder.BinaryOp:
		return !immutableOp(y)
	}
	return false
}

// immutableCall reports whether PostgreSQL's planner computes a call of
// x's overload when its arguments are constants: pg_proc's provolatile
// of that signature is 'i' (pgcatalog's copy of PostgreSQL's), so that
// extract(hour from DATE ...) is computed and its error raised while
// planning while extract(hour from TIMESTAMPTZ ...), stable, is left to
// execution. GREATEST and LEAST are no functions but MinMaxExprs, which
// eval_const_expressions computes when every argument is a constant.
func immutableCall(x *binder.FuncCall) bool {
	v, ok := callVolatility(x)
	return ok && v == 'i'
}

// estimableCall reports whether PostgreSQL's selectivity estimation
// computes a call of x's overload with constant arguments
// (estimate_expression_value): an immutable or stable one.
func estimableCall(x *binder.FuncCall) bool {
	v, ok := callVolatility(x)
	return ok && (v == 'i' || v == 's')
}

// callVolatility is pg_proc's provolatile of x's overload; ok false when
// unknown. GREATEST and LEAST (MinMaxExprs), the ARRAY[...] constructor
// (an ArrayExpr) and array subscripts and slices (SubscriptingRefs, the
// binder's subscript and slice calls) are no functions there but
// immutable: eval_const_expressions folds them when every argument is a
// constant (ece_all_arguments_const), so (ARRAY[1, 0])[2] is the constant
// 0 and 1 / (ARRAY[1, 0])[2] fails at planning.
func callVolatility(x *binder.FuncCall) (byte, bool) {
	name := strings.ToLower(x.Name)
	switch name {
	case "greatest", "least", "array", "subscript", "slice":
		return 'i', true
	}
	if v, ok := operatorVolatility[name]; ok {
		return v, true
	}
	if v, ok := syntheticVolatility(name, x); ok { // synthcalls.go
		return v, true
	}
	var buf [6]uint32
	oids := buf[:0]
	for _, a := range x.Args {
		oid, _, _ := pgtypes.OIDOf(a.Type())
		oids = append(oids, oid)
	}
	return pgcatalog.Volatility(name, oids)
}

// operatorVolatility is the provolatile of the PostgreSQL function behind
// each date/time operator the binder calls an internal "__" function for
// (binder's datetimeArithmetic): date + integer is date_pli, immutable, so
// extract(hour from DATE '2000-01-01' + 1) fails at planning as
// PostgreSQL's does; timestamptz ± interval reads the time zone (stable).
var operatorVolatility = map[string]byte{
	"__date_pl_days": 'i', "__date_mi_days": 'i', "__date_mi_date": 'i', // date_pli, date_mii, date_mi
	"__date_pl_time": 'i', "__date_pl_timetz": 'i', // datetime_pl, datetimetz_pl
	"__ts_pl_interval": 'i', "__ts_mi_interval": 'i', "__ts_mi_ts": 'i', "__tstz_mi_tstz": 'i',
	"__tstz_pl_interval": 's', "__tstz_mi_interval": 's',
	"__time_pl_interval": 'i', "__time_mi_interval": 'i', "__timetz_pl_interval": 'i', "__timetz_mi_interval": 'i',
	"__interval_pl": 'i', "__interval_mi": 'i', "__interval_mul": 'i', "__interval_div": 'i', "__interval_um": 'i',
}

// strictFunc reports whether every overload of the named built-in is
// strict (NULL in, NULL out).
func strictFunc(name string) bool {
	fs := functions.Lookup(name)
	for _, f := range fs {
		if !f.Strict {
			return false
		}
	}
	return len(fs) > 0
}

// failNode is the plan of a statement whose planning raised err (a
// constant expression that fails): each execution fails with it.
type failNode struct {
	out *arrow.Schema
	err error
}

func (n *failNode) Schema() *arrow.Schema                  { return n.out }
func (n *failNode) Build(*Runtime) (exec.Operator, error)  { return nil, n.err }
func (n *failNode) Explain() (kind string, details string) { return "Error", n.err.Error() }
func (n *failNode) Inputs() []Node                         { return nil }

// negatedOps are the comparison operators' negators.
var negatedOps = map[binder.Op]binder.Op{
	binder.OpEq: binder.OpNe, binder.OpNe: binder.OpEq, binder.OpLt: binder.OpGe, binder.OpGe: binder.OpLt,
	binder.OpGt: binder.OpLe, binder.OpLe: binder.OpGt,
	binder.OpIsDistinct: binder.OpIsNotDistinct, binder.OpIsNotDistinct: binder.OpIsDistinct,
}

// negate is NOT e pushed into e (PostgreSQL's negate_clause), with SQL's
// three-valued logic kept: De Morgan for AND and OR, the negator of a
// comparison, NOT NOT x as x, IS [NOT] NULL flipped. ok is false when e
// has no such form.
func negate(e binder.Expr) (binder.Expr, bool) {
	switch x := e.(type) {
	case *binder.Const:
		if v, ok := x.Value.(bool); ok {
			return boolExpr(!v), true
		}
		if x.Value == nil {
			return x, true
		}
	case *binder.BinaryOp:
		if x.Op == binder.OpAnd || x.Op == binder.OpOr {
			op := binder.OpOr
			if x.Op == binder.OpOr {
				op = binder.OpAnd
			}
			return &binder.BinaryOp{Op: op, L: keepSubPlans(negateOrNot(x.L)), R: keepSubPlans(negateOrNot(x.R)), T: x.T, Eager: x.Eager}, true
		}
		if op, ok := negatedOps[x.Op]; ok {
			c := *x
			c.Op = op
			return &c, true
		}
	case *binder.UnaryOp:
		if x.Op == binder.OpNot {
			return x.X, true
		}
	case *binder.IsNull:
		c := *x
		c.Not = !c.Not
		return &c, true
	}
	return nil, false
}

// keepSubPlans marks the subqueries of e (not those inside their plans)
// as binder.Subquery's SubPlan: the NOT negate pushes into an AND or OR
// makes conjuncts of what PostgreSQL's pull_up_sublinks saw under an OR or
// a NOT of several operands (NOT (a OR EXISTS (..)) is a AND NOT EXISTS
// (..) only after it), so decorrelation must leave them tests per row.
func keepSubPlans(e binder.Expr) binder.Expr {
	if sq, ok := e.(*binder.Subquery); ok {
		if sq.SubPlan {
			return e
		}
		c := *sq
		c.SubPlan = true
		if c.X != nil {
			c.X = keepSubPlans(c.X)
		}
		return &c
	}
	if !hasSubquery(e) {
		return e
	}
	out, _ := binder.MapChildren(e, func(x binder.Expr) (binder.Expr, error) { return keepSubPlans(x), nil })
	return out
}

func negateOrNot(e binder.Expr) binder.Expr {
	if n, ok := negate(e); ok {
		return n
	}
	return &binder.UnaryOp{Op: binder.OpNot, X: e, T: types.BoolType}
}

// orderQual orders the conjuncts of a filter condition as PostgreSQL's
// planner does before running them (order_qual_clauses), which decides
// which of them an error can come from, since each runs only on the rows
// the ones before it kept (exec.LogicExpr): conjuncts that read no column
// of the row (a pseudo-constant, PostgreSQL's one-time filter) first, then
// by PostgreSQL's per-row cost, cheapest first, ties in written order.
func orderQual(cond binder.Expr) binder.Expr {
	cs := conjuncts(cond)
	if len(cs) < 2 {
		return cond
	}
	type ranked struct {
		e      binder.Expr
		pseudo bool
		cost   int
	}
	rs := make([]ranked, len(cs))
	for i, c := range cs {
		rs[i] = ranked{c, pseudoConstant(c), qualCost(c)}
	}
	sorted := slices.IsSortedFunc(rs, func(a, b ranked) int { return rankCmp(a.pseudo, a.cost, b.pseudo, b.cost) })
	if sorted {
		return cond
	}
	slices.SortStableFunc(rs, func(a, b ranked) int { return rankCmp(a.pseudo, a.cost, b.pseudo, b.cost) })
	out := rs[0].e
	for _, r := range rs[1:] {
		out = &binder.BinaryOp{Op: binder.OpAnd, L: out, R: r.e, T: types.BoolType}
	}
	return out
}

func rankCmp(ap bool, ac int, bp bool, bc int) int {
	switch {
	case ap && !bp:
		return -1
	case bp && !ap:
		return 1
	}
	return ac - bc
}

// qualCost is PostgreSQL's per-row cost of e in half operator calls
// (cost_qual_eval with every built-in's procost 1): one operator call per
// operator and function, two per I/O conversion cast, one per other cast
// (none for the widening cast of an operand of a cross-type operator:
// operandCost), none for CASE, COALESCE, AND, OR, NOT, IS NULL, columns
// and constants; an IN list's Eager chain is PostgreSQL's x = ANY
// (ARRAY[...]): x and the items once each, and the operator on half the
// items.
func qualCost(e binder.Expr) int {
	if b, ok := e.(*binder.BinaryOp); ok && b.Eager {
		var buf [16]binder.Expr
		cost := 0
		for i, c := range appendLogicArgs(buf[:0], b, b.Op, true) {
			cmp, ok := c.(*binder.BinaryOp)
			if !ok || !cmp.Op.IsComparison() {
				cost += qualCost(c)
				continue
			}
			cost++ // half a call of the operator
			if i == 0 {
				cost += operandCost(cmp, cmp.L)
			}
			cost += operandCost(cmp, cmp.R)
		}
		return cost
	}
	cost := 2 * nodeCost(e)
	b, _ := e.(*binder.BinaryOp)
	binder.MapChildren(e, func(c binder.Expr) (binder.Expr, error) {
		if b != nil {
			cost += operandCost(b, c)
		} else {
			cost += qualCost(c)
		}
		return c, nil
	})
	return cost
}

// operandCost is qualCost of c, an operand of b, less its cast's call when
// PostgreSQL has a cross-type operator that takes c's operand as it is:
// the comparisons and + - * / of two integer types (int48eq, int24pl,
// int82div ...) and of real against double precision (float48ge,
// float84div ...). There is no cross-type %, nor bitwise operator
// (int8mod only), so b % 1::int2 with a bigint b calls int8mod on
// int8(1::int2), and i % b with an int i calls int48(i): the binder's
// widening cast is then PostgreSQL's call.
func operandCost(b *binder.BinaryOp, c binder.Expr) int {
	cost := qualCost(c)
	x, ok := c.(*binder.Cast)
	if !ok || !b.Op.IsComparison() && (!b.Op.IsArithmetic() || b.Op == binder.OpMod) {
		return cost
	}
	from, to := x.X.Type(), x.T
	if from.Kind == types.Float32 && to.Kind == types.Float64 || from.IsInteger() && to.IsInteger() && to.Kind > from.Kind {
		cost -= 2 * nodeCost(x)
	}
	return cost
}

// nodeCost is qualCost's operator calls of e's own node, its operands
// aside.
func nodeCost(x binder.Expr) int {
	switch y := x.(type) {
	case *binder.BinaryOp:
		if y.Op != binder.OpAnd && y.Op != binder.OpOr {
			return 1
		}
	case *binder.UnaryOp:
		if y.Op == binder.OpNeg {
			return 1
		}
	case *binder.FuncCall:
		if !literalInput(y) {
			return 1
		}
	case *binder.UDFCall:
		return udfCost(y.UDF.Language) // udf.go: the crossing's cost
	case *binder.Subquery:
		// An uncorrelated scalar or EXISTS subquery is an InitPlan,
		// computed once and read as a parameter; an uncorrelated
		// IN/ANY one a hashed lookup; a correlated one runs per row.
		switch {
		case len(y.Outer) > 0:
			return 1000
		case y.Mode == binder.AnySubquery || y.Mode == binder.AllSubquery:
			return 1
		}
	case *binder.Cast:
		from, to := y.X.Type(), y.T
		switch {
		case from.Kind == to.Kind:
			// a cast within one type (a typmod's): no call counted
		case plainText(from) || plainText(to):
			return 2
		default:
			return 1
		}
	}
	return 0
}

// groupsBySets reports whether n is the binder's UNION ALL of one
// aggregation per grouping set (binder.Aggregate's GroupingSet), which
// PostgreSQL's EXISTS keeps as one query with groupingSets.
func groupsBySets(n binder.Node) bool {
	switch x := n.(type) {
	case *binder.SetOp:
		return groupsBySets(x.Left) || groupsBySets(x.Right)
	case *binder.Project:
		in := x.Input
		if f, ok := in.(*binder.Filter); ok {
			in = f.Input
		}
		a, ok := in.(*binder.Aggregate)
		return ok && a.GroupingSet
	}
	return false
}

// canRaise reports whether computing e can fail on some row: it holds
// arithmetic, a negation, a cast, a function or a subquery.
func canRaise(e binder.Expr) bool {
	return anyExpr(e, func(x binder.Expr) bool {
		switch y := x.(type) {
		case *binder.BinaryOp:
			return y.Op.IsArithmetic() || y.Op == binder.OpConcat
		case *binder.UnaryOp:
			return y.Op == binder.OpNeg
		case *binder.Cast, *binder.FuncCall, *binder.UDFCall, *binder.Subquery:
			return true
		}
		return false
	})
}

// existsTargets is PostgreSQL's simplify_EXISTS_query: the select list of
// an EXISTS subquery is never computed (only whether a row exists is), so
// it becomes NULLs of the same types, neither folded nor evaluated; not
// when it feeds an aggregation, a window or DISTINCT, which PostgreSQL
// keeps too, HAVING between them or not, and the grouping sets' union
// of aggregations (simplify_EXISTS_query keeps the select list of a
// query with aggregates, grouping sets or a HAVING).
func existsTargets(plan binder.Node) binder.Node {
	p, ok := plan.(*binder.Project)
	if !ok {
		return plan
	}
	in := p.Input
	if f, ok := in.(*binder.Filter); ok {
		in = f.Input
	}
	switch x := in.(type) {
	case *binder.Aggregate, *binder.Window:
		return plan
	case *binder.SetOp:
		if groupsBySets(x) {
			return plan
		}
	}
	exprs := make([]binder.Expr, len(p.Exprs))
	for i, e := range p.Exprs {
		exprs[i] = nullOf(e.Type())
	}
	c := *p
	c.Exprs = exprs
	return &c
}

// oneTimeQual is the AND of the conjuncts of cond that read no column of
// the row and are deterministic (orderQual put them first), nil when there
// are none: PostgreSQL's one-time filter, computed once before the input is
// read (exec.Filter.Gate). A constant true one needs no gate.
func oneTimeQual(cond binder.Expr) binder.Expr {
	var out binder.Expr
	for _, c := range conjuncts(cond) {
		if !pseudoConstant(c) {
			break
		}
		if v, ok := boolConst(c); ok && v {
			continue
		}
		if out == nil {
			out = c
		} else {
			out = &binder.BinaryOp{Op: binder.OpAnd, L: out, R: c, T: types.BoolType}
		}
	}
	return out
}

// pseudoConstant reports whether e has one value per execution: it reads
// no column of the row (an uncorrelated subquery, a parameter or an outer
// row's value may appear) and calls nothing volatile.
func pseudoConstant(e binder.Expr) bool {
	return !anyExpr(e, func(x binder.Expr) bool {
		switch y := x.(type) {
		case *binder.ColumnRef, *binder.UDFCall:
			return true
		case *binder.FuncCall:
			return y.Volatile
		}
		return false
	})
}

// markQual marks the AND chain at the top of a lowered filter condition
// (orderQual builds it left-deep) as a conjunct list: exec.LogicExpr.Qual.
func markQual(e exec.Expr) {
	for {
		l, ok := e.(*exec.LogicExpr)
		if !ok || !l.And || l.Eager {
			return
		}
		l.Qual = true
		e = l.L
	}
}

// estimateQual computes what PostgreSQL's selectivity estimation computes
// while planning a condition: in a comparison of a column expression with
// an expression that reads no column, the latter is computed
// (estimate_expression_value), stable operations included, so that
// WHERE d <> 'abc'::text::date fails while planning even when no row is
// ever compared. AND, OR and NOT are walked into, as clause_selectivity
// does; a data exception is the statement's error.
func (fo *folder) estimateQual(e binder.Expr) error {
	switch x := e.(type) {
	case *binder.BinaryOp:
		if x.Op == binder.OpAnd || x.Op == binder.OpOr {
			if err := fo.estimateQual(x.L); err != nil {
				return err
			}
			return fo.estimateQual(x.R)
		}
		if !x.Op.IsComparison() {
			return nil
		}
		for _, side := range [2][2]binder.Expr{{x.L, x.R}, {x.R, x.L}} {
			if !estimable(side[0]) || !anyExpr(side[1], func(y binder.Expr) bool { _, ok := y.(*binder.ColumnRef); return ok }) {
				continue
			}
			le, err := lowerExpr(side[0])
			if err != nil {
				return nil
			}
			if _, err := exec.EvalScalar(fo.evalContext(), le); err != nil && raisedAtPlanning(err) {
				return err
			}
		}
	case *binder.UnaryOp:
		if x.Op == binder.OpNot {
			return fo.estimateQual(x.X)
		}
	}
	return nil
}

// estimable reports whether the planner can compute e (reads nothing of
// a row, a parameter, a subquery or anything volatile) and has something
// left to compute (not a constant already).
func estimable(e binder.Expr) bool {
	if _, ok := e.(*binder.Const); ok {
		return false
	}
	return !anyExpr(e, func(y binder.Expr) bool {
		switch z := y.(type) {
		case *binder.ColumnRef, *binder.Param, *binder.OuterRef, *binder.Subquery, *binder.UDFCall:
			return true
		case *binder.FuncCall:
			// immutable and stable built-ins by pg_proc (sqlgate flags
			// some stable ones volatile: current_schema reads the
			// session): estimate_expression_value computes both, not a
			// volatile one, nor one whose pg_proc row is unknown
			return !estimableCall(z)
		}
		return false
	})
}

// literalInput reports whether f is a literal's input function
// ('s'::regclass, as sqlgate binds nextval's argument): PostgreSQL's parser
// makes such a literal a constant, which costs nothing per row.
func literalInput(f *binder.FuncCall) bool {
	if f.Name != "regclass_in" || len(f.Args) != 1 {
		return false
	}
	_, ok := f.Args[0].(*binder.Const)
	return ok
}
