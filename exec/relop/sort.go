package relop

import (
	"bytes"
	"container/heap"
	"context"
	"math"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
)

// Sort emits its input ordered by Keys, stably (rows with equal keys keep
// their input order; PostgresTies: as PostgreSQL's quicksort leaves them). Text compares bytewise (C collation); floats in
// PostgreSQL's order. When Mem refuses to grow and SpillDir is set, the
// buffered rows are sorted into a run on disk; the runs are merged at the
// end (external merge sort).
type Sort struct {
	Input    exec.Operator
	Keys     []SortKey
	Mem      *MemoryAccount
	SpillDir string
	// Alloc allocates Arrow buffers (nil: memory.DefaultAllocator).
	Alloc memory.Allocator
	// BatchRows is the output batch size (0: 8192).
	BatchRows int

	// PostgresTies leaves rows with equal keys where PostgreSQL 15's
	// in-memory quicksort leaves them (pgqsort.go) instead of in input
	// order: below an aggregation whose aggregates show the order of
	// their input, as PostgreSQL's Sort under a GroupAggregate gives each
	// group its rows. Once the rows spill, runs merge stably.
	PostgresTies bool

	// generic forces the byte-encoded key path (tests compare the two).
	generic bool

	clock   spillClock // the runs' I/O time
	started bool
	closed  bool
	hold    holding
	buf     *sortBuffer
	perm    []uint32
	pos     int
	runs    []*spillFile
	merger  *merger
}

func (o *Sort) Schema() *arrow.Schema { return o.Input.Schema() }

func allocOr(a memory.Allocator) memory.Allocator {
	if a == nil {
		return memory.DefaultAllocator
	}
	return a
}

func rowsOr(n int) int {
	if n <= 0 {
		return defaultBatchRows
	}
	return n
}

// Spilled reports whether the sort wrote runs to disk.
func (o *Sort) Spilled() bool { return len(o.runs) > 0 }

func (o *Sort) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.buf != nil {
		o.buf.release()
	}
	if o.merger != nil {
		o.merger.close()
	}
	for _, r := range o.runs {
		r.remove()
	}
	o.hold.releaseAll()
	o.Input.Close()
}

func (o *Sort) Next(ctx context.Context) (arrow.RecordBatch, error) {
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
	}
	if o.merger != nil {
		return o.merger.next(ctx)
	}
	if o.buf == nil || o.pos >= len(o.perm) {
		return nil, nil
	}
	hi := min(o.pos+rowsOr(o.BatchRows), len(o.perm))
	var out arrow.RecordBatch
	var err error
	if o.buf.sorted != nil {
		out, err = o.buf.gatherSorted(allocOr(o.Alloc), o.Schema(), o.perm, o.pos, hi)
	} else {
		out, err = o.buf.gather(allocOr(o.Alloc), o.Schema(), o.perm[o.pos:hi])
	}
	o.pos = hi
	return out, err
}

func (o *Sort) consume(ctx context.Context) error {
	o.buf = newSortBuffer(o.Input.Schema(), o.Keys, o.generic, o.PostgresTies)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := o.Input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		before := o.buf.size()
		if err := o.buf.add(b); err != nil {
			b.Release()
			return err
		}
		b.Release()
		if err := o.hold.grow(o.buf.size() - before); err != nil {
			if o.SpillDir == "" {
				return err
			}
			o.hold.force(o.buf.size() - before)
			if err := o.spillRun(ctx); err != nil {
				return err
			}
		}
	}
	if len(o.runs) == 0 {
		o.perm = o.buf.order(true)
		// one contiguous batch makes the output gathers single-source
		// loops; row k of the buffer is row k of the concatenation
		return o.buf.compact(allocOr(o.Alloc))
	}
	if o.buf.rows() > 0 {
		if err := o.spillRun(ctx); err != nil {
			return err
		}
	}
	o.buf.release()
	o.buf = nil
	m, err := newMerger(o.runs, o.Keys, allocOr(o.Alloc), rowsOr(o.BatchRows), &o.hold)
	if err != nil {
		return err
	}
	o.merger = m
	return nil
}

// spillRun sorts the buffered rows into a new run file and empties the buffer.
func (o *Sort) spillRun(ctx context.Context) error {
	f, err := newSpillFile(o.SpillDir, o.Schema(), allocOr(o.Alloc), &o.clock)
	if err != nil {
		return err
	}
	o.runs = append(o.runs, f)
	perm := o.buf.order(false)
	for lo := 0; lo < len(perm); lo += defaultBatchRows {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := o.buf.gather(allocOr(o.Alloc), o.Schema(), perm[lo:min(lo+defaultBatchRows, len(perm))])
		if err != nil {
			return err
		}
		err = f.write(b)
		b.Release()
		if err != nil {
			return err
		}
	}
	if err := f.finish(); err != nil {
		return err
	}
	o.buf.release()
	o.hold.releaseAll()
	o.buf = newSortBuffer(o.Schema(), o.Keys, o.generic, o.PostgresTies)
	return nil
}

// sortBuffer holds batches and their rows' sort keys. A single integer or
// float key is kept as one (uint64 key, row) pair per non-NULL row and
// radix-sorted; other keys are byte-encoded into one arena and compared
// with bytes.Compare. Rows are numbered across the batches in input order.
type sortBuffer struct {
	schema  *arrow.Schema
	keys    []SortKey
	batches []arrow.RecordBatch
	starts  []uint32 // first row number of each batch
	n       int
	held    int64
	// fast path
	fast      bool
	chunks    [][]keyRow // one per batch: no regrowth of one big slice
	nullRows  []uint32
	nullFirst bool
	// decodable: the key column is rebuilt from the sorted keys instead of
	// gathered (a random read per row); sorted holds them after order.
	decodable bool
	sorted    []uint64
	// general path
	arena []byte
	offs  []uint32
	// pgTies: the general path, ties as PostgreSQL's quicksort leaves them
	pgTies bool
}

func newSortBuffer(schema *arrow.Schema, keys []SortKey, generic, pgTies bool) *sortBuffer {
	s := &sortBuffer{schema: schema, keys: keys, offs: []uint32{0}, pgTies: pgTies}
	if len(keys) == 1 && !generic && !pgTies && keys[0].Column >= 0 && keys[0].Column < schema.NumFields() {
		s.fast = isFixedKey(schema.Field(keys[0].Column).Type)
		s.nullFirst = keys[0].NullsFirst
		switch schema.Field(keys[0].Column).Type.ID() {
		case arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
			s.decodable = true
		}
	}
	return s
}

func (s *sortBuffer) rows() int   { return s.n }
func (s *sortBuffer) size() int64 { return s.held }

func (s *sortBuffer) release() {
	for _, b := range s.batches {
		b.Release()
	}
	s.batches, s.starts = nil, nil
	s.chunks, s.nullRows, s.arena, s.offs, s.sorted = nil, nil, nil, nil, nil
}

func (s *sortBuffer) add(b arrow.RecordBatch) error {
	n := int(b.NumRows())
	first := uint32(s.n)
	if s.fast {
		col := b.Column(s.keys[0].Column)
		var pairs []keyRow
		appendFastKeys(col, s.keys[0].Desc, first, &pairs, &s.nullRows)
		s.chunks = append(s.chunks, pairs)
		s.held += int64(cap(pairs))*16 + int64(col.NullN())*4
	} else {
		cols := b.Columns()
		bufs, _ := keyBuffers(n, keyWidthHint(cols, s.keys), nil)
		if err := encodeKeys(cols, s.keys, bufs); err != nil {
			return err
		}
		for _, k := range bufs {
			s.arena = append(s.arena, k...)
			s.offs = append(s.offs, uint32(len(s.arena)))
		}
		s.held += int64(n)*4 + int64(len(s.arena))
	}
	b.Retain()
	s.batches = append(s.batches, b)
	s.starts = append(s.starts, first)
	s.n += n
	s.held += batchBytes(b) + 8
	return nil
}

// appendFastKeys appends an order-preserving (key, row) pair per non-NULL
// row (row numbers from first), and lists NULL rows apart.
func appendFastKeys(col arrow.Array, desc bool, first uint32, pairs *[]keyRow, nulls *[]uint32) {
	var flip uint64
	if desc {
		flip = math.MaxUint64
	}
	n := col.Len()
	ps := slices.Grow(*pairs, n)
	if col.NullN() > 0 {
		keys := fixedSortKeys(col, nil)
		for i := 0; i < n; i++ {
			if col.IsNull(i) {
				*nulls = append(*nulls, first+uint32(i))
				continue
			}
			ps = append(ps, keyRow{keys[i] ^ flip, first + uint32(i)})
		}
		*pairs = ps
		return
	}
	switch x := col.(type) {
	case *array.Int64:
		for i, v := range x.Int64Values() {
			ps = append(ps, keyRow{(uint64(v) ^ (1 << 63)) ^ flip, first + uint32(i)})
		}
	case *array.Int32:
		for i, v := range x.Int32Values() {
			ps = append(ps, keyRow{(uint64(int64(v)) ^ (1 << 63)) ^ flip, first + uint32(i)})
		}
	default:
		for i, k := range fixedSortKeys(col, nil) {
			ps = append(ps, keyRow{k ^ flip, first + uint32(i)})
		}
	}
	*pairs = ps
}

// fixedSortKeys maps a fixed-key array's values to uint64s in PostgreSQL's
// ascending order (NULL rows get arbitrary values).
func fixedSortKeys(col arrow.Array, buf []uint64) []uint64 {
	n := col.Len()
	buf = grow(buf[:0], n)[:n]
	switch x := col.(type) {
	case *array.Int64:
		for i, v := range x.Int64Values() {
			buf[i] = uint64(v) ^ (1 << 63)
		}
	case *array.Int32:
		for i, v := range x.Int32Values() {
			buf[i] = uint64(int64(v)) ^ (1 << 63)
		}
	case *array.Float64:
		for i, v := range x.Float64Values() {
			buf[i] = floatKey(v)
		}
	case *array.Float32:
		for i, v := range x.Float32Values() {
			buf[i] = floatKey(float64(v))
		}
	default:
		get, _ := intClass(col)
		for i := range buf {
			buf[i] = uint64(get(i)) ^ (1 << 63)
		}
	}
	return buf
}

// order returns the row numbers in sorted order (stable); withKeys keeps
// the sorted keys for gatherSorted when the key column is decodable.
func (s *sortBuffer) order(withKeys bool) []uint32 {
	n := s.n
	if s.fast {
		pairs := radixSortChunks(s.chunks)
		s.chunks = nil
		out := make([]uint32, 0, n)
		if s.nullFirst {
			out = append(out, s.nullRows...)
		}
		if withKeys && s.decodable {
			s.sorted = make([]uint64, len(pairs))
			rows := out[len(out) : len(out)+len(pairs)]
			for i, p := range pairs {
				s.sorted[i] = p.key
				rows[i] = p.row
			}
			out = out[:len(out)+len(pairs)]
		} else {
			for _, p := range pairs {
				out = append(out, p.row)
			}
		}
		if !s.nullFirst {
			out = append(out, s.nullRows...)
		}
		return out
	}
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	arena, offs := s.arena, s.offs
	if s.pgTies {
		pgSort(perm, func(a, b uint32) int {
			return bytes.Compare(arena[offs[a]:offs[a+1]], arena[offs[b]:offs[b+1]])
		})
		return perm
	}
	slices.SortFunc(perm, func(a, b uint32) int {
		if c := bytes.Compare(arena[offs[a]:offs[a+1]], arena[offs[b]:offs[b+1]]); c != 0 {
			return c
		}
		return int(a) - int(b) // input order breaks ties: stable
	})
	return perm
}

// ref locates row number r in the batches.
func (s *sortBuffer) ref(r uint32) rowRef {
	if len(s.starts) == 1 {
		return rowRef{0, r}
	}
	bi, found := slices.BinarySearch(s.starts, r)
	if !found {
		bi--
	}
	return rowRef{uint32(bi), r - s.starts[bi]}
}

func (s *sortBuffer) gather(mem memory.Allocator, schema *arrow.Schema, rows []uint32) (arrow.RecordBatch, error) {
	refs := make([]rowRef, len(rows))
	for i, r := range rows {
		refs[i] = s.ref(r)
	}
	return gatherBatch(mem, schema, s.batches, refs)
}

// gatherSorted builds output rows [lo, hi) of perm: the key column from
// the sorted keys (sequential, no gather), the others gathered.
func (s *sortBuffer) gatherSorted(mem memory.Allocator, schema *arrow.Schema, perm []uint32, lo, hi int) (arrow.RecordBatch, error) {
	rows := perm[lo:hi]
	refs := make([]rowRef, len(rows))
	for i, r := range rows {
		refs[i] = s.ref(r)
	}
	kc := s.keys[0].Column
	cols := make([]arrow.Array, schema.NumFields())
	srcs := make([]arrow.Array, len(s.batches))
	for c := range cols {
		if c == kc {
			cols[c] = s.keyColumn(mem, schema.Field(c).Type, lo, hi)
			continue
		}
		for i, b := range s.batches {
			srcs[i] = b.Column(c)
		}
		a, err := gather(mem, schema.Field(c).Type, srcs, refs)
		if err != nil {
			releaseAll(cols)
			return nil, err
		}
		cols[c] = a
	}
	out := array.NewRecordBatch(schema, cols, int64(len(rows)))
	releaseAll(cols)
	return out, nil
}

// keyColumn decodes output rows [lo, hi) of the key column: the NULL rows
// come first or last, the others are s.sorted in order.
func (s *sortBuffer) keyColumn(mem memory.Allocator, dt arrow.DataType, lo, hi int) arrow.Array {
	n := hi - lo
	first := 0 // output position of s.sorted[0]
	if s.nullFirst {
		first = len(s.nullRows)
	}
	// the non-NULL output rows of [lo, hi), as indexes of s.sorted
	a, b := max(lo, first)-first, min(hi, first+len(s.sorted))-first
	if b < a {
		a, b = 0, 0
	}
	at := max(lo, first) - lo // their position in the output
	flip := uint64(1 << 63)
	if s.keys[0].Desc {
		flip ^= math.MaxUint64
	}
	width := dt.(arrow.FixedWidthDataType).BitWidth() / 8
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(n * width)
	if width == 8 {
		out := castBytes[int64](buf.Bytes())[:n]
		clear(out)
		for i, k := range s.sorted[a:b] {
			out[at+i] = int64(k ^ flip)
		}
	} else {
		out := castBytes[int32](buf.Bytes())[:n]
		clear(out)
		for i, k := range s.sorted[a:b] {
			out[at+i] = int32(int64(k ^ flip))
		}
	}
	var vbuf *memory.Buffer
	nulls := n - (b - a)
	if nulls > 0 {
		var bits []byte
		vbuf, bits = newValidity(mem, n)
		bitutil.SetBitsTo(bits, int64(at), int64(b-a), true)
	}
	return fixedWidthArray(dt, n, vbuf, buf, nulls)
}

type keyRow struct {
	key uint64
	row uint32
}

// radixSort sorts by key, stably. One most-significant-digit pass on the
// 11 highest bits in which the keys differ spreads the pairs over 2048
// buckets (a single scatter over the whole array: few TLB-hostile passes);
// each bucket, small enough for the cache, is then finished by an LSD radix
// sort on the remaining bits, 8 at a time, skipping constant bytes.
func radixSort(a []keyRow) {
	copy(a, radixSortChunks([][]keyRow{a}))
}

// radixSortChunks sorts the concatenation of chunks (as radixSort) into a
// new slice.
func radixSortChunks(chunks [][]keyRow) []keyRow {
	n := 0
	var diff uint64
	var k0 uint64
	for _, c := range chunks {
		if n == 0 && len(c) > 0 {
			k0 = c[0].key
		}
		n += len(c)
		for _, p := range c {
			diff |= p.key ^ k0
		}
	}
	if n < 256 || diff == 0 {
		a := make([]keyRow, 0, n)
		for _, c := range chunks {
			a = append(a, c...)
		}
		insertionSortPairs(a)
		return a
	}
	const msdBits = 11
	const buckets = 1 << msdBits
	shift := max(0, 64-bits.LeadingZeros64(diff)-msdBits)
	var counts [buckets + 1]int
	for _, c := range chunks {
		for _, p := range c {
			counts[(p.key>>shift)&(buckets-1)+1]++
		}
	}
	largest := 0
	for i := 1; i <= buckets; i++ {
		largest = max(largest, counts[i])
		counts[i] += counts[i-1]
	}
	tmp := make([]keyRow, n)
	var offs [buckets]int
	copy(offs[:], counts[:buckets])
	for _, c := range chunks {
		for _, p := range c {
			d := (p.key >> shift) & (buckets - 1)
			tmp[offs[d]] = p
			offs[d]++
		}
	}
	// each bucket is sorted in place with one bucket-sized scratch (not a
	// second n-sized array: less to allocate, zero and fault in)
	scratch := make([]keyRow, largest)
	for b := 0; b < buckets; b++ {
		lo, hi := counts[b], counts[b+1]
		if hi-lo == 0 {
			continue
		}
		lsdSort(tmp[lo:hi], scratch, uint(shift))
	}
	return tmp
}

// lsdSort sorts a by the key bits below lowBits, in place, with scratch
// (at least len(a) long). The histograms of all the digits come from one
// pass (the keys' multiset does not change between passes); a digit that
// is the same in every key is skipped.
func lsdSort(a, scratch []keyRow, lowBits uint) {
	if len(a) < 64 || lowBits == 0 {
		if lowBits > 0 {
			insertionSortPairs(a)
		}
		return
	}
	var hist [8][256]uint32
	for _, p := range a {
		k := p.key
		hist[0][byte(k)]++
		hist[1][byte(k>>8)]++
		hist[2][byte(k>>16)]++
		hist[3][byte(k>>24)]++
		hist[4][byte(k>>32)]++
		hist[5][byte(k>>40)]++
		hist[6][byte(k>>48)]++
		hist[7][byte(k>>56)]++
	}
	src, dst := a, scratch[:len(a)]
	for d := 0; d < 8 && uint(8*d) < lowBits; d++ {
		shift := uint(8 * d)
		c := &hist[d]
		if c[byte(src[0].key>>shift)] == uint32(len(src)) {
			continue
		}
		sum := uint32(0)
		for i := range c {
			c[i], sum = sum, sum+c[i]
		}
		for _, p := range src {
			d := byte(p.key >> shift)
			dst[c[d]] = p
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src) // the sorted pairs are in the scratch
	}
}

func insertionSortPairs(a []keyRow) {
	for i := 1; i < len(a); i++ {
		p := a[i]
		j := i
		for j > 0 && a[j-1].key > p.key {
			a[j] = a[j-1]
			j--
		}
		a[j] = p
	}
}

// ---- k-way merge of sorted runs ----

type runCursor struct {
	idx   int
	r     *spillReader
	batch arrow.RecordBatch
	keys  [][]byte
	pos   int
	slot  int // index of batch in the current output's sources, -1 if none
	bytes int64
}

type merger struct {
	runs      []*spillFile
	cursors   []*runCursor
	h         cursorHeap
	keys      []SortKey
	mem       memory.Allocator
	batchRows int
	hold      *holding
	schema    *arrow.Schema
}

func newMerger(runs []*spillFile, keys []SortKey, mem memory.Allocator, batchRows int, hold *holding) (*merger, error) {
	m := &merger{runs: runs, keys: keys, mem: mem, batchRows: batchRows, hold: hold, schema: runs[0].schema}
	for i, f := range runs {
		r, err := f.open()
		if err != nil {
			m.close()
			return nil, err
		}
		c := &runCursor{idx: i, r: r, slot: -1}
		m.cursors = append(m.cursors, c)
		ok, err := m.load(c)
		if err != nil {
			m.close()
			return nil, err
		}
		if ok {
			m.h = append(m.h, c)
		}
	}
	heap.Init(&m.h)
	return m, nil
}

// load reads a cursor's next batch; false at the run's end.
func (m *merger) load(c *runCursor) (bool, error) {
	if c.batch != nil {
		c.batch.Release()
		c.batch = nil
		m.hold.shrink(c.bytes)
	}
	b, err := c.r.next()
	if err != nil || b == nil {
		return false, err
	}
	keys, err := encodeBatchKeys(b, m.keys)
	if err != nil {
		b.Release()
		return false, err
	}
	c.batch, c.keys, c.pos = b, keys, 0
	// one batch per run is the merge's working set: charged but never refused
	c.bytes = batchBytes(b)
	m.hold.force(c.bytes)
	return true, nil
}

func (m *merger) next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(m.h) == 0 {
		return nil, nil
	}
	var srcs []arrow.RecordBatch
	var refs []rowRef
	defer func() {
		for _, s := range srcs {
			s.Release()
		}
		for _, c := range m.cursors {
			c.slot = -1
		}
	}()
	for len(refs) < m.batchRows && len(m.h) > 0 {
		c := m.h[0]
		if c.slot < 0 {
			c.slot = len(srcs)
			c.batch.Retain()
			srcs = append(srcs, c.batch)
		}
		refs = append(refs, rowRef{uint32(c.slot), uint32(c.pos)})
		c.pos++
		if c.pos >= int(c.batch.NumRows()) {
			c.slot = -1
			ok, err := m.load(c)
			if err != nil {
				return nil, err
			}
			if !ok {
				heap.Pop(&m.h)
				continue
			}
		}
		heap.Fix(&m.h, 0)
	}
	return gatherBatch(m.mem, m.schema, srcs, refs)
}

func (m *merger) close() {
	for _, c := range m.cursors {
		if c.batch != nil {
			c.batch.Release()
			c.batch = nil
		}
		c.r.close()
	}
	m.cursors = nil
	m.h = nil
}

type cursorHeap []*runCursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if c := bytes.Compare(a.keys[a.pos], b.keys[b.pos]); c != 0 {
		return c < 0
	}
	return a.idx < b.idx // earlier runs hold earlier input rows: stable
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*runCursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// compact replaces the buffered batches by their concatenation.
func (s *sortBuffer) compact(mem memory.Allocator) error {
	if len(s.batches) < 2 || s.n >= math.MaxUint32 {
		return nil
	}
	one, err := concatBatches(mem, s.schema, s.batches)
	if err != nil {
		return err
	}
	for _, b := range s.batches {
		b.Release()
	}
	s.batches = []arrow.RecordBatch{one}
	s.starts = []uint32{0}
	return nil
}
