package relop

import (
	"bytes"
	"container/heap"
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
)

// TopN emits the first N rows of its input in Keys order (ORDER BY ...
// LIMIT N), keeping only N rows: a bounded heap whose worst row is evicted.
// Ties keep input order, as a stable sort followed by a limit would. An
// OFFSET is the planner's business: it asks for N = limit + offset and puts
// exec.Limit on top.
type TopN struct {
	Input exec.Operator
	Keys  []SortKey
	N     int64
	Mem   *MemoryAccount
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchRows is the output batch size (0: 8192).
	BatchRows int

	started bool
	closed  bool
	hold    holding
	h       topHeap
	batches []arrow.RecordBatch
	out     []topEntry
	pos     int
}

type topEntry struct {
	key []byte
	seq uint64
	ref rowRef
}

// topHeap is a max-heap: the worst kept row on top.
type topHeap []topEntry

func topLess(a, b *topEntry) bool {
	if c := bytes.Compare(a.key, b.key); c != 0 {
		return c < 0
	}
	return a.seq < b.seq
}

func (h topHeap) Len() int           { return len(h) }
func (h topHeap) Less(i, j int) bool { return topLess(&h[j], &h[i]) }
func (h topHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *topHeap) Push(x any)        { *h = append(*h, x.(topEntry)) }
func (h *topHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (o *TopN) Schema() *arrow.Schema { return o.Input.Schema() }

func (o *TopN) Close() {
	if o.closed {
		return
	}
	o.closed = true
	o.releaseBatches()
	o.hold.releaseAll()
	o.Input.Close()
}

func (o *TopN) releaseBatches() {
	for _, b := range o.batches {
		if b != nil {
			b.Release()
		}
	}
	o.batches = nil
}

func (o *TopN) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.closed {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.started {
		o.started = true
		o.hold = holding{acct: o.Mem}
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
		o.out = []topEntry(o.h)
		slices.SortFunc(o.out, func(a, b topEntry) int {
			if topLess(&a, &b) {
				return -1
			}
			return 1
		})
	}
	if o.pos >= len(o.out) {
		return nil, nil
	}
	hi := min(o.pos+rowsOr(o.BatchRows), len(o.out))
	refs := make([]rowRef, hi-o.pos)
	for i := range refs {
		refs[i] = o.out[o.pos+i].ref
	}
	o.pos = hi
	return gatherBatch(allocOr(o.Alloc), o.Schema(), o.batches, refs)
}

func (o *TopN) consume(ctx context.Context) error {
	if o.N <= 0 {
		return nil
	}
	var seq uint64
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := o.Input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			return nil
		}
		keys, err := encodeBatchKeys(b, o.Keys)
		if err != nil {
			b.Release()
			return err
		}
		bi := uint32(len(o.batches))
		used := false
		for i, k := range keys {
			e := topEntry{key: k, seq: seq, ref: rowRef{bi, uint32(i)}}
			seq++
			if int64(len(o.h)) < o.N {
				e.key = bytes.Clone(k)
				heap.Push(&o.h, e)
				used = true
				continue
			}
			if topLess(&e, &o.h[0]) {
				e.key = bytes.Clone(k)
				o.h[0] = e
				heap.Fix(&o.h, 0)
				used = true
			}
		}
		if used {
			o.batches = append(o.batches, b)
		} else {
			b.Release()
		}
		// keep memory proportional to N: once the kept batches outnumber
		// what N rows need, copy the kept rows into one batch
		if len(o.batches) > 8 && int64(len(o.batches)) > o.N/int64(max(1, b.NumRows()))+4 {
			if err := o.compact(); err != nil {
				return err
			}
		}
		if err := o.charge(); err != nil {
			return err
		}
	}
}

func (o *TopN) charge() error {
	var n int64
	for _, b := range o.batches {
		n += batchBytes(b)
	}
	for _, e := range o.h {
		n += int64(len(e.key)) + 40
	}
	if d := n - o.hold.n; d > 0 {
		return o.hold.grow(d)
	} else {
		o.hold.shrink(-d)
	}
	return nil
}

func (o *TopN) compact() error {
	refs := make([]rowRef, len(o.h))
	for i, e := range o.h {
		refs[i] = e.ref
	}
	b, err := gatherBatch(allocOr(o.Alloc), o.Schema(), o.batches, refs)
	if err != nil {
		return err
	}
	o.releaseBatches()
	o.batches = []arrow.RecordBatch{b}
	for i := range o.h {
		o.h[i].ref = rowRef{0, uint32(i)}
	}
	return nil
}
