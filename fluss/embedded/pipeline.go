package embedded

import (
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// The committer's pipeline: the next groups prepare and apply while the
// previous one syncs.
//
// A synced group used to hold the committer for its whole sync: the
// requests that arrived meanwhile waited in the queue, and only once the
// sync returned (a wake-up of the committer) were they prepared, their
// batch written and handed to pebble's WAL writer (a second wake-up), so
// the disk idled between two syncs for as long as those took — on a busy
// machine longer than the sync itself (bench/LEDGER.md, thirty-sixth
// session: gaps p50 0.47 ms against 0.6 ms syncs at 8 clients). PostgreSQL's
// backends insert their commit records into the WAL buffers while another
// backend flushes, and the next flush covers them all.
//
// So the committer goroutine applies a synced group's batch without
// waiting for its sync (pebble's ApplyNoSyncWait: written to pebble's WAL
// queue and to its memtable), takes the read view the group will publish
// (a pebble snapshot taken before anything else is applied), and hands the
// batch to syncWaiter; while the sync runs it takes every request that
// arrives, prepares it against the live state (which includes the groups
// in flight: a later group's WAL record follows theirs, so it is never
// durable without them) and applies it the same way, pebble's WAL writer
// syncing whatever was queued in its next sync. Groups complete in order,
// as their syncs return: the read view published, the logs' committed
// lengths, the row cache, then the writers answered — nothing a reader or
// a writer sees changes before the sync that covers it, as before. The
// committer gives its token back only once the flight is empty (drain), and
// drains before anything other than another synced group of small writes
// (an ingestion, a bulk write, a drop, a checkpoint, unsynced groups).
//
// A group prepared while others fly marks its keys in the row cache
// (rowhints.go) as the first group does, each group's marks kept apart:
// a group that completes puts back only the keys no later group in flight
// wrote, so the cache holds the live state for the prepares and the
// published one for readers. Its bucket writes start where the flight's
// end (flightEnds), not at the logs' committed lengths.

// maxFlight bounds the groups in flight: the committer completes the
// oldest before it applies one more.
const maxFlight = 64

// flightGroup is a group applied to pebble and waiting for its sync.
type flightGroup struct {
	batch   *pebble.Batch
	snap    *pebble.Snapshot // the state as of the group's apply
	reqs    []*request
	results []result
	order   []*bucketWrite
	writers int
	atomics []*request // the atomic groups reqs belong to (answerGroup)
	start   time.Time
	syncErr error // set by syncWaiter
}

// syncWaiter waits for the sync of each group in flight, in order, and
// hands it back to the committer. It runs as long as the committer loop.
func (s *Store) syncWaiter(in <-chan *flightGroup, out chan<- *flightGroup) {
	for fg := range in {
		fg.syncErr = fg.batch.SyncWait()
		out <- fg
	}
}

// pipelines says whether a prepared group's batch may be applied without
// waiting for its sync: the committer goroutine commits it (not a writer
// committing its own group), its writers wait for the sync, it is not
// ingested, and it would not be logged alone in commit.wal (a lone group
// with nothing queued and nothing in flight: commitlog.go is quicker).
func (s *Store) pipelines(batch *pebble.Batch, wait, lone bool) bool {
	if !s.pipelining || !wait || batch.Empty() {
		return false
	}
	if s.opts.IngestBytes > 0 && batch.Len() >= s.opts.IngestBytes {
		return false
	}
	if len(s.flight) == 0 && lone && len(s.reqs) == 0 && !s.walDirty && s.clog.takes(batch) {
		return false
	}
	return true
}

// applyAhead applies a prepared group's batch without waiting for its sync
// and puts the group in flight. base is the state writes' count its
// prepare marked its keys after (noMarks for a group prepared in flight).
func (s *Store) applyAhead(batch *pebble.Batch, base uint64, reqs []*request, results []result, order []*bucketWrite, writers int, atomics []*request) error {
	if len(s.flight) >= maxFlight {
		s.complete(<-s.synced)
	}
	if len(s.flight) == 0 {
		s.iters.beginWriteAfter(base)
	} else {
		s.iters.beginAhead()
		s.aheads.Add(1)
	}
	start := time.Now()
	if err := s.db.ApplyNoSyncWait(batch, pebble.Sync); err != nil {
		if len(s.flight) == 0 {
			s.iters.endWrite()
		}
		return ioErr(err, "committing the key-value state")
	}
	fg := &flightGroup{batch: batch, snap: s.db.NewSnapshot(), reqs: reqs, results: results, order: order, writers: writers, atomics: atomics, start: start}
	for _, w := range order {
		s.flightEnds[w.bl] = w
	}
	s.flight = append(s.flight, fg)
	s.flightWriters += writers
	s.toWait <- fg
	return nil
}

// complete finishes the group at the head of the flight once its sync
// returned: as commit does after a synced batch commit.
func (s *Store) complete(fg *flightGroup) {
	s.flight = s.flight[1:]
	s.flightWriters -= fg.writers
	last := len(s.flight) == 0
	err := fg.syncErr
	if err == nil {
		s.lastSync = time.Since(fg.start)
		s.clog.pebbleSynced()
		if last {
			s.walDirty = false
		}
	}
	s.iters.endWriteAt(fg.snap, last) // view.go: the group's state is durable
	for _, w := range fg.order {
		if s.flightEnds[w.bl] == w {
			delete(s.flightEnds, w.bl)
		}
	}
	if err != nil {
		err = ioErr(err, "committing the key-value state")
		s.log.Error("group commit failed", "error", err)
		for _, w := range fg.order {
			_ = w.bl.f.Truncate(w.base)
		}
		for i := range fg.results {
			if fg.results[i].err == nil {
				fg.results[i] = result{err: err}
			}
		}
	} else {
		s.publish(fg.order)
	}
	s.hints.publishFirst(err == nil) // rowhints.go: the rows the group wrote
	for _, r := range fg.reqs {
		if r.prebuilt != nil {
			r.prebuilt.discard()
		}
	}
	for i, r := range fg.reqs {
		r.done <- fg.results[i]
	}
	for _, g := range fg.atomics {
		answerGroup(g)
	}
	_ = fg.batch.Close()
}

// fly commits, while groups are in flight, the requests that arrive and
// completes the groups as their syncs return, until the flight is empty.
// Committer goroutine, its token held.
func (s *Store) fly() {
	for len(s.flight) > 0 {
		select {
		case fg := <-s.synced:
			s.complete(fg)
		case r := <-s.reqs:
			s.queued.Add(-1)
			s.runGroup(s.fillGroup([]*request{r}))
		}
	}
}

// drain completes every group in flight, waiting for their syncs.
func (s *Store) drain() {
	for len(s.flight) > 0 {
		s.complete(<-s.synced)
	}
}
