package engine

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
)

// rewriteGates are the tables an ALTER TABLE is rewriting (rewrite.go):
// the write statements of those tables wait here, before they run, for
// the rewrite to end (PostgreSQL's writers wait for the ACCESS EXCLUSIVE
// lock), and then run against the new table (the swap changed the
// catalog count, so they are bound again). Without the gate such a write
// would be bound to the old table, wait for the rewrite's table lock
// (ddllock.go lockStatement) and be bound again after it. Readers wait
// for the rewrite's table lock (ddllock.go awaitStatement). Sessions
// writing other tables never look further than the count of gates.
type rewriteGates struct {
	n  atomic.Int32
	mu sync.Mutex
	m  map[fluss.TablePath]chan struct{}
	// waiting, when set (by the internal tests), is called as a statement
	// starts to wait at a gate.
	waiting func(fluss.TablePath)
}

// hold opens a gate on path until the returned release is called. One
// rewrite of a table runs at a time (each holds the table's lock first).
func (g *rewriteGates) hold(path fluss.TablePath) (release func()) {
	ch := make(chan struct{})
	g.mu.Lock()
	if g.m == nil {
		g.m = map[fluss.TablePath]chan struct{}{}
	}
	g.m[path] = ch
	g.n.Add(1)
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		if g.m[path] == ch {
			delete(g.m, path)
		}
		g.n.Add(-1)
		g.mu.Unlock()
		close(ch)
	}
}

// rewriting reports whether a rewrite of path runs.
func (g *rewriteGates) rewriting(path fluss.TablePath) bool {
	if g.n.Load() == 0 {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m[path] != nil
}

// wait returns once no rewrite of path runs, or with ctx's error.
func (g *rewriteGates) wait(ctx context.Context, path fluss.TablePath) error {
	for g.n.Load() > 0 {
		g.mu.Lock()
		ch := g.m[path]
		g.mu.Unlock()
		if ch == nil {
			return nil
		}
		if g.waiting != nil {
			g.waiting(path)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// writtenTable is the table a bound INSERT, UPDATE, DELETE or MERGE
// writes (ddllock.go).
func writtenTable(b binder.Statement) (fluss.TablePath, bool) {
	info, ok := writtenTableInfo(b)
	return info.Path, ok
}
