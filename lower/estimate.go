package lower

import (
	"context"
	"math"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
)

// Stats gives the planner the row counts of stored tables: what join
// ordering and EXPLAIN's estimated rows start from. It must be cheap (no
// rows read); the engine answers from the store's metadata.
type Stats interface {
	// EstimateRows estimates the rows of the table at path; ok is false
	// when the store cannot tell.
	EstimateRows(ctx context.Context, path fluss.TablePath) (rows int64, ok bool)
}

// Options control one planning.
type Options struct {
	// Ctx bounds the Stats calls (nil: context.Background()).
	Ctx context.Context
	// Stats, when nil, estimates every table at defaultTableRows.
	Stats Stats
	// Disabled names rules (rules.go) to skip: tests run a plan with and
	// without each rule and compare the results.
	Disabled map[string]bool
}

// defaultTableRows is the estimate of a table whose size is unknown.
const defaultTableRows = 1000

// Selectivities of predicates the estimator cannot measure (there are no
// column statistics): PostgreSQL's defaults for equality and ranges.
const (
	eqSelectivity    = 0.005
	rangeSelectivity = 1.0 / 3
	otherSelectivity = 0.5
)

// estimator estimates the rows of logical plans, caching each table's row
// count for the planning.
type estimator struct {
	ctx    context.Context
	stats  Stats
	tables map[fluss.TablePath]float64
}

func newEstimator(o Options) *estimator {
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return &estimator{ctx: ctx, stats: o.Stats, tables: map[fluss.TablePath]float64{}}
}

// tableRows is the estimated row count of a stored table.
func (e *estimator) tableRows(p fluss.TablePath) float64 {
	if e == nil {
		return defaultTableRows
	}
	if r, ok := e.tables[p]; ok {
		return r
	}
	r := float64(defaultTableRows)
	if e.stats != nil {
		if n, ok := e.stats.EstimateRows(e.ctx, p); ok {
			r = float64(max(n, 0))
		}
	}
	e.tables[p] = r
	return r
}

// rows estimates the rows a logical plan produces.
func (e *estimator) rows(n binder.Node) float64 {
	switch x := n.(type) {
	case *binder.Scan:
		return e.tableRows(x.Table.Path)
	case *scanProjection:
		return e.tableRows(x.table.Path)
	case *pkLookup:
		return float64(len(x.keys))
	case *binder.Values:
		return float64(len(x.Rows))
	case *binder.Filter:
		return e.rows(x.Input) * selectivity(x.Cond)
	case *binder.Limit:
		r := e.rows(x.Input)
		if c, ok := constInt(x.Count); ok && x.Count != nil {
			r = math.Min(r, float64(max(c, 0)))
		}
		return r
	case *binder.Aggregate:
		return groupRows(e.rows(x.Input), len(x.GroupBy))
	case *binder.Distinct, *binder.DistinctOn:
		return groupRows(e.rows(n.Children()[0]), 1)
	case *binder.Join:
		var cond []binder.Expr
		if x.Cond != nil {
			cond = conjuncts(x.Cond)
		}
		return joinRows(e.rows(x.Left), e.rows(x.Right), x.Type, countEqui(cond, len(x.Left.Columns())), len(cond))
	case *binder.SetOp:
		return setOpRows(e.rows(x.Left), e.rows(x.Right), x.Kind == binder.Union, x.Kind == binder.Intersect)
	}
	if kids := n.Children(); len(kids) > 0 {
		return e.rows(kids[0])
	}
	return 1
}

// selectivity estimates the fraction of rows a condition keeps.
func selectivity(c binder.Expr) float64 {
	switch x := c.(type) {
	case *binder.Const:
		if b, ok := x.Value.(bool); ok && b {
			return 1
		}
		return 0 // false or NULL
	case *binder.BinaryOp:
		switch x.Op {
		case binder.OpAnd:
			return selectivity(x.L) * selectivity(x.R)
		case binder.OpOr:
			return math.Min(1, selectivity(x.L)+selectivity(x.R))
		case binder.OpEq, binder.OpIsNotDistinct:
			return eqSelectivity
		case binder.OpLt, binder.OpLe, binder.OpGt, binder.OpGe:
			return rangeSelectivity
		}
	case *binder.UnaryOp:
		if x.Op == binder.OpNot {
			return 1 - selectivity(x.X)
		}
	}
	return otherSelectivity
}

// countEqui counts the conjuncts that are equalities between the two sides
// of a join (nl: the left side's column count).
func countEqui(cond []binder.Expr, nl int) int {
	n := 0
	for _, c := range cond {
		if _, _, ok := equiKey(c, nl); ok {
			n++
		}
	}
	return n
}

// joinRows estimates a join's output. An equi-join is taken to match each
// row of the larger side with about one row of the smaller (a foreign key
// into a key); further conditions filter.
func joinRows(l, r float64, t binder.JoinType, equi, conds int) float64 {
	var out float64
	if equi > 0 {
		out = math.Max(l, r)
		for range conds - equi {
			out *= otherSelectivity
		}
	} else {
		out = l * r
		for range conds {
			out *= rangeSelectivity
		}
	}
	switch t {
	case binder.SemiJoin:
		return math.Min(l, out) * otherSelectivity
	case binder.AntiJoin:
		return l * otherSelectivity
	case binder.LeftJoin:
		return math.Max(out, l)
	case binder.RightJoin:
		return math.Max(out, r)
	case binder.FullJoin:
		return math.Max(out, l+r)
	}
	return out
}

// groupRows estimates the groups of rows grouped by keys columns.
func groupRows(rows float64, keys int) float64 {
	if keys == 0 {
		return 1
	}
	return math.Max(1, math.Min(rows, math.Ceil(rows/10)))
}

func setOpRows(l, r float64, union, intersect bool) float64 {
	switch {
	case union:
		return l + r
	case intersect:
		return math.Min(l, r)
	}
	return l
}

// estimateNode estimates the rows a blueprint node produces, for EXPLAIN.
// Scans carry their table's estimate from planning.
func estimateNode(n Node) float64 {
	switch x := n.(type) {
	case *scanNode:
		if x.limit > 0 {
			return math.Min(x.rows, float64(x.limit))
		}
		return x.rows
	case *lookupNode:
		return float64(len(x.keys))
	case *valuesNode:
		return float64(len(x.rows))
	case *filterNode:
		return estimateNode(x.input) * execSelectivity(x.cond)
	case *limitNode:
		r := estimateNode(x.input)
		if c, ok := x.count.(*exec.ConstExpr); ok {
			if v, ok := c.Value.(int64); ok {
				r = math.Min(r, float64(max(v, 0)))
			}
		}
		return r
	case *sortNode:
		r := estimateNode(x.input)
		if x.topN > 0 {
			r = math.Min(r, float64(x.topN))
		}
		return r
	case *aggregateNode:
		return groupRows(estimateNode(x.input), len(x.groupBy))
	case *distinctNode:
		return groupRows(estimateNode(x.input), 1)
	case *joinNode:
		conds := len(x.leftKeys)
		if x.residual != nil {
			conds += len(execConjuncts(x.residual))
		}
		return joinRows(estimateNode(x.left), estimateNode(x.right), logicalJoinType(x.typ), len(x.leftKeys), conds)
	case *setOpNode:
		return setOpRows(estimateNode(x.left), estimateNode(x.right), x.name == "UNION", x.name == "INTERSECT")
	}
	if in := n.Inputs(); len(in) > 0 {
		return estimateNode(in[0])
	}
	return 1
}

func execConjuncts(e exec.Expr) []exec.Expr {
	if l, ok := e.(*exec.LogicExpr); ok && l.And {
		return append(execConjuncts(l.L), execConjuncts(l.R)...)
	}
	return []exec.Expr{e}
}

func execSelectivity(c exec.Expr) float64 {
	switch x := c.(type) {
	case *exec.ConstExpr:
		if b, ok := x.Value.(bool); ok && b {
			return 1
		}
		return 0
	case *exec.LogicExpr:
		if x.And {
			return execSelectivity(x.L) * execSelectivity(x.R)
		}
		return math.Min(1, execSelectivity(x.L)+execSelectivity(x.R))
	case *exec.CmpExpr:
		switch x.Op {
		case exec.Eq, exec.NotDistinct:
			return eqSelectivity
		case exec.Lt, exec.Le, exec.Gt, exec.Ge:
			return rangeSelectivity
		}
	case *exec.NotExpr:
		return 1 - execSelectivity(x.X)
	}
	return otherSelectivity
}

// setTableRows gives every scan of the blueprint its table's estimate.
func setTableRows(n Node, e *estimator) {
	if s, ok := n.(*scanNode); ok {
		s.rows = e.tableRows(s.path)
	}
	for _, in := range n.Inputs() {
		setTableRows(in, e)
	}
}

// estimatedRows is a node's estimate as EXPLAIN prints it.
func estimatedRows(n Node) int64 {
	r := estimateNode(n)
	if math.IsNaN(r) || r < 0 {
		return 0
	}
	if r > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Round(r))
}

func logicalJoinType(t relop.JoinType) binder.JoinType {
	for b, r := range joinTypes {
		if r == t && b != binder.CrossJoin {
			return b
		}
	}
	return binder.InnerJoin
}
