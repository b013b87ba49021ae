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
// at) and queues them as one reqGroup (a lone request as it is: a request
// is all or nothing already). The committer takes a reqGroup's
// requests into the group commit it is running, beside other sessions'
// writes and groups, and prepares them as one unit (prepareUnit): their
// state changes and overlays are kept apart until all of them prepared,
// and when any fails (a dropped table, an unreadable stored row) they all
// fail and the unit adds nothing to the group. Otherwise their log
// batches, state changes and committed lengths go into the group's synced
// pebble batch, which is the one commit point recovery honours. So a crash
// leaves all of the group or none of it, and concurrent transactions share
// one sync.

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
	c.reqs = append(c.reqs, r)
	return result{}, true
}

// release releases the records the collected requests hold.
func (c *collector) release() {
	for _, r := range c.reqs {
		for _, rec := range r.recs {
			rec.Release()
		}
	}
}

// commitCollected commits the collected requests as one atomic group;
// each request's groupRows then says how many rows it wrote.
func (s *Store) commitCollected(ctx context.Context, c *collector) error {
	if len(c.reqs) == 0 {
		return nil
	}
	if len(c.reqs) == 1 {
		// One write (a transaction that wrote one table's rows once, as
		// W10's): a request prepares whole or not at all by itself, so it
		// is queued as it is, without a group's unit around it.
		r := c.reqs[0]
		res, err := s.submit(ctx, r)
		if err != nil {
			return err
		}
		r.groupRows = res.rows
		return res.err
	}
	g := &request{kind: reqGroup, group: c.reqs, done: make(chan result, 1)}
	for _, r := range c.reqs {
		r.owner = g
	}
	res, err := s.submit(ctx, g)
	if err != nil {
		return err
	}
	return res.err
}

// WriteAtomically implements fluss.AtomicWriter.
func (s *Store) WriteAtomically(ctx context.Context, writes []fluss.TableWrite) ([]fluss.WriteResult, error) {
	c := &collector{}
	defer c.release()
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
	if err := s.commitCollected(ctx, c); err != nil {
		return nil, err
	}
	for k, r := range c.reqs {
		out[owner[k]].Rows += r.groupRows
	}
	return out, nil
}

// answerGroup answers an atomic group's request from its requests'
// results, once the group commit that took them has answered them.
func answerGroup(g *request) {
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
