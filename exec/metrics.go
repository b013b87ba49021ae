package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
)

// MetricsLevel is how much EXPLAIN ANALYZE measures (seed 002's levels):
// exact batch and row counts; plus each node's own time; plus stalls and
// queue depths where batches wait. The zero value is the most, stalls.
type MetricsLevel int

const (
	MetricsStalls MetricsLevel = iota
	MetricsTiming
	MetricsCounts
)

// ParseMetricsLevel reads EXPLAIN's METRICS option value.
func ParseMetricsLevel(s string) (MetricsLevel, bool) {
	switch s {
	case "counts":
		return MetricsCounts, true
	case "timing":
		return MetricsTiming, true
	case "stalls", "":
		return MetricsStalls, true
	}
	return 0, false
}

// Timing reports whether the level measures time.
func (l MetricsLevel) Timing() bool { return l != MetricsCounts }

// Stalls reports whether the level measures stalls and queue depths.
func (l MetricsLevel) Stalls() bool { return l == MetricsStalls }

// Metrics are one node's execution counters (EXPLAIN ANALYZE). Processing
// time is the node's own: the time its children spent producing input is
// subtracted, so the figures add up along the plan.
type Metrics struct {
	// Level is what is measured (set before the node runs).
	Level                 MetricsLevel
	BatchesIn, BatchesOut int64
	RowsIn, RowsOut       int64
	ProcessingNs          int64
	// StallNs is the time the node's operator spent blocked on a queue
	// between goroutines (Staller: a read-ahead scan's producer waiting
	// for a slow consumer); Stalls says whether the operator has such a
	// queue at all. A synchronous pull operator cannot stall: its stall
	// time is not applicable (Stalls false), not 0.
	StallNs int64
	Stalls  bool
	// Queue depth, sampled once per batch returned from operators with an
	// internal queue (QueueDepther); QueueSamples 0 means none was taken.
	QueueSamples, QueueDepthSum, QueueDepthMax int64
	// ScanPath is the store's read path of a scan (PathReporter), "" for
	// other operators; Workers is how many goroutines shared the node's
	// work (0 = the caller's alone).
	ScanPath string
	Workers  int
	// ChunksRead and ChunksSkipped count a scan's stored chunks read and
	// skipped by their statistics, ChunksMerged those read from the row
	// store because writes since their build touched them (ChunkCounter);
	// all 0 for a scan that reads no chunks.
	ChunksRead, ChunksSkipped, ChunksMerged int64
	// ChunksTopPruned counts the chunks a top hint left out
	// (fluss.ScanOptions.Top) after reading their sort column alone.
	ChunksTopPruned int64
	// Kernels records the kernel families the node's operator ran, and
	// on which backend.
	Kernels *KernelLog
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

// Observe adds what a node that is not an operator (a write, under
// EXPLAIN ANALYZE) returned and the time it took, its inputs' included.
func (m *Metrics) Observe(batches, rows, ns int64) {
	m.BatchesOut += batches
	m.RowsOut += rows
	m.totalNs += ns
}

// AddChild records that c measures an input of m's node.
func (m *Metrics) AddChild(c *Metrics) { m.children = append(m.children, c) }

// QueueDepthAvg is the mean sampled queue depth (0 without samples).
func (m *Metrics) QueueDepthAvg() float64 {
	if m.QueueSamples == 0 {
		return 0
	}
	return float64(m.QueueDepthSum) / float64(m.QueueSamples)
}

// Staller is implemented by operators that can block on something other
// than their inputs' Next (a queue fed by another goroutine): StallNs is
// the total time spent blocked so far.
type Staller interface {
	StallNs() int64
}

// PathReporter is implemented by operators that read a table: which of
// the store's paths serves the read, and by how many workers.
type PathReporter interface {
	ScanPath() (path string, workers int)
}

// ChunkCounter is implemented by operators whose scan reads stored
// chunks (fluss.ChunkReporter): how many it read, skipped and merged so
// far.
type ChunkCounter interface {
	ScanChunks() fluss.ChunkCounts
}

// QueueDepther is implemented by operators with an internal queue of
// batches; QueueDepth is its current length.
type QueueDepther interface {
	QueueDepth() int
}

// Instrumented wraps an operator and counts what it returns.
type Instrumented struct {
	Op Operator
	M  *Metrics
}

func (o *Instrumented) Schema() *arrow.Schema { return o.Op.Schema() }
func (o *Instrumented) Close()                { o.Op.Close() }
func (o *Instrumented) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !o.M.Level.Timing() {
		b, err := o.Op.Next(ctx)
		o.count(b)
		return b, err
	}
	start := time.Now() // monotonic
	b, err := o.Op.Next(ctx)
	o.M.totalNs += time.Since(start).Nanoseconds()
	o.count(b)
	if !o.M.Level.Stalls() {
		return b, err
	}
	if q, ok := o.Op.(QueueDepther); ok {
		d := int64(q.QueueDepth())
		o.M.QueueSamples++
		o.M.QueueDepthSum += d
		o.M.QueueDepthMax = max(o.M.QueueDepthMax, d)
	}
	if s, ok := o.Op.(Staller); ok {
		o.M.StallNs, o.M.Stalls = s.StallNs(), true
	}
	return b, err
}

// count adds a returned batch to the counts, with the scan's path.
func (o *Instrumented) count(b arrow.RecordBatch) {
	if b != nil {
		o.M.BatchesOut++
		o.M.RowsOut += b.NumRows()
	}
	if p, ok := o.Op.(PathReporter); ok {
		o.M.ScanPath, o.M.Workers = p.ScanPath()
	}
	if c, ok := o.Op.(ChunkCounter); ok {
		cc := c.ScanChunks()
		o.M.ChunksRead, o.M.ChunksSkipped, o.M.ChunksMerged, o.M.ChunksTopPruned = cc.Read, cc.Skipped, cc.Merged, cc.TopPruned
	}
}
