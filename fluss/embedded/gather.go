package embedded

import "time"

// The gather of a lone synced commit.
//
// A writer that waits for its sync and finds the committer idle would
// commit alone at once (commitOwn): at one writer that is right, nothing
// else is coming. Under concurrency it splits the groups: measured with
// pgbench at 8 clients, durable (bench/LEDGER.md, thirty-fifth session), 43%
// of the syncs carried that one lone transaction and the rest ~5.3, the two
// alternating: the lone writer's sync started, the others arrived a few
// tens of µs later and waited all of it, then synced together, and the
// next lone arrival started the cycle again (3.4 transactions per sync,
// against PostgreSQL's 4.5 in the same minutes).
//
// So when the last group had several writers, a lone writer waiting for
// its sync goes through the committer goroutine, which, finding it alone,
// waits for more requests before it commits: until as many writers as the
// last group had are in, or for at most half the last sync's duration
// (bounded by gatherMax), whichever comes first; a fast disk gathers
// little, a slow one more, and the wait never costs more than half the
// sync it saves. PostgreSQL's commit_delay is the same idea with a fixed
// delay (off by default); here the bounds come from the store's own
// syncs. Writers that do not wait for their sync (synchronous_commit off)
// are never gathered: they do not share a sync. The durability promise is
// unchanged: a write is answered after its group's sync, as before.

// gatherMax bounds the gather of a lone synced commit (Store.gatherMax:
// tests widen it).
const gatherMax = 500 * time.Microsecond

// gathers says whether a writer that finds the committer idle should
// hand its request to the committer goroutine to be gathered instead of
// committing it alone at once.
func (s *Store) gathers(r *request) bool {
	return !r.async && s.lastWriters.Load() > 1
}

// gather adds to a lone synced request the requests that arrive within
// the gather's bounds. Committer only, its token held.
func (s *Store) gather(group []*request) []*request {
	want := int(s.lastWriters.Load())
	if len(group) != 1 || group[0].async || want < 2 {
		return group
	}
	wait := min(s.lastSync/2, s.gatherMax)
	if wait <= 0 {
		return group
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for len(group) < want && len(group) < maxGroup {
		select {
		case r := <-s.reqs:
			s.queued.Add(-1)
			group = append(group, r)
		case <-timer.C:
			return s.fillGroup(group)
		}
	}
	return group
}
