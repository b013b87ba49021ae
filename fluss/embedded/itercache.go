package embedded

import (
	"bytes"
	"io"
	"sync"

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
type iterCache struct {
	db     *pebble.DB
	mu     sync.Mutex
	gen    uint64
	free   []*cachedIter
	closed bool
}

// maxCachedIters bounds the idle iterators (one per concurrent lookup).
const maxCachedIters = 8

// maxIterUses retires an iterator after that many lookups: an iterator pins
// the sstables of its version, which pebble's background compactions
// replace without a write of ours, so a read-only stream of lookups must
// not keep one alive for ever.
const maxIterUses = 4096

type cachedIter struct {
	it   *pebble.Iterator
	gen  uint64 // iterCache.gen when it was created; odd = single-use
	uses int
}

// get returns an iterator over the current state, or nil once the cache is
// closed (the caller then reads without it).
func (c *iterCache) get() (*cachedIter, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, nil
	}
	for n := len(c.free); n > 0; n = len(c.free) {
		ci := c.free[n-1]
		c.free = c.free[:n-1]
		if ci.gen == c.gen {
			c.mu.Unlock()
			return ci, nil
		}
		_ = ci.it.Close()
	}
	gen := c.gen
	c.mu.Unlock()
	it, err := c.db.NewIter(nil)
	if err != nil {
		return nil, err
	}
	return &cachedIter{it: it, gen: gen}, nil
}

// put gives back an iterator get returned: kept while it still shows the
// current state, else closed.
func (c *iterCache) put(ci *cachedIter) {
	c.mu.Lock()
	ci.uses++
	if !c.closed && ci.gen == c.gen && ci.gen%2 == 0 && ci.uses < maxIterUses && len(c.free) < maxCachedIters {
		c.free = append(c.free, ci)
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	_ = ci.it.Close()
}

// beginWrite is called before a write to pebble's state, endWrite after it.
func (c *iterCache) beginWrite() {
	c.mu.Lock()
	c.gen++
	stale := c.free
	c.free = nil
	c.mu.Unlock()
	for _, ci := range stale {
		_ = ci.it.Close()
	}
}

func (c *iterCache) endWrite() {
	c.mu.Lock()
	c.gen++
	c.mu.Unlock()
}

// invalidate retires the idle iterators and those in use (they are closed
// when put back) although the state did not change: after a compaction
// they still read the sstables it replaced.
func (c *iterCache) invalidate() {
	c.beginWrite()
	c.endWrite()
}

// close closes the idle iterators and stops caching (before pebble closes).
func (c *iterCache) close() {
	c.mu.Lock()
	c.closed = true
	stale := c.free
	c.free = nil
	c.mu.Unlock()
	for _, ci := range stale {
		_ = ci.it.Close()
	}
}

// noopCloser is the io.Closer of a value read through a cached iterator: the
// value stays valid until the iterator moves, which the caller does not do
// before it is done with it.
type noopCloser struct{}

func (noopCloser) Close() error { return nil }

// get reads key as pebble.DB.Get does (ErrNotFound when absent).
func (ci *cachedIter) get(key []byte) ([]byte, io.Closer, error) {
	if ci.it.SeekPrefixGE(key) && bytes.Equal(ci.it.Key(), key) {
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
