package embedded

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Atomic groups of writes (a transaction's COMMIT).
//
// WriteAtomically prepares each write exactly as the single-write calls do
// (validation, bucketing, encoding), but instead of queueing each request
// it collects them (collectKey in the context: the one place submit looks
// at) and queues them as one reqGroup. The committer commits a group in a
// group commit of its own, and when any of its requests fails (a dropped
// table, an unreadable stored row) it fails them all before anything is
// written; otherwise their log batches, state changes and committed lengths
// go into the same synced pebble batch, which is the one commit point
// recovery honours. So a crash leaves all of the group or none of it.

var _ fluss.AtomicWriter = (*Store)(nil)

// collectKey marks a context whose writes are collected, not queued.
type collectKey struct{}

// collector gathers the requests of an atomic group.
type collector struct {
	reqs []*request
}

// collect is submit's hook: it keeps r (and the record it points into)
// for the group instead of queueing it, and reports ok.
func collect(ctx context.Context, r *request) (result, bool) {
	c, ok := ctx.Value(collectKey{}).(*collector)
	if !ok {
		return result{}, false
	}
	// The caller releases its records when it returns; the group commits
	// later.
	for _, rec := range r.recs {
		rec.Retain()
	}
	r.atomic = true
	c.reqs = append(c.reqs, r)
	return result{}, true
}

// WriteAtomically implements fluss.AtomicWriter.
func (s *Store) WriteAtomically(ctx context.Context, writes []fluss.TableWrite) ([]fluss.WriteResult, error) {
	c := &collector{}
	defer func() {
		for _, r := range c.reqs {
			for _, rec := range r.recs {
				rec.Release()
			}
		}
	}()
	cctx := context.WithValue(ctx, collectKey{}, c)
	owner := make([]int, 0, len(writes)) // request index -> write index
	for i, w := range writes {
		t, err := s.Table(ctx, w.Path)
		if err != nil {
			return nil, err
		}
		if t.Info().TableID != w.TableID {
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created while the transaction ran", w.Path.Table)
		}
		before := len(c.reqs)
		if _, err = w.Apply(cctx, t); err != nil {
			return nil, err
		}
		for range c.reqs[before:] {
			owner = append(owner, i)
		}
	}
	out := make([]fluss.WriteResult, len(writes))
	if len(c.reqs) == 0 {
		return out, nil
	}
	g := &request{kind: reqGroup, group: c.reqs, done: make(chan result, 1)}
	res, err := s.submit(ctx, g)
	if err != nil {
		return nil, err
	}
	if res.err != nil {
		return nil, res.err
	}
	for k, r := range c.reqs {
		out[owner[k]].Rows += r.groupRows
	}
	return out, nil
}

// commitGroup commits an atomic group on its own and answers its request.
func (s *Store) commitGroup(g *request) {
	s.commit(g.group)
	var res result
	for _, r := range g.group {
		rr := <-r.done
		r.groupRows = rr.rows
		if rr.err != nil && res.err == nil {
			res.err = rr.err
		}
		res.rows += rr.rows
	}
	g.done <- res
}

// failAtomic makes an atomic group all-or-nothing: when one of its requests
// failed to prepare, every request fails with that error, and it reports
// true so that commit writes nothing.
func failAtomic(reqs []*request, results []result) bool {
	if len(reqs) == 0 || !reqs[0].atomic {
		return false
	}
	var first error
	for _, r := range results {
		if r.err != nil {
			first = r.err
			break
		}
	}
	if first == nil {
		return false
	}
	for i := range results {
		results[i] = result{err: first}
	}
	return true
}
