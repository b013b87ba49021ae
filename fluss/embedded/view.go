package embedded

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// readView is the state readers of the store read: a pebble snapshot taken
// after a state write returned, so after its sync (doc.go, "Reads see
// durable state"). pebble makes a committed batch visible when it is
// applied to the memtable, before its write-ahead log sync completes; a
// reader of the live DB could see a row whose writer was never
// acknowledged and that a power loss then takes away. refs counts the
// store's own reference (while the view is current) and each reader's; the
// snapshot is closed when the last one is released.
type readView struct {
	*pebble.Snapshot
	refs atomic.Int64
	// retired is where the view goes when its last reference is released.
	retired *retiredViews
	// n orders the views by age (the snapshots' order).
	n uint64
}

// retiredViews holds views no one reads any more until the committer
// closes them, several at a time and newest first: pebble schedules a
// compaction check (some allocations and its DB lock) whenever the
// earliest open snapshot closes, which closing each group's view at once
// would do once per commit. Closed newest first, only the batch's oldest
// is the earliest; the obsolete key versions a retired view still pins
// are at most retireBatch groups old.
type retiredViews struct {
	mu    sync.Mutex
	views []*readView
	spare []*readView
	// free are closed views kept for refreshView to reuse (an allocation
	// per commit less). A reader that loaded a view before it was retired
	// can only acquire it again once it is reused, holding a newer durable
	// state, which no reader minds: every read shows at least the state
	// that was current when it began (see view).
	free []*readView
	// anchor is a retired view kept open for up to anchorAge, older than
	// the views retired after it: their closes then never close pebble's
	// earliest snapshot, so pebble's compaction check runs once per
	// anchorAge at most instead of once per batch.
	anchor   *readView
	anchorAt time.Time
}

// anchorAge bounds how long the anchor pins the key versions that newer
// writes made obsolete (compactions keep them meanwhile).
const anchorAge = time.Second

// retireBatch is how many retired views the committer lets accumulate
// before closing them.
const retireBatch = 16

// reuse returns a closed view to fill, or a new one.
func (r *retiredViews) reuse() *readView {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.free) == 0 {
		// A slab at a time: one allocation per retireBatch views.
		if r.free == nil {
			r.free = make([]*readView, 0, 2*retireBatch)
			r.views = make([]*readView, 0, 2*retireBatch)
		}
		slab := make([]readView, retireBatch)
		for i := range slab {
			r.free = append(r.free, &slab[i])
		}
	}
	n := len(r.free)
	v := r.free[n-1]
	r.free = r.free[:n-1]
	return v
}

func (r *retiredViews) add(v *readView) {
	r.mu.Lock()
	r.views = append(r.views, v)
	r.mu.Unlock()
}

// closeAll closes the retired views, newest first, when at least min are
// retired.
func (r *retiredViews) closeAll(min int) {
	r.mu.Lock()
	if len(r.views) < min {
		r.mu.Unlock()
		return
	}
	vs := r.views
	r.views = r.spare[:0]
	r.mu.Unlock()
	slices.SortFunc(vs, func(a, b *readView) int { return cmp.Compare(b.n, a.n) })
	switch {
	case min == 0 || r.anchor != nil && time.Since(r.anchorAt) > anchorAge:
		// Closed last, as the oldest.
		if r.anchor != nil {
			vs = append(vs, r.anchor)
			r.anchor = nil
		}
	case r.anchor == nil && len(vs) > 0:
		r.anchor, r.anchorAt = vs[len(vs)-1], time.Now()
		vs = vs[:len(vs)-1]
	}
	for _, v := range vs {
		_ = v.Snapshot.Close()
		v.Snapshot = nil
	}
	r.mu.Lock()
	for i, v := range vs {
		if len(r.free) < cap(r.free) {
			r.free = append(r.free, v)
		}
		vs[i] = nil
	}
	r.spare = vs[:0]
	r.mu.Unlock()
}

// Close releases the caller's reference (it shadows the snapshot's Close,
// so that holders of a view release it as they closed a snapshot).
func (v *readView) Close() error {
	v.release()
	return nil
}

// release drops one reference, closing the snapshot with the last one.
func (v *readView) release() {
	if v.refs.Add(-1) == 0 {
		v.retired.add(v)
	}
}

// tryAcquire takes a reference unless the view is already released (its
// count reached zero, which is final).
func (v *readView) tryAcquire() bool {
	for {
		n := v.refs.Load()
		if n <= 0 {
			return false
		}
		if v.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// view returns the current read view with a reference the caller releases
// (Close). A view released between the load and the acquire was replaced:
// the loop loads its successor.
func (c *iterCache) view() *readView {
	for {
		v := c.cur.Load()
		if v.tryAcquire() {
			return v
		}
	}
}

// refreshView publishes the state as it is now as the read view. It is
// called at the end of every state write (endWrite), after pebble's commit
// or ingestion returned, so after its sync, and by Open: only the
// committer writes state, one group at a time, so the live state is then
// the durable one (or, for a group committed without waiting for its
// sync, synchronous_commit = off, the one PostgreSQL shows at once too).
func (c *iterCache) refreshView() {
	if c.db == nil {
		return // an iterCache of counters alone (tests of the row hints)
	}
	c.views++
	v := c.retired.reuse()
	v.Snapshot, v.retired, v.n = c.db.NewSnapshot(), &c.retired, c.views
	v.refs.Store(1) // publishes the fields to readers that acquire it
	if old := c.cur.Swap(v); old != nil {
		old.release()
	}
	c.retired.closeAll(retireBatch)
}

// dropView releases the store's reference to the current view (at Close,
// before pebble closes; readers must be done by then, as before).
func (c *iterCache) dropView() {
	if old := c.cur.Swap(nil); old != nil {
		old.release()
	}
	c.retired.closeAll(0)
}
