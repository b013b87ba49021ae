package relop

import "math/bits"

// joinTable is the build side of a hash join on one fixed-width key (the
// int64s of fixedKeys). The build collects the keys of every row; finish
// sizes an open-addressing table once for all of them, so that building
// never rehashes.
//
// A slot holds a distinct key, how many build rows have it and where they
// are: with one row, the row itself; with several, the start of the key's
// run in perm, where the rows of each duplicated key are contiguous (in
// build order). A probe therefore touches one 16-byte slot (one cache line)
// and, for a duplicated key, one run of perm: no chain of next pointers to
// chase through memory, which is what made the 1M x 1M join slow.
type joinTable struct {
	// keys: each build row's key (arbitrary for NULL rows), in segments
	// (appendKeys) of nkeys keys in all
	keys  [][]int64
	nkeys int
	null  []bool // NULL-keyed build rows; nil while there is none
	slots []joinSlot
	shift uint // 64 - log2(len(slots))
	perm  []int32
	// touched sums the slots lookup touches in advance, so that the
	// compiler keeps those loads.
	touched uint32

	// cfg, when set, lets finish partition a large build (radixjoin.go):
	// then slots holds 1<<pbits partition tables described by parts.
	cfg     *radixConfig
	pbits   uint
	parts   []joinPart
	nslots  int // the slots of parts, all together
	scratch radixScratch
	// renumber (set before finish) numbers a partitioned table's rows in
	// partition order; finish then leaves in order each build row's new
	// number, for the owner to reorder its rows likewise.
	renumber bool
	order    []uint32
	// orderedKeys: a renumbered table's keys in the rows' new order, when
	// no row's key is NULL (else nil), for the owner to take as its
	// reordered rows' key column instead of scattering that column
	orderedKeys []int64
	// consecutive: the rows of a key are numbered consecutively (a
	// renumbered table), so a slot's v is its first row and perm is empty
	consecutive bool

	// lo, hi: the least and greatest non-NULL key added; keyed counts
	// the non-NULL keys (denseSpan)
	lo, hi int64
	keyed  int
	// dense, when not nil, replaces the slots: the keys span a small
	// range from lo, and the table is indexed by key-lo (finishDense).
	// Without duplicates dense[k-lo] is the row of key k plus one (0: no
	// row); with them (denseRuns) dense has one more entry and the rows
	// of key k are perm[dense[k-lo]:dense[k-lo+1]], in build order.
	dense     []uint32
	denseRuns bool
}

type joinSlot struct {
	key int64
	v   uint32 // n == 1: the build row; n > 1: the start of its run in perm
	n   uint32 // build rows with this key; 0: an empty slot
}

const joinSlotBytes = 16

// joinTableCap is the slot count for n rows: a power of two at least twice
// n (at most half full, so that a miss stops within a slot or two).
func joinTableCap(n int) int {
	return 1 << bits.Len(uint(max(2*n, 16)-1))
}

// bytes is what the table holds or will hold once finished for the rows
// added so far: their keys (then perm) and the slots.
func (t *joinTable) bytes() int64 {
	n := t.nkeys
	if t.dense != nil {
		return int64(len(t.dense))*4 + int64(len(t.perm))*4
	}
	if t.slots != nil || t.parts != nil {
		return int64(len(t.slots)+t.nslots)*joinSlotBytes + int64(len(t.perm))*4
	}
	return int64(n)*12 + int64(joinTableCap(n))*joinSlotBytes
}

// add appends a batch's keys; nulls flags the NULL rows (nil: none).
func (t *joinTable) add(ks []int64, isNull func(i int) bool) (anyNull bool) {
	base := t.nkeys
	t.appendKeys(ks)
	if t.keyed == 0 && len(ks) > 0 {
		t.lo, t.hi = ks[0], ks[0] // NULL or not: the loops below correct it
	}
	if isNull == nil {
		if t.null != nil {
			t.null = append(t.null, make([]bool, len(ks))...)
		}
		lo, hi := t.lo, t.hi
		for _, k := range ks {
			lo, hi = min(lo, k), max(hi, k)
		}
		t.lo, t.hi, t.keyed = lo, hi, t.keyed+len(ks)
		return false
	}
	if t.null == nil {
		t.null = make([]bool, base, base+len(ks))
	}
	for i, k := range ks {
		v := isNull(i)
		anyNull = anyNull || v
		t.null = append(t.null, v)
		if !v {
			if t.keyed == 0 {
				t.lo, t.hi = k, k
			}
			t.lo, t.hi = min(t.lo, k), max(t.hi, k)
			t.keyed++
		}
	}
	return anyNull
}

// denseLimit bounds the keys a dense table indexes: within it, k-lo
// computed in wrapping int64 arithmetic and read as a uint64 is below the
// span exactly when lo <= k <= hi, for every int64 probe key k (|k-lo| <
// 2^63+2^62, far from the 2^64 the subtraction wraps at). Keys beyond it
// (int64 extremes, floats' order-preserving encodings) take the hash table.
const denseLimit = 1 << 62

// denseSpan reports whether finish will index the table densely, and the
// number of keys from lo to hi: the keys must span fewer than
// cfg.denseRatio per non-NULL build row, so that the array (4 bytes a key
// of the span) is never larger than the open-addressing table (at least
// 32 bytes a row), and lie within denseLimit.
func (t *joinTable) denseSpan() (uint64, bool) {
	if t.cfg == nil || t.cfg.denseRatio <= 0 || t.keyed == 0 || t.lo <= -denseLimit || t.hi >= denseLimit {
		return 0, false
	}
	span := uint64(t.hi-t.lo) + 1
	return span, span <= uint64(t.cfg.denseRatio)*uint64(t.keyed)
}

// appendKeys copies ks after the keys so far, into segments each a
// quarter as large as all the keys before it at least: no key is copied
// twice, where append would copy all the keys again at each growth of a
// large slice (by 1.25 times: some 5 copies of them in all, a tenth of a
// 1M-row build); the unused room is at most a quarter of the keys (or
// 1,024 keys).
func (t *joinTable) appendKeys(ks []int64) {
	for len(ks) > 0 {
		if n := len(t.keys); n == 0 || len(t.keys[n-1]) == cap(t.keys[n-1]) {
			t.keys = append(t.keys, make([]int64, 0, max(t.nkeys/4, len(ks), 1024)))
		}
		last := &t.keys[len(t.keys)-1]
		m := min(len(ks), cap(*last)-len(*last))
		*last = append(*last, ks[:m]...)
		ks = ks[m:]
		t.nkeys += m
	}
}

// flatKeys is the keys in one slice (a copy when they are in several
// segments).
func (t *joinTable) flatKeys() []int64 {
	if len(t.keys) == 1 {
		return t.keys[0]
	}
	out := make([]int64, 0, t.nkeys)
	for _, seg := range t.keys {
		out = append(out, seg...)
	}
	return out
}

func (t *joinTable) slot(k int64) uint64 {
	return (uint64(k) * 0x9E3779B97F4A7C15) >> t.shift
}

// finish builds the slots and perm from the collected keys.
func (t *joinTable) finish() {
	if span, ok := t.denseSpan(); ok {
		t.finishDense(span)
		return
	}
	if t.cfg != nil {
		if t.pbits = t.cfg.bits(t.nkeys); t.pbits > 0 {
			t.finishRadix()
			return
		}
	}
	keys := t.flatKeys()
	capacity := joinTableCap(len(keys))
	t.slots = make([]joinSlot, capacity)
	t.shift = uint(64 - bits.TrailingZeros(uint(capacity)))
	mask := uint64(capacity - 1)
	slots, null := t.slots, t.null
	dups := false
	for r, k := range keys {
		if r%lookupGroup == 0 && capacity >= lookupPrefetchSlots {
			t.prefetch(keys[r:min(r+lookupGroup, len(keys))])
		}
		if null != nil && null[r] {
			continue
		}
		for s := t.slot(k); ; s = (s + 1) & mask {
			e := &slots[s]
			if e.n == 0 {
				e.key, e.v, e.n = k, uint32(r), 1
				break
			}
			if e.key == k {
				e.n++
				dups = true
				break
			}
		}
	}
	if dups {
		// runs in slot order; v first holds the run's end, and filling the
		// run backwards from the last row leaves v at its start
		pos := uint32(0)
		for i := range slots {
			if n := slots[i].n; n > 1 {
				pos += n
				slots[i].v = pos
			}
		}
		t.perm = make([]int32, pos)
		for r := len(keys) - 1; r >= 0; r-- {
			if r%lookupGroup == lookupGroup-1 && capacity >= lookupPrefetchSlots {
				t.prefetch(keys[r+1-lookupGroup : r+1])
			}
			if null != nil && null[r] {
				continue
			}
			k := keys[r]
			s := t.slot(k)
			for slots[s].key != k || slots[s].n == 0 {
				s = (s + 1) & mask
			}
			if e := &slots[s]; e.n > 1 {
				e.v--
				t.perm[e.v] = int32(r)
			}
		}
	}
	t.keys, t.nkeys, t.null = nil, 0, nil
}

// lookup finds each probe key's rows: n[i] rows (0: none) at v[i] (the
// row when n[i] == 1, a start in perm otherwise).
//
// A large table is a cache (and TLB) miss per key, and the probing loop's
// unpredictable branches keep the processor from overlapping many of them.
// So keys go in groups: a branch-free pass computes the group's first
// slots and touches them, which lets the misses of the whole group run in
// parallel (Go has no prefetch instruction; a load whose value is summed
// is the next best thing), and the probing pass then finds them in cache.
func (t *joinTable) lookup(ks []int64, v, n []uint32) {
	if t.pbits > 0 {
		t.lookupRadix(ks, v, n)
		return
	}
	if t.dense != nil {
		t.lookupDense(ks, v, n)
		return
	}
	slots := t.slots
	mask := uint64(len(slots) - 1)
	shift := t.shift
	v, n = v[:len(ks)], n[:len(ks)]
	var first [lookupGroup]uint32
	var touch uint32
	for lo := 0; lo < len(ks); lo += lookupGroup {
		g := ks[lo:min(lo+lookupGroup, len(ks))]
		if len(slots) >= lookupPrefetchSlots {
			for i, k := range g {
				s := (uint64(k) * 0x9E3779B97F4A7C15) >> shift
				first[i] = uint32(s)
				touch += slots[s].n
			}
		} else {
			for i, k := range g {
				first[i] = uint32((uint64(k) * 0x9E3779B97F4A7C15) >> shift)
			}
		}
		gv, gn := v[lo:lo+len(g)], n[lo:lo+len(g)]
		for i, k := range g {
			s := uint64(first[i])
			for {
				e := &slots[s]
				if e.n == 0 || e.key == k {
					gv[i], gn[i] = e.v, e.n
					break
				}
				s = (s + 1) & mask
			}
		}
	}
	t.touched += touch
}

const (
	// lookupGroup keys are looked up together: their slots' cache lines
	// (4 KiB of them) stay in L1 between the two passes.
	lookupGroup = 64
	// lookupPrefetchSlots: smaller tables live in cache anyway.
	lookupPrefetchSlots = 1 << 15
)

// prefetch touches the first slots of keys (see lookup).
func (t *joinTable) prefetch(keys []int64) {
	var touch uint32
	for _, k := range keys {
		touch += t.slots[t.slot(k)].n
	}
	t.touched += touch
}

// row returns the j-th build row of a lookup result (v, n).
func (t *joinTable) row(v, n, j uint32) int32 {
	if n == 1 || t.consecutive {
		return int32(v + j)
	}
	return t.perm[v+j]
}

// finishDense indexes the build rows by key-lo, in an array of span
// entries (see dense): a probe is one read of it, at an address the key
// gives, with no hashing nor probing of slots; a key outside the span
// misses without reading anything. The keys are unique in most joins (a
// primary key on the build side), so a row's number is stored directly;
// the first duplicate found switches to runs in perm, laid out by a
// counting sort of the rows by key.
func (t *joinTable) finishDense(span uint64) {
	lo, null := t.lo, t.null
	dense := make([]uint32, span)
	r := 0
	dups := false
scan:
	for _, seg := range t.keys {
		for _, k := range seg {
			if null == nil || !null[r] {
				d := &dense[k-lo]
				if *d != 0 {
					dups = true
					break scan
				}
				*d = uint32(r) + 1
			}
			r++
		}
	}
	if dups {
		// counts, then each key's run end, then (filling each run
		// backwards from the last row) each run's start; dense[span]
		// ends the last run
		dense = make([]uint32, span+1)
		r = 0
		for _, seg := range t.keys {
			for _, k := range seg {
				if null == nil || !null[r] {
					dense[k-lo]++
				}
				r++
			}
		}
		pos := uint32(0)
		for i, c := range dense[:span] {
			pos += c
			dense[i] = pos
		}
		dense[span] = pos
		t.perm = make([]int32, pos)
		r = t.nkeys - 1
		for s := len(t.keys) - 1; s >= 0; s-- {
			seg := t.keys[s]
			for i := len(seg) - 1; i >= 0; i, r = i-1, r-1 {
				if null != nil && null[r] {
					continue
				}
				d := &dense[seg[i]-lo]
				*d--
				t.perm[*d] = int32(r)
			}
		}
	}
	t.dense, t.denseRuns = dense, dups
	t.keys, t.nkeys, t.null = nil, 0, nil
}

// lookupDense is lookup on a dense table. The range test is one unsigned
// comparison (denseLimit); a miss gives n = 0, a row v = row and n = 1,
// a run of several v = its start in perm (lookup's convention).
func (t *joinTable) lookupDense(ks []int64, v, n []uint32) {
	dense, lo := t.dense, t.lo
	v, n = v[:len(ks)], n[:len(ks)]
	if !t.denseRuns {
		span := uint64(len(dense))
		for i, k := range ks {
			var e uint32 // row + 1; 0: no row
			if d := uint64(k - lo); d < span {
				e = dense[d]
			}
			v[i], n[i] = e-1, b2u(e != 0)
		}
		return
	}
	span, perm := uint64(len(dense)-1), t.perm
	for i, k := range ks {
		var s, e uint32
		if d := uint64(k - lo); d < span {
			s, e = dense[d], dense[d+1]
		}
		c := e - s
		if c == 1 {
			s = uint32(perm[s])
		}
		v[i], n[i] = s, c
	}
}

// b2u is 1 for true, 0 for false (compiled to a SETcc, not a branch).
func b2u(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

// findDense is lookupDense of one key (tests).
func (t *joinTable) findDense(k int64) (v, n uint32) {
	var vs, ns [1]uint32
	t.lookupDense([]int64{k}, vs[:], ns[:])
	return vs[0], ns[0]
}
