package lower

import (
	"context"

	"fmt"
	"github.com/apache/arrow-go/v18/arrow/array"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// aggregateNode groups the rows of its input. The input is a projection
// that computes the group keys first, then each aggregate's argument (and
// FILTER condition, and string_agg separator) as columns.
type aggregateNode struct {
	input   Node
	groupBy []int
	forms   []types.KeyForm // groupBy's key forms (relop.HashAggregate.Forms)
	aggs    []relop.AggSpec
	out     *arrow.Schema
	names   []string
	par     *parallelAgg // its parallel form (parallelagg.go), or nil
	stats   *statsAgg    // its answer from statistics (statsagg.go), or nil
	// pgGroupOrder sorts the input by the group keys first, ties as
	// PostgreSQL's Sort leaves them (showsInputOrder, ordersGroups), in
	// groupOrder when the ORDER BY above sets it (grouporder.go)
	pgGroupOrder bool
	groupOrder   []groupKeyOrder
}

func (n *aggregateNode) Schema() *arrow.Schema { return n.out }
func (n *aggregateNode) Inputs() []Node        { return oneInput(&n.input) }
func (n *aggregateNode) Explain() (string, string) {
	return "aggregate", fmt.Sprintf("keys=%d aggregates=[%s]", len(n.groupBy), strings.Join(n.names, ", "))
}
func (n *aggregateNode) Build(rt *Runtime) (exec.Operator, error) {
	if n.stats != nil {
		if op, ok, err := n.stats.build(rt, n.out); ok || err != nil {
			return op, err
		}
	}
	if n.par != nil {
		if op, ok, err := n.par.build(rt); ok || err != nil {
			return op, err
		}
	}
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	if n.pgGroupOrder {
		in = &relop.Sort{Input: in, Keys: n.groupSortKeys(), PostgresTies: true, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	}
	op := &relop.HashAggregate{Input: in, GroupBy: n.groupBy, Forms: n.forms, Aggs: n.aggs, Out: n.out, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	if !n.pgGroupOrder && len(n.groupBy) > 0 {
		// the groups finish in PostgreSQL's GroupAggregate's order
		// (relop's groupfinish.go; its pre-sort puts them so already)
		op.GroupOrder = n.groupSortKeys()
	}
	return op, nil
}

// showsInputOrder reports whether call's result shows the order its
// group's rows reach it in beyond what its sort decides: an ORDER BY
// whose ties differ (array_agg(y ORDER BY x); x itself when equal values
// of its type may print differently, as numeric 1.5 and 1.50), or a
// DISTINCT that keeps one of such equal values (the first after its sort).
// PostgreSQL cannot hash such an aggregation: it sorts its input by the
// group keys (a Sort under a GroupAggregate) and each group's sort then
// starts from the order that Sort left its rows in.
func showsInputOrder(call binder.AggCall) bool {
	if len(call.Args) == 0 || (len(call.OrderBy) == 0 && !call.Distinct) {
		return false
	}
	arg := call.Args[0]
	loose := relop.LooseEquality(arg.Type().ArrowType(), arg.Type().KeyForm())
	if call.Distinct {
		return loose && call.Func != "count"
	}
	return loose || call.OrderBy[0].Expr.String() != arg.String()
}

// ordersGroups reports whether PostgreSQL sorts a grouped aggregation
// with these calls (it cannot hash one with an aggregate's ORDER BY or
// DISTINCT: numOrderedAggs) and one of them, with no ORDER BY of its own,
// shows its input's order (string_agg(v, ','), array_agg(v)): that call
// lists each group's rows in the order the Sort left them.
func ordersGroups(calls []binder.AggCall) bool {
	ordered, shows := false, false
	for _, c := range calls {
		ordered = ordered || c.Distinct || len(c.OrderBy) > 0
		shows = shows || len(c.OrderBy) == 0 && listsInputOrder[c.Func]
	}
	return ordered && shows
}

// listsInputOrder are the aggregates whose result lists their input in
// the order it arrives.
var listsInputOrder = map[string]bool{
	"string_agg": true, "array_agg": true, "json_agg": true, "jsonb_agg": true,
	"json_object_agg": true, "jsonb_object_agg": true,
}

// lowerAggregate lowers an Aggregate: a projection computing keys and
// arguments, the hash aggregation, and a cast where the executor's result
// type differs from the binder's (both follow PostgreSQL; the cast only
// adjusts representation such as a numeric's scale).
func lowerAggregate(x *binder.Aggregate) (Node, error) {
	in, err := lowerNode(x.Input)
	if err != nil {
		return nil, err
	}
	n, err := lowerAggregateOver(x, in)
	if err == nil {
		attachStats(x, n)          // statsagg.go
		err = attachParallel(x, n) // parallelagg.go
	}
	return n, err
}

// lowerAggregateOver lowers x over in, its input lowered.
func lowerAggregateOver(x *binder.Aggregate, in Node) (Node, error) {
	var err error
	if in, x, err = filtersOnce(in, x); err != nil {
		return nil, err
	}
	if in, x, err = aggregateUDFs(in, x); err != nil {
		return nil, err
	}
	pre := &projectNode{input: in}
	var names []string
	var ts []types.T
	// guard, when not nil, is the FILTER of the call whose inputs are being
	// added: they are computed only on the rows it passes (PostgreSQL
	// evaluates an aggregate's arguments only for the rows the FILTER
	// keeps, so max(1/x) FILTER (WHERE x <> 0) never divides by zero).
	var guard binder.Expr
	add := func(e binder.Expr, name string) (int, error) {
		t := e.Type()
		if guard != nil && mayFail(e) {
			t = t.Nullable()
			e = &binder.Case{Whens: []binder.When{{Cond: guard, Result: e}}, T: t}
		}
		le, err := lowerExpr(e)
		if err != nil {
			return 0, err
		}
		pre.exprs = append(pre.exprs, le)
		names = append(names, name)
		ts = append(ts, t)
		return len(pre.exprs) - 1, nil
	}
	agg := &aggregateNode{}
	for i, k := range x.GroupBy {
		idx, err := add(k, fmt.Sprintf("key%d", i))
		if err != nil {
			return nil, err
		}
		agg.groupBy = append(agg.groupBy, idx)
		agg.forms = append(agg.forms, k.Type().KeyForm())
	}
	for i, call := range x.Aggs {
		spec := relop.AggSpec{Func: call.Func, Arg: -1, Distinct: call.Distinct, Filter: -1, Sep: -1, X: -1, Arrays: call.Arrays}
		guard = call.Filter
		if len(call.Args) > 0 {
			if spec.Arg, err = add(call.Args[0], fmt.Sprintf("arg%d", i)); err != nil {
				return nil, err
			}
			spec.Form = call.Args[0].Type().KeyForm()
			spec.Money = call.Args[0].Type().IsMoney()
		}
		if len(call.Args) == 2 && call.Func != "string_agg" {
			if spec.X, err = add(call.Args[1], fmt.Sprintf("x%d", i)); err != nil {
				return nil, err
			}
		}
		if call.Func == "string_agg" && len(call.Args) > 1 {
			if spec.Sep, err = add(call.Args[1], fmt.Sprintf("sep%d", i)); err != nil {
				return nil, err
			}
		}
		for k, key := range call.OrderBy {
			col, err := add(key.Expr, fmt.Sprintf("order%d_%d", i, k))
			if err != nil {
				return nil, err
			}
			spec.OrderBy = append(spec.OrderBy, relop.SortKeySpec{Column: col, Desc: key.Desc, NullsFirst: key.NullsFirst, Form: key.Expr.Type().KeyForm()})
		}
		guard = nil
		if call.Filter != nil {
			if spec.Filter, err = add(call.Filter, fmt.Sprintf("filter%d", i)); err != nil {
				return nil, err
			}
		}
		agg.aggs = append(agg.aggs, spec)
		agg.names = append(agg.names, call.String())
		agg.pgGroupOrder = agg.pgGroupOrder || len(x.GroupBy) > 0 && showsInputOrder(call)
	}
	agg.pgGroupOrder = agg.pgGroupOrder || len(x.GroupBy) > 0 && ordersGroups(x.Aggs)
	pre.out = exec.SchemaOf(names, ts)
	agg.input = pre
	// The executor's own output types, then a cast to the binder's where they differ.
	cols := x.Columns()
	execNames := make([]string, len(cols))
	execTypes := make([]types.T, len(cols))
	needCast := false
	for i, c := range cols {
		execNames[i] = c.Name
		if i < len(x.GroupBy) {
			execTypes[i] = x.GroupBy[i].Type()
			continue
		}
		call := x.Aggs[i-len(x.GroupBy)]
		var argT types.T
		if len(call.Args) > 0 {
			argT = call.Args[0].Type()
		}
		t, err := relop.AggResultType(call.Func, argT)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "aggregate %s: %v", call.String(), err)
		}
		if call.Func == "sum" && argT.Kind == types.Int64 && call.T.Kind == types.Int64 {
			// A final sum of bigint partials (finalSum: counts, sums of
			// integers) is summed in bigint (relop's sumIntAcc, 22003 past
			// its range), not in numeric and cast back.
			t = types.Int64Type
			if call.T.Variant == types.Money {
				t = call.T.Nullable() // sum(money): the cents, summed as bigint
			}
		}
		execTypes[i] = t
		if !t.Nullable().Equal(c.T.Nullable()) {
			needCast = true
		}
	}
	agg.out = exec.SchemaOf(execNames, execTypes)
	if !needCast {
		return agg, nil
	}
	post := &projectNode{input: agg, out: schemaOf(cols)}
	for i, c := range cols {
		var e exec.Expr = &exec.ColExpr{Index: i, Name: c.Name, T: execTypes[i]}
		if !execTypes[i].Nullable().Equal(c.T.Nullable()) {
			e = &exec.CastExpr{X: e, T: c.T.Nullable()}
		}
		post.exprs = append(post.exprs, e)
	}
	return post, nil
}

// filtersOnce computes, in a projection over in (x's input lowered), the
// FILTER of each call whose inputs lowerAggregateOver computes under it
// (add's guard), and rewrites the call's FILTER to read that column: the
// guard and the aggregate's filter column then test one value per row.
// Written twice, a volatile FILTER was evaluated twice: count(1/b) FILTER
// (WHERE random() < 0.5) counted the rows where both draws passed, and
// nextval advanced twice a row. A FILTER calling a UDF is left alone
// (aggregateUDFs computes its calls once).
func filtersOnce(in Node, x *binder.Aggregate) (Node, *binder.Aggregate, error) {
	var p *projectNode
	var cols []binder.Column
	var out binder.Aggregate
	for i, call := range x.Aggs {
		if call.Filter == nil || !mayFail(call.Filter) || hasUDF(call.Filter) || !guarded(call) {
			continue
		}
		if p == nil {
			cols = slices.Clone(x.Input.Columns())
			p = &projectNode{input: in}
			for j, c := range cols {
				le, err := lowerExpr(&binder.ColumnRef{Index: j, Name: c.Name, T: c.T})
				if err != nil {
					return nil, nil, err
				}
				p.exprs = append(p.exprs, le)
			}
			out = *x
			out.Aggs = slices.Clone(x.Aggs)
		}
		le, err := lowerExpr(call.Filter)
		if err != nil {
			return nil, nil, err
		}
		ref := &binder.ColumnRef{Index: len(cols), Name: fmt.Sprintf("filter%d", i), T: call.Filter.Type()}
		p.exprs = append(p.exprs, le)
		cols = append(cols, binder.Column{Name: ref.Name, T: ref.T})
		out.Aggs[i].Filter = ref
	}
	if p == nil {
		return in, x, nil
	}
	p.out = schemaOf(cols)
	return p, &out, nil
}

// guarded reports whether lowerAggregateOver computes an input of call
// under its FILTER (one that mayFail).
func guarded(call binder.AggCall) bool {
	for _, k := range call.OrderBy {
		if mayFail(k.Expr) {
			return true
		}
	}
	return slices.ContainsFunc(call.Args, mayFail)
}

// mayFail reports whether evaluating e may raise an error: anything but a
// column, a constant or a parameter.
func mayFail(e binder.Expr) bool {
	switch e.(type) {
	case *binder.ColumnRef, *binder.Const, *binder.Param:
		return false
	}
	return true
}

// joinNode is a hash join on equality keys (or a nested-loop join when
// there are none) with a residual condition over the joined row.
type joinNode struct {
	left, right         Node
	leftKeys, rightKeys []int
	typ                 relop.JoinType
	residual            exec.Expr // nil: none
	nullAware           bool
	// keysProjected: left is the projection computing the probe keys
	// (relop.HashJoin.ProbeKeysProjected)
	keysProjected bool
	out           *arrow.Schema
}

func (n *joinNode) Schema() *arrow.Schema { return n.out }
func (n *joinNode) Inputs() []Node        { return []Node{n.left, n.right} }
func (n *joinNode) Explain() (string, string) {
	kind := "hash_join"
	if len(n.leftKeys) == 0 {
		kind = "nested_loop_join"
	}
	d := "type=" + n.typ.String()
	if len(n.leftKeys) > 0 {
		d += fmt.Sprintf(" keys=%v=%v", n.leftKeys, n.rightKeys)
	}
	if n.residual != nil {
		d += " cond=" + n.residual.String()
	}
	if n.nullAware {
		d += " null_aware" // NOT IN's NULL rules
	}
	return kind, d
}

func (n *joinNode) Build(rt *Runtime) (exec.Operator, error) {
	l, err := Build(rt, n.left)
	if err != nil {
		return nil, err
	}
	r, err := Build(rt, n.right)
	if err != nil {
		l.Close()
		return nil, err
	}
	var res relop.Residual
	if n.residual != nil {
		res = n.residual
	}
	if len(n.leftKeys) == 0 {
		return &relop.NestedLoopJoin{Left: l, Right: r, Type: n.typ, Cond: res, EC: rt.EC, Mem: rt.Mem, Alloc: rt.EC.Mem}, nil
	}
	return &relop.HashJoin{Left: l, Right: r, LeftKeys: n.leftKeys, RightKeys: n.rightKeys, Type: n.typ,
		Residual: res, EC: rt.EC, NullAware: n.nullAware, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem,
		ProbeKeysProjected: n.keysProjected}, nil
}

var joinTypes = map[binder.JoinType]relop.JoinType{
	binder.InnerJoin: relop.InnerJoin, binder.CrossJoin: relop.InnerJoin, binder.LeftJoin: relop.LeftJoin,
	binder.RightJoin: relop.RightJoin, binder.FullJoin: relop.FullJoin, binder.SemiJoin: relop.SemiJoin,
	binder.AntiJoin: relop.AntiJoin,
}

// lowerJoin splits the join condition into equality keys (a left-only
// expression = a right-only expression) and a residual. Keys that are not
// plain columns are computed by a projection under each side; the extra
// columns are projected away above the join.
func lowerJoin(x *binder.Join) (Node, error) {
	if err := checkFullJoinQuals(x); err != nil { // fulljoinquals.go
		return nil, err
	}
	left, err := lowerNode(x.Left)
	if err != nil {
		return nil, err
	}
	right, err := lowerNode(x.Right)
	if err != nil {
		return nil, err
	}
	nl := len(x.Left.Columns())
	nr := len(x.Right.Columns())
	var lkeys, rkeys []binder.Expr
	var rest, unhashed []binder.Expr
	if x.Cond != nil {
		for _, c := range conjuncts(x.Cond) {
			if l, r, ok := equiKey(c, nl); ok {
				if !pgHashable(l, r) {
					unhashed = append(unhashed, c)
					continue
				}
				lkeys, rkeys = append(lkeys, l), append(rkeys, r)
				continue
			}
			rest = append(rest, c)
		}
	}
	if len(lkeys) > 0 {
		// PostgreSQL hashes on its hashable equalities only and computes
		// the others (a date beside a timestamp) as a join filter, for
		// the pairs the hash keys matched: an error computing them for
		// other rows is not the statement's.
		rest = append(unhashed, rest...)
	} else {
		for _, c := range unhashed { // PostgreSQL's merge join computes them for every row
			l, r, _ := equiKey(c, nl)
			lkeys, rkeys = append(lkeys, l), append(rkeys, r)
		}
	}
	j := &joinNode{typ: joinTypes[x.Type], nullAware: x.NullAware}
	// Key columns: plain columns are used in place; others are appended.
	lextra, rextra := 0, 0
	leftP, rightP := &projectNode{input: left}, &projectNode{input: right}
	identity := func(p *projectNode, cols []binder.Column) {
		for i, c := range cols {
			p.exprs = append(p.exprs, &exec.ColExpr{Index: i, Name: c.Name, T: c.T})
		}
	}
	identity(leftP, x.Left.Columns())
	identity(rightP, x.Right.Columns())
	for i := range lkeys {
		li, err := keyColumn(lkeys[i], leftP, 0, &lextra)
		if err != nil {
			return nil, err
		}
		ri, err := keyColumn(rkeys[i], rightP, nl, &rextra)
		if err != nil {
			return nil, err
		}
		j.leftKeys, j.rightKeys = append(j.leftKeys, li), append(j.rightKeys, ri)
	}
	j.left, j.right = left, right
	if lextra > 0 {
		leftP.out = schemaFromExprs(leftP.exprs, "lk")
		j.left = leftP
		j.keysProjected = true
	}
	if rextra > 0 {
		rightP.out = schemaFromExprs(rightP.exprs, "rk")
		j.right = rightP
	}
	// The residual sees left columns (with extras) then right columns (with extras).
	if len(rest) > 0 {
		var cond binder.Expr = rest[0]
		for _, c := range rest[1:] {
			cond = &binder.BinaryOp{Op: binder.OpAnd, L: cond, R: c, T: types.BoolType}
		}
		remap := map[int]int{}
		for i := 0; i < nl+nr; i++ {
			remap[i] = i
			if i >= nl {
				remap[i] = i + lextra
			}
		}
		// in PostgreSQL's order, each conjunct only for the pairs the
		// ones before it kept (as for a filter)
		if j.residual, err = lowerExpr(remapColumns(orderQual(cond), remap)); err != nil {
			return nil, err
		}
		markQual(j.residual)
	}
	j.out = relop.JoinSchema(j.left.Schema(), j.right.Schema(), j.typ)
	if lextra == 0 && rextra == 0 {
		j.out = schemaOf(x.Columns())
		return j, nil
	}
	// Drop the computed key columns again.
	cols := x.Columns()
	drop := &projectNode{input: j, out: schemaOf(cols)}
	for i, c := range cols {
		src := i
		if i >= nl {
			src = i + lextra
		}
		drop.exprs = append(drop.exprs, &exec.ColExpr{Index: src, Name: c.Name, T: c.T})
	}
	return drop, nil
}

func schemaFromExprs(es []exec.Expr, prefix string) *arrow.Schema {
	names := make([]string, len(es))
	ts := make([]types.T, len(es))
	for i, e := range es {
		names[i] = fmt.Sprintf("%s%d", prefix, i)
		ts[i] = e.Type()
	}
	return exec.SchemaOf(names, ts)
}

// keyColumn returns the column of p holding key e (offset: the index of
// p's first column in the join's combined numbering).
func keyColumn(e binder.Expr, p *projectNode, offset int, extra *int) (int, error) {
	if c, ok := e.(*binder.ColumnRef); ok {
		return c.Index - offset, nil
	}
	remap := map[int]int{}
	binder.Walk(e, func(x binder.Expr) {
		if c, ok := x.(*binder.ColumnRef); ok {
			remap[c.Index] = c.Index - offset
		}
	})
	le, err := lowerExpr(remapColumns(e, remap))
	if err != nil {
		return 0, err
	}
	p.exprs = append(p.exprs, le)
	*extra++
	return len(p.exprs) - 1, nil
}

// pgHashable reports whether PostgreSQL's = between the key expressions
// l and r can hash (pg_operator.oprcanhash): not its cross-type
// operators among date, timestamp and timestamp with time zone, which
// sqlgate's binder writes as a cast of one side to the other's type.
func pgHashable(l, r binder.Expr) bool {
	dateTime := func(t types.T) bool {
		return t.Kind == types.Date || t.Kind == types.Timestamp || t.Kind == types.TimestampTZ
	}
	under := func(e binder.Expr) types.T {
		if c, ok := e.(*binder.Cast); ok && dateTime(c.T) && dateTime(c.X.Type()) {
			return c.X.Type()
		}
		return e.Type()
	}
	lt, rt := under(l), under(r)
	return !(dateTime(lt) && dateTime(rt) && lt.Kind != rt.Kind)
}

// equiKey matches l = r where l reads only left columns (< nl) and r only
// right columns, or the mirror image.
func equiKey(c binder.Expr, nl int) (binder.Expr, binder.Expr, bool) {
	b, ok := c.(*binder.BinaryOp)
	if !ok || b.Op != binder.OpEq {
		return nil, nil, false
	}
	side := func(e binder.Expr) int { // 1 left, 2 right, 3 both, 0 none
		s := 0
		binder.Walk(e, func(x binder.Expr) {
			if col, ok := x.(*binder.ColumnRef); ok {
				if col.Index < nl {
					s |= 1
				} else {
					s |= 2
				}
			}
		})
		return s
	}
	ls, rs := side(b.L), side(b.R)
	switch {
	case ls == 1 && rs == 2:
		return b.L, b.R, true
	case ls == 2 && rs == 1:
		return b.R, b.L, true
	}
	return nil, nil, false
}

// distinctNode removes duplicate rows, or with on set (DISTINCT ON) keeps
// the first row of each run of equal on-columns of its sorted input.
type distinctNode struct {
	input Node
	on    []int
	// forms are the columns' key forms (relop.Distinct.Forms): of on
	// by position for DISTINCT ON, of every column for DISTINCT.
	forms []types.KeyForm
	// sortFirst, when set, sorts the input with PostgreSQL's ties before
	// the DISTINCT (uniqueSortKeys)
	sortFirst []exec.SortKey
}

// uniqueSortKeys are the keys PostgreSQL's Sort under its Unique sorts a
// SELECT DISTINCT ... ORDER BY by (the ORDER BY's keys, then the other
// columns ascending), when one of d's columns has equal values that may
// print differently (relop.LooseEquality): Unique keeps the first of each
// run of equal rows as its quicksort leaves them, where a hashed DISTINCT
// keeps the first in input order. PostgreSQL 15 plans Sort and Unique for
// a small input with an ORDER BY over the DISTINCT's columns, HashAggregate
// without ORDER BY; sqlgate follows those two plans, not the HashAggregate
// and Sort PostgreSQL may cost cheaper over many duplicates.
func uniqueSortKeys(d *distinctNode, order []exec.SortKey) []exec.SortKey {
	fields := d.input.Schema().Fields()
	form := func(i int) types.KeyForm { // nil forms: all as stored (keyForms)
		if i < len(d.forms) {
			return d.forms[i]
		}
		return types.KeyAsStored
	}
	loose := false
	for i, f := range fields {
		loose = loose || relop.LooseEquality(f.Type, form(i))
	}
	if !loose {
		return nil
	}
	keys := slices.Clone(order)
	for i := range fields {
		if !slices.ContainsFunc(order, func(k exec.SortKey) bool { return k.Column == i }) {
			keys = append(keys, exec.SortKey{Column: i, Form: form(i)})
		}
	}
	return keys
}

func (n *distinctNode) Schema() *arrow.Schema { return n.input.Schema() }
func (n *distinctNode) Inputs() []Node        { return oneInput(&n.input) }
func (n *distinctNode) Explain() (string, string) {
	if n.on != nil {
		return "distinct_on", fmt.Sprintf("keys=%v", n.on)
	}
	return "distinct", ""
}
func (n *distinctNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	if n.on != nil {
		return &relop.DistinctOn{Input: in, Keys: n.on, Forms: n.forms, Alloc: rt.EC.Mem}, nil
	}
	if n.sortFirst != nil {
		in = &relop.Sort{Input: in, Keys: n.sortFirst, PostgresTies: true, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	}
	return &relop.Distinct{Input: in, Forms: n.forms, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}, nil
}

// setOpNode is UNION / INTERSECT / EXCEPT [ALL].
type setOpNode struct {
	left, right Node
	kind        relop.SetOpKind
	all         bool
	forms       []types.KeyForm // the columns' key forms (relop.SetOp.Forms)
	name        string
	out         *arrow.Schema
	mixed       *mixedRecordSpec // records of dissimilar field types (recordmix.go)
}

func (n *setOpNode) Schema() *arrow.Schema { return n.out }
func (n *setOpNode) Inputs() []Node        { return []Node{n.left, n.right} }
func (n *setOpNode) Explain() (string, string) {
	if n.all {
		return "set_operation", n.name + " ALL"
	}
	return "set_operation", n.name
}
func (n *setOpNode) Build(rt *Runtime) (exec.Operator, error) {
	l, err := Build(rt, n.left)
	if err != nil {
		return nil, err
	}
	r, err := Build(rt, n.right)
	if err != nil {
		l.Close()
		return nil, err
	}
	if n.mixed != nil {
		l, r = n.mixed.wrap(l, r) // recordmix.go
	}
	return &relabelOp{Operator: &relop.SetOp{Left: l, Right: r, Kind: n.kind, All: n.all, Forms: n.forms, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}, out: n.out}, nil
}

var setOpKinds = map[binder.SetOpKind]relop.SetOpKind{binder.Union: relop.Union, binder.Intersect: relop.Intersect, binder.Except: relop.Except}

// sortNode sorts with the spilling sort, or keeps only the first limit rows
// (top-N) when a LIMIT sits directly above it.
type sortNode struct {
	input Node
	keys  []exec.SortKey
	names []string
	// topN, when > 0, is LIMIT + OFFSET of the limit above.
	topN int64
	// runtimeTopN says the limit directly above has a LIMIT or OFFSET
	// known only at execution (a parameter): it builds this node as a
	// top-N of its values (buildTop) when they bound the rows kept.
	runtimeTopN bool
}

// maxRuntimeTopN is the largest LIMIT + OFFSET known only at execution
// that becomes a top-N: the heap holds its rows in memory without spilling,
// so a larger one (LIMIT $1 with $1 = all rows, as a client paging with a
// huge page may send) keeps the spilling sort.
const maxRuntimeTopN = 1 << 16

func (n *sortNode) Schema() *arrow.Schema { return n.input.Schema() }
func (n *sortNode) Inputs() []Node        { return oneInput(&n.input) }
func (n *sortNode) Explain() (string, string) {
	parts := make([]string, len(n.keys))
	for i, k := range n.keys {
		parts[i] = n.names[i]
		if k.Desc {
			parts[i] += " DESC"
		}
		if k.NullsFirst != k.Desc {
			if k.NullsFirst {
				parts[i] += " NULLS FIRST"
			} else {
				parts[i] += " NULLS LAST"
			}
		}
	}
	if n.topN > 0 {
		return "top_n", fmt.Sprintf("n=%d keys=%s", n.topN, strings.Join(parts, ", "))
	}
	if n.runtimeTopN {
		return "top_n", fmt.Sprintf("n=(LIMIT + OFFSET at execution; a sort past %d) keys=%s", maxRuntimeTopN, strings.Join(parts, ", "))
	}
	return "sort", strings.Join(parts, ", ")
}

// runtimeTop is a top-N's row count known only at execution, for sort.
type runtimeTop struct {
	sort *sortNode
	n    int64
}

// Build builds n as a top-N when its own topN or the limit above (through
// rt.topN: the plan is shared by executions of a prepared statement, so a
// LIMIT $1 is never stored in it) bounds the rows kept, else as the
// spilling sort.
func (n *sortNode) Build(rt *Runtime) (exec.Operator, error) {
	top := n.topN
	if rt.topN.sort == n {
		top = rt.topN.n
		rt.topN = runtimeTop{}
	}
	if top > 0 {
		if sc, col := n.hintedScan(); sc != nil { // topscan.go
			if h, ok := n.hintAt(rt, sc, col, top); ok {
				rt.scanTop = scanTop{scan: sc, hint: h}
			}
		}
	}
	in, err := Build(rt, n.input)
	rt.scanTop = scanTop{}
	if err != nil {
		return nil, err
	}
	if top > 0 {
		return &relop.TopN{Input: in, Keys: n.keys, N: top, Mem: rt.Mem, Alloc: rt.EC.Mem}, nil
	}
	return &relop.Sort{Input: in, Keys: n.keys, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}, nil
}

// relabelOp gives an operator's batches the blueprint's schema (names may
// differ; types are the same).
type relabelOp struct {
	exec.Operator
	out *arrow.Schema
}

func (o *relabelOp) Schema() *arrow.Schema { return o.out }
func (o *relabelOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := o.Operator.Next(ctx)
	if err != nil || b == nil {
		return b, err
	}
	out := array.NewRecordBatch(o.out, b.Columns(), b.NumRows())
	b.Release()
	return out, nil
}

// windowNode computes one window function: the input (with partition,
// order and argument columns appended by a projection) is sorted by
// partition then order keys, the window operator appends the result, and a
// projection keeps the original columns plus the result.
type windowNode struct {
	input Node // the projection with the appended columns
	sort  []exec.SortKey
	part  []int
	// partForms are part's key forms (relop.Window.PartitionForms).
	partForms []types.KeyForm
	order     []exec.SortKey
	spec      relop.WindowSpec
	desc      string
	out       *arrow.Schema // input columns + result
	// execT is the result type the window operator produces; a cast
	// brings it to the binder's type wantT where they differ.
	execT, wantT types.T
	keep         []exec.Expr // keepExprs, built once
}

func (n *windowNode) Schema() *arrow.Schema { return n.out }
func (n *windowNode) Inputs() []Node        { return oneInput(&n.input) }
func (n *windowNode) Explain() (string, string) {
	return "window", n.desc
}
func (n *windowNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	var sorted exec.Operator = in
	if len(n.sort) > 0 {
		sorted = &relop.Sort{Input: in, Keys: n.sort, Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	}
	last := n.out.Field(len(n.out.Fields()) - 1)
	last.Type = n.execT.ArrowType()
	fields := append(append([]arrow.Field{}, n.input.Schema().Fields()...), last)
	w := &relop.Window{Input: sorted, PartitionBy: n.part, PartitionForms: n.partForms, OrderBy: n.order, Funcs: []relop.WindowSpec{n.spec},
		Out: arrow.NewSchema(fields, nil), Mem: rt.Mem, SpillDir: rt.SpillDir, Alloc: rt.EC.Mem}
	return &exec.Project{EC: rt.EC, Input: w, Exprs: n.keep, Out: n.out}, nil
}

// keepExprs are the projection over the window operator's output: the
// input's columns and the result, cast to the binder's type where the
// operator's differs (the report lists that cast's kernel).
func (n *windowNode) keepExprs() []exec.Expr {
	keep := make([]exec.Expr, len(n.out.Fields()))
	base := len(n.out.Fields()) - 1
	for i := 0; i < base; i++ {
		f := n.out.Field(i)
		keep[i] = &exec.ColExpr{Index: i, Name: f.Name}
	}
	var res exec.Expr = &exec.ColExpr{Index: len(n.input.Schema().Fields()), Name: n.out.Field(base).Name, T: n.execT}
	if !n.execT.Nullable().Equal(n.wantT.Nullable()) {
		res = &exec.CastExpr{X: res, T: n.wantT.Nullable()}
	}
	keep[base] = res
	return keep
}

func lowerWindow(x *binder.Window) (Node, error) {
	in, err := lowerNode(x.Input)
	if err != nil {
		return nil, err
	}
	inCols := x.Input.Columns()
	pre := &projectNode{input: in}
	var names []string
	var ts []types.T
	for i, c := range inCols {
		pre.exprs = append(pre.exprs, &exec.ColExpr{Index: i, Name: c.Name, T: c.T})
		names, ts = append(names, c.Name), append(ts, c.T)
	}
	add := func(e binder.Expr, name string) (int, error) {
		le, err := lowerExpr(e)
		if err != nil {
			return 0, err
		}
		pre.exprs = append(pre.exprs, le)
		names, ts = append(names, name), append(ts, e.Type())
		return len(pre.exprs) - 1, nil
	}
	w := &windowNode{}
	call := x.Call
	for i, p := range call.Partition {
		idx, err := add(p, fmt.Sprintf("part%d", i))
		if err != nil {
			return nil, err
		}
		form := p.Type().KeyForm()
		w.part = append(w.part, idx)
		w.partForms = append(w.partForms, form)
		w.sort = append(w.sort, exec.SortKey{Column: idx, Form: form})
	}
	for i, o := range call.Order {
		idx, err := add(o.Expr, fmt.Sprintf("ord%d", i))
		if err != nil {
			return nil, err
		}
		k := exec.SortKey{Column: idx, Desc: o.Desc, NullsFirst: o.NullsFirst, Form: o.Expr.Type().KeyForm()}
		w.order = append(w.order, k)
		w.sort = append(w.sort, k)
	}
	spec := relop.WindowSpec{Func: call.Func, Arg: -1, Offset: -1, Default: -1}
	agg := relop.IsWindowAggregate(call.Func)
	if agg && (len(call.Args) > 1 || call.Filter != nil || call.Arrays) {
		spec.Agg = &relop.WindowAggArgs{Filter: -1, Sep: -1, X: -1, Arrays: call.Arrays}
	}
	for i, a := range call.Args {
		idx, err := add(a, fmt.Sprintf("arg%d", i))
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0:
			spec.Arg, spec.Form, spec.Money = idx, a.Type().KeyForm(), a.Type().IsMoney()
		case agg && i == 1 && strings.EqualFold(call.Func, "string_agg"):
			spec.Agg.Sep = idx
		case agg && i == 1:
			spec.Agg.X = idx // corr(Y, X) and the other statistics of pairs
		case i == 1:
			spec.Offset = idx
		case i == 2:
			spec.Default = idx
		}
	}
	if call.Filter != nil {
		idx, err := add(call.Filter, "filter")
		if err != nil {
			return nil, err
		}
		spec.Agg.Filter = idx
	}
	if f := call.Frame; f != nil {
		fr := &relop.Frame{Mode: relop.FrameRange, Exclude: relop.ExcludeOf(f.Exclude)}
		if f.Rows {
			fr.Mode = relop.FrameRows
		} else if f.Groups {
			fr.Mode = relop.FrameGroups
		}
		conv := func(b binder.FrameBound) relop.FrameBound {
			switch b.Kind {
			case "unbounded preceding":
				return relop.FrameBound{Kind: relop.UnboundedPreceding}
			case "preceding":
				return relop.FrameBound{Kind: relop.Preceding, Offset: b.Offset, OffsetFloat: float64(b.Offset)}
			case "following":
				return relop.FrameBound{Kind: relop.Following, Offset: b.Offset, OffsetFloat: float64(b.Offset)}
			case "unbounded following":
				return relop.FrameBound{Kind: relop.UnboundedFollowing}
			}
			return relop.FrameBound{Kind: relop.CurrentRow}
		}
		fr.Start, fr.End = conv(f.Start), conv(f.End)
		spec.Frame = fr
	}
	w.spec = spec
	var argT types.T
	if len(call.Args) > 0 {
		argT = call.Args[0].Type()
	}
	if w.execT, err = relop.WindowResultType(call.Func, argT); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "window %s: %v", call.Func, err)
	}
	w.wantT = call.T
	pre.out = exec.SchemaOf(names, ts)
	w.input = pre
	w.out = schemaOf(x.Columns())
	w.desc = fmt.Sprintf("%s partitions=%d order_keys=%d", call.Func, len(call.Partition), len(call.Order))
	w.keep = w.keepExprs()
	return w, nil
}
