package embedded

import (
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// logMap is a read-only memory mapping of a bucket log up to a scan's
// committed length. A projected read of a batch points the record's arrays
// straight into it: no read into a fresh zeroed buffer (allocation, zeroing,
// page faults and collections were most of a projected scan's cost) and no
// copy. It is reference counted: the scan holds one reference and every
// Arrow buffer made over it one more (format.BytesOwner), and the mapping
// is removed when the last is released, so a record outliving its scan
// stays readable and one released for good frees the mapping.
//
// The mapped bytes are never written: a log only grows while it is open,
// except that a failed group write cuts the file back to the length
// committed before it, which is at or past every scan's limit, so no mapped
// byte a scan reads can vanish under it. Only batches whose CRC Open
// checked or that this process wrote are read through the mapping (as for
// any projected read); the rest are read whole and checked.
type logMap struct {
	data []byte
	refs atomic.Int64
}

var _ interface {
	memory.Allocator
	Retain()
} = (*logMap)(nil)

// Retain adds a reference (an Arrow buffer made over the mapping).
func (m *logMap) Retain() { m.refs.Add(1) }

// release drops a reference and unmaps on the last one.
func (m *logMap) release() {
	if m.refs.Add(-1) == 0 {
		unmapFile(m.data)
		m.data = nil
	}
}

// Free is called when an Arrow buffer over the mapping is released.
func (m *logMap) Free([]byte) { m.release() }

// Allocate and Reallocate are not called for buffers over a mapping (they
// are immutable); they hand out ordinary memory should anyone ask.
func (m *logMap) Allocate(size int) []byte { return memory.DefaultAllocator.Allocate(size) }

func (m *logMap) Reallocate(size int, b []byte) []byte {
	return memory.DefaultAllocator.Reallocate(size, b)
}

// aligned reports whether b starts at a multiple of 8 bytes, as Arrow's
// typed views of fixed-width values need (a batch's buffers are 8-byte
// aligned relative to its body, but the batch may start anywhere in the
// file; append-only batches, whose sizes are multiples of 8, stay aligned).
func aligned(b []byte) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0
}
