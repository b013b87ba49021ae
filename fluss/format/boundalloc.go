package format

import (
	"fmt"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A compressed Arrow buffer states its uncompressed size in its first eight
// bytes, and arrow-go's IPC reader allocates that size before it
// decompresses anything: a damaged (or hostile) batch whose CRC still holds
// could make one decode allocate gigabytes (a fuzz input claimed 4 GiB).
// The IPC readers therefore allocate through a decodeAllocator whose budget
// is set per batch from the batch's own size.
const (
	// maxExpansion bounds how much larger than its encoded bytes a batch's
	// decoded buffers may be. LZ4 frames expand at most ~255x; ZSTD more on
	// runs of one value, hence the margin.
	maxExpansion = 4096
	// maxDecodedBatch bounds any one batch's decoded buffers: Fluss writers
	// send batches of a few MiB.
	maxDecodedBatch = 1 << 30
	// minDecodeBudget lets tiny batches decode small buffers (bitmaps,
	// offsets) whatever their encoded size.
	minDecodeBudget = 1 << 20
)

// decodeBudget is what the IPC reader may allocate to decode a batch of
// encoded bytes.
func decodeBudget(encoded int) int64 {
	return min(max(int64(encoded)*maxExpansion, minDecodeBudget), maxDecodedBatch)
}

// errDecodeBudget is the panic value of an allocation over the budget;
// arrow-go's reader recovers it into its error.
type errDecodeBudget struct{ size, budget int64 }

func (e errDecodeBudget) Error() string {
	return fmt.Sprintf("decoded buffer of %d bytes exceeds the %d bytes this batch may decode to", e.size, e.budget)
}

// decodeAllocator passes allocations to inner while they fit the budget
// that reset set, and panics past it (Allocator has no error result).
// Freed bytes are not given back: the budget bounds one decode's total.
type decodeAllocator struct {
	inner  memory.Allocator
	budget int64
	left   atomic.Int64
}

func newDecodeAllocator() *decodeAllocator {
	return &decodeAllocator{inner: memory.DefaultAllocator}
}

// reset gives the next decode the budget of a batch of encoded bytes.
func (a *decodeAllocator) reset(encoded int) {
	a.budget = decodeBudget(encoded)
	a.left.Store(a.budget)
}

func (a *decodeAllocator) take(n int) {
	if n > 0 && a.left.Add(-int64(n)) < 0 {
		panic(errDecodeBudget{size: int64(n), budget: a.budget})
	}
}

func (a *decodeAllocator) Allocate(size int) []byte {
	a.take(size)
	return a.inner.Allocate(size)
}

func (a *decodeAllocator) Reallocate(size int, b []byte) []byte {
	a.take(size - len(b))
	return a.inner.Reallocate(size, b)
}

func (a *decodeAllocator) Free(b []byte) { a.inner.Free(b) }
