package embedded

import (
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// Commits acknowledged before their sync (fluss.WithoutSyncWait:
// PostgreSQL's synchronous_commit = off).
//
// A group none of whose writers waits for the sync commits its pebble
// batch without one and answers at once: the group is visible, its log
// appends sit in the bucket logs' page cache and, as always for a small
// group, in the batch's append record (durable.go). The write-ahead log is
// synced later by whichever comes first: the next group that waits (a
// synced pebble commit makes every earlier record durable: the log is one
// sequence), or the committer's timer asyncSyncDelay after the first
// unsynced group, as PostgreSQL's WAL writer flushes asynchronous commits
// within wal_writer_delay (200 ms). A crash before that loses the unsynced
// groups whole, newest first: pebble recovers its log up to the last
// complete record, the committed lengths in the lost batches go with them,
// and Open truncates the bucket logs to the lengths that survived. It never
// loses a group while keeping a later one: a commit that does not pass
// through the write-ahead log (an ingestion of sstables, which pebble makes
// durable by its manifest) first syncs the log (syncWAL), so that it never
// lands on top of state a crash could take away.

// asyncSyncDelay is how long an unsynced commit waits at most for its
// sync (PostgreSQL's wal_writer_delay default).
const asyncSyncDelay = 200 * time.Millisecond

// waitsForSync says whether a writer of a group's committed requests
// waits for the group's sync.
func waitsForSync(reqs []*request, live []bool) bool {
	for i, r := range reqs {
		if live[i] && !r.async {
			return true
		}
	}
	return false
}

// syncWAL makes every commit made so far durable when some were committed
// without a sync, and pebble's write-ahead log durable past the synced
// commits that commit.wal alone made durable (commitlog.go). It runs in the committer goroutine, which owns
// walDirty. A failure is logged and leaves walDirty set: the next synced
// commit retries (pebble stops the process on a write-ahead log it cannot
// write).
func (s *Store) syncWAL() {
	if !s.walDirty && !s.clog.behind {
		return
	}
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		s.log.Error("syncing the write-ahead log of commits acknowledged without a sync", "error", err)
		return
	}
	s.walDirty = false
	s.clog.pebbleSynced() // commitlog.go
}

// timedSyncWAL is syncWAL for the committer's timer, called and returning
// with the token held, which it gives up for the sync itself: held, every
// writer waited for that fdatasync (0.6–6 ms every 200 ms at 8 clients with
// synchronous_commit off, bench/LEDGER.md), where pebble lets commits
// proceed beside a sync in flight (its later records wait for the next
// sync; they are never lost ahead of earlier ones, the log being one
// sequence). What the sync covers is every commit sequenced before its
// record: the ones counted in walCommits when the token was given up. If
// none came since, walDirty is cleared and commit.wal may start again, as
// syncWAL does; else the later ones are left dirty for the next sync (a
// commit.wal record written meanwhile must not be overwritten before
// pebble's log holds it durably). It reports whether the commits are still
// dirty, for the caller to arm the timer again.
func (s *Store) timedSyncWAL() (dirty bool) {
	if !s.walDirty {
		s.syncWAL() // only commit.wal's commits: nothing waits for this
		return false
	}
	seen := s.walCommits
	s.turn <- struct{}{}
	err := s.db.LogData(nil, pebble.Sync)
	<-s.turn
	if err != nil {
		s.log.Error("syncing the write-ahead log of commits acknowledged without a sync", "error", err)
		return s.walDirty
	}
	if s.walCommits == seen {
		s.walDirty = false
		s.clog.pebbleSynced() // commitlog.go
	}
	return s.walDirty
}
