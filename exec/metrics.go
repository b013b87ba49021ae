package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

// Metrics are one node's execution counters (EXPLAIN ANALYZE). Processing
// time is the node's own: the time its children spent producing input is
// subtracted, so the figures add up along the plan.
type Metrics struct {
	BatchesIn, BatchesOut int64
	RowsIn, RowsOut       int64
	ProcessingNs          int64
	// totalNs includes the children's time; children are the metrics of
	// the node's inputs, for the in-counts and the exclusive time.
	totalNs  int64
	children []*Metrics
}

// Finish derives the input counts and exclusive time from the children.
// Call it once the operator tree is exhausted.
func (m *Metrics) Finish() {
	var childNs int64
	m.BatchesIn, m.RowsIn = 0, 0
	for _, c := range m.children {
		c.Finish()
		m.BatchesIn += c.BatchesOut
		m.RowsIn += c.RowsOut
		childNs += c.totalNs
	}
	m.ProcessingNs = max(m.totalNs-childNs, 0)
}

// AddChild records that c measures an input of m's node.
func (m *Metrics) AddChild(c *Metrics) { m.children = append(m.children, c) }

// Instrumented wraps an operator and counts what it returns.
type Instrumented struct {
	Op Operator
	M  *Metrics
}

func (o *Instrumented) Schema() *arrow.Schema { return o.Op.Schema() }
func (o *Instrumented) Close()                { o.Op.Close() }
func (o *Instrumented) Next(ctx context.Context) (arrow.RecordBatch, error) {
	start := time.Now()
	b, err := o.Op.Next(ctx)
	o.M.totalNs += time.Since(start).Nanoseconds()
	if b != nil {
		o.M.BatchesOut++
		o.M.RowsOut += b.NumRows()
	}
	return b, err
}
