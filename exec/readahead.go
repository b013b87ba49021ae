package exec

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ReadAhead runs its input one batch ahead in a goroutine of its own, so
// that producing the next batch (a scan decoding stored rows) overlaps
// with the consumer's work on the last one (pgwire encoding and sending
// it): a `SELECT *` streamed to a client then uses a second core. The
// input must not touch state that its caller's goroutine may change in
// the meantime, such as a transaction's pending writes: lower places it
// over a plain table scan outside transactions only.
//
// The goroutine starts at the first Next, with that call's context, and
// ends when the input is exhausted or fails, or at Close, which waits for
// it before closing the input. A panic in the input becomes an XX000
// error rather than ending the process.
type ReadAhead struct {
	Input Operator

	batches chan readAheadResult // nil until the first Next
	stop    chan struct{}
	done    chan struct{}
	ended   bool
	// stallNs is the time the producer spent blocked on a full queue,
	// waiting for the consumer (backpressure): written by the producer,
	// read by the consumer's metrics (StallNs).
	stallNs atomic.Int64
	// path is the input's read path (PathReporter), published by the
	// producer before each batch it queues.
	path atomic.Pointer[scanPath]
}

type scanPath struct {
	path    string
	workers int
}

// ScanPath implements PathReporter for an input that reports its path,
// as of the last batch the producer queued (a channel send orders the
// store before the consumer's read).
func (o *ReadAhead) ScanPath() (string, int) {
	if p := o.path.Load(); p != nil {
		return p.path, p.workers
	}
	return "", 0
}

// StallNs implements Staller: the time the read-ahead goroutine waited
// for the consumer to take a batch from the full queue.
func (o *ReadAhead) StallNs() int64 { return o.stallNs.Load() }

// QueueDepth implements QueueDepther: the batches produced and waiting.
func (o *ReadAhead) QueueDepth() int { return len(o.batches) }

type readAheadResult struct {
	batch arrow.RecordBatch
	err   error
}

// readAheadDepth is how many produced batches may wait for the consumer,
// besides the one the goroutine is producing.
const readAheadDepth = 1

func (o *ReadAhead) Schema() *arrow.Schema { return o.Input.Schema() }

func (o *ReadAhead) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.ended {
		return nil, nil
	}
	if o.batches == nil {
		o.batches = make(chan readAheadResult, readAheadDepth)
		o.stop, o.done = make(chan struct{}), make(chan struct{})
		go o.produce(ctx)
	}
	select {
	case r, ok := <-o.batches:
		if !ok || r.batch == nil || r.err != nil {
			o.ended = true
		}
		return r.batch, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// produce runs the input until it ends, fails or Close stops it.
func (o *ReadAhead) produce(ctx context.Context) {
	defer close(o.done)
	defer close(o.batches)
	reporter, _ := o.Input.(PathReporter)
	for {
		b, err := o.next(ctx)
		if reporter != nil {
			// a new value only when the path changed: no allocation per batch
			path, workers := reporter.ScanPath()
			if p := o.path.Load(); p == nil || p.path != path || p.workers != workers {
				o.path.Store(&scanPath{path, workers})
			}
		}
		select {
		case o.batches <- readAheadResult{b, err}: // room in the queue: no stall
		default:
			start := time.Now()
			select {
			case o.batches <- readAheadResult{b, err}:
				o.stallNs.Add(time.Since(start).Nanoseconds())
			case <-o.stop:
				if b != nil {
					b.Release()
				}
				return
			}
		}
		if b == nil || err != nil {
			return
		}
	}
}

// next is the input's Next, with a panic turned into an error.
func (o *ReadAhead) next(ctx context.Context) (b arrow.RecordBatch, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, sqlerr.New(sqlerr.InternalError, "internal error: %v", p)
		}
	}()
	return o.Input.Next(ctx)
}

// Close stops the goroutine, releases the batches it produced that were
// never taken, and closes the input.
// A Next after Close returns the end.
func (o *ReadAhead) Close() {
	if o.stop != nil {
		close(o.stop)
		<-o.done
		for r := range o.batches {
			if r.batch != nil {
				r.batch.Release()
			}
		}
		o.stop = nil
	}
	o.ended = true
	o.Input.Close()
}
