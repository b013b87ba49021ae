package embedded

import (
	"os"
	"sync"
	"unsafe"
)

// logMaps are the read-only memory mappings of one bucket log. A projected
// scan points its records' arrays straight into them: no read into a fresh
// zeroed buffer (allocation, zeroing, page faults and collections were most
// of a projected scan's cost), no copy, and page tables that stay filled
// from one scan to the next.
//
// A mapping is never unmapped while the store is open, because Arrow's
// accessors hand out Go strings and slices that alias array memory, and
// consumers keep them after releasing the record (a result's strings, a
// hash table's keys): memory under them must stay readable for as long as
// the process runs. A log that outgrows its mapping gets a larger one
// (twice its length, so remaps are rare) and the old one stays. When the
// table is dropped or the store closed, once no scan that got a mapping is
// still open (its query may still be reading its records), each mapping
// is replaced in place by zero-filled anonymous memory: the file's pages
// and the deleted file are let go, and a string kept from a released
// record reads zeros rather than faulting.
//
// Mapped bytes are never written: a log only grows while it is open,
// except that a failed group write cuts the file back to the length
// committed before it, at or past every scan's limit, so no byte a scan
// reads can vanish under it. A mapping extends past the end of the file;
// only bytes below a scan's committed limit are read. Batches whose CRC
// Open checked or that this process wrote are built in place from the
// mapping without hashing them again (doc.go); the rest are read whole
// from it and their CRC checked.
type logMaps struct {
	mu      sync.Mutex
	maps    [][]byte // the last is the largest
	users   int      // open scans holding a mapping (get without put)
	closing bool     // retire called: no new mapping, retire at users == 0
}

// minLogMap is the smallest mapping (address space only; nothing is read
// until touched).
const minLogMap = 64 << 20

// get returns the first limit bytes of the log, mapped from f, or nil when
// the log cannot be mapped (the scan then reads with pread). A scan that
// got a mapping calls put when it closes.
func (m *logMaps) get(f *os.File, limit int64) []byte {
	if limit <= 0 {
		return nil
	}
	// A file shorter than its committed length (damaged behind the store's
	// back) is not mapped: touching a mapped page past the end of a file
	// kills the process, while a pread reports the damage.
	if st, err := f.Stat(); err != nil || st.Size() < limit {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return nil
	}
	if n := len(m.maps); n == 0 || int64(len(m.maps[n-1])) < limit {
		size := max(2*limit, minLogMap)
		size = (size + minLogMap - 1) / minLogMap * minLogMap
		b := mapFile(f, size)
		if b == nil {
			return nil
		}
		m.maps = append(m.maps, b)
	}
	m.users++
	return m.maps[len(m.maps)-1][:limit:limit]
}

// put ends a scan's use of the mapping get returned.
func (m *logMaps) put() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users--
	if m.closing && m.users == 0 {
		m.retireLocked()
	}
}

// retire replaces every mapping by zero-filled memory (see logMaps) now,
// or when the last scan using one closes.
func (m *logMaps) retire() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closing = true
	if m.users == 0 {
		m.retireLocked()
	}
}

func (m *logMaps) retireLocked() {
	for _, b := range m.maps {
		retireMapping(b)
	}
	m.maps = nil
}

// aligned reports whether b starts at a multiple of 8 bytes, as Arrow's
// typed views of fixed-width values need (a batch's buffers are 8-byte
// aligned relative to its body, but the batch may start anywhere in the
// file; append-only batches, whose sizes are multiples of 8, stay aligned).
func aligned(b []byte) bool {
	return len(b) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0
}
