package exec

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ParallelUnion runs each of its parts (one pipeline over one part of a
// split scan, ending in a partial aggregation: issue 27) to its end in a
// goroutine of its own, then returns their batches, part 0's first, so
// that what comes out does not depend on which worker finished first.
// Parts' results are small (one row per group), so holding them costs
// little. An error of any part ends the others and is returned (the
// lowest part's).
type ParallelUnion struct {
	Parts []Operator
	Out   *arrow.Schema
	// Path is the read path of the split scan (for EXPLAIN ANALYZE).
	Path string

	started bool
	results [][]arrow.RecordBatch
	part    int
	// stallNs is the time the consumer waited for the workers: the
	// exchange's stall (Staller).
	stallNs int64
}

// StallNs implements Staller: how long the consumer waited for the parts.
func (o *ParallelUnion) StallNs() int64 { return o.stallNs }

// QueueDepth implements QueueDepther: the parts' batches not yet returned.
func (o *ParallelUnion) QueueDepth() int {
	n := 0
	for _, rs := range o.results[min(o.part, len(o.results)):] {
		n += len(rs)
	}
	return n
}

func (o *ParallelUnion) Schema() *arrow.Schema { return o.Out }

// ScanPath implements PathReporter.
func (o *ParallelUnion) ScanPath() (string, int) { return o.Path, len(o.Parts) }

func (o *ParallelUnion) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !o.started {
		o.started = true
		if err := o.run(ctx); err != nil {
			return nil, err
		}
	}
	for o.part < len(o.results) {
		if rs := o.results[o.part]; len(rs) > 0 {
			b := rs[0]
			o.results[o.part] = rs[1:]
			return b, nil
		}
		o.part++
	}
	return nil, nil
}

func (o *ParallelUnion) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	o.results = make([][]arrow.RecordBatch, len(o.Parts))
	errs := make([]error, len(o.Parts))
	var wg sync.WaitGroup
	for i, p := range o.Parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					// A bug: the statement fails, the server goes on.
					errs[i] = sqlerr.New(sqlerr.InternalError, "internal error in a parallel worker: %v\n%s", fmt.Sprint(r), debug.Stack())
					cancel()
				}
			}()
			for {
				b, err := p.Next(ctx)
				if err != nil {
					errs[i] = err
					cancel()
					return
				}
				if b == nil {
					return
				}
				o.results[i] = append(o.results[i], b)
			}
		}()
	}
	waited := time.Now()
	wg.Wait()
	o.stallNs += time.Since(waited).Nanoseconds()
	// The failure itself, not the cancellations it caused in the others.
	for _, err := range errs {
		if err != nil && !isCancel(err) {
			o.releaseResults()
			return err
		}
	}
	for _, err := range errs {
		if err != nil {
			o.releaseResults()
			return err
		}
	}
	return nil
}

// isCancel reports whether err is only the cancellation another part's
// failure caused.
func isCancel(err error) bool {
	return err == context.Canceled || sqlerr.CodeOf(err) == sqlerr.QueryCanceled
}

func (o *ParallelUnion) releaseResults() {
	for i, rs := range o.results {
		for _, b := range rs {
			b.Release()
		}
		o.results[i] = nil
	}
}

func (o *ParallelUnion) Close() {
	o.releaseResults()
	for _, p := range o.Parts {
		p.Close()
	}
}

// NewTableScanOf is a TableScan that reads r (a part of a split scan of t)
// instead of opening a scan of its own.
func NewTableScanOf(t fluss.Table, r fluss.RecordReader, out *arrow.Schema) *TableScan {
	return &TableScan{Table: t, Out: out, reader: r}
}

// Fork is a copy of ec for another goroutine: what it caches per
// execution (uncorrelated subqueries' rows) is its own.
func (ec *EvalContext) Fork() *EvalContext {
	c := *ec
	c.subqueries = nil
	return &c
}
