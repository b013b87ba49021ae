package binder

import (
	"strings"

	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// SubqueryMode says how a subquery's rows become a value.
type SubqueryMode uint8

// The subquery modes.
const (
	// ScalarSubquery: the single value of a one-column query (NULL when no
	// row, 21000 when several).
	ScalarSubquery SubqueryMode = iota
	// ExistsSubquery: whether the query returns a row.
	ExistsSubquery
	// AnySubquery: X op ANY (query) (IN is = ANY), with SQL's NULL rules.
	AnySubquery
	// AllSubquery: X op ALL (query) (NOT IN is <> ALL).
	AllSubquery
	// ArraySubquery: ARRAY(query), the column's values as an array.
	ArraySubquery
	// RowCompareSubquery: (x1, ..., xn) op (SELECT y1, ..., yn), a row
	// comparison with the query's one row (NULL when no row, 21000 when
	// several).
	RowCompareSubquery
)

// Subquery is a subquery used as an expression. The executor runs an
// uncorrelated Plan once per execution; a correlated one once per distinct
// outer row (a nested-loop apply — the fallback where no decorrelation
// rule applies).
type Subquery struct {
	Plan Node
	// Outer are the enclosing query's values a correlated subquery reads
	// (its OuterRef slots), over the enclosing query's columns; empty for an
	// uncorrelated subquery, which runs once per execution.
	Outer []Expr
	Mode  SubqueryMode
	X     Expr // AnySubquery / AllSubquery / RowCompareSubquery: the left operand
	Op    Op   // AnySubquery / AllSubquery / RowCompareSubquery: the comparison
	// RowWise: X is a ROW constructor of n fields and Plan's one column
	// the row of the query's n columns, compared as PostgreSQL compares
	// row constructors (field by field, NULL fields making the pair NULL),
	// not as records (rowsubquery.go).
	RowWise bool
	// SubPlan says the subquery stays a per-row test though it is now a
	// WHERE conjunct (or one's NOT): plan-time folding pushed a NOT into
	// the AND or OR it sat under (negate_clause in eval_const_expressions),
	// which PostgreSQL does after pull_up_sublinks has chosen the
	// sublinks it turns into semi and anti joins, so it stays a SubPlan
	// there, computed at the scan below the joins.
	SubPlan bool
	// FoldedX says X read the query's columns before plan-time folding
	// made it a constant (CASE WHEN NULL THEN a.x ELSE 1 END IN (...)):
	// PostgreSQL's pull_up_sublinks, which runs before
	// eval_const_expressions, saw Vars there and made the sublink a semi
	// join (convert_ANY_sublink_to_join), so it is one still.
	FoldedX bool
	// NotIn says the subquery is x NOT IN (SELECT ...), bound as x <> ALL
	// but PostgreSQL's NOT (x = ANY (...)): a sublink it hashes as it
	// does IN, where it does not hash x <> ALL written so.
	NotIn bool
	T     types.T
}

func (e *Subquery) Type() types.T { return e.T }
func (e *Subquery) String() string {
	switch e.Mode {
	case ExistsSubquery:
		return "EXISTS(subquery)"
	case AnySubquery:
		return e.X.String() + " " + e.Op.String() + " ANY(subquery)"
	case AllSubquery:
		return e.X.String() + " " + e.Op.String() + " ALL(subquery)"
	case RowCompareSubquery:
		return e.X.String() + " " + e.Op.String() + " (subquery)"
	}
	return "(subquery)"
}

// bindSubqueryPlan binds a subquery's query (the TiDB statement a
// pt.Subquery carries until queries move into sqlgate's tree, or one the
// statement-level files hand over) with s as its outer scope.
func (b *binder) bindSubqueryPlan(s *scope, q any) (Node, []Expr, error) {
	prevOuter, prevAgg, prevCorr := b.outer, b.agg, b.corr
	if s != nil {
		ns := *s
		ns.parent = b.outer
		b.outer = &ns
		b.corr = &corrState{outer: &ns, slots: map[int]int{}, parent: prevCorr, level: b.level}
	}
	// A derived table (s nil) sees no sibling FROM item (no LATERAL), but
	// inside a subquery it sees the enclosing queries' rows, as in
	// PostgreSQL: b.corr stays the subquery's, so that its outer
	// references are the subquery's (pgcli's foreign-key query reads
	// fk.confkey in a FROM subquery of a scalar subquery).
	b.agg = nil
	corr := b.corr
	defer func() { b.outer, b.agg, b.corr = prevOuter, prevAgg, prevCorr }()
	n, err := b.bindSubqueryQuery(q) // exprbind.go
	if err != nil {
		return nil, nil, err
	}
	var refs []Expr
	if corr != nil {
		refs = corr.refs
	}
	return n, refs, nil
}

// bindScalarSubquery binds (SELECT ...) used as a value.
func (b *binder) bindScalarSubquery(s *scope, n *pt.Subquery) (Expr, error) {
	plan, outer, err := b.bindSubqueryPlan(s, n)
	if err != nil {
		return nil, err
	}
	cols := plan.Columns()
	if len(cols) != 1 {
		return nil, b.errAt(n, sqlerr.New(sqlerr.SyntaxError, "subquery must return only one column"))
	}
	return &Subquery{Plan: plan, Outer: outer, Mode: ScalarSubquery, T: cols[0].T.Nullable()}, nil
}

// bindRowCompareSubquery binds (x1, ..., xn) op (SELECT y1, ..., yn), a
// ROW constructor compared with a subquery's one row (PostgreSQL's
// ROWCOMPARE sublink; rowsubquery.go). ok is false when n is not a ROW
// constructor compared with a subquery.
func (b *binder) bindRowCompareSubquery(s *scope, n *pt.Binary, op Op) (Expr, bool, error) {
	q, isQuery := n.R.(*pt.Subquery)
	if !isQuery || !isRowTree(n.L) {
		return nil, false, nil
	}
	x, err := b.bindTree(s, n.L)
	if err != nil {
		return nil, true, err
	}
	plan, outer, err := b.bindSubqueryPlan(s, q)
	if err != nil {
		return nil, true, err
	}
	at := b.operatorNode(n)
	x, fields, err := b.rowSubqueryOperand(at, n.L, x, len(plan.Columns())) // recordmix.go
	if err != nil {
		return nil, true, err
	}
	if fields == nil { // one field: compared with the one column as a scalar
		y := &Subquery{Plan: plan, Outer: outer, Mode: ScalarSubquery, T: plan.Columns()[0].T.Nullable()}
		e, err := b.makeBinary(n, op, x, y)
		return e, true, err
	}
	xs, ys, err := b.rowSubqueryComparison(at, op, fields, plan) // rowsubquery.go
	if err != nil {
		return nil, true, err
	}
	null := &Const{Value: nil, T: types.BoolType}
	kept, folded := allIndexes(len(xs)), false
	if len(outer) == 0 {
		// only an uncorrelated one is an InitPlan whose comparison
		// PostgreSQL folds; a correlated one's stays in its SubPlan,
		// which runs for every row
		kept, folded = foldNullPairs(op, xs)
	}
	if len(kept) == 0 {
		return null, true, nil
	}
	row, rows := rowOperands(pick(xs, kept), pick(ys, kept), plan)
	var e Expr = &Subquery{Plan: rows, Outer: outer, Mode: RowCompareSubquery, X: row, Op: op, RowWise: true, T: types.BoolType}
	if folded {
		e, err = b.makeBinary(at, OpAnd, e, null)
	}
	return e, true, err
}

// isRowTree reports whether e is written as a ROW constructor, possibly
// cast to record (which PostgreSQL's sublinks still see as one).
func isRowTree(e pt.Expr) bool {
	for {
		c, ok := e.(*pt.Cast)
		if !ok || !isRecordCast(c) {
			break
		}
		e = c.X
	}
	_, ok := e.(*pt.Row)
	return ok
}

// bindExists binds [NOT] EXISTS (SELECT ...).
func (b *binder) bindExists(s *scope, n *pt.Exists) (Expr, error) {
	plan, outer, err := b.bindSubqueryPlan(s, n.Query)
	if err != nil {
		return nil, err
	}
	var e Expr = &Subquery{Plan: plan, Outer: outer, Mode: ExistsSubquery, T: types.BoolType}
	if n.Not {
		e = &UnaryOp{Op: OpNot, X: e, T: types.BoolType}
	}
	return e, nil
}

// compareOps are the comparisons a quantified subquery takes, by their
// spelling in the tree (pt.Quantified.Op).
var compareOps = map[string]Op{"=": OpEq, "<>": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe}

// bindQuantifiedTree binds x op ANY|ALL (q), an array's elements or a
// subquery's rows.
func (b *binder) bindQuantifiedTree(s *scope, n *pt.Quantified) (Expr, error) {
	q, ok := n.Right.(*pt.Subquery)
	if !ok {
		return b.bindQuantifiedArray(s, n) // arrays.go
	}
	if _, ok := quantifiedPatternOps[n.Op]; ok {
		// x LIKE ANY (SELECT ..): the rows as an array, which is
		// PostgreSQL's answer (quantpattern.go)
		over := *n
		over.Right = &pt.ArraySubquery{At: q.At, Query: q}
		e, err := b.bindQuantifiedArray(s, &over)
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.SyntaxError && strings.HasPrefix(se.Message, "subquery must return only one column") {
			return nil, b.errAt(n.OpAt, sqlerr.New(sqlerr.SyntaxError, "subquery has too many columns"))
		}
		return e, err
	}
	op, known := compareOps[n.Op]
	if !known {
		return nil, b.errAt(n, sqlerr.NotSupported("this quantified comparison"))
	}
	return b.bindQuantified(s, n, n.X, q, op, n.All)
}

// bindInSubquery binds x [NOT] IN (SELECT ...): x = ANY (q), or x <> ALL
// (q).
func (b *binder) bindInSubquery(s *scope, n *pt.InSubquery) (Expr, error) {
	if n.Not {
		return b.bindQuantified(s, n, n.X, n.Query, OpNe, true)
	}
	return b.bindQuantified(s, n, n.X, n.Query, OpEq, false)
}

// operatorNode is where the errors of x op ANY|ALL (SELECT ...) and x
// [NOT] IN (SELECT ...) point: PostgreSQL's place for the sublink, its
// operator (errAtOperator finds it from a *pt.Quantified) or the IN (or
// NOT) keyword.
func (b *binder) operatorNode(node sourceNode) sourceNode {
	switch n := node.(type) {
	case *pt.InSubquery:
		if off := b.keywordOffset(n, n.Query.Pos(), "in"); off > 0 { // inlist.go
			return &expansion{at: off}
		}
	case *pt.Quantified:
		if off, ok := b.operatorOffset(n, n.Op); ok {
			return &expansion{at: off}
		}
	case *pt.Binary:
		if off, ok := b.operatorOffset(n, n.Op.String()); ok {
			return &expansion{at: off}
		}
	}
	return node
}

// bindQuantified binds x op ANY|ALL (SELECT ...) and x [NOT] IN (SELECT ...).
func (b *binder) bindQuantified(s *scope, node sourceNode, xNode pt.Expr, q *pt.Subquery, op Op, all bool) (Expr, error) {
	x, err := b.bindTree(s, xNode)
	if err != nil {
		return nil, err
	}
	plan, outer, err := b.bindSubqueryPlan(s, q)
	if err != nil {
		return nil, err
	}
	at := b.operatorNode(node)
	cols := plan.Columns()
	mode := AnySubquery
	if all {
		mode = AllSubquery
	}
	x, fields, err := b.rowSubqueryOperand(at, xNode, x, len(cols)) // recordmix.go
	if err != nil {
		return nil, err
	}
	if fields != nil {
		typeOp := op
		if notIn(node) {
			typeOp = OpEq // NOT IN is NOT (x = ANY (...)) in PostgreSQL: its errors name =
		}
		xs, ys, err := b.rowSubqueryComparison(at, typeOp, fields, plan) // rowsubquery.go
		if err != nil {
			return nil, err
		}
		row, rows := rowOperands(xs, ys, plan)
		return &Subquery{Plan: rows, Outer: outer, Mode: mode, X: row, Op: op, RowWise: true, NotIn: notIn(node), T: types.BoolType}, nil
	}
	if len(cols) != 1 {
		return nil, b.errAt(at, sqlerr.New(sqlerr.SyntaxError, "subquery has too many columns"))
	}
	// Type the comparison as x op (a value of the subquery's column).
	probe := &ColumnRef{Index: 0, Name: cols[0].Name, T: cols[0].T}
	cmp, err := b.makeBinary(at, op, x, probe)
	if err != nil {
		if notIn(node) {
			// NOT IN is NOT (x = ANY (...)) in PostgreSQL: its error
			// names =
			if _, eqErr := b.makeBinary(at, OpEq, x, probe); eqErr != nil {
				return nil, eqErr
			}
		}
		return nil, err
	}
	bo, ok := cmp.(*BinaryOp)
	if ok {
		if c, isCmp := bo.L.(*FuncCall); isCmp && c.Name == "jsonb_cmp" && len(c.Args) == 2 && c.Kernel != nil {
			// jsonb: jsonb_cmp(x, y) op 0, whose left side reads y
			cmp = &FuncCall{Name: "jsonb " + op.String(), Args: c.Args, T: types.BoolType, Kernel: signCompare(op, c.Kernel)}
			ok = false
		}
	}
	if !ok {
		// arrays, jsonb: the comparison is a function, which the
		// subquery's own comparison (exec's, a semi join's) does not run
		return b.quantifiedByFunction(node, cmp, plan, outer, cols[0].Name, op, all)
	}
	x = bo.L
	if !bo.R.Type().Nullable().Equal(cols[0].T.Nullable()) {
		p := &Project{Input: plan, Exprs: []Expr{bo.R}, Cols: []Column{{Name: cols[0].Name, T: bo.R.Type().Nullable()}}}
		plan = p
	}
	return &Subquery{Plan: plan, Outer: outer, Mode: mode, X: x, Op: op, NotIn: notIn(node), T: types.BoolType}, nil
}

// notIn reports whether node is x NOT IN (SELECT ...).
func notIn(node sourceNode) bool {
	in, ok := node.(*pt.InSubquery)
	return ok && in.Not
}

// NewAggregate builds an Aggregate of input grouped by groupBy: the planner's
// subquery decorrelation (lower/) groups a correlated scalar subquery's
// aggregate by its correlation keys, so it needs the node's columns built
// as the binder builds them (keys, then the aggregates).
func NewAggregate(input Node, groupBy []Expr, aggs []AggCall) *Aggregate {
	a := &Aggregate{Input: input, GroupBy: groupBy, Aggs: aggs}
	in := input.Columns()
	for _, k := range groupBy {
		c := Column{Name: exprLabel(k), T: k.Type().Nullable()}
		if ref, ok := k.(*ColumnRef); ok && ref.Index < len(in) {
			c = in[ref.Index]
		}
		a.cols = append(a.cols, c)
	}
	for _, call := range aggs {
		a.cols = append(a.cols, Column{Name: call.Func, T: call.T})
	}
	return a
}

// quantifiedByFunction binds x op ANY|ALL (SELECT y ...) where x op y is
// the function cmp (makeBinary's FuncCall: array and jsonb comparisons):
// the subquery's values, converted as cmp converts y, are collected as
// ARRAY(SELECT ...) and each row compares x with every one of them
// through cmp's own kernel, so the quantified comparison is the scalar
// operator's ('{}'::jsonb IN (SELECT '{}'::jsonb), array[1] < ALL
// (SELECT array[2])).
func (b *binder) quantifiedByFunction(node sourceNode, cmp Expr, plan Node, outer []Expr, name string, op Op, all bool) (Expr, error) {
	f, ok := cmp.(*FuncCall)
	if !ok || len(f.Args) != 2 || f.Kernel == nil {
		return nil, b.errAt(node, sqlerr.New(sqlerr.FeatureNotSupported,
			"%s ANY/ALL (subquery) over %s and %s is not supported", op, cmp.Type().PGName(), plan.Columns()[0].T.PGName()))
	}
	x, y := f.Args[0], f.Args[1]
	yt := y.Type().Nullable()
	if _, isCol := y.(*ColumnRef); !isCol || !yt.Equal(plan.Columns()[0].T.Nullable()) {
		plan = &Project{Input: plan, Exprs: []Expr{y}, Cols: []Column{{Name: name, T: yt}}}
	}
	at := types.ArrayOf(yt)
	sq := &Subquery{Plan: plan, Outer: outer, Mode: ArraySubquery, T: at}
	fname := op.String() + " any (subquery)"
	if all {
		fname = op.String() + " all (subquery)"
	}
	return &FuncCall{Name: fname, Args: []Expr{x, sq}, T: types.BoolType,
		Kernel: quantifiedOver(f.Kernel, x.Type().Nullable(), yt, all)}, nil
}

// quantifiedOver is the kernel of x op ANY|ALL (values) given the kernel
// cmp of x op y: per row, cmp over x repeated and the values, folded with
// SQL's rules (ANY: true if one is, else NULL if one is NULL, else false;
// ALL the reverse; over no values false for ANY, true for ALL).
func quantifiedOver(cmp functions.Kernel, xt, yt types.T, all bool) functions.Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		out := array.NewBooleanBuilder(mem)
		defer out.Release()
		for i := 0; i < n; i++ {
			vals, _ := types.ValueAt(args[1], i).([]any)
			if len(vals) == 0 {
				out.Append(all)
				continue
			}
			xv := types.ValueAt(args[0], i)
			xs := make([]any, len(vals))
			for j := range xs {
				xs[j] = xv
			}
			xa, err := buildColumn(mem, xt, xs)
			if err != nil {
				return nil, err
			}
			ya, err := buildColumn(mem, yt, vals)
			if err != nil {
				xa.Release()
				return nil, err
			}
			res, err := cmp(ctx, mem, []arrow.Array{xa, ya}, len(vals))
			xa.Release()
			ya.Release()
			if err != nil {
				return nil, err
			}
			sawNull, decided := false, false
			for j := 0; j < res.Len() && !decided; j++ {
				switch v := types.ValueAt(res, j).(type) {
				case bool:
					if v != all { // ANY meets a true, ALL a false
						out.Append(v)
						decided = true
					}
				default:
					sawNull = true
				}
			}
			res.Release()
			switch {
			case decided:
			case sawNull:
				out.AppendNull()
			default:
				out.Append(all)
			}
		}
		return out.NewArray(), nil
	}
}

// buildColumn is an Arrow array of type t holding vals.
func buildColumn(mem memory.Allocator, t types.T, vals []any) (arrow.Array, error) {
	bld := array.NewBuilder(mem, t.ArrowType())
	defer bld.Release()
	for _, v := range vals {
		if err := types.AppendValue(bld, v); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// signCompare is the kernel of cmp(x, y) op 0, cmp answering a sign
// (jsonb_cmp).
func signCompare(op Op, cmp functions.Kernel) functions.Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		res, err := cmp(ctx, mem, args, n)
		if err != nil {
			return nil, err
		}
		defer res.Release()
		out := array.NewBooleanBuilder(mem)
		defer out.Release()
		for i := 0; i < n; i++ {
			v, ok := types.ValueAt(res, i).(int64)
			if !ok {
				out.AppendNull()
				continue
			}
			var r bool
			switch op {
			case OpEq:
				r = v == 0
			case OpNe:
				r = v != 0
			case OpLt:
				r = v < 0
			case OpLe:
				r = v <= 0
			case OpGt:
				r = v > 0
			case OpGe:
				r = v >= 0
			default:
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "%s ANY/ALL (subquery) over jsonb is not supported", op)
			}
			out.Append(r)
		}
		return out.NewArray(), nil
	}
}
