package exec

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// PoolAllocator is a memory.Allocator that recycles freed buffers: a
// kernel's output buffer released after a batch is handed to the next batch
// of the same size class instead of being allocated (and zeroed) again.
// Sizes are rounded up to a power of two; at most Limit bytes are kept.
// It is safe for concurrent use.
//
// Only buffers handed out by AllocateUninit (the fixed-width values and
// bitmaps the native kernels write) go back to the pool when freed. Any
// other buffer is left to the garbage collector, because arrow-go's
// String.Value aliases the buffer's bytes: a string read from a batch may
// outlive the batch (a cached subquery value, a sort key...), which is
// harmless with Go's allocator and would be corrupted by reuse.
type PoolAllocator struct {
	mu         sync.Mutex
	free       map[int][][]byte // by capacity (a power of two)
	recyclable map[*byte]int    // outstanding AllocateUninit buffers: their class
	held       int
	limit      int
	base       memory.Allocator
	stats      PoolStats
}

// PoolStats counts what the pool did.
type PoolStats struct {
	Allocs, Reused, Freed, Dropped int64
}

const minPoolClass = 64

// NewPoolAllocator recycles up to limit bytes of freed buffers, allocating
// new ones from Go's heap (64-byte aligned).
func NewPoolAllocator(limit int) *PoolAllocator {
	return &PoolAllocator{free: map[int][][]byte{}, recyclable: map[*byte]int{}, limit: limit, base: memory.NewGoAllocator()}
}

func poolClass(size int) int {
	if size <= minPoolClass {
		return minPoolClass
	}
	return 1 << bits.Len(uint(size-1))
}

// Allocate returns a zeroed buffer of size bytes with capacity size, as
// Go's allocator does (arrow-go's builders rely on len == cap).
func (p *PoolAllocator) Allocate(size int) []byte {
	b, reused := p.get(size)
	if reused {
		clear(b)
	}
	return b
}

// AllocateUninit returns a buffer whose contents are arbitrary, for kernels
// that write every byte; it goes back to the pool when freed.
func (p *PoolAllocator) AllocateUninit(size int) []byte {
	b, _ := p.get(size)
	if size > 0 {
		p.mu.Lock()
		p.recyclable[unsafe.SliceData(b)] = poolClass(size)
		p.mu.Unlock()
	}
	return b
}

// get returns size bytes (len and cap) of a pooled or new buffer of size's
// class.
func (p *PoolAllocator) get(size int) ([]byte, bool) {
	c := poolClass(size)
	p.mu.Lock()
	p.stats.Allocs++
	if l := p.free[c]; len(l) > 0 {
		b := l[len(l)-1]
		p.free[c] = l[:len(l)-1]
		p.held -= c
		p.stats.Reused++
		p.mu.Unlock()
		return b[:size:size], true
	}
	p.mu.Unlock()
	return p.base.Allocate(c)[:size:size], false
}

// Reallocate returns a buffer of size bytes holding b's contents.
func (p *PoolAllocator) Reallocate(size int, b []byte) []byte {
	if size <= len(b) {
		return b[:size]
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free keeps b for reuse if AllocateUninit handed it out and the pool has
// room; anything else is left to the garbage collector.
func (p *PoolAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	key := unsafe.SliceData(b)
	c, ok := p.recyclable[key]
	if !ok {
		return
	}
	delete(p.recyclable, key)
	p.stats.Freed++
	if p.held+c > p.limit {
		p.stats.Dropped++
		return
	}
	p.free[c] = append(p.free[c], unsafe.Slice(key, c))
	p.held += c
}

// Stats returns a copy of the counters.
func (p *PoolAllocator) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// uninitAllocator is an allocator that can skip zeroing.
type uninitAllocator interface {
	AllocateUninit(size int) []byte
}

// newOutputBuffer returns a buffer of size bytes for a kernel that writes
// every byte: not zeroed when the allocator can skip it.
func newOutputBuffer(mem memory.Allocator, size int) *memory.Buffer {
	if u, ok := mem.(uninitAllocator); ok {
		return memory.NewBufferWithAllocator(u.AllocateUninit(size), mem)
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(size)
	return buf
}
