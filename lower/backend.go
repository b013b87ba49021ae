package lower

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
)

// The execution report's kernel fields. A blueprint does not fix the
// backend: the statement's request (the sqlgate.backend setting or a
// backend hint, exec.BackendRequest) reaches each node's operator through
// its exec.EvalContext (Build gives a node named by a hint a context of
// its own), and every kernel resolves its family there with
// exec.SelectBackend. The report resolves the same request, per node and
// family, for the expressions the node's operator binds (nodeExprs); its
// labels follow from those kernels, not from the node's kind: a node
// with kernels is executor_tier=arrow_batch_kernel, one without
// (a scan, a sort, a hash aggregation) a go_operator with
// selected_backend=none, an opaque UDF its own tier. EXPLAIN ANALYZE adds
// what each node's kernels did run (exec.KernelLog), which the tests check
// against these labels.

// nodeExprs are the lowerable expressions node n's operator evaluates,
// the very ones its Build hands the operator.
func nodeExprs(n Node) []exec.Expr {
	var out []exec.Expr
	add := func(es ...exec.Expr) {
		for _, e := range es {
			if e != nil {
				out = append(out, e)
			}
		}
	}
	switch x := n.(type) {
	case *filterNode:
		add(x.gate, x.cond)
	case *projectNode:
		add(x.exprs...)
	case *valuesNode:
		for _, r := range x.rows {
			add(r...)
		}
	case *lookupNode:
		for _, k := range x.keys {
			add(k...)
		}
	case *changelogRangeNode:
		add(x.fromOffset, x.fromTime)
	case *scanNode:
		for _, r := range x.ranges {
			add(r.val)
		}
		add(x.prune.exprs()...)
	case *prefixNode:
		for _, k := range x.keys {
			add(k...)
		}
		add(x.prune.exprs()...)
	case *limitNode:
		add(x.count, x.offset)
	case *joinNode:
		add(x.residual)
	case *windowNode:
		add(x.keep...)
	case *lateralNode:
		add(x.outer...)
		add(x.cond)
	case *lockRowsNode:
		add(x.cond)
		add(x.exprs...)
	case *tableFuncNode:
		add(x.args...)
	case *projectSetNode:
		for _, c := range x.calls {
			add(c.Args...)
		}
	case *udfNode:
		add(x.args...)
	case *tableUDFNode:
		add(x.args...)
	case *batchUDFNode:
		add(x.args...)
	case *modifyNode:
		add(x.exprs...)
	}
	return out
}

// NodeBackends resolves the kernel families node n runs for request req,
// in first-use order.
func NodeBackends(n Node, req *exec.BackendRequest) []exec.Choice {
	var out []exec.Choice
	seen := map[exec.Family]bool{}
	nr := req.ForNode(nodeKind(n))
	add := func(f exec.Family) {
		if !seen[f] {
			seen[f] = true
			out = append(out, nr.Select(f))
		}
	}
	for _, e := range nodeExprs(n) {
		for _, f := range exec.ExprFamilies(e) {
			add(f)
		}
	}
	if _, ok := n.(*filterNode); ok {
		add(exec.FilterFamily(n.Schema()))
	}
	return out
}

// nodeKind is the kind EXPLAIN shows for n, which a backend hint names.
func nodeKind(n Node) string {
	kind, _ := n.Explain()
	return kind
}

// HintNodeKinds are the node kinds a backend hint may name: those whose
// operators evaluate expressions.
var HintNodeKinds = []string{"filter", "projection", "values", "lookup", "prefix_lookup", "limit",
	"hash_join", "nested_loop_join", "window", "lateral_join", "table_function", "project_set", "opaque_udf"}

// nodeLabels are a node's report fields.
type nodeLabels struct {
	lowerable bool
	tier      string
	requested string
	selected  string // native, arrow, mixed; none without kernels
	choices   []exec.Choice
}

func labelsOf(n Node, req *exec.BackendRequest) nodeLabels {
	l := nodeLabels{lowerable: true, choices: NodeBackends(n, req)}
	nr := req.ForNode(nodeKind(n))
	l.requested = nr.Default.String()
	if nr.Named {
		l.requested += " (node kind)"
	}
	switch o, opaque := n.(opaqueNode); {
	case opaque:
		l.lowerable, l.tier = false, o.opaqueTier()
	case len(l.choices) > 0:
		l.tier = "arrow_batch_kernel"
	default:
		l.tier = "go_operator"
	}
	l.selected = selectedBackend(l.choices)
	return l
}

// selectedBackend summarises a node's choices: native or arrow when every
// family agrees, mixed otherwise, none when the node runs no kernel.
func selectedBackend(choices []exec.Choice) string {
	sel := ""
	for _, c := range choices {
		s := c.Selected.String()
		if sel != "" && sel != s {
			return "mixed"
		}
		sel = s
	}
	if sel == "" {
		return "none"
	}
	return sel
}

func choicesText(choices []exec.Choice, reasons bool) string {
	parts := make([]string, len(choices))
	for i, c := range choices {
		parts[i] = fmt.Sprintf("%s=%s", c.Family, c.Selected)
		if reasons {
			parts[i] += " (" + c.Reason + ")"
		}
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// labelsText is the text report's fields of a node (before its schema).
func labelsText(n Node, req *exec.BackendRequest) string {
	l := labelsOf(n, req)
	if !l.lowerable {
		// an opaque node has no kernel backend; the arguments it computes
		// before the call do run kernels
		s := fmt.Sprintf("lowerable=false executor_tier=%s", l.tier)
		if len(l.choices) > 0 {
			s += " argument_kernels=" + choicesText(l.choices, true)
		}
		return s
	}
	s := fmt.Sprintf("lowerable=true requested_backend=%s selected_backend=%s", l.requested, l.selected)
	if len(l.choices) > 0 {
		s += " kernels=" + choicesText(l.choices, true)
	}
	return s + " executor_tier=" + l.tier
}

// labelsJSON adds the JSON report's fields of a node to m.
func labelsJSON(m map[string]any, n Node, req *exec.BackendRequest) {
	l := labelsOf(n, req)
	m["Lowerable"], m["Executor Tier"] = l.lowerable, l.tier
	key := "Kernels"
	if l.lowerable {
		m["Requested Backend"] = l.requested
		m["Selected Backend"] = l.selected
	} else {
		key = "Argument Kernels"
	}
	if len(l.choices) > 0 {
		ks := make([]any, len(l.choices))
		for i, c := range l.choices {
			ks[i] = map[string]any{"Family": string(c.Family), "Selected Backend": c.Selected.String(), "Reason": c.Reason}
		}
		m[key] = ks
	}
}

// ranText is EXPLAIN ANALYZE's record of the kernels a node ran.
func ranText(m *exec.Metrics) string {
	if m.Kernels == nil {
		return ""
	}
	return " (kernels_ran=" + choicesText(m.Kernels.Ran(), false) + ")"
}

func ranJSON(m map[string]any, mt *exec.Metrics) {
	if mt.Kernels == nil {
		return
	}
	ran := mt.Kernels.Ran()
	ks := make([]any, len(ran))
	for i, c := range ran {
		ks[i] = map[string]any{"Family": string(c.Family), "Backend": c.Selected.String()}
	}
	m["Kernels Ran"] = ks
}

// metricsText is the text report's EXPLAIN ANALYZE counters of a node.
func metricsText(m *exec.Metrics) string {
	s := fmt.Sprintf(" (actual batches_in=%d batches_out=%d rows_in=%d rows_out=%d", m.BatchesIn, m.BatchesOut, m.RowsIn, m.RowsOut)
	if !m.Level.Timing() {
		return s + ")" + scanPathText(m)
	}
	s += fmt.Sprintf(" processing_time_ns=%d", m.ProcessingNs)
	if !m.Level.Stalls() {
		return s + ")" + scanPathText(m)
	}
	if m.Stalls {
		s += fmt.Sprintf(" stall_time_ns=%d", m.StallNs)
	} else {
		s += " stall_time_ns=n/a" // no queue between goroutines: it cannot stall
	}
	if m.QueueSamples == 0 {
		s += " queue_depth=unsampled)"
	} else {
		s += fmt.Sprintf(" queue_depth_avg=%.2f queue_depth_max=%d queue_depth_samples=%d)", m.QueueDepthAvg(), m.QueueDepthMax, m.QueueSamples)
	}
	return s + scanPathText(m)
}

func scanPathText(m *exec.Metrics) string {
	if m.ScanPath == "" {
		return ""
	}
	s := fmt.Sprintf(" (scan path=%q workers=%d", m.ScanPath, max(m.Workers, 1))
	if m.ChunksRead+m.ChunksSkipped+m.ChunksMerged+m.ChunksTopPruned > 0 {
		s += fmt.Sprintf(" chunks_read=%d chunks_skipped=%d", m.ChunksRead, m.ChunksSkipped)
		if m.ChunksMerged > 0 {
			s += fmt.Sprintf(" chunks_merged=%d", m.ChunksMerged)
		}
		if m.ChunksTopPruned > 0 {
			s += fmt.Sprintf(" chunks_top_pruned=%d", m.ChunksTopPruned)
		}
	}
	return s + ")"
}

// metricsJSON adds the JSON report's EXPLAIN ANALYZE counters to m.
func metricsJSON(m map[string]any, mt *exec.Metrics) {
	m["Actual Batches In"], m["Actual Batches Out"] = mt.BatchesIn, mt.BatchesOut
	m["Actual Rows In"], m["Actual Rows"] = mt.RowsIn, mt.RowsOut
	if mt.ScanPath != "" {
		m["Scan Path"], m["Workers"] = mt.ScanPath, max(mt.Workers, 1)
		if mt.ChunksRead+mt.ChunksSkipped+mt.ChunksMerged+mt.ChunksTopPruned > 0 {
			m["Chunks Read"], m["Chunks Skipped"], m["Chunks Merged"] = mt.ChunksRead, mt.ChunksSkipped, mt.ChunksMerged
			if mt.ChunksTopPruned > 0 {
				m["Chunks Top Pruned"] = mt.ChunksTopPruned
			}
		}
	}
	if !mt.Level.Timing() {
		return
	}
	m["Processing Time Ns"] = mt.ProcessingNs
	if !mt.Level.Stalls() {
		return
	}
	if mt.Stalls {
		m["Stall Time Ns"] = mt.StallNs
	} else {
		m["Stall Time Ns"] = nil // not applicable: no queue between goroutines
	}
	m["Queue Depth Samples"] = mt.QueueSamples
	if mt.QueueSamples > 0 {
		m["Queue Depth Avg"] = mt.QueueDepthAvg()
		m["Queue Depth Max"] = mt.QueueDepthMax
	}
}
