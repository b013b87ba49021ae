package exec

import (
	"context"

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
}

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
	for {
		b, err := o.next(ctx)
		select {
		case o.batches <- readAheadResult{b, err}:
		case <-o.stop:
			if b != nil {
				b.Release()
			}
			return
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
