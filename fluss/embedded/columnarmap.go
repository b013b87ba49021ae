package embedded

import (
	"os"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Zero-copy reads of a columnar image (issue 27, acceptance 4).
//
// Reading a chunk with pread costs a fresh, zeroed Go buffer per chunk and
// column: at 10M rows that allocation, its page faults and the collections
// it causes were ~12-14 ns a row for two bigint columns, against ~1.4 ns
// when the image was held in memory (bench/LEDGER.md). A column file of a
// fixed-width type (integers, floats, dates, times, timestamps, booleans,
// decimals) is therefore mapped read-only, whatever its size (the columnar
// test suites' small tables run this path too), and its chunks' arrays
// point straight into the mapping (the IPC body's buffers are 8-byte
// aligned in the file, the mapping page-aligned).
// Variable-width columns (strings, binary) are still read into Go memory:
// Arrow's accessors hand out Go strings and []byte that alias the array,
// which consumers keep past a record's release (a result's text, a hash
// table's keys), and those must stay valid for as long as the collector
// sees them.
//
// Lifetime: each array read from a mapping holds a reference counted by
// the image's imageMaps (its buffers' allocator, freed at the arrays'
// release). When the image is replaced, dropped or the store closed
// (retire), the mappings go once no array refers to them: each is replaced
// in place by read-only zero pages (as logMaps does; a fixed-width slice
// kept past its record's release reads zeros instead of faulting) and its
// address range goes back to the store's mapPool, which maps the next
// image's files into such ranges, so that rebuilds of a table written all
// the time do not add mappings without end (the kernel bounds their
// number, vm.max_map_count).
//
// Memory: a mapped page a scan touched counts in the process's RSS until
// unmapped, which at 10M rows would be the image's whole columns (W9's
// bound is 512 MiB). A scan therefore gives the pages behind it back
// (MADV_DONTNEED, every imageDropBytes of a column and at its close): the
// page cache keeps them, and a consumer still reading an array there, or
// the next scan, faults them back in (the kernel maps a page-cache page
// without reading the disk). RSS holds the chunks in flight only.

// minRegion is the smallest address range reserved for a mapping.
const minRegion = 64 << 10

// imageDropBytes is how much of a column a scan reads between two
// MADV_DONTNEED calls (a call per 64 KiB chunk would cost more than the
// faults it saves).
const imageDropBytes = 2 << 20

// mappable reports whether an image column of type t is read from a
// mapping: a fixed-width type whose arrays are a validity bitmap and one
// buffer of values (no children, no dictionary, no values a consumer
// would alias as []byte).
func mappable(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION,
		arrow.INTERVAL_MONTHS, arrow.INTERVAL_DAY_TIME, arrow.INTERVAL_MONTH_DAY_NANO,
		arrow.DECIMAL128, arrow.DECIMAL256:
		return true
	}
	return false
}

// mapPool is a store's address ranges for image mappings: a range is
// reserved once (zero pages), files are mapped over its start, and a
// retired mapping's range (zero pages again) is reused for a later file
// that fits it.
type mapPool struct {
	mu   sync.Mutex
	free [][]byte // retired ranges, whole
}

// regionSize is the range reserved for a file of n bytes: a power of two,
// so that the rebuilds of one table, whose files differ a little in size,
// reuse each other's ranges.
func regionSize(n int64) int64 {
	s := int64(minRegion)
	for s < n {
		s *= 2
	}
	return s
}

// get maps the n bytes of f into a range, returning the whole range (the
// file at its start), or nil when it cannot (the column is then read with
// pread).
func (p *mapPool) get(f *os.File, n int64) []byte {
	if n <= 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	best := -1
	for i, r := range p.free {
		if int64(len(r)) >= n && (best < 0 || len(r) < len(p.free[best])) {
			best = i
		}
	}
	var region []byte
	if best >= 0 {
		region = p.free[best]
		p.free = append(p.free[:best], p.free[best+1:]...)
	} else if region = reserveRegion(regionSize(n)); region == nil {
		return nil
	}
	if !mapFileInto(f, region[:n]) {
		p.free = append(p.free, region)
		return nil
	}
	return region
}

// put retires a file mapped at the start of region (n bytes): zero pages
// replace it and the range is free again.
func (p *mapPool) put(region []byte, n int64) {
	retireMapping(region[:n])
	p.mu.Lock()
	p.free = append(p.free, region)
	p.mu.Unlock()
}

// imageMaps are an image's mapped column files and the count of arrays
// that point into them. It is the allocator of those arrays' buffers:
// Free is their release.
type imageMaps struct {
	pool    *mapPool
	regions [][]byte // per manifest column; nil: not mapped
	sizes   []int64  // the mapped files' sizes
	readers []*ipc.FileReader
	live    atomic.Int64 // buffers (and reads in progress) pointing into the mappings
	mu      sync.Mutex
	closing bool // retire was called: no new reads; unmap at live == 0
	retired bool
}

// openImageMaps maps the fixed-width column files among files (per
// manifest column, of types types and sizes sizes).
func openImageMaps(pool *mapPool, files []*os.File, types []arrow.DataType, sizes []int64) *imageMaps {
	if pool == nil {
		return nil
	}
	m := &imageMaps{pool: pool, regions: make([][]byte, len(files)), sizes: sizes, readers: make([]*ipc.FileReader, len(files))}
	any := false
	for j, f := range files {
		if !mappable(types[j]) {
			continue
		}
		// A file shorter than its manifest says is not mapped: a read
		// past its end would kill the process, a pread reports it.
		if st, err := f.Stat(); err != nil || st.Size() != sizes[j] {
			continue
		}
		region := pool.get(f, sizes[j])
		if region == nil {
			continue
		}
		r, err := ipc.NewMappedFileReader(region[:sizes[j]], ipc.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			pool.put(region, sizes[j])
			continue
		}
		m.regions[j], m.readers[j] = region, r
		any = true
	}
	if !any {
		return nil
	}
	return m
}

// acquire counts a read about to start on the mappings, or reports that
// they are being retired (the read then uses pread).
func (m *imageMaps) acquire() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return false
	}
	m.live.Add(1)
	return true
}

// done ends a read or an array's reference.
func (m *imageMaps) done() {
	if m.live.Add(-1) == 0 {
		m.mu.Lock()
		if m.closing && !m.retired && m.live.Load() == 0 {
			m.retireLocked()
		}
		m.mu.Unlock()
	}
}

// retire unmaps the files now, or when the last array pointing into them
// is released.
func (m *imageMaps) retire() {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closing = true
	if !m.retired && m.live.Load() == 0 {
		m.retireLocked()
	}
}

func (m *imageMaps) retireLocked() {
	m.retired = true
	for j, r := range m.regions {
		if r != nil {
			m.pool.put(r, m.sizes[j])
			m.regions[j] = nil
		}
	}
}

// Allocate, Reallocate and Free make imageMaps the memory.Allocator of the
// mapped arrays' buffers, so that releasing one counts down live. Nothing
// is expected to grow such a buffer; should something, it gets Go memory
// counted like a mapped buffer, so that the count stays balanced.
func (m *imageMaps) Allocate(size int) []byte {
	m.live.Add(1)
	return make([]byte, size)
}

func (m *imageMaps) Reallocate(size int, b []byte) []byte {
	out := make([]byte, size)
	copy(out, b)
	return out
}

func (m *imageMaps) Free([]byte) { m.done() }

// chunk reads chunk k of manifest column j from its mapping: an array
// whose buffers point into it, holding a reference; ok is false when the
// column is not mapped or the mappings are being retired.
func (m *imageMaps) chunk(k, j int) (a arrow.Array, ok bool, err error) {
	if m == nil || m.readers[j] == nil || !m.acquire() {
		return nil, false, nil
	}
	defer m.done()
	rec, err := m.readers[j].RecordBatchAt(k)
	if err != nil {
		return nil, true, err
	}
	defer rec.Release()
	if rec.NumCols() != 1 {
		return nil, true, corrupt("chunk %d has %d columns", k, rec.NumCols())
	}
	d := rec.Column(0).Data()
	if len(d.Children()) != 0 || !mappable(d.DataType()) {
		return nil, true, corrupt("chunk %d is not of a fixed-width type", k)
	}
	bufs := make([]*memory.Buffer, len(d.Buffers()))
	for i, b := range d.Buffers() {
		if b == nil || b.Len() == 0 {
			bufs[i] = b
			continue
		}
		if !aligned(b.Bytes()) {
			releaseBuffers(bufs)
			return nil, true, corrupt("chunk %d's buffer %d is not 8-byte aligned", k, i)
		}
		m.live.Add(1)
		bufs[i] = memory.NewBufferWithAllocator(b.Bytes(), m)
	}
	nd := array.NewData(d.DataType(), d.Len(), bufs, nil, d.NullN(), d.Offset())
	releaseBuffers(bufs) // NewData holds them
	a = array.MakeFromData(nd)
	nd.Release()
	return a, true, nil
}

// releaseBuffers releases the buffers chunk made (not those it passed on
// from the reader, which hold no reference of their own).
func releaseBuffers(bufs []*memory.Buffer) {
	for _, b := range bufs {
		if b != nil && b.Len() > 0 {
			b.Release()
		}
	}
}

// span returns the address range [lo, hi) of a's buffers inside manifest
// column j's mapping, or false when a does not point into it.
func (m *imageMaps) span(j int, a arrow.Array) (lo, hi uintptr, ok bool) {
	if m == nil || j >= len(m.regions) {
		return 0, 0, false
	}
	m.mu.Lock()
	r := m.regions[j]
	m.mu.Unlock()
	if r == nil {
		return 0, 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r)))
	end := base + uintptr(m.sizes[j])
	for _, b := range a.Data().Buffers() {
		if b == nil || b.Len() == 0 {
			continue
		}
		p := uintptr(unsafe.Pointer(unsafe.SliceData(b.Bytes())))
		q := p + uintptr(b.Len())
		if p < base || q > end {
			return 0, 0, false
		}
		if !ok || p < lo {
			lo = p
		}
		if !ok || q > hi {
			hi = q
		}
		ok = true
	}
	return lo, hi, ok
}

// drop gives back the whole pages of [lo, hi) of manifest column j's
// mapping (see the comment at the top). The range is checked to lie in
// the mapping: MADV_DONTNEED on Go memory would zero it.
func (m *imageMaps) drop(j int, lo, hi uintptr) {
	const page = 4096
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.retired || j >= len(m.regions) || m.regions[j] == nil {
		return
	}
	r := m.regions[j]
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r)))
	lo = max(lo, base)
	hi = min(hi, base+uintptr(m.sizes[j]))
	lo = (lo + page - 1) &^ (page - 1)
	hi &^= page - 1
	if hi <= lo {
		return
	}
	dropPages(r[lo-base : hi-base])
}

// imageDrops is a scan's pages to give back, per output column: the range
// of the chunks it has finished since the last drop.
type imageDrops struct {
	lo, hi []uintptr
}

// finished notes that the scan is done with a (output column i, manifest
// column j) and drops the pages behind it once imageDropBytes have passed.
func (d *imageDrops) finished(m *imageMaps, i, j int, a arrow.Array, force bool) {
	if m == nil {
		return
	}
	if d.lo == nil {
		d.lo, d.hi = make([]uintptr, i+1), make([]uintptr, i+1)
	}
	for len(d.lo) <= i {
		d.lo, d.hi = append(d.lo, 0), append(d.hi, 0)
	}
	if a != nil {
		if lo, hi, ok := m.span(j, a); ok {
			if d.hi[i] == 0 || lo < d.lo[i] {
				d.lo[i] = lo
			}
			d.hi[i] = max(d.hi[i], hi)
		}
	}
	if d.hi[i] != 0 && (force || d.hi[i]-d.lo[i] >= imageDropBytes) {
		m.drop(j, d.lo[i], d.hi[i])
		d.lo[i], d.hi[i] = 0, 0
	}
}
