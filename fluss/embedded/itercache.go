package embedded

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// iterCache keeps a few pebble iterators for point lookups between writes.
// A pebble Get builds an iterator over the memtables and every level for
// each key; a lookup that seeks an open iterator instead reuses its level
// iterators and open sstables. An iterator reads the state as of its
// creation, so one is reused only while no write has touched pebble since:
// every state write runs between beginWrite and endWrite, which advance gen
// (odd while a write runs) and close the idle iterators. A write under way
// makes the iterators created meanwhile single-use.
//
// Idle iterators are also kept per key region: the key ranges of the
// sstables of the level holding the most files (after a bulk load's settle
// compaction, the one level all keys are in), grouped into at most
// maxRegions regions. An iterator's level iterator keeps the sstable it
// last read open, and opening another one costs about a third of a seek;
// a lookup takes the iterator last used in its key's region, which has
// that region's sstable open already. The regions are only a hint: every
// iterator reads the whole state, so stale regions cost time, never a
// wrong row. They are computed again after pebble changes its sstables
// (layoutChanged, from pebble's event listener), when the idle iterators,
// which pin the replaced sstables, are closed too.
type iterCache struct {
	db     *pebble.DB
	mu     sync.Mutex
	gen    uint64
	free   []*cachedIter
	closed bool

	// bounds[i] is the largest key of region i; keys above the last bound
	// are region len(bounds). regions[r] is region r's idle iterator.
	bounds  [][]byte
	regions []*cachedIter
	// layoutStale asks the next get to recompute the regions.
	layoutStale bool
	// madeAt is gen when a point read last found no iterator to reuse
	// (readPoint): see pointIter.
	madeAt uint64
	// wseq counts the state writes' starts and ends as gen does, but not
	// invalidate's: odd while a write runs. floor is the wseq from which a
	// point read's row may stand for the stored row at a commit (rowhints.go):
	// a write whose keys were not marked (an ingestion, a table's deletion)
	// raises it to the wseq it ends at.
	wseq, floor uint64
	// cur is the read view (view.go): iterators and point reads read it,
	// not the live DB, so that they never see a group whose sync has not
	// completed.
	cur     atomic.Pointer[readView]
	retired retiredViews
	views   uint64 // views made, numbering them (refreshView's, the committer's)
}

// maxCachedIters bounds the idle iterators not kept in a region (one per
// concurrent lookup beyond the first in a region).
const maxCachedIters = 8

// maxRegions bounds the key regions, hence the idle iterators kept in them:
// at most maxRegions+maxCachedIters iterators are idle, each a few KiB of
// pebble's iterator state plus the pinned (block-cached) index and data
// block of the sstable it has open.
const maxRegions = 32

// maxIterUses retires an iterator after that many lookups: an iterator pins
// the sstables of its version, which pebble's background compactions
// replace without a write of ours, so a read-only stream of lookups must
// not keep one alive for ever.
const maxIterUses = 4096

type cachedIter struct {
	it *pebble.Iterator
	// key is the iterator's copy of the key it last looked up: pebble keeps
	// the key it seeks to, so a key handed to it directly would have to be
	// on the heap, an allocation per lookup.
	key    []byte
	gen    uint64 // iterCache.gen when it was created; odd = single-use
	uses   int
	region int // the region of the key it last looked up
	view   *readView
}

// close closes the iterator and releases the view it reads.
func (ci *cachedIter) close() {
	_ = ci.it.Close()
	ci.view.release()
}

// get returns an iterator over the current state for looking up key, or
// nil once the cache is closed (the caller then reads without it).
func (c *iterCache) get(key []byte) (*cachedIter, error) {
	return c.take(key, false)
}

// pointIter is get for one point read, except that it returns nil (read
// with pebble's Get) instead of making a new iterator when a write came
// since a point read last found none to reuse, or is under way. Under
// writes every idle iterator is closed at each commit, and a new
// iterator's merging seek across the memtables and every level cost a
// single-key read (an UPDATE by key: the row it rewrites) about three
// times the Get, which stops at the first level holding the key. Reads
// without writes between them still make and reuse iterators: the first
// read after a write goes by Get, the next one makes the iterator the
// reads after it share. seq is wseq when the iterator was taken: the read
// shows every state write that ended before it (rowhints.go).
func (c *iterCache) pointIter(key []byte) (ci *cachedIter, seq uint64, err error) {
	return c.takeSeq(key, true)
}

func (c *iterCache) take(key []byte, point bool) (*cachedIter, error) {
	ci, _, err := c.takeSeq(key, point)
	return ci, err
}

// takeSeq is take, also returning wseq as it was before the iterator was
// taken or made: a read with the iterator (or with pebble's Get, after
// takeSeq) shows every state write that ended before then.
func (c *iterCache) takeSeq(key []byte, point bool) (_ *cachedIter, seq uint64, _ error) {
	c.mu.Lock()
	seq = c.wseq
	if !c.closed && (c.layoutStale || c.regions == nil) {
		c.layoutStale = false
		stale := c.takeIdleLocked()
		c.mu.Unlock()
		closeIters(stale)
		bounds := regionBounds(c.db)
		c.mu.Lock()
		// Iterators put back meanwhile went by the old regions.
		stale = c.takeIdleLocked()
		c.bounds, c.regions = bounds, make([]*cachedIter, len(bounds)+1)
		c.mu.Unlock()
		closeIters(stale)
		c.mu.Lock()
	}
	if c.closed {
		c.mu.Unlock()
		return nil, seq, nil
	}
	r := c.regionLocked(key)
	if r < len(c.regions) {
		// Idle iterators show the current state: beginWrite takes them.
		if ci := c.regions[r]; ci != nil {
			c.regions[r] = nil
			c.mu.Unlock()
			return ci, seq, nil
		}
	}
	for n := len(c.free); n > 0; n = len(c.free) {
		ci := c.free[n-1]
		c.free = c.free[:n-1]
		if ci.gen == c.gen {
			c.mu.Unlock()
			ci.region = r
			return ci, seq, nil
		}
		ci.close()
	}
	gen := c.gen
	if point && (gen%2 == 1 || gen != c.madeAt) {
		c.madeAt = gen
		c.mu.Unlock()
		return nil, seq, nil
	}
	c.mu.Unlock()
	// The view is loaded after gen: it is at least as new as the state gen
	// stands for (endWrite publishes the view before it advances gen).
	v := c.view()
	it, err := v.NewIter(nil)
	if err != nil {
		v.release()
		return nil, seq, err
	}
	return &cachedIter{it: it, gen: gen, region: r, view: v}, seq, nil
}

// regionLocked is the region of key (c.mu held).
func (c *iterCache) regionLocked(key []byte) int {
	lo, hi := 0, len(c.bounds)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(c.bounds[m], key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// put gives back an iterator get returned: kept while it still shows the
// current state, else closed.
func (c *iterCache) put(ci *cachedIter) {
	c.mu.Lock()
	ci.uses++
	if !c.closed && ci.gen == c.gen && ci.gen%2 == 0 && ci.uses < maxIterUses {
		if ci.region < len(c.regions) && c.regions[ci.region] == nil {
			c.regions[ci.region] = ci
			c.mu.Unlock()
			return
		}
		if len(c.free) < maxCachedIters {
			c.free = append(c.free, ci)
			c.mu.Unlock()
			return
		}
	}
	c.mu.Unlock()
	ci.close()
}

// takeIdleLocked removes and returns every idle iterator (c.mu held).
func (c *iterCache) takeIdleLocked() []*cachedIter {
	stale := c.free
	c.free = nil
	for r, ci := range c.regions {
		if ci != nil {
			stale = append(stale, ci)
			c.regions[r] = nil
		}
	}
	return stale
}

func closeIters(its []*cachedIter) {
	for _, ci := range its {
		ci.close()
	}
}

// beginWrite is called before a write to pebble's state, endWrite after it.
func (c *iterCache) beginWrite() {
	c.beginWriteAfter(noMarks)
}

// noMarks is beginWriteAfter's base for a write whose keys no one marked.
const noMarks = ^uint64(0)

// beginWriteAfter is beginWrite for a group commit's state batch, whose
// keys its prepare marked in the row hints as written by the write after
// wseq base (rowhints.go). Another state write since then (base is not
// wseq) voids the marks, so every hint read before this write ends is
// retired instead, as after a write of unmarked keys.
func (c *iterCache) beginWriteAfter(base uint64) {
	c.mu.Lock()
	c.gen++
	if c.wseq != base {
		c.floor = c.wseq + 2
	}
	c.wseq++
	stale := c.takeIdleLocked()
	c.mu.Unlock()
	closeIters(stale)
}

func (c *iterCache) endWrite() {
	c.refreshView() // view.go: the write returned, so it is durable
	c.mu.Lock()
	c.gen++
	c.wseq++
	c.mu.Unlock()
}

// writeSeq is wseq, and floor: the state writes so far, and the first
// wseq a row hint must have been read at to be used (rowhints.go).
func (c *iterCache) writeSeq() (seq, floor uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wseq, c.floor
}

// currentSeq is wseq.
func (c *iterCache) currentSeq() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.wseq
}

// invalidate retires the idle iterators and those in use (they are closed
// when put back) although the state did not change: after a compaction
// they still read the sstables it replaced.
func (c *iterCache) invalidate() {
	c.mu.Lock()
	c.gen += 2
	stale := c.takeIdleLocked()
	c.mu.Unlock()
	closeIters(stale)
}

// layoutChanged records that pebble replaced sstables (a flush, compaction
// or ingestion ended): the next get recomputes the regions and closes the
// idle iterators. It only sets a flag, as pebble calls it from its own
// goroutines, possibly holding its locks.
func (c *iterCache) layoutChanged() {
	c.mu.Lock()
	c.layoutStale = true
	c.mu.Unlock()
}

// close closes the idle iterators and stops caching (before pebble closes).
func (c *iterCache) close() {
	c.mu.Lock()
	c.closed = true
	stale := c.takeIdleLocked()
	c.mu.Unlock()
	closeIters(stale)
}

// regionBounds splits the key space at the sstables of the level with the
// most of them, into at most maxRegions regions of consecutive sstables,
// and returns each region's largest key but the last's (nil: one region).
func regionBounds(db *pebble.DB) [][]byte {
	levels, err := db.SSTables()
	if err != nil {
		// Only a hint: one region, as without regions.
		return nil
	}
	var files []pebble.SSTableInfo
	for _, l := range levels {
		if len(l) > len(files) {
			files = l
		}
	}
	n := min(len(files), maxRegions)
	bounds := make([][]byte, 0, max(n-1, 0))
	for r := 1; r < n; r++ {
		// Region r-1 ends with the last of its share of the files.
		last := r*len(files)/n - 1
		bounds = append(bounds, slices.Clone(files[last].Largest.UserKey))
	}
	// L0's sstables overlap and are not in key order.
	slices.SortFunc(bounds, bytes.Compare)
	return bounds
}

// noopCloser is the io.Closer of a value read through a cached iterator: the
// value stays valid until the iterator moves, which the caller does not do
// before it is done with it.
type noopCloser struct{}

func (noopCloser) Close() error { return nil }

// get reads key as pebble.DB.Get does (ErrNotFound when absent); key does
// not escape (the iterator seeks to its own copy).
func (ci *cachedIter) get(key []byte) ([]byte, io.Closer, error) {
	ci.key = append(ci.key[:0], key...)
	if ci.it.SeekPrefixGE(ci.key) && bytes.Equal(ci.it.Key(), ci.key) {
		v, err := ci.it.ValueAndErr()
		if err != nil {
			return nil, nil, err
		}
		return v, noopCloser{}, nil
	}
	if err := ci.it.Error(); err != nil {
		return nil, nil, err
	}
	return nil, nil, pebble.ErrNotFound
}

// pointRead is what readPoint holds for a value it returned: the value stays
// valid until done is called.
type pointRead struct {
	s    *Store
	ci   *cachedIter
	c    io.Closer
	buf  *rowBuf
	view *readView // the view a Get read, released after c
}

// rowBuf holds a row readPoint copied out of the row cache.
type rowBuf [hintSlotData]byte

var rowBufs = sync.Pool{New: func() any { return new(rowBuf) }}

// readPoint reads one key of the current state: from the row cache when it
// holds the key (rowhints.go), else by a seek of a cached iterator (pebble's
// Get once the cache is closed, or while writes keep retiring the
// iterators: pointIter), whose row then fills the cache; found is false
// when it is absent. key does not escape, so that a caller can encode it on
// its stack; a row from the cache is copied into a pooled buffer that done
// gives back.
func (s *Store) readPoint(key []byte) (v []byte, found bool, r pointRead, err error) {
	r.s = s
	if s.hints.ready() {
		_, floor := s.iters.writeSeq()
		b := rowBufs.Get().(*rowBuf)
		if v, found = s.hints.get(key, floor, b[:0]); found {
			s.hints.hits.Add(1)
			r.buf = b
			return v, true, r, nil
		}
		rowBufs.Put(b)
	}
	ci, seq, err := s.iters.pointIter(key)
	if err != nil {
		return nil, false, r, err
	}
	defer func() {
		if found {
			s.hints.record(key, v, seq, s.iters.currentSeq)
		}
	}()
	if ci != nil {
		r.ci = ci
		v, r.c, err = ci.get(key)
	} else {
		// Get keeps no reference to its key, but the compiler cannot tell.
		// The view is taken after seq (pointIter), so it shows every state
		// write that ended before seq.
		r.view = s.iters.view()
		v, r.c, err = r.view.Get(slices.Clone(key))
	}
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, r, nil
	}
	return v, err == nil, r, err
}

// done releases the value readPoint returned.
func (r pointRead) done() {
	if r.c != nil {
		_ = r.c.Close()
	}
	if r.ci != nil {
		r.s.iters.put(r.ci)
	}
	if r.view != nil {
		r.view.release()
	}
	if r.buf != nil {
		rowBufs.Put(r.buf)
	}
}
