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

	// generic forces the byte-encoded path (tests compare the two).
	generic bool

	started bool
	closed  bool
	hold    holding
	h       topHeap
	fh      fixedTopHeap
	fast    bool
	batches []arrow.RecordBatch
	keyBuf  []uint64
	out     []rowRef
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
		if len(o.Keys) == 1 && !o.generic && o.Keys[0].Column >= 0 && o.Keys[0].Column < o.Schema().NumFields() &&
			isFixedKey(o.Schema().Field(o.Keys[0].Column).Type) {
			o.fast = true
		}
		if err := o.consume(ctx); err != nil {
			return nil, err
		}
		if o.fast {
			es := []fixedTop(o.fh)
			slices.SortFunc(es, func(a, b fixedTop) int {
				if a.less(&b) {
					return -1
				}
				return 1
			})
			for _, e := range es {
				o.out = append(o.out, e.ref)
			}
		} else {
			es := []topEntry(o.h)
			slices.SortFunc(es, func(a, b topEntry) int {
				if topLess(&a, &b) {
					return -1
				}
				return 1
			})
			for _, e := range es {
				o.out = append(o.out, e.ref)
			}
		}
	}
	if o.pos >= len(o.out) {
		return nil, nil
	}
	hi := min(o.pos+rowsOr(o.BatchRows), len(o.out))
	refs := o.out[o.pos:hi]
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
		bi := uint32(len(o.batches))
		used := false
		if o.fast {
			used = o.fh.offer(b.Column(o.Keys[0].Column), o.Keys[0], o.N, &seq, bi, &o.keyBuf)
		} else {
			keys, err := encodeBatchKeys(b, o.Keys)
			if err != nil {
				b.Release()
				return err
			}
			used = o.offer(keys, bi, &seq)
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

// offer pushes the rows of a batch (by their encoded keys) into the heap;
// true if any was kept.
func (o *TopN) offer(keys [][]byte, bi uint32, seq *uint64) bool {
	used := false
	{
		for i, k := range keys {
			e := topEntry{key: k, seq: *seq, ref: rowRef{bi, uint32(i)}}
			*seq++
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
	}
	return used
}

func (o *TopN) charge() error {
	var n int64
	for _, b := range o.batches {
		n += batchBytes(b)
	}
	for _, e := range o.h {
		n += int64(len(e.key)) + 40
	}
	n += int64(cap(o.fh)) * 32
	if d := n - o.hold.n; d > 0 {
		return o.hold.grow(d)
	} else {
		o.hold.shrink(-d)
	}
	return nil
}

func (o *TopN) compact() error {
	refs := make([]rowRef, 0, len(o.h)+len(o.fh))
	for _, e := range o.h {
		refs = append(refs, e.ref)
	}
	for _, e := range o.fh {
		refs = append(refs, e.ref)
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
	for i := range o.fh {
		o.fh[i].ref = rowRef{0, uint32(i)}
	}
	return nil
}

// ---- the fixed-width key fast path ----

// fixedTop is a kept row of a single fixed-width key: NULL rank (NULLs
// first or last), the key as an order-preserving uint64 (DESC flipped),
// and the input sequence number that breaks ties.
type fixedTop struct {
	null uint8
	key  uint64
	seq  uint64
	ref  rowRef
}

func (a *fixedTop) less(b *fixedTop) bool {
	if a.null != b.null {
		return a.null < b.null
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.seq < b.seq
}

// fixedTopHeap is a max-heap of fixedTop: the worst kept row on top.
type fixedTopHeap []fixedTop

func (h fixedTopHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].less(&h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h fixedTopHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h[l].less(&h[r]) {
			c = r
		}
		if !h[i].less(&h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// offer keeps the rows of col that belong to the first n; a row no better
// than the current bound (the heap's top) is rejected with two integer
// comparisons and never materialised. True if any row was kept.
func (h *fixedTopHeap) offer(col arrow.Array, k SortKey, n int64, seq *uint64, bi uint32, buf *[]uint64) bool {
	nullRank, valRank := uint8(1), uint8(0) // NULLS LAST
	if k.NullsFirst {
		nullRank, valRank = 0, 1
	}
	if int64(len(*h)) >= n && n > 0 && (*h)[0].null == nullRank && nullRank < valRank {
		// The worst kept row is a NULL sorting before every value (NULLS
		// FIRST, ORDER BY x DESC's default): every row kept is a NULL, a
		// later NULL loses the tie and a value sorts after them all, so
		// no row of this batch can enter (W6: 1% NULL amounts fill the
		// 100 places within the first batches).
		*seq += uint64(col.Len())
		return false
	}
	keys := fixedSortKeys(col, *buf)
	*buf = keys
	var flip uint64
	if k.Desc {
		flip = ^uint64(0)
	}
	hasNulls := col.NullN() > 0
	used := false
	base := *seq
	*seq += uint64(len(keys))
	for i, key := range keys {
		e := fixedTop{null: valRank, key: key ^ flip}
		if hasNulls && col.IsNull(i) {
			e.null, e.key = nullRank, 0
		}
		if int64(len(*h)) >= n {
			top := &(*h)[0]
			// later rows lose ties: equal (null, key) is rejected too
			if e.null > top.null || (e.null == top.null && e.key >= top.key) {
				continue
			}
			e.seq, e.ref = base+uint64(i), rowRef{bi, uint32(i)}
			(*h)[0] = e
			h.down(0)
			used = true
			continue
		}
		e.seq, e.ref = base+uint64(i), rowRef{bi, uint32(i)}
		*h = append(*h, e)
		h.up(len(*h) - 1)
		used = true
	}
	return used
}
