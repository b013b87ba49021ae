package relop

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// recycler is an allocator that keeps the buffers given back to it for
// the next allocations of the same size. A join's output batches are
// released by its consumer before the next is asked for; each is built
// into the same few buffer sizes, so the buffers of one batch serve the
// next instead of fresh ones (which Go zeroes: ~10% of a large join's
// probe CPU). The buffers it hands out are not zeroed: its callers (the
// gathers) write every value and clear their validity bitmaps themselves.
//
// Free may be called from the consumer's goroutine, and after close (a
// batch kept past the operator's end): a mutex guards the lists, and
// after close every buffer goes back to the inner allocator.
type recycler struct {
	// fit: an allocation may take a kept buffer up to twice its size
	// (buffers hold their capacity: a Buffer's Cap is len of what
	// Allocate returned). A prober's chunks vary in rows, so that their
	// copies (radixjoin.go) would seldom reuse an equal size; a larger
	// buffer reused holds no more memory than the same buffer kept idle
	// beside a fresh one.
	fit    bool
	inner  memory.Allocator
	mu     sync.Mutex
	free   map[int][][]byte
	closed bool
}

// recycleKeep is how many buffers of one size the recycler keeps (an
// output batch has one or two per column).
const recycleKeep = 16

func newRecycler(inner memory.Allocator) *recycler {
	return &recycler{inner: inner, free: map[int][][]byte{}}
}

func (r *recycler) Allocate(size int) []byte {
	r.mu.Lock()
	from := size
	if r.fit && len(r.free[size]) == 0 {
		// the smallest kept size that fits (few sizes are kept)
		for n, l := range r.free {
			if len(l) > 0 && n > size && n < 2*size && (from == size || n < from) {
				from = n
			}
		}
	}
	if l := r.free[from]; len(l) > 0 {
		b := l[len(l)-1]
		r.free[from] = l[:len(l)-1]
		r.mu.Unlock()
		return b
	}
	r.mu.Unlock()
	return r.inner.Allocate(size)
}

func (r *recycler) Reallocate(size int, b []byte) []byte {
	return r.inner.Reallocate(size, b)
}

func (r *recycler) Free(b []byte) {
	r.mu.Lock()
	if l := r.free[len(b)]; !r.closed && len(l) < recycleKeep && len(b) > 0 {
		r.free[len(b)] = append(l, b)
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	r.inner.Free(b)
}

// close gives the kept buffers back to the inner allocator; buffers freed
// later go straight to it.
func (r *recycler) close() {
	r.mu.Lock()
	free := r.free
	r.free, r.closed = nil, true
	r.mu.Unlock()
	for _, l := range free {
		for _, b := range l {
			r.inner.Free(b)
		}
	}
}
