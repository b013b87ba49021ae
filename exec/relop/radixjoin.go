package relop

import (
	"context"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
)

// Radix-partitioned join table. A large build side (radixConfig.minBuild
// rows or more) is not one open-addressing table but 2^pbits small ones,
// one per partition of the keys' hash (its high bits), each sized for
// about partRows rows so that it fits in L2. finishRadix scatters the
// build keys into partition order (sequential reads, one write stream per
// partition) and builds each partition's table while the partition is in
// cache, then keeps it at the size of its distinct keys (compactCap); when the account has room for a moment, the build rows themselves
// are copied into partition order too and renumbered (hashTable.finish),
// key by key within a partition: a key's rows are then consecutive, found
// from the slot alone (no perm) and read as one run by the output gathers.
// The prober then reads its probe side in chunks, scatters each chunk's
// keys and rows the same way (partitionOrder), looks every partition's
// keys up in its cache-resident table and emits the chunk's output in
// partition order: the build rows, runs of duplicates and probe rows that
// one output batch reads all lie in one partition's range, instead of
// anywhere in tens of MB (~100 ns a miss on this hardware). SQL promises
// no order without ORDER BY. A chunk that is small, of a multi-pass join
// or without room is looked up in place instead (lookupRadix), its
// results written back at the keys' positions.

// radixConfig sets when and how the join table partitions; tests shrink
// it to reach the radix path with small inputs.
type radixConfig struct {
	minBuild int // build rows from which the table is partitioned
	partRows int // build rows per partition (its slots fit L2)
	minProbe int // probe keys from which a lookup scatters by partition
	maxChunk int // probe rows a prober gathers into one chunk at most
	// denseRatio: a table whose keys span fewer than denseRatio keys per
	// build row is a dense array indexed by key instead, partitioned or
	// not (joinTable.finishDense; 0: never, as the tests of partitioning
	// configure)
	denseRatio int
}

// defaultRadix is never modified: HashJoin copies it.
var defaultRadix = radixConfig{
	minBuild: 1 << 16,
	partRows: 1 << 13, // 16K slots of 16 bytes: 256 KiB of a 512 KiB L2
	minProbe: 1 << 12,
	maxChunk: 1 << 20,
	// 4 bytes a key of the span: up to 16 bytes a row, half the
	// open-addressing table's least
	denseRatio: 4,
}

// maxRadixBits bounds the partitions (and so the write streams of one
// scatter pass: beyond ~1K the TLB misses of the streams cost more than the
// partitions save).
const maxRadixBits = 10

const hashMul = 0x9E3779B97F4A7C15

// bits is log2 of the partitions for n build rows (0: one table).
func (c *radixConfig) bits(n int) uint {
	if n < c.minBuild || n < 2 {
		return 0
	}
	return min(max(uint(bits.Len(uint((n-1)/max(c.partRows, 1)))), 1), maxRadixBits)
}

// joinPart is one partition's table, a key's first slot being
// (hash << pbits) >> shift. Its own allocation: it is sized for the
// partition's distinct keys, known only once the partition is built.
type joinPart struct {
	slots []joinSlot
	shift uint8
}

// compactCap is the slot count of a finished partition table with d
// distinct keys: a power of two at least 1.5 d. A partition is first built
// in a scratch table sized for its rows (twice them, before the keys are
// known), which for keys with duplicates is mostly empty; the probe reads
// each partition's table from memory once per chunk, so a smaller table is
// fewer bytes to read (a load of 1/3 to 2/3 keeps a miss within a few
// slots, mostly of the same cache line).
func compactCap(d int) int {
	return 1 << bits.Len(uint(max(d+(d+1)/2, 16)-1))
}

// partShift is the shift of a partition table of capacity slots.
func partShift(capacity int) uint8 {
	return uint8(64 - bits.TrailingZeros(uint(capacity)))
}

// radixScratch holds a lookup's scatter buffers between probe chunks.
type radixScratch struct {
	counts []uint32
	// keys: the last scatter's keys, in own or in a buffer of the
	// scatter's caller (partitionOrder's key column)
	keys []int64
	own  []int64
	pos  []uint32
}

// finishRadix builds the partitioned table from the collected keys (see
// finish, whose slots and runs it lays out partition by partition).
func (t *joinTable) finishRadix() {
	pb := t.pbits
	nparts := 1 << pb
	counts := make([]uint32, nparts)
	null := t.null
	r := 0
	for _, seg := range t.keys {
		for _, k := range seg {
			if null == nil || !null[r] {
				counts[(uint64(k)*hashMul)>>(64-pb)]++
			}
			r++
		}
	}
	t.parts = make([]joinPart, nparts)
	start := make([]uint32, nparts+1)
	var pos uint32
	maxCap := 0
	for p, c := range counts {
		start[p] = pos
		pos += c
		maxCap = max(maxCap, joinTableCap(int(c)))
	}
	start[nparts] = pos
	pk := make([]int64, pos)
	// pr: the build row of each scattered key, unless the rows are
	// renumbered in partition order (order: each row's new number)
	var pr []int32
	if t.renumber {
		t.order = make([]uint32, t.nkeys)
	} else {
		pr = make([]int32, pos)
	}
	order := t.order
	w := make([]uint32, nparts)
	copy(w, start)
	nullRow := pos // NULL-keyed rows go after every partition
	r = 0
	for _, seg := range t.keys {
		for _, k := range seg {
			if null != nil && null[r] {
				if order != nil {
					order[r] = nullRow
					nullRow++
				}
				r++
				continue
			}
			p := (uint64(k) * hashMul) >> (64 - pb)
			i := w[p]
			w[p]++
			pk[i] = k
			if order != nil {
				order[r] = i
			} else {
				pr[i] = int32(r)
			}
			r++
		}
	}
	t.keys, t.nkeys, t.null = nil, 0, nil
	// a partition is built in scratch (in L2, reused), then copied into
	// its own table sized for its distinct keys (compactPart), unless
	// their count is foreseen (below)
	scratch := make([]joinSlot, maxCap)
	// remap: the final number of the j-th scattered row when the rows are
	// renumbered (they need no perm then: see consecutive)
	var remap []uint32
	// partKeys: a partition's keys in their rows' new order, when pk is to
	// become the renumbered rows' key column (no NULL-keyed rows: pk
	// holds every row's key)
	var partKeys []int64
	if order != nil {
		remap = make([]uint32, pos)
		t.consecutive = true
		if null == nil {
			partKeys = make([]int64, maxCap/2)
		}
	} else {
		t.perm = make([]int32, 0, pos)
	}
	// the rows and distinct keys of the partitions built so far: a
	// partition (a slice of one hash's range) has about as many distinct
	// keys per row as the others, so it is built straight into a table of
	// the size that many would take, and needs no copy (compactPart) when
	// that was right
	seenRows, seenDistinct := 0, 0
	for p := range nparts {
		lo, hi := start[p], start[p+1]
		var part joinPart
		built, dups, distinct := false, false, 0
		if seenRows > 0 {
			guess := compactCap(int(hi-lo) * seenDistinct / seenRows)
			slots := make([]joinSlot, guess)
			var ok bool
			dups, distinct, ok = buildPart(slots, pk, pr, lo, hi, pb, guess*2/3)
			switch {
			case ok && compactCap(distinct) == guess:
				part, built = joinPart{slots: slots, shift: partShift(guess)}, true
			case ok:
				part, built = compactPart(slots, distinct, pb), true
			}
		}
		if !built {
			slots := scratch[:joinTableCap(int(hi-lo))]
			clear(slots)
			dups, distinct, _ = buildPart(slots, pk, pr, lo, hi, pb, len(slots))
			part = compactPart(slots, distinct, pb)
		}
		seenRows += int(hi - lo)
		seenDistinct += distinct
		t.parts[p] = t.partRuns(part, pk, pr, remap, lo, hi, dups)
		if partKeys != nil && dups {
			// (without duplicates the rows keep their scattered order)
			for j := lo; j < hi; j++ {
				partKeys[remap[j]-lo] = pk[j]
			}
			copy(pk[lo:hi], partKeys)
		}
	}
	if partKeys != nil {
		t.orderedKeys = pk
	}
	for r, i := range order {
		if i < pos { // not a NULL-keyed row
			order[r] = remap[i]
		}
	}
}

// buildPart counts the keys pk[lo:hi] of one partition into slots (empty),
// a slot per distinct key holding its first row, and reports whether a
// key has several rows and how many distinct keys there are; it stops,
// not ok, when there are more than limit.
func buildPart(slots []joinSlot, pk []int64, pr []int32, lo, hi uint32, pb uint, limit int) (dups bool, distinct int, ok bool) {
	shift := partShift(len(slots))
	mask := uint64(len(slots) - 1)
	for j := lo; j < hi; j++ {
		k := pk[j]
		for s := ((uint64(k) * hashMul) << pb) >> shift; ; s = (s + 1) & mask {
			e := &slots[s]
			if e.n == 0 {
				if distinct == limit {
					return dups, distinct, false
				}
				e.key, e.v, e.n = k, uint32(rowAt(pr, j)), 1
				distinct++
				break
			}
			if e.key == k {
				e.n++
				dups = true
				break
			}
		}
	}
	return dups, distinct, true
}

// partRuns lays out the rows lo..hi-1 of one partition, counted in its
// compact table part (see finishRadix): renumbered (remap) or as runs of
// perm for duplicated keys, and returns the table.
func (t *joinTable) partRuns(part joinPart, pk []int64, pr []int32, remap []uint32, lo, hi uint32, dups bool) joinPart {
	pb := t.pbits
	t.nslots += len(part.slots)
	slots := part.slots
	shift := part.shift
	mask := uint64(len(slots) - 1)
	switch {
	case remap != nil && !dups:
		for j := lo; j < hi; j++ {
			remap[j] = j
		}
	case remap != nil:
		renumberRuns(slots, pk, remap, lo, hi, pb, shift)
	case dups:
		// the partition's runs, while it is in cache: as in finish, v first
		// holds a run's end and filling it backwards (rows ascend within a
		// partition) leaves v at its start with the rows in build order
		run := uint32(len(t.perm))
		for i := range slots {
			if n := slots[i].n; n > 1 {
				run += n
				slots[i].v = run
			}
		}
		t.perm = t.perm[:run]
		for j := int(hi) - 1; j >= int(lo); j-- {
			k := pk[j]
			s := ((uint64(k) * hashMul) << pb) >> shift
			for slots[s].key != k || slots[s].n == 0 {
				s = (s + 1) & mask
			}
			if e := &slots[s]; e.n > 1 {
				e.v--
				t.perm[e.v] = rowAt(pr, uint32(j))
			}
		}
	}
	return part
}

// compactPart copies a partition's scratch table (slots, distinct keys)
// into a new one of compactCap slots.
func compactPart(slots []joinSlot, distinct int, pb uint) joinPart {
	capacity := compactCap(distinct)
	shift := partShift(capacity)
	out := make([]joinSlot, capacity)
	if capacity == len(slots) {
		copy(out, slots)
		return joinPart{slots: out, shift: shift}
	}
	mask := uint64(capacity - 1)
	for i := range slots {
		e := &slots[i]
		if e.n == 0 {
			continue
		}
		s := ((uint64(e.key) * hashMul) << pb) >> shift
		for out[s].n != 0 {
			s = (s + 1) & mask
		}
		out[s] = *e
	}
	return joinPart{slots: out, shift: shift}
}

// renumberRuns numbers the rows lo..hi-1 of one partition (scattered keys
// pk, its table slots) key by key in slot order, from lo: remap[j] is row
// j's number, and each slot's v its key's first row, the key's rows being
// consecutive (in build order). As in finish, v first holds a run's end;
// filling the runs backwards leaves it at their start. An empty slot's v
// is set too, to no use: a branch on it would be mispredicted at every
// other slot.
func renumberRuns(slots []joinSlot, pk []int64, remap []uint32, lo, hi uint32, pb uint, shift uint8) {
	mask := uint64(len(slots) - 1)
	run := lo
	for i := range slots {
		run += slots[i].n
		slots[i].v = run
	}
	for j := int(hi) - 1; j >= int(lo); j-- {
		k := pk[j]
		s := ((uint64(k) * hashMul) << pb) >> shift
		for slots[s].key != k || slots[s].n == 0 {
			s = (s + 1) & mask
		}
		slots[s].v--
		remap[j] = slots[s].v
	}
}

// rowAt is the build row of the j-th scattered key (pr nil: the rows are
// numbered in partition order).
func rowAt(pr []int32, j uint32) int32 {
	if pr == nil {
		return int32(j)
	}
	return pr[j]
}

// touchLines reads one byte per cache line of b and returns their sum
// (so that the compiler keeps the loads).
func touchLines(b []byte) byte {
	var sum byte
	for i := 0; i < len(b); i += 64 {
		sum += b[i]
	}
	return sum
}

// touchSlots reads one slot per cache line (4 slots) of a partition's
// table and returns a sum so that the compiler keeps the loads.
func touchSlots(slots []joinSlot) uint32 {
	var sum uint32
	for i := 0; i < len(slots); i += 4 {
		sum += slots[i].n
	}
	return sum
}

// find looks one key up in the partitioned table.
func (t *joinTable) find(k int64) (v, n uint32) {
	return t.parts[(uint64(k)*hashMul)>>(64-t.pbits)].probe(k, t.pbits, 0)
}

// lookupRadix is lookup on the partitioned table: small batches key by
// key, large ones scattered by partition first.
func (t *joinTable) lookupRadix(ks []int64, v, n []uint32) {
	v, n = v[:len(ks)], n[:len(ks)]
	if len(ks) < t.cfg.minProbe {
		for i, k := range ks {
			v[i], n[i] = t.find(k)
		}
		return
	}
	t.scatterProbe([][]int64{ks}, nil, false)
	t.probeScattered(v, n, false)
}

// scatterProbe partitions probe keys, the concatenation of segs (the key
// columns of a chunk's batches, read in place: no copy of the chunk's keys
// to read again): scratch.keys holds them in partition order (in pk when
// not nil, else in scratch.own), scratch.counts[p] the end of partition
// p's, and scratch.pos either each scattered key's index in the
// concatenation or (toDst) each key's scattered index.
func (t *joinTable) scatterProbe(segs [][]int64, pk []int64, toDst bool) {
	pb := t.pbits
	nparts := 1 << pb
	sc := &t.scratch
	sc.counts = resize(sc.counts, nparts+1)
	counts := sc.counts
	clear(counts)
	rows := 0
	for _, ks := range segs {
		rows += len(ks)
		for _, k := range ks {
			counts[1+(uint64(k)*hashMul)>>(64-pb)]++
		}
	}
	for p := 1; p <= nparts; p++ {
		counts[p] += counts[p-1]
	}
	// counts[p] is now partition p's start; the scatter advances it to
	// p's end, which is partition p+1's start
	if pk == nil {
		sc.own = resize(sc.own, rows)
		pk = sc.own
	}
	pk = pk[:rows]
	sc.keys = pk
	sc.pos = resize(sc.pos, rows)
	pi := sc.pos
	base := 0
	for _, ks := range segs {
		if toDst {
			dst := pi[base : base+len(ks)]
			for i, k := range ks {
				p := (uint64(k) * hashMul) >> (64 - pb)
				w := counts[p]
				counts[p]++
				pk[w], dst[i] = k, w
			}
		} else {
			for i, k := range ks {
				p := (uint64(k) * hashMul) >> (64 - pb)
				w := counts[p]
				counts[p]++
				pk[w], pi[w] = k, uint32(base+i)
			}
		}
		base += len(ks)
	}
}

// probeScattered looks the keys of scatterProbe up partition by partition,
// writing each result at its key's index in the probe (inOrder: at its
// scattered index, when the probe rows were reordered likewise).
func (t *joinTable) probeScattered(v, n []uint32, inOrder bool) {
	pb := t.pbits
	sc := &t.scratch
	pk, pi := sc.keys, sc.pos
	v, n = v[:len(pk)], n[:len(pk)]
	lo := uint32(0)
	for p := range 1 << pb {
		hi := sc.counts[p]
		part := &t.parts[p]
		if int(hi-lo) >= len(part.slots)/16 {
			// enough keys to touch a good part of the table's lines: read
			// it in order first (streaming) rather than miss per key
			t.touched += touchSlots(part.slots)
		}
		idx := pi
		if inOrder {
			idx = nil
		}
		lookupPart(part, pb, pk, idx, lo, hi, v, n)
		lo = hi
	}
}

// probeGroup keys of a partition go through the two passes of lookupPart
// together.
const probeGroup = 256

// lookupPart looks the keys pk[lo:hi] up in one partition's table, writing
// the result of key j at index j (idx nil) or idx[j] of v and n.
func lookupPart(part *joinPart, pb uint, pk []int64, idx []uint32, lo, hi uint32, v, n []uint32) {
	if idx != nil {
		for j := lo; j < hi; j++ {
			i := idx[j]
			v[i], n[i] = part.probe(pk[j], pb, 0)
		}
		return
	}
	var rest [probeGroup]uint32
	for g := lo; g < hi; g += probeGroup {
		e := min(g+probeGroup, hi)
		m := firstSlots(part, pb, pk[g:e], v[g:e], n[g:e], &rest)
		for _, r := range rest[:m] {
			j := g + r
			v[j], n[j] = part.probe(pk[j], pb, 1)
		}
	}
}

// firstSlots reads each key's first slot, which settles most keys (it
// holds the key, or is empty), without a branch on what it holds: on
// random keys such a branch is mispredicted about every other key, which
// costs more than the slot's read from L2. It writes every key's result
// and lists in rest the keys whose first slot holds another key (their
// result is to be found by probe), returning how many.
func firstSlots(part *joinPart, pb uint, ks []int64, v, n []uint32, rest *[probeGroup]uint32) int {
	slots, shift := part.slots, part.shift
	v, n = v[:len(ks)], n[:len(ks)]
	m := 0
	for j, k := range ks {
		e := slots[((uint64(k)*hashMul)<<pb)>>shift]
		v[j], n[j] = e.v, e.n
		// counted when the slot holds neither the key (x != 0) nor
		// nothing (e.n != 0)
		rest[m&(probeGroup-1)] = uint32(j)
		x := min(uint64(e.key)^uint64(k), uint64(e.n))
		m += int((x | -x) >> 63)
	}
	return m
}

// probe looks k up in the partition's table from its first slot's
// successor at offset from (0: the first slot itself).
func (part *joinPart) probe(k int64, pb uint, from uint64) (v, n uint32) {
	slots := part.slots
	mask := uint64(len(slots) - 1)
	for s := (((uint64(k)*hashMul)<<pb)>>part.shift + from) & mask; ; s = (s + 1) & mask {
		if e := &slots[s]; e.n == 0 || e.key == k {
			return e.v, e.n
		}
	}
}

// chunked reports whether the prober reads its source in chunks: a lookup
// in a partitioned table pays off only when each partition gets many keys.
func (p *prober) chunked() bool {
	ht := p.ht
	return p.mode != passFinal && ht != nil && !ht.cross && ht.intKey && ht.ints.pbits > 0
}

// chunkRowBytes is what the prober holds per probe row of a chunk beside
// the chunk's own buffers, while the chunk is probed: its keys (8), the
// lookup's scatter buffers (keys 8, positions 4), the results and heads
// (4+4+4), the matched flags (1) and the list of rows to emit alone (8).
// These buffers are kept at their largest size until the prober ends.
const chunkRowBytes = 41

// read returns the next probe batch. For a partitioned table that is a
// chunk of several source batches concatenated: the first chunk is one
// batch (a LIMIT above the join stops early at the same cost as before),
// each next one up to 8 times larger, up to maxChunk rows.
//
// Every batch but a chunk's first is charged to the account twice (the
// batches and their combined copy coexist while they are concatenated;
// the second charge is given back after) with the growth of the per-row
// buffers (chunkRowBytes). When the account cannot take a batch, the
// chunk stops growing and that batch begins the next chunk: a chunk never
// takes the account beyond its limit, and at worst is one batch (as when
// the table is not partitioned).
func (p *prober) read(ctx context.Context) (arrow.RecordBatch, error) {
	p.ordered = false
	b := p.carry
	p.carry = nil
	if b == nil {
		if p.srcEOF {
			return nil, nil
		}
		var err error
		b, err = p.src.Next(ctx)
		if err != nil || b == nil || !p.chunked() || b.NumRows() == 0 {
			return b, err
		}
	}
	cfg := p.j.radixConfig()
	bs := []arrow.RecordBatch{b}
	rows := int(b.NumRows())
	// the first batch's buffers are not charged (as an unpartitioned
	// join's one batch), those of the rows beyond it are
	p.bufRows = max(p.bufRows, rows)
	var copyHeld int64 // the second charge of the batches, while combined
	release := func() {
		for _, x := range bs {
			x.Release()
		}
		p.j.hold.shrink(p.chunkHeld + copyHeld)
		p.chunkHeld = 0
	}
	for rows < p.chunkRows && !p.srcEOF {
		if err := ctx.Err(); err != nil {
			release()
			return nil, err
		}
		nb, err := p.src.Next(ctx)
		if err != nil {
			release()
			return nil, err
		}
		if nb == nil {
			p.srcEOF = true
			break
		}
		r := int(nb.NumRows())
		n := batchBytes(nb)
		bufs := int64(max(rows+r-p.bufRows, 0)) * chunkRowBytes
		if err := p.j.hold.grow(2*n + bufs); err != nil {
			p.carry = nb
			break
		}
		p.bufRows = max(p.bufRows, rows+r)
		bs = append(bs, nb)
		rows += r
		p.chunkHeld += n
		copyHeld += n
	}
	p.chunkRows = min(max(rows*8, cfg.minProbe), cfg.maxChunk)
	out, ordered, err := p.partitionOrder(bs, rows)
	if !ordered && err == nil {
		out, err = concatBatches(allocOr(p.j.Alloc), p.src.Schema(), bs)
	}
	if err != nil {
		release()
		return nil, err
	}
	for _, x := range bs {
		x.Release()
	}
	p.j.hold.shrink(copyHeld)
	p.ordered = ordered
	return out, nil
}

// partitionOrder copies a chunk's rows (of bs, rows in all) into one batch
// in the partition order of their keys, leaving the keys scattered in the
// table's scratch: the chunk is then probed partition by partition, and
// its output built in that order, so that the build rows it reads (also
// in partition order, see finishTable) are near each other. SQL promises
// no row order without ORDER BY. ok is false, and nothing is done, for a
// chunk too small to scatter, types scatterBatch does not reorder, a
// table of several passes (whose probe rows are tracked by position
// across passes), and a one-batch chunk whose copy the account cannot
// take for a moment.
func (p *prober) partitionOrder(bs []arrow.RecordBatch, rows int) (out arrow.RecordBatch, ok bool, err error) {
	ht := p.ht
	if p.mode != passOnly || rows < ht.ints.cfg.minProbe || !ht.reordered || !scatterable(p.src.Schema()) {
		return nil, false, nil
	}
	if len(bs) == 1 {
		// the batches beyond the first are already charged twice (read)
		n := batchBytes(bs[0])
		if p.j.hold.grow(n) != nil {
			return nil, false, nil
		}
		defer p.j.hold.shrink(n)
	}
	if p.chunkMem == nil {
		// the chunk's copy is released once it is probed: its buffers
		// serve the next chunk's copy (fresh ones are zeroed or faulted
		// in page by page; scatterBatch writes every value)
		p.chunkMem = newRecycler(allocOr(p.j.Alloc))
		p.chunkMem.fit = true
	}
	mem := p.chunkMem
	schema := p.src.Schema()
	// the scattered keys are the key column in partition order when the
	// column holds the int64s themselves: scatter them there, once, read
	// from the batches in place
	var pre []arrow.Array
	var pk []int64
	kc := p.j.LeftKeys[0]
	dt := schema.Field(kc).Type
	segs := make([][]int64, len(bs))
	if isIntClass(dt) && exec.FixedWidth(dt) == 8 && !anyNulls(bs, kc) {
		buf := memory.NewResizableBuffer(mem)
		buf.Resize(rows * 8)
		pk = castBytes[int64](buf.Bytes())[:rows]
		pre = make([]arrow.Array, schema.NumFields())
		pre[kc] = fixedWidthArray(dt, rows, nil, buf, 0)
		for i, b := range bs {
			segs[i] = fixedSlice[int64](b.Column(kc))
		}
	} else {
		keys := resize(ht.i64, rows)
		off := 0
		for _, b := range bs {
			r := int(b.NumRows())
			fixedKeys(b.Column(kc), keys[off:off+r])
			off += r
		}
		ht.i64 = keys
		segs = [][]int64{keys}
	}
	ht.ints.scatterProbe(segs, pk, true)
	out, err = scatterBatch(mem, schema, bs, ht.ints.scratch.pos, pre)
	if err != nil {
		return nil, false, err
	}
	p.j.orderedChunks++
	return out, true, nil
}

// anyNulls reports whether column c of any of bs has a NULL.
func anyNulls(bs []arrow.RecordBatch, c int) bool {
	for _, b := range bs {
		if b.Column(c).NullN() > 0 {
			return true
		}
	}
	return false
}
