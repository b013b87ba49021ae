package lower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// The opaque tier in the blueprint. A Go UDF is never lowered to kernels,
// folded or rewritten: each call is its own node, reported as
// kind=opaque_udf, lowerable=false, executor_tier=go_udf. A scalar call in a
// SELECT list or WHERE clause becomes a udfNode under the projection or
// filter that appends the call's result as a column the expression then
// reads; a record-batch UDF in FROM is a tableUDFNode.

// opaqueNode marks the blueprint nodes outside the lowerable tier, for the
// report (Explain, ExplainJSON).
type opaqueNode interface {
	opaqueTier() string
}

// udfNode runs a scalar Go UDF (binder.UDFCall): its output is its input's
// columns, then the call's result.
type udfNode struct {
	input Node
	fn    *udf.Scalar
	args  []exec.Expr
	out   *arrow.Schema
}

func (n *udfNode) Schema() *arrow.Schema { return n.out }
func (n *udfNode) Inputs() []Node        { return []Node{n.input} }
func (n *udfNode) opaqueTier() string    { return "go_udf" }
func (n *udfNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.ScalarUDF{EC: rt.EC, Input: in, UDF: n.fn, Args: n.args, Out: n.out}, nil
}
func (n *udfNode) Explain() (string, string) {
	last := n.out.Field(len(n.out.Fields()) - 1).Name
	return "opaque_udf", fmt.Sprintf("%s(%s) AS %s", n.fn.Name, exprList(n.args), last)
}

// tableUDFNode runs a record-batch Go UDF called in FROM (binder.UDFTable).
type tableUDFNode struct {
	fn   *udf.Table
	args []exec.Expr
	out  *arrow.Schema
}

func (n *tableUDFNode) Schema() *arrow.Schema { return n.out }
func (n *tableUDFNode) Inputs() []Node        { return nil }
func (n *tableUDFNode) opaqueTier() string    { return "go_udf" }
func (n *tableUDFNode) Build(rt *Runtime) (exec.Operator, error) {
	return &exec.TableUDF{EC: rt.EC, UDF: n.fn, Args: n.args, Out: n.out}, nil
}
func (n *tableUDFNode) Explain() (string, string) {
	return "opaque_udf", fmt.Sprintf("%s(%s) table", n.fn.Name, exprList(n.args))
}

func exprList(es []exec.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func lowerUDFTable(x *binder.UDFTable) (Node, error) {
	args, err := lowerUDFArgs(x.Args)
	if err != nil {
		return nil, err
	}
	return &tableUDFNode{fn: x.UDF, args: args, out: schemaOf(x.Columns())}, nil
}

// lowerUDFArgs lowers a UDF's constant arguments.
func lowerUDFArgs(es []binder.Expr) ([]exec.Expr, error) {
	out := make([]exec.Expr, len(es))
	for i, a := range es {
		la, err := lowerExpr(a)
		if err != nil {
			return nil, err
		}
		out[i] = la
	}
	return out, nil
}

// hasUDF reports whether e calls a scalar Go UDF (outside subquery plans,
// which are lowered on their own).
func hasUDF(e binder.Expr) bool {
	return anyExpr(e, func(x binder.Expr) bool {
		_, ok := x.(*binder.UDFCall)
		return ok
	})
}

// extractUDFs puts one udfNode over in per scalar UDF call of exprs,
// innermost calls first (their results feed the outer calls' arguments),
// and returns the expressions with each call replaced by a reference to
// its column.
func extractUDFs(in Node, exprs []binder.Expr) (Node, []binder.Expr, error) {
	if !slices.ContainsFunc(exprs, hasUDF) { // the common case: nothing to extract, nothing copied
		return in, exprs, nil
	}
	cur := in
	var rewrite func(binder.Expr) (binder.Expr, error)
	rewrite = func(e binder.Expr) (binder.Expr, error) {
		c, err := binder.MapChildren(e, rewrite)
		if err != nil {
			return nil, err
		}
		call, ok := c.(*binder.UDFCall)
		if !ok {
			return c, nil
		}
		n := &udfNode{input: cur, fn: call.UDF}
		for _, a := range call.Args {
			la, err := lowerExpr(a)
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, la)
		}
		width := len(cur.Schema().Fields())
		name := fmt.Sprintf("%s_%d", call.UDF.Name, width+1)
		fs := append(append([]arrow.Field(nil), cur.Schema().Fields()...),
			arrow.Field{Name: name, Type: call.UDF.Returns.ArrowType(), Nullable: true})
		n.out = arrow.NewSchema(fs, nil)
		cur = n
		return &binder.ColumnRef{Index: width, Name: name, T: call.Type()}, nil
	}
	out := make([]binder.Expr, len(exprs))
	for i, e := range exprs {
		if !hasUDF(e) {
			out[i] = e
			continue
		}
		r, err := rewrite(e)
		if err != nil {
			return nil, nil, err
		}
		out[i] = r
	}
	return cur, out, nil
}

// lowerUDFFilter lowers a filter whose condition calls a UDF: the calls'
// nodes, the filter over their columns, then a projection back to the
// input's columns (which passes their buffers through). The conjuncts
// are taken in PostgreSQL's order, a UDF call costed by its crossing
// (qualCost): those before the first that calls a UDF are a filter below
// the UDF nodes, so that the calls run only on the rows they keep.
func lowerUDFFilter(x *binder.Filter) (Node, error) {
	cs := conjuncts(orderQual(x.Cond))
	k := slices.IndexFunc(cs, hasUDF)
	var in Node
	var err error
	if k > 0 {
		in, err = lowerNode(&binder.Filter{Input: x.Input, Cond: conjoin(cs[:k])})
	} else {
		in, err = lowerNode(x.Input)
	}
	if err != nil {
		return nil, err
	}
	withUDFs, conds, err := extractUDFs(in, []binder.Expr{conjoin(cs[k:])})
	if err != nil {
		return nil, err
	}
	cond, err := lowerExpr(conds[0])
	if err != nil {
		return nil, err
	}
	p := &projectNode{input: &filterNode{input: withUDFs, cond: cond}, out: in.Schema()}
	for i, c := range x.Input.Columns() {
		p.exprs = append(p.exprs, &exec.ColExpr{Index: i, Name: c.Name, T: c.T})
	}
	return p, nil
}

// conjoin is the AND of cs (at least one), in order.
func conjoin(cs []binder.Expr) binder.Expr {
	out := cs[0]
	for _, c := range cs[1:] {
		out = &binder.BinaryOp{Op: binder.OpAnd, L: out, R: c, T: types.BoolType}
	}
	return out
}

// udfCost is a UDF call's per-row cost in qualCost's units (one built-in
// operator call), from the crossing measured in bench/LEDGER.md (2026-12-02
// 07:41, left*2 at 64 KiB / 1 MiB / 16 MiB batches): a Go scalar UDF costs
// about twice the native kernel again per row, a Python function ~5x at
// 1 MiB and ~70x at 64 KiB (its crossing is milliseconds per batch). Go
// calls are costed 3, Python ones 100, PostgreSQL's default procost for a
// function in a procedural language: either way more than a kernel
// conjunct, which PostgreSQL's order and lowerUDFFilter then run first.
func udfCost(language string) int {
	if language == "" {
		return 3
	}
	return 100
}

// udfPlacement is the error for a UDF call where no node can run it.
func udfPlacement(x *binder.UDFCall) error {
	return sqlerr.NotSupported(fmt.Sprintf("calling Go UDF %s outside a SELECT list or WHERE clause", x.UDF.Name))
}

// aggregateUDFs puts the UDF calls of an aggregation's keys and aggregate
// arguments under it (SELECT sum(f(x)) ... GROUP BY g(y)).
func aggregateUDFs(in Node, x *binder.Aggregate) (Node, *binder.Aggregate, error) {
	var all []binder.Expr
	all = append(all, x.GroupBy...)
	for _, a := range x.Aggs {
		all = append(all, a.Args...)
		if a.Filter != nil {
			all = append(all, a.Filter)
		}
		for _, k := range a.OrderBy {
			all = append(all, k.Expr)
		}
	}
	if !slices.ContainsFunc(all, hasUDF) {
		return in, x, nil
	}
	in, all, err := extractUDFs(in, all)
	if err != nil {
		return nil, nil, err
	}
	c := *x
	c.GroupBy, all = all[:len(x.GroupBy)], all[len(x.GroupBy):]
	c.Aggs = make([]binder.AggCall, len(x.Aggs))
	for i, a := range x.Aggs {
		a.Args, all = all[:len(a.Args)], all[len(a.Args):]
		if a.Filter != nil {
			a.Filter, all = all[0], all[1:]
		}
		keys := make([]binder.SortKey, len(a.OrderBy))
		for k, key := range a.OrderBy {
			key.Expr, all = all[0], all[1:]
			keys[k] = key
		}
		a.OrderBy = keys
		c.Aggs[i] = a
	}
	return in, &c, nil
}

// batchUDFNode runs a batch Go UDF over its input relation
// (binder.UDFBatch).
type batchUDFNode struct {
	input Node
	fn    *udf.Batch
	args  []exec.Expr
	out   *arrow.Schema
}

func (n *batchUDFNode) Schema() *arrow.Schema { return n.out }
func (n *batchUDFNode) Inputs() []Node        { return []Node{n.input} }
func (n *batchUDFNode) opaqueTier() string    { return "go_udf" }
func (n *batchUDFNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.BatchUDF{EC: rt.EC, UDF: n.fn, Input: in, Args: n.args, Out: n.out}, nil
}
func (n *batchUDFNode) Explain() (string, string) {
	args := "input"
	if len(n.args) > 0 {
		args += ", " + exprList(n.args)
	}
	return "opaque_udf", fmt.Sprintf("%s(%s) batch", n.fn.Name, args)
}

func lowerUDFBatch(x *binder.UDFBatch) (Node, error) {
	in, err := lowerNode(x.Input)
	if err != nil {
		return nil, err
	}
	args, err := lowerUDFArgs(x.Args)
	if err != nil {
		return nil, err
	}
	return &batchUDFNode{input: in, fn: x.UDF, args: args, out: schemaOf(x.Columns())}, nil
}
