package embedded

import (
	"bytes"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// rowHints cache stored rows of primary-key tables by pebble key, so that a
// point read of a row read or written lately needs no pebble Get: under a
// stream of UPDATEs every commit retires the cached iterators
// (itercache.go), and the next lookup of a key (an UPDATE by key: the row
// it rewrites) paid a Get, a merging search of the memtables and every
// level. The cache is also where the commit's prepare takes each written
// key's stored row for the changelog's before image (getStored), so an
// UPDATE by key reads its row once.
//
// The cache holds what pebble holds: a slot is a key, its stored value and
// the state-write count (wseq, itercache.go) it shows, and a reader takes it
// only while no state write since may have changed the key:
//   - a group commit's prepare, before its state batch, takes out of the
//     cache every key the group writes (markWritten) and, once the batch is
//     committed, puts their new values in (publish), as of the wseq the
//     batch ends at; while a group's keys are taken out and not yet
//     published, a point read does not fill the cache, as pebble may show
//     it either state of those keys;
//   - a state write of keys no one took out (an ingestion, a table's
//     deletion) raises iterCache.floor to the wseq it ends at, from its
//     start on, and a slot showing an earlier wseq is void;
//   - a point read that missed fills the cache with what pebble returned
//     only when no state write started since it took its wseq (one taken
//     during a write, odd, never fills).
//
// Marks, publishes and the prepare's reads run in the committer, which
// holds the committer's token: one group is between its marks and its
// publish at a time. A group whose commit failed leaves its keys out of the
// cache and point reads from filling it until the next group publishes.
//
// The slots hold no pointers (a key and its row inline, up to
// hintSlotData bytes together; longer rows are not cached), so the garbage
// collector does not scan them; they are 4-way sets by the key's hash, each
// set guarded by one of hintLocks mutexes, the least recent slot replaced.
// Their memory is taken from the block cache's share (Store.Open).
type rowHints struct {
	// mu guards the slots' making and the group's stash.
	mu sync.Mutex
	// bytes bounds the slots' memory; set before the first use (negative:
	// no cache, for benchmarks to compare).
	bytes int64
	seed  maphash.Seed
	// slots is made at the first fill or publish: sets of hintWays slots.
	slots atomic.Pointer[[]hintSlot]
	locks [hintLocks]paddedMutex

	// out is set from a group's marks to its publish: point reads do not
	// fill the cache meanwhile.
	out atomic.Bool
	// void is the wseq below which every slot is void: a group that
	// writes more keys than the cache holds voids them all instead of
	// taking its keys out one by one.
	void atomic.Uint64
	// stash holds the entries of the group between its marks and its
	// publish, stashEnd the wseq its state batch ends at, stashN their
	// number.
	stash    [][]kvEntry
	stashEnd uint64
	stashN   int

	// used counts the stored rows the commit took from the cache, hits the
	// point reads it answered (tests read them).
	used, hits atomic.Int64
}

const (
	// hintWays is the number of slots a key may take, its set's.
	hintWays = 4
	// hintSlotData is the room of a slot for its key and row together: a
	// slot is 128 bytes.
	hintSlotData = 116
	// hintLocks is the number of mutexes the sets share.
	hintLocks = 64
	// minHintBytes is the least memory of the slots.
	minHintBytes = 64 << 10
)

type hintSlot struct {
	// at is 1 + the wseq whose state the row shows; 0 = empty.
	at         uint64
	klen, rlen uint16
	data       [hintSlotData]byte
}

type paddedMutex struct {
	sync.Mutex
	_ [56]byte
}

// table returns the slots, made on the first call when make is set (nil
// before then otherwise).
func (h *rowHints) table(make_ bool) []hintSlot {
	if p := h.slots.Load(); p != nil {
		return *p
	}
	if !make_ || h.bytes < 0 {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if p := h.slots.Load(); p != nil {
		return *p
	}
	h.seed = maphash.MakeSeed()
	slots := make([]hintSlot, h.capacity())
	h.slots.Store(&slots)
	return slots
}

// capacity is the number of slots: a power of two of sets within bytes.
func (h *rowHints) capacity() int {
	bytes := max(h.bytes, minHintBytes)
	sets := 1
	for int64(sets*2*hintWays)*int64(unsafe.Sizeof(hintSlot{})) <= bytes {
		sets *= 2
	}
	return sets * hintWays
}

// set returns the index of key's set's first slot, and its lock.
func (h *rowHints) set(slots []hintSlot, key []byte) (int, *paddedMutex) {
	x := maphash.Bytes(h.seed, key)
	sets := uint64(len(slots) / hintWays)
	s := x & (sets - 1)
	// The lock is the set's: keys of one set share its slots.
	return int(s) * hintWays, &h.locks[s%hintLocks]
}

// find returns the slot of key in the set at i, or -1 (its lock held).
func find(slots []hintSlot, i int, key []byte) int {
	for w := i; w < i+hintWays; w++ {
		sl := &slots[w]
		if sl.at != 0 && int(sl.klen) == len(key) && bytes.Equal(sl.data[:sl.klen], key) {
			return w
		}
	}
	return -1
}

// ready says whether the cache holds any slots yet.
func (h *rowHints) ready() bool {
	return h.slots.Load() != nil
}

// get returns key's stored row appended to dst when the cache holds it
// showing a wseq at or after floor (ok).
func (h *rowHints) get(key []byte, floor uint64, dst []byte) (row []byte, ok bool) {
	slots := h.table(false)
	if slots == nil {
		return nil, false
	}
	floor = max(floor, h.void.Load())
	i, mu := h.set(slots, key)
	mu.Lock()
	if w := find(slots, i, key); w >= 0 && slots[w].at > floor {
		sl := &slots[w]
		row = append(dst, sl.data[sl.klen:int(sl.klen)+int(sl.rlen)]...)
		ok = true
	}
	mu.Unlock()
	return row, ok
}

// stored is get for the commit's prepare (getStored), counted in used.
func (h *rowHints) stored(key []byte, floor uint64, dst []byte) (row []byte, ok bool) {
	row, ok = h.get(key, floor, dst)
	if ok {
		h.used.Add(1)
	}
	return row, ok
}

// put stores row as key's, showing wseq seq, in the set at i (its lock
// held): in key's slot unless that shows a later state, else in an empty
// or void slot, else in the least recent one.
func (h *rowHints) put(slots []hintSlot, i int, key, row []byte, seq uint64) {
	w := find(slots, i, key)
	if w >= 0 && slots[w].at > seq+1 {
		return
	}
	if w < 0 {
		// Void slots show a state before void, empty ones none.
		void := h.void.Load()
		w = i
		for j := i; j < i+hintWays; j++ {
			if slots[j].at <= void {
				w = j
				break
			}
			if slots[j].at < slots[w].at {
				w = j
			}
		}
	}
	sl := &slots[w]
	sl.at = seq + 1
	sl.klen, sl.rlen = uint16(len(key)), uint16(len(row))
	copy(sl.data[:], key)
	copy(sl.data[len(key):], row)
}

// fits says whether key and row fit a slot.
func fits(key, row []byte) bool {
	return len(key)+len(row) <= hintSlotData
}

// record fills the cache with row, read for key by a point read that took
// wseq seq, unless a state write started since or a group's keys are out
// (now returns the current wseq).
func (h *rowHints) record(key, row []byte, seq uint64, now func() uint64) {
	if seq%2 == 1 || !fits(key, row) || h.out.Load() {
		return
	}
	slots := h.table(true)
	if slots == nil {
		return
	}
	i, mu := h.set(slots, key)
	mu.Lock()
	if !h.out.Load() && now() == seq {
		h.put(slots, i, key, row, seq)
	}
	mu.Unlock()
}

// begin starts a group commit: a previous group's keys that were never
// published (its commit failed) are forgotten, and stay out of the cache.
func (h *rowHints) begin() {
	h.mu.Lock()
	clear(h.stash)
	h.stash, h.stashN, h.stashEnd = h.stash[:0], 0, 0
	h.mu.Unlock()
}

// markWritten takes the keys a group writes out of the cache before its
// state batch, which ends at wseq end, and keeps them for publish. Only the
// committer calls it, in a prepare.
func (h *rowHints) markWritten(keys []kvEntry, end uint64) {
	h.out.Store(true)
	h.mu.Lock()
	h.stashEnd = end
	h.stashN += len(keys)
	// More keys than the cache holds (a bulk write): void every row instead
	// of taking the keys out, and put none back.
	over := h.stashN > h.capacity()
	if over {
		clear(h.stash)
		h.stash = h.stash[:0]
		h.void.Store(max(h.void.Load(), end))
	} else {
		h.stash = append(h.stash, keys)
	}
	h.mu.Unlock()
	slots := h.table(false)
	if slots == nil || over {
		return
	}
	for _, e := range keys {
		i, mu := h.set(slots, e.key)
		mu.Lock()
		if w := find(slots, i, e.key); w >= 0 {
			slots[w].at = 0
		}
		mu.Unlock()
	}
}

// publish puts the state a group's batch committed into the cache: the
// rows of the keys its prepares marked, as of the wseq the batch ends at.
// The committer calls it once the batch is committed.
func (h *rowHints) publish() {
	h.mu.Lock()
	stash, end := h.stash, h.stashEnd
	h.stash, h.stashN, h.stashEnd = stash[:0], 0, 0
	h.mu.Unlock()
	if slots := h.table(true); len(stash) > 0 && slots != nil {
		for _, ents := range stash {
			for _, e := range ents {
				i, mu := h.set(slots, e.key)
				mu.Lock()
				if e.del || !fits(e.key, e.value) {
					if w := find(slots, i, e.key); w >= 0 {
						slots[w].at = 0
					}
				} else {
					h.put(slots, i, e.key, e.value, end)
				}
				mu.Unlock()
			}
		}
		clear(stash)
	}
	h.out.Store(false)
}
