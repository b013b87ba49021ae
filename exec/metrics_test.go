package exec

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// slowOp passes its input through, sleeping before each batch: its own
// work, for the timing metrics.
type slowOp struct {
	in    Operator
	sleep time.Duration
}

func (o *slowOp) Schema() *arrow.Schema { return o.in.Schema() }
func (o *slowOp) Close()                { o.in.Close() }
func (o *slowOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	time.Sleep(o.sleep)
	return o.in.Next(ctx)
}

// Counts are exact (batches and rows, in and out), timing is each node's
// own and at least the time it spent, and a synchronous operator reports
// no stall (not applicable).
func TestMetricsCountsAndTiming(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	var child, parent Metrics
	parent.AddChild(&child)
	src := &Instrumented{Op: &slowOp{in: &countedOp{t: t, mem: mem, schema: schema, n: 5}, sleep: 2 * time.Millisecond}, M: &child}
	top := &Instrumented{Op: &slowOp{in: src, sleep: 5 * time.Millisecond}, M: &parent}
	var last int64
	for {
		b, err := top.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if parent.totalNs <= last {
			t.Fatalf("the clock went back or stood: %d after %d", parent.totalNs, last)
		}
		last = parent.totalNs
		if b == nil {
			break
		}
		b.Release()
	}
	top.Close()
	parent.Finish()
	if child.BatchesOut != 5 || child.RowsOut != 5 || parent.BatchesIn != 5 || parent.RowsIn != 5 || parent.BatchesOut != 5 || parent.RowsOut != 5 {
		t.Errorf("counts: child %+v parent %+v", child, parent)
	}
	// 6 Next calls each: the child slept 12 ms, the parent 30 ms of its own
	if child.ProcessingNs < (12 * time.Millisecond).Nanoseconds() {
		t.Errorf("child time %d ns, slept 12 ms", child.ProcessingNs)
	}
	if parent.ProcessingNs < (30*time.Millisecond).Nanoseconds() || parent.ProcessingNs >= parent.totalNs {
		t.Errorf("parent's own time %d ns of %d total, slept 30 ms", parent.ProcessingNs, parent.totalNs)
	}
	if parent.Stalls || child.Stalls || parent.QueueSamples != 0 {
		t.Errorf("synchronous operators cannot stall: %+v %+v", parent, child)
	}
}

// A read-ahead scan consumed by a slow consumer stalls: its producer waits
// for room in the full queue, which the metrics report, with the queue's
// sampled depth.
func TestReadAheadStallsOnASlowConsumer(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	schema := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	var m Metrics
	op := &Instrumented{Op: &ReadAhead{Input: &countedOp{t: t, mem: mem, schema: schema, n: 6}}, M: &m}
	n := 0
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		n++
		b.Release()
		time.Sleep(10 * time.Millisecond) // the slow consumer
	}
	op.Close()
	m.Finish()
	if n != 6 || m.BatchesOut != 6 || m.RowsOut != 6 {
		t.Errorf("%d batches, metrics %+v", n, m)
	}
	if !m.Stalls || m.StallNs < (10*time.Millisecond).Nanoseconds() {
		t.Errorf("stall %d ns (applicable %v): the producer waited for a consumer sleeping 10 ms a batch", m.StallNs, m.Stalls)
	}
	if m.QueueSamples != 7 || m.QueueDepthMax < 1 {
		t.Errorf("queue depth samples %d max %d", m.QueueSamples, m.QueueDepthMax)
	}
}
