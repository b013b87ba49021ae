package exec

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/types"
)

// slowOperator returns its batches, each after a pause.
type slowOperator struct {
	sliceOperator
	pause time.Duration
}

func (o *slowOperator) Next(ctx context.Context) (arrow.RecordBatch, error) {
	time.Sleep(o.pause)
	return o.sliceOperator.Next(ctx)
}

// The exchange between parallel workers and their consumer: EXPLAIN
// ANALYZE's stall time is how long the consumer waited for the workers,
// and the queue depth the workers' batches not yet consumed, sampled per
// batch; the counts are exact.
func TestParallelUnionStallsAndQueue(t *testing.T) {
	const pause = 5 * time.Millisecond
	schema := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	var parts []Operator
	for p := range 2 {
		var bs []arrow.RecordBatch
		for b := range 2 {
			bs = append(bs, int64Column(schema, int64(10*p+b), 3))
		}
		parts = append(parts, &slowOperator{sliceOperator{batches: bs, schema: schema}, pause})
	}
	m := &Metrics{Level: MetricsStalls}
	op := &Instrumented{Op: &ParallelUnion{Parts: parts, Out: schema}, M: m}
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		b.Release()
	}
	op.Close()
	m.Finish()
	if m.BatchesOut != 4 || m.RowsOut != 12 {
		t.Errorf("counts: %d batches, %d rows; want 4, 12", m.BatchesOut, m.RowsOut)
	}
	// each worker pauses three times (two batches and the end) in parallel
	if !m.Stalls || m.StallNs < (2*pause).Nanoseconds() {
		t.Errorf("stall %v %d ns, want at least %d", m.Stalls, m.StallNs, (2 * pause).Nanoseconds())
	}
	if m.QueueSamples != 5 || m.QueueDepthMax != 3 || m.QueueDepthSum != 3+2+1 {
		t.Errorf("queue samples %d max %d sum %d; want 5, 3, 6", m.QueueSamples, m.QueueDepthMax, m.QueueDepthSum)
	}
}

// int64Column is a one-column batch of n copies of v.
func int64Column(schema *arrow.Schema, v int64, n int) arrow.RecordBatch {
	col := constArray(NewPoolAllocator(1<<20), v, types.Int64Type, n)
	defer col.Release()
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(n))
}
