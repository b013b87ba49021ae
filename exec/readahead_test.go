package exec

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// countedOp produces n one-row batches 0..n-1 from mem, then fails with
// err or panics with panicMsg (if set) instead of ending; it counts its
// Close calls and fails the test if Next runs after Close.
type countedOp struct {
	t        *testing.T
	mem      memory.Allocator
	schema   *arrow.Schema
	n, next  int
	err      error
	panicMsg string
	block    chan struct{} // when set, Next waits on it before each batch
	closed   atomic.Int32
}

func (o *countedOp) Schema() *arrow.Schema { return o.schema }
func (o *countedOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed.Load() != 0 {
		o.t.Error("Next after Close")
	}
	if o.block != nil {
		select {
		case <-o.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if o.next == o.n {
		if o.panicMsg != "" {
			panic(o.panicMsg)
		}
		return nil, o.err
	}
	col := int64Array(o.mem, int64(o.next))
	defer col.Release()
	o.next++
	return array.NewRecordBatch(o.schema, []arrow.Array{col}, 1), nil
}
func (o *countedOp) Close() { o.closed.Add(1) }

// TestReadAhead: batches arrive in order and then the end, an error or a
// panic (as XX000) ends the stream, and Close at any point stops the
// goroutine, releases what it produced and closes the input once, after
// the goroutine is done with it.
func TestReadAhead(t *testing.T) {
	schema := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	boom := sqlerr.New(sqlerr.DiskFull, "no space")
	for _, c := range []struct {
		name     string
		n, take  int // batches produced; batches the consumer takes before Close (-1: all)
		err      error
		panicMsg string
		wantCode sqlerr.Code // of the error after the batches ("" none)
	}{
		{name: "all", n: 5, take: -1},
		{name: "empty", n: 0, take: -1},
		{name: "error", n: 3, take: -1, err: boom, wantCode: sqlerr.DiskFull},
		{name: "panic", n: 2, take: -1, panicMsg: "kaboom", wantCode: sqlerr.InternalError},
		{name: "closed early", n: 50, take: 2},
		{name: "closed before Next", n: 50, take: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			in := &countedOp{t: t, mem: mem, schema: schema, n: c.n, err: c.err, panicMsg: c.panicMsg}
			ra := &ReadAhead{Input: in}
			ctx := context.Background()
			got := 0
			for c.take < 0 || got < c.take {
				b, err := ra.Next(ctx)
				if err != nil {
					if sqlerr.CodeOf(err) != c.wantCode || c.wantCode == "" {
						t.Fatalf("after %d batches: %v (code %s), want code %q", got, err, sqlerr.CodeOf(err), c.wantCode)
					}
					if got != c.n {
						t.Fatalf("error after %d batches, want after %d", got, c.n)
					}
					break
				}
				if b == nil {
					if c.wantCode != "" || got != c.n {
						t.Fatalf("end after %d batches, want %d and code %q", got, c.n, c.wantCode)
					}
					break
				}
				if v := b.Column(0).(*array.Int64).Value(0); v != int64(got) {
					t.Fatalf("batch %d holds %d", got, v)
				}
				b.Release()
				got++
			}
			if b, err := ra.Next(ctx); c.take < 0 && (b != nil || err != nil) {
				t.Fatalf("Next after the end: %v, %v", b, err)
			} else if b != nil {
				b.Release()
			}
			ra.Close()
			ra.Close()
			if n := in.closed.Load(); n != 2 {
				t.Fatalf("input closed %d times, want 2 (once per Close)", n)
			}
		})
	}
}

// TestReadAheadCancel: a consumer waiting for a batch that never comes is
// released by its context, and Close then ends the goroutine.
func TestReadAheadCancel(t *testing.T) {
	schema := SchemaOf([]string{"x"}, []types.T{types.Int64Type})
	in := &countedOp{t: t, mem: memory.NewGoAllocator(), schema: schema, n: 3, block: make(chan struct{})}
	ra := &ReadAhead{Input: in}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := ra.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next: %v, want the deadline", err)
	}
	done := make(chan struct{})
	go func() {
		ra.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs")
	}
}
