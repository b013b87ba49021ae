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

// DistinctStats is the optional part of a Stats that knows how many
// distinct values a stored table's column holds (the store's sketches,
// fluss.DistinctEstimator): with them an equi-join is estimated as
// |L||R|/max(ndv(L.key), ndv(R.key)) and a GROUP BY as the product of its
// keys' distinct counts, instead of the fixed guesses below.
type DistinctStats interface {
	// EstimateDistinct estimates the distinct non-null values of the
	// table's column (its position in the table's schema).
	EstimateDistinct(ctx context.Context, path fluss.TablePath, column int) (ndv int64, ok bool)
}

// Options control one planning.
type Options struct {
	// Ctx bounds the Stats calls (nil: context.Background()) and holds
	// the session (functions.WithSession) whose settings folded constants
	// read (pgfold.go's folder).
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
	ndvs   map[columnOf]float64 // < 0: unknown
}

// columnOf is a stored table's column.
type columnOf struct {
	path   fluss.TablePath
	column int
}

func newEstimator(o Options) *estimator {
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	// the caches are made on first use: a plan without a stored table's
	// estimate needs neither
	return &estimator{ctx: ctx, stats: o.Stats}
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
	if e.tables == nil {
		e.tables = map[fluss.TablePath]float64{}
	}
	e.tables[p] = r
	return r
}

// tableNDV is the estimated distinct count of a stored table's column.
func (e *estimator) tableNDV(p fluss.TablePath, col int) (float64, bool) {
	if e == nil {
		return 0, false
	}
	ds, ok := e.stats.(DistinctStats)
	if !ok { // nothing to ask or to cache
		return 0, false
	}
	k := columnOf{p, col}
	if v, ok := e.ndvs[k]; ok {
		return v, v >= 0
	}
	v := -1.0
	if n, ok := ds.EstimateDistinct(e.ctx, p, col); ok {
		v = float64(max(n, 0))
	}
	if e.ndvs == nil {
		e.ndvs = map[columnOf]float64{}
	}
	e.ndvs[k] = v
	return v, v >= 0
}

// colNDV estimates the distinct values of column col of a logical plan,
// following it down to a stored table's column; ok is false when it is
// computed or the store keeps no estimate. The caller caps it by the rows
// it applies to.
func (e *estimator) colNDV(n binder.Node, col int) (float64, bool) {
	switch x := n.(type) {
	case *binder.Scan:
		if x.Changelog || x.Binlog {
			return 0, false
		}
		return e.tableNDV(x.Table.Path, col)
	case *scanProjection:
		if x.changelog {
			return 0, false
		}
		return e.tableNDV(x.table.Path, x.projection[col])
	case *pkLookup:
		v, ok := e.tableNDV(x.table.Path, x.projection[col])
		return math.Min(v, float64(len(x.keys))), ok
	case *prefixLookup:
		return e.tableNDV(x.table.Path, x.projection[col])
	case *binder.Filter, *binder.Sort, *binder.Limit, *binder.Distinct, *binder.DistinctOn:
		return e.colNDV(n.Children()[0], col)
	case *binder.Project:
		if c := underlyingColumn(x.Exprs[col]); c != nil {
			return e.colNDV(x.Input, c.Index)
		}
	case *binder.Aggregate:
		if col < len(x.GroupBy) {
			if c := underlyingColumn(x.GroupBy[col]); c != nil {
				return e.colNDV(x.Input, c.Index)
			}
		}
	case *binder.Join:
		if nl := len(x.Left.Columns()); col < nl {
			return e.colNDV(x.Left, col)
		} else if x.Type != binder.SemiJoin && x.Type != binder.AntiJoin {
			return e.colNDV(x.Right, col-nl)
		}
	}
	return 0, false
}

// underlyingColumn is the column e reads, when e is a column or a cast of
// one (a cast keeps distinct values distinct for the types keys have).
func underlyingColumn(e binder.Expr) *binder.ColumnRef {
	switch x := e.(type) {
	case *binder.ColumnRef:
		return x
	case *binder.Cast:
		return underlyingColumn(x.X)
	}
	return nil
}

// joinNDV is the divisor of an equi-join's estimate: over the equality
// conjuncts whose both sides have known distinct counts (each capped by
// its side's rows), the largest max(ndv(l), ndv(r)); 0 when none has.
func (e *estimator) joinNDV(j *binder.Join, cond []binder.Expr, lrows, rrows float64) float64 {
	nl := len(j.Left.Columns())
	best := 0.0
	for _, c := range cond {
		l, r, ok := equiKey(c, nl)
		if !ok {
			continue
		}
		lc, rc := underlyingColumn(l), underlyingColumn(r)
		if lc == nil || rc == nil {
			continue
		}
		ln, lok := e.colNDV(j.Left, lc.Index)
		rn, rok := e.colNDV(j.Right, rc.Index-nl)
		if lok && rok {
			best = math.Max(best, math.Max(math.Min(ln, lrows), math.Min(rn, rrows)))
		}
	}
	return best
}

// groupNDV estimates the groups of an aggregation from its keys' distinct
// counts (their product, capped by the input's rows); ok is false when a
// key's count is unknown.
func groupNDV(keys int, rows float64, ndv func(int) (float64, bool)) (float64, bool) {
	if keys == 0 {
		return 1, true
	}
	out := 1.0
	for k := range keys {
		v, ok := ndv(k)
		if !ok {
			return 0, false
		}
		out *= math.Max(v, 1)
	}
	return math.Max(1, math.Min(out, rows)), true
}

// aggregateRows estimates a logical aggregation's groups.
func (e *estimator) aggregateRows(x *binder.Aggregate) float64 {
	in := e.rows(x.Input)
	if g, ok := groupNDV(len(x.GroupBy), in, func(k int) (float64, bool) {
		if c := underlyingColumn(x.GroupBy[k]); c != nil {
			return e.colNDV(x.Input, c.Index)
		}
		return 0, false
	}); ok {
		return g
	}
	return groupRows(in, len(x.GroupBy))
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
		return e.aggregateRows(x)
	case *binder.Distinct, *binder.DistinctOn:
		return groupRows(e.rows(n.Children()[0]), 1)
	case *binder.Join:
		var cond []binder.Expr
		if x.Cond != nil {
			cond = conjuncts(x.Cond)
		}
		l, r := e.rows(x.Left), e.rows(x.Right)
		return joinRows(l, r, x.Type, countEqui(cond, len(x.Left.Columns())), len(cond), e.joinNDV(x, cond, l, r))
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

// joinRows estimates a join's output. An equi-join with a known distinct
// count ndv of its most selective key (the larger of the two sides') matches
// |L||R|/ndv rows; without one it is taken to match each row of the larger
// side with about one row of the smaller (a foreign key into a key).
// Further conditions filter.
func joinRows(l, r float64, t binder.JoinType, equi, conds int, ndv float64) float64 {
	var out float64
	if equi > 0 {
		out = math.Max(l, r)
		if ndv > 0 {
			out = l * r / ndv
		}
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
		in := estimateNode(x.input)
		if g, ok := groupNDV(len(x.groupBy), in, func(k int) (float64, bool) { return nodeNDV(x.input, x.groupBy[k]) }); ok {
			return g
		}
		return groupRows(in, len(x.groupBy))
	case *distinctNode:
		return groupRows(estimateNode(x.input), 1)
	case *joinNode:
		conds := len(x.leftKeys)
		if x.residual != nil {
			conds += len(execConjuncts(x.residual))
		}
		l, r := estimateNode(x.left), estimateNode(x.right)
		ndv := 0.0
		for i := range x.leftKeys {
			ln, lok := nodeNDV(x.left, x.leftKeys[i])
			rn, rok := nodeNDV(x.right, x.rightKeys[i])
			if lok && rok {
				ndv = math.Max(ndv, math.Max(math.Min(ln, l), math.Min(rn, r)))
			}
		}
		return joinRows(l, r, logicalJoinType(x.typ), len(x.leftKeys), conds, ndv)
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

// nodeNDV is colNDV over a blueprint: the distinct values of column col
// of n, traced to a scan's or lookup's column.
func nodeNDV(n Node, col int) (float64, bool) {
	switch x := n.(type) {
	case *scanNode:
		if col < len(x.ndv) && x.ndv[col] >= 0 {
			return x.ndv[col], true
		}
	case *lookupNode:
		if col < len(x.ndv) && x.ndv[col] >= 0 {
			return math.Min(x.ndv[col], float64(len(x.keys))), true
		}
	case *filterNode, *sortNode, *limitNode, *distinctNode:
		return nodeNDV(n.Inputs()[0], col)
	case *projectNode:
		e := x.exprs[col]
		if c, ok := e.(*exec.CastExpr); ok {
			e = c.X
		}
		if c, ok := e.(*exec.ColExpr); ok {
			return nodeNDV(x.input, c.Index)
		}
	case *aggregateNode:
		if col < len(x.groupBy) {
			return nodeNDV(x.input, x.groupBy[col])
		}
	case *joinNode:
		if nl := x.left.Schema().NumFields(); col < nl {
			return nodeNDV(x.left, col)
		} else if x.typ != relop.SemiJoin && x.typ != relop.AntiJoin {
			return nodeNDV(x.right, col-nl)
		}
	}
	return 0, false
}

// setTableRows gives every scan and lookup of the blueprint its table's
// estimates: rows, and each read column's distinct count (-1: unknown).
func setTableRows(n Node, e *estimator) {
	ndvs := func(p fluss.TablePath, projection []int, cols int) []float64 {
		out := make([]float64, cols)
		for i := range out {
			c := i
			if projection != nil {
				c = projection[i]
			}
			if v, ok := e.tableNDV(p, c); ok {
				out[i] = v
			} else {
				out[i] = -1
			}
		}
		return out
	}
	switch s := n.(type) {
	case *scanNode:
		s.rows = e.tableRows(s.path)
		if !s.changelog && !s.binlog {
			s.ndv = ndvs(s.path, s.projection, s.out.NumFields())
		}
	case *lookupNode:
		s.ndv = ndvs(s.path, s.projection, s.out.NumFields())
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
