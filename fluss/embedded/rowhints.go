package embedded

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// rowHints spare a write of a row it just read (an UPDATE by key: its
// lookup, then its commit) the second read of the stored row that the
// commit's prepare makes for the changelog's before image: a point read
// keeps the row it found as a hint, with the state-write count (wseq,
// itercache.go) it was read at, and the prepare takes the row from the hint
// instead of from pebble when no state write since may have changed it.
//
// Which writes may have changed it: a group commit's prepare marks each key
// it writes, in a table of write counts by the key's hash, with the wseq its
// state batch ends at; a hint read at seq is good when its key's slot is at
// most seq (a collision only costs a read) and no write of unmarked keys
// (an ingestion, a table's deletion) ended after it (iterCache.floor). A
// read shows every state write that ended before its seq was taken, and one
// taken during a write (odd) is not kept. Marks and checks run in the
// committer's prepare, which holds the committer's token, so a key's mark
// is in place before its write starts; when another state write ran
// between a group's start and its state batch, beginWriteAfter raises the
// floor instead.
type rowHints struct {
	mu   sync.Mutex
	seed maphash.Seed
	// rows and written are made at the first hint.
	rows    []rowHint
	written []uint64
	// used counts the rows taken from hints (tests read it).
	used int64
	// unmarked is the largest wseq a write marked before the table was
	// made ends at: a hint read before it is not used.
	unmarked uint64
}

type rowHint struct {
	key, row []byte
	seq      uint64
}

const (
	// hintRows is the number of hints kept (by key hash, one per slot): a
	// hint is needed from a write's lookup to its commit, so only as many
	// as writes run concurrently, with room for collisions.
	hintRows = 1024
	// writtenSlots is the number of write-count slots: a collision with a
	// key written after the hint's read makes the prepare read pebble.
	writtenSlots = 1 << 14
	// maxHintRow bounds the rows kept, and so the hints' memory.
	maxHintRow = 512
)

func (h *rowHints) hash(key []byte) uint64 {
	return maphash.Bytes(h.seed, key)
}

// record keeps row, read for key at wseq seq, as the hint of key.
func (h *rowHints) record(key, row []byte, seq uint64) {
	if seq%2 == 1 || len(row) > maxHintRow {
		return
	}
	h.mu.Lock()
	if h.rows == nil {
		h.seed = maphash.MakeSeed()
		h.rows = make([]rowHint, hintRows)
		h.written = make([]uint64, writtenSlots)
	}
	x := h.hash(key)
	if seq >= h.written[x%writtenSlots] {
		e := &h.rows[x%hintRows]
		e.key = append(e.key[:0], key...)
		e.row = append(e.row[:0], row...)
		e.seq = seq
	}
	h.mu.Unlock()
}

// stored returns the stored row of key from its hint, appended to dst, when
// a hint read at or after floor shows it (ok). Only the committer calls it,
// in a prepare.
func (h *rowHints) stored(key []byte, floor uint64, dst []byte) (row []byte, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rows == nil {
		return nil, false
	}
	x := h.hash(key)
	e := &h.rows[x%hintRows]
	if e.seq < floor || e.seq < h.unmarked || e.seq < h.written[x%writtenSlots] || !bytes.Equal(e.key, key) {
		return nil, false
	}
	h.used++
	return append(dst, e.row...), true
}

// markWritten records that the state write ending at wseq end writes keys.
// Only the committer calls it, in a prepare.
func (h *rowHints) markWritten(keys []kvEntry, end uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rows == nil {
		h.unmarked = max(h.unmarked, end)
		return
	}
	for _, e := range keys {
		x := h.hash(e.key) % writtenSlots
		h.written[x] = max(h.written[x], end)
	}
}
