package lower

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Tables opens tables for the executor.
type Tables interface {
	Table(ctx context.Context, path fluss.TablePath) (fluss.Table, error)
}

// Runtime is what instantiating a blueprint needs.
type Runtime struct {
	Ctx    context.Context
	Tables Tables
	EC     *exec.EvalContext
	// Backends is the statement's backend request, when it has one
	// (EC.Backend and EC.Families are its default and family entries):
	// Build gives the operator of a node whose kind it names an
	// evaluation context of its own.
	Backends *exec.BackendRequest
	// Metrics, when set, receives one entry per node: Build wraps every
	// operator to count batches, rows and time (EXPLAIN ANALYZE), and
	// gives it a context recording the kernels it runs.
	Metrics map[Node]*exec.Metrics
	// MetricsLevel is what they measure (EXPLAIN's METRICS option).
	MetricsLevel exec.MetricsLevel
	parent       *exec.Metrics
	// Mem counts the memory the query's operators hold against its limit;
	// SpillDir is where they spill past it.
	Mem      *relop.MemoryAccount
	SpillDir string
	// Untransacted: the plan reads the tables themselves, outside any
	// transaction (no pending writes that a statement of the session may
	// change meanwhile): BuildForClient may run a root scan ahead in a
	// goroutine of its own.
	Untransacted bool
	// CTEs hold the rows of the WITH queries evaluated once until Close
	// (cte.go). Nil: Build allocates them; the engine points it into the
	// execution's state instead, sparing the allocation.
	CTEs *CTERuns
	// workTables are the working tables of the recursive unions being
	// run, for their recursive terms' scans (recursive.go); again is set
	// while a recursive term is built for a later iteration, whose
	// metrics add to the first's.
	workTables map[*binder.WorkTable]*relop.WorkTable
	again      bool
	// split and inject carry a split scan to the parts of a parallel
	// aggregation being built (parallelagg.go).
	split  *splitState
	inject *injectState
	// replay are the scans the parts read whole, read once.
	replay replays
	// topN carries a LIMIT + OFFSET known only at execution from a limit
	// being built to the sort directly below it (sortNode.runtimeTopN).
	topN runtimeTop
	// scanTop carries a top-N's hint from the sort being built to the
	// scan under it (topscan.go).
	scanTop scanTop
	// Scratch, when set, is storage in the execution's own state that
	// Build uses for its first operators of a common shape instead of
	// allocating them. Copies of the runtime share it.
	Scratch *Scratch
}

// Scratch holds operators for one execution (Runtime.Scratch): the first
// projection over a point lookup built (the prepared UPDATE by key, and
// SELECT by key, build one per Execute) takes pair; later ones, as in
// an UPDATE's second pass or a plan with several, are allocated.
type Scratch struct {
	pair     projectLookup
	pairUsed atomic.Bool
}

// projectLookupFor returns the storage of a projection over a lookup:
// rt's scratch pair the first time, a new one after.
func (rt *Runtime) projectLookupFor() *projectLookup {
	if sc := rt.Scratch; sc != nil && sc.pairUsed.CompareAndSwap(false, true) {
		return &sc.pair
	}
	return &projectLookup{}
}

// plainBuild reports whether Build builds a node as its own Build does: no
// metrics to instrument it with and no backend chosen per node.
func (rt *Runtime) plainBuild() bool {
	return rt.Metrics == nil && (rt.Backends == nil || len(rt.Backends.Nodes) == 0)
}

// Build instantiates n (and its inputs) as running operators, instrumented
// when rt.Metrics is set.
func Build(rt *Runtime, n Node) (exec.Operator, error) {
	rt.cteRuns() // before any operator runs: see cteRuns
	if rt.Metrics == nil {
		if rt.plainBuild() {
			return n.Build(rt)
		}
		restore := rt.bindEC(n, nil)
		op, err := n.Build(rt)
		restore()
		return op, err
	}
	m := rt.Metrics[n]
	if m != nil && rt.again {
		restore := rt.bindEC(n, m.Kernels)
		op, err := n.Build(rt)
		restore()
		if err != nil {
			return nil, err
		}
		return &exec.Instrumented{Op: op, M: m}, nil
	}
	m = &exec.Metrics{Level: rt.MetricsLevel, Kernels: &exec.KernelLog{}}
	rt.Metrics[n] = m
	if rt.parent != nil {
		rt.parent.AddChild(m)
	}
	saved := rt.parent
	rt.parent = m
	restore := rt.bindEC(n, m.Kernels)
	op, err := n.Build(rt)
	restore()
	rt.parent = saved
	if err != nil {
		return nil, err
	}
	return &exec.Instrumented{Op: op, M: m}, nil
}

// bindEC sets rt.EC, while n is built, to the evaluation context of n's
// kernels: the statement's, unless the request names n's kind, recording
// in log (when set) what n's kernels run. It returns the function that
// restores rt.EC.
func (rt *Runtime) bindEC(n Node, log *exec.KernelLog) func() {
	saved := rt.EC
	var nr exec.NodeRequest
	switch {
	case rt.Backends != nil:
		nr = rt.Backends.ForNode(nodeKind(n))
	case log == nil:
		return func() {}
	default:
		nr = exec.NodeRequest{Default: saved.Backend, Families: saved.Families}
	}
	if !nr.Named && log == nil && saved.Kernels == nil && saved.Backend == nr.Default && len(saved.Families) == len(nr.Families) {
		return func() {} // the statement's context serves (a named node's has no family entries)
	}
	rt.EC = saved.ForNode(nr, log)
	return func() { rt.EC = saved }
}

// BuildForClient is Build of a query whose batches go to the client, which
// encodes each and keeps nothing of it past its Release (pgwire.Result): a
// point lookup at the root then decodes its row into a record its plan
// keeps and reuses at every execution (fluss.ReusingLookuper), rather than
// building the row's arrays each time. Below the root, an operator may
// hold on to its input's columns, so nothing else is built this way. A
// scan of a large table at the root of an untransacted plan reads ahead
// (exec.ReadAhead): the client's encoding and sending of a batch overlaps
// the decoding of the next.
func BuildForClient(rt *Runtime, n Node) (exec.Operator, error) {
	if x, ok := n.(*scanNode); ok && rt.Metrics != nil && rt.Untransacted && x.rows >= readAheadMinRows {
		// EXPLAIN ANALYZE runs the scan as a client query would: read
		// ahead, so the report shows the queue's stalls and depth
		op, err := Build(rt, n)
		if in, ok := op.(*exec.Instrumented); ok && err == nil {
			in.Op = &exec.ReadAhead{Input: in.Op}
		}
		return op, err
	}
	if rt.Metrics == nil {
		switch x := n.(type) {
		case *lookupNode:
			return x.build(rt, &x.reuse)
		case *scanNode:
			if rt.Untransacted && x.rows >= readAheadMinRows {
				op, err := x.Build(rt)
				if err != nil {
					return nil, err
				}
				return &exec.ReadAhead{Input: op}, nil
			}
		}
	}
	return Build(rt, n)
}

// readAheadMinRows is the smallest estimated table BuildForClient reads
// ahead: a scan of fewer rows is a batch or two, with little to overlap.
// It also keeps catalog relations (estimated at defaultTableRows), which
// generate their rows in Scan from the session's state, on the session's
// goroutine.
const readAheadMinRows = 10_000

// Node is a blueprint node: a physical operator template.
type Node interface {
	// Schema is the node's output schema, known at build time.
	Schema() *arrow.Schema
	// Build instantiates the running operator.
	Build(rt *Runtime) (exec.Operator, error)
	// Explain describes the node (kind and details) for EXPLAIN.
	Explain() (kind string, details string)
	Inputs() []Node
}

type scanNode struct {
	path       fluss.TablePath
	changelog  bool
	binlog     bool  // t$binlog: changelog rows paired into before/after
	limit      int64 // stop after this many rows (0: no limit)
	table      string
	projection []int
	out        *arrow.Schema
	rows       float64         // the table's estimated rows (Stats), for EXPLAIN
	ndv        []float64       // each output column's distinct count (-1 unknown; nil none)
	prune      *partitionPrune // the partitions read (partitions.go); nil: all
	ranges     []scanRange     // a filter's bounds, hints for chunk skipping (chunkranges.go)
	topHint    string          // the top-N above hints its order by this column (topscan.go); "": none
	// rangesWhole says the filter directly above is the conjunction of
	// ranges alone (a top-N's hint may then pass through it: topscan.go).
	rangesWhole bool
}

type lookupNode struct {
	path       fluss.TablePath
	table      string
	keys       [][]exec.Expr
	projection []int
	out        *arrow.Schema
	keySchema  *arrow.Schema   // the table's primary-key columns, built once here
	labels     exec.SchemaMemo // shared by the executions of the plan
	reuse      fluss.ReuseSlot // the record its executions for the client reuse
	ndv        []float64       // as scanNode's
}

type valuesNode struct {
	rows [][]exec.Expr
	out  *arrow.Schema
}

type filterNode struct {
	input      Node
	cond       exec.Expr
	gate       exec.Expr // cond's conjuncts that read no column (exec.Filter.Gate); nil: none
	replayable bool      // exec.Filter.Replayable
}

type projectNode struct {
	input      Node
	exprs      []exec.Expr
	out        *arrow.Schema
	replayable bool // exec.Project.Replayable
	rowWise    bool // exec.Project.RowWise
}

type limitNode struct {
	input         Node
	count, offset exec.Expr
}

func (n *scanNode) Schema() *arrow.Schema    { return n.out }
func (n *lookupNode) Schema() *arrow.Schema  { return n.out }
func (n *valuesNode) Schema() *arrow.Schema  { return n.out }
func (n *filterNode) Schema() *arrow.Schema  { return n.input.Schema() }
func (n *projectNode) Schema() *arrow.Schema { return n.out }
func (n *limitNode) Schema() *arrow.Schema   { return n.input.Schema() }

func (n *scanNode) Inputs() []Node    { return nil }
func (n *lookupNode) Inputs() []Node  { return nil }
func (n *valuesNode) Inputs() []Node  { return nil }
func (n *filterNode) Inputs() []Node  { return oneInput(&n.input) }
func (n *projectNode) Inputs() []Node { return oneInput(&n.input) }
func (n *limitNode) Inputs() []Node   { return oneInput(&n.input) }

// oneInput is the Inputs of a node with one input: a one-element slice over
// the node's own field rather than a new slice per call, since planning
// walks the blueprint (row estimates) and EXPLAIN walks it again. Callers
// only read it.
func oneInput(in *Node) []Node { return unsafe.Slice(in, 1) }

func (n *scanNode) Build(rt *Runtime) (exec.Operator, error) {
	if in := rt.inject; in != nil && in.scan == n {
		rt.inject = nil
		return exec.NewTableScanOf(in.t, in.reader, n.out), nil
	}
	if rp := rt.replay[n]; rp != nil {
		return exec.NewTableScanOf(rp.t, &replayReader{rp: rp}, n.out), nil
	}
	t, err := rt.Tables.Table(rt.Ctx, n.path)
	if err != nil {
		return nil, err
	}
	return &exec.TableScan{Table: t, Changelog: n.changelog, Binlog: n.binlog, Options: n.scanOptions(rt), Out: n.out}, nil
}

// scanOptions are the store scan's options of n in rt.
func (n *scanNode) scanOptions(rt *Runtime) fluss.ScanOptions {
	opts := fluss.ScanOptions{Projection: n.projection, Limit: n.limit, Partitions: n.prune.filter(rt.EC), Ranges: n.rangesAt(rt)}
	if rt.scanTop.scan == n {
		h := rt.scanTop.hint // rt.scanTop is cleared once the sort is built
		opts.Top = &h
	}
	return opts
}

func (n *lookupNode) Build(rt *Runtime) (exec.Operator, error) {
	return n.build(rt, nil)
}

func (n *lookupNode) build(rt *Runtime, reuse *fluss.ReuseSlot) (exec.Operator, error) {
	op := &exec.Lookup{}
	if err := n.buildInto(rt, reuse, op); err != nil {
		return nil, err
	}
	return op, nil
}

// buildInto is build into op, an operator the caller allocated.
func (n *lookupNode) buildInto(rt *Runtime, reuse *fluss.ReuseSlot, op *exec.Lookup) error {
	t, err := rt.Tables.Table(rt.Ctx, n.path)
	if err != nil {
		return err
	}
	*op = exec.Lookup{EC: rt.EC, Table: t, Keys: n.keys, Projection: n.projection, Out: n.out, KeySchema: n.keySchema,
		Labels: &n.labels, Reuse: reuse}
	return nil
}

// projectLookup is a projection over a point lookup, both operators in one
// allocation (or in the execution's Scratch): the prepared UPDATE by key
// and a SELECT of its row's expressions build this pair at every execution.
type projectLookup struct {
	project exec.Project
	lookup  exec.Lookup
}

// buildOverLookup is n's Build when its input is a point lookup that Build
// would build plainly (no metrics, no per-node backend): the pair in one
// allocation. ok is false when it does not apply.
func (n *projectNode) buildOverLookup(rt *Runtime) (op exec.Operator, ok bool, err error) {
	ln, isLookup := n.input.(*lookupNode)
	if !isLookup || !rt.plainBuild() {
		return nil, false, nil
	}
	rt.cteRuns() // as Build does before building the input
	pl := rt.projectLookupFor()
	if err := ln.buildInto(rt, nil, &pl.lookup); err != nil {
		return nil, true, err
	}
	pl.project = exec.Project{EC: rt.EC, Input: &pl.lookup, Exprs: n.exprs, Out: n.out, Replayable: n.replayable, RowWise: n.rowWise}
	return &pl.project, true, nil
}

func (n *valuesNode) Build(rt *Runtime) (exec.Operator, error) {
	return &exec.Values{EC: rt.EC, Rows: n.rows, Out: n.out}, nil
}

func (n *filterNode) Build(rt *Runtime) (exec.Operator, error) {
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.Filter{EC: rt.EC, Input: in, Cond: n.cond, Gate: n.gate, Replayable: n.replayable}, nil
}

func (n *projectNode) Build(rt *Runtime) (exec.Operator, error) {
	if op, ok, err := n.buildOverLookup(rt); ok {
		return op, err
	}
	in, err := Build(rt, n.input)
	if err != nil {
		return nil, err
	}
	return &exec.Project{EC: rt.EC, Input: in, Exprs: n.exprs, Out: n.out, Replayable: n.replayable, RowWise: n.rowWise}, nil
}

// Build evaluates LIMIT and OFFSET before it builds its input, so that a
// sort below whose limit is a parameter becomes a top-N of this
// execution's values (sortNode.runtimeTopN).
func (n *limitNode) Build(rt *Runtime) (exec.Operator, error) {
	count, offset := int64(-1), int64(0)
	// the offset first, as PostgreSQL's recompute_limits: its error wins
	if n.offset != nil {
		v, err := exec.EvalScalar(rt.EC, n.offset)
		if err != nil {
			return nil, err
		}
		if v != nil {
			offset = v.(int64)
			if offset < 0 {
				return nil, sqlerr.New(sqlerr.InvalidRowCountInResultOffset, "OFFSET must not be negative")
			}
		}
	}
	if n.count != nil {
		v, err := exec.EvalScalar(rt.EC, n.count)
		if err != nil {
			return nil, err
		}
		if v != nil {
			count = v.(int64)
			if count < 0 {
				return nil, sqlerr.New(sqlerr.InvalidRowCountInLimitClause, "LIMIT must not be negative")
			}
		}
	}
	if s, ok := n.input.(*sortNode); ok && s.runtimeTopN && count > 0 && count <= maxRuntimeTopN && offset <= maxRuntimeTopN-count {
		rt.topN = runtimeTop{sort: s, n: count + offset}
	}
	in, err := Build(rt, n.input)
	rt.topN = runtimeTop{}
	if err != nil {
		return nil, err
	}
	return &exec.Limit{Input: in, Count: count, Offset: offset}, nil
}

func (n *scanNode) Explain() (string, string) {
	if n.binlog {
		return "binlog_scan", fmt.Sprintf("table=%s columns=[%s]", n.path.Table, fieldNames(n.out))
	}
	if n.changelog {
		return "changelog_scan", fmt.Sprintf("table=%s columns=[%s]%s", n.path.Table, fieldNames(n.out), n.prune.explain())
	}
	if n.limit > 0 {
		return "scan", fmt.Sprintf("table=%s columns=[%s] limit=%d%s", n.table, fieldNames(n.out), n.limit, n.prune.explain())
	}
	if n.topHint != "" {
		return "scan", fmt.Sprintf("table=%s columns=[%s] top_n_hint=%s%s", n.table, fieldNames(n.out), n.topHint, n.prune.explain())
	}
	return "scan", fmt.Sprintf("table=%s columns=[%s]%s", n.table, fieldNames(n.out), n.prune.explain())
}
func (n *lookupNode) Explain() (string, string) {
	return "lookup", fmt.Sprintf("table=%s keys=%d columns=[%s]", n.table, len(n.keys), fieldNames(n.out))
}
func (n *valuesNode) Explain() (string, string) { return "values", fmt.Sprintf("rows=%d", len(n.rows)) }
func (n *filterNode) Explain() (string, string) {
	if n.gate != nil {
		return "filter", n.cond.String() + " one-time: " + n.gate.String()
	}
	return "filter", n.cond.String()
}
func (n *projectNode) Explain() (string, string) {
	parts := make([]string, len(n.exprs))
	for i, e := range n.exprs {
		parts[i] = e.String() + " AS " + n.out.Field(i).Name
	}
	return "projection", strings.Join(parts, ", ")
}
func (n *limitNode) Explain() (string, string) {
	d := ""
	if n.count != nil {
		d += "count=" + n.count.String()
	}
	if n.offset != nil {
		d += " offset=" + n.offset.String()
	}
	return "limit", strings.TrimSpace(d)
}

func fieldNames(s *arrow.Schema) string {
	names := make([]string, len(s.Fields()))
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// Explain renders a blueprint as indented text lines, one per node, with
// the report fields of the expression tier and the node's output schema;
// with metrics (EXPLAIN ANALYZE) each line also carries its counters and
// the kernels the node ran. The backend fields are those of the default
// request, auto.
func Explain(root Node, metrics map[Node]*exec.Metrics) []string {
	return ExplainFor(root, metrics, nil)
}

// ExplainFor is Explain for a statement that made backend request req.
func ExplainFor(root Node, metrics map[Node]*exec.Metrics, req *exec.BackendRequest) []string {
	var lines []string
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		kind, details := n.Explain()
		line := strings.Repeat("  ", depth) + kind
		if details != "" {
			line += ": " + details
		}
		line += " (" + labelsText(n, req)
		line += " schema=[" + schemaText(n.Schema()) + "])"
		line += fmt.Sprintf(" (estimated rows=%d)", estimatedRows(n))
		if m, ok := metrics[n]; ok {
			line += metricsText(m) + ranText(m)
		}
		lines = append(lines, line)
		for _, in := range n.Inputs() {
			walk(in, depth+1)
		}
	}
	walk(root, 0)
	return lines
}

func schemaText(s *arrow.Schema) string {
	parts := make([]string, len(s.Fields()))
	for i, f := range s.Fields() {
		parts[i] = f.Name + " " + f.Type.String()
	}
	return strings.Join(parts, ", ")
}

// ExplainJSON renders the blueprint as PostgreSQL's EXPLAIN (FORMAT JSON)
// shape: a one-element array whose "Plan" nests "Plans", with sqlgate's
// report fields.
func ExplainJSON(root Node, metrics map[Node]*exec.Metrics) string {
	return ExplainJSONFor(root, metrics, nil)
}

// ExplainJSONFor is ExplainJSON for a statement that made backend request
// req.
func ExplainJSONFor(root Node, metrics map[Node]*exec.Metrics, req *exec.BackendRequest) string {
	var node func(n Node) map[string]any
	node = func(n Node) map[string]any {
		kind, details := n.Explain()
		m := map[string]any{
			"Node Type": kind,
			"Details":   details,
			"Output":    strings.Split(schemaText(n.Schema()), ", "),
			"Plan Rows": estimatedRows(n),
		}
		labelsJSON(m, n, req)
		if mt, ok := metrics[n]; ok {
			metricsJSON(m, mt)
			ranJSON(m, mt)
		}
		var kids []any
		for _, in := range n.Inputs() {
			kids = append(kids, node(in))
		}
		if kids != nil {
			m["Plans"] = kids
		}
		return m
	}
	out, _ := json.MarshalIndent([]any{map[string]any{"Plan": node(root)}}, "", "  ")
	return string(out)
}
