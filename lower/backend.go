package lower

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
)

// The execution report's backend fields. A blueprint does not fix the
// backend: the statement's requested backend (the sqlgate.backend setting
// or a backend hint) reaches the kernels through exec.EvalContext, and
// each kernel family resolves it with exec.SelectBackend. The report
// resolves it the same way, per family, for the expressions a node runs.

// nodeExprs are the lowerable expressions a node evaluates.
func nodeExprs(n Node) []exec.Expr {
	switch x := n.(type) {
	case *filterNode:
		return []exec.Expr{x.cond}
	case *projectNode:
		return x.exprs
	case *valuesNode:
		var out []exec.Expr
		for _, r := range x.rows {
			out = append(out, r...)
		}
		return out
	case *lookupNode:
		var out []exec.Expr
		for _, k := range x.keys {
			out = append(out, k...)
		}
		return out
	}
	return nil
}

// NodeBackends resolves the kernel families node n runs for the requested
// backend, in first-use order.
func NodeBackends(n Node, req exec.Backend) []exec.Choice {
	var out []exec.Choice
	seen := map[exec.Family]bool{}
	add := func(f exec.Family) {
		if !seen[f] {
			seen[f] = true
			out = append(out, exec.SelectBackend(req, f))
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

// selectedBackend summarises a node's choices: native or arrow when every
// family agrees, mixed otherwise; a node without kernel families (scan,
// sort, join...) runs native Go operators.
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
		return exec.BackendNative.String()
	}
	return sel
}

// backendText is the text report's backend fields of a node.
func backendText(n Node, req exec.Backend) string {
	choices := NodeBackends(n, req)
	s := fmt.Sprintf("requested_backend=%s selected_backend=%s", req, selectedBackend(choices))
	if len(choices) > 0 {
		parts := make([]string, len(choices))
		for i, c := range choices {
			parts[i] = fmt.Sprintf("%s=%s (%s)", c.Family, c.Selected, c.Reason)
		}
		s += " kernels=[" + strings.Join(parts, "; ") + "]"
	}
	return s
}

// backendJSON adds the JSON report's backend fields of a node to m.
func backendJSON(m map[string]any, n Node, req exec.Backend) {
	choices := NodeBackends(n, req)
	m["Requested Backend"] = req.String()
	m["Selected Backend"] = selectedBackend(choices)
	if len(choices) > 0 {
		ks := make([]any, len(choices))
		for i, c := range choices {
			ks[i] = map[string]any{"Family": string(c.Family), "Selected Backend": c.Selected.String(), "Reason": c.Reason}
		}
		m["Kernels"] = ks
	}
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
	if m.ChunksRead+m.ChunksSkipped+m.ChunksMerged > 0 {
		s += fmt.Sprintf(" chunks_read=%d chunks_skipped=%d", m.ChunksRead, m.ChunksSkipped)
		if m.ChunksMerged > 0 {
			s += fmt.Sprintf(" chunks_merged=%d", m.ChunksMerged)
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
		if mt.ChunksRead+mt.ChunksSkipped+mt.ChunksMerged > 0 {
			m["Chunks Read"], m["Chunks Skipped"], m["Chunks Merged"] = mt.ChunksRead, mt.ChunksSkipped, mt.ChunksMerged
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
