package embedded

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// A bulk load of a primary-key table is ingested as sstables (ingest.go).
// The first lands in the bottom level, but every later one overlaps the
// table's key range (a key's bytes do not follow the load order) and lands
// in L0 or above what is there, so that after ten loads a point lookup
// seeks through L0 sublevels, Lbase and L6, opening an sstable iterator in
// each. pebble's own compactions flatten this only slowly, and never past
// Lbase while Lbase is under its target size. The settler compacts each
// ingested table's key range down to the bottom level in the background,
// once the loads pause, so that a lookup then seeks one level. The write's
// acknowledgement never waits for it: the ingestion is already durable and
// a compaction changes no visible state.

// settleDelay is how long the settler waits after an ingestion for the next
// one of the same load before it compacts: a load of ten ingestions is then
// compacted about once, not ten times over.
const settleDelay = 2 * time.Second

// settler compacts the key ranges of the tables bulk ingestions touched.
type settler struct {
	db    *pebble.DB
	log   *slog.Logger
	iters *iterCache
	ctx   context.Context
	stop  context.CancelFunc
	kick  chan struct{} // capacity 1: a schedule call happened
	done  chan struct{} // closed when run returns

	mu      sync.Mutex
	cond    sync.Cond // signalled when the settler goes idle
	pending []int64   // table IDs whose data range to compact
	last    time.Time // the latest schedule call
	busy    bool      // a compaction is running
}

func newSettler(db *pebble.DB, log *slog.Logger, iters *iterCache) *settler {
	ctx, stop := context.WithCancel(context.Background())
	st := &settler{db: db, log: log, iters: iters, ctx: ctx, stop: stop,
		kick: make(chan struct{}, 1), done: make(chan struct{})}
	st.cond.L = &st.mu
	go st.run()
	return st
}

// schedule asks for table's data range to be compacted once loads pause.
func (st *settler) schedule(table int64) {
	st.mu.Lock()
	if !slices.Contains(st.pending, table) {
		st.pending = append(st.pending, table)
	}
	st.last = time.Now()
	st.mu.Unlock()
	select {
	case st.kick <- struct{}{}:
	default:
	}
}

func (st *settler) run() {
	defer close(st.done)
	defer func() {
		st.mu.Lock()
		st.pending, st.busy = nil, false
		st.cond.Broadcast()
		st.mu.Unlock()
	}()
	for {
		select {
		case <-st.ctx.Done():
			return
		case <-st.kick:
		}
		for {
			st.mu.Lock()
			wait := settleDelay - time.Since(st.last)
			st.mu.Unlock()
			if wait <= 0 {
				break
			}
			select {
			case <-st.ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		st.mu.Lock()
		tables := st.pending
		st.pending, st.busy = nil, len(tables) > 0
		st.mu.Unlock()
		for _, id := range tables {
			p := tablePrefix(prefixData, id)
			if err := st.db.Compact(st.ctx, p, prefixEnd(p), false); err != nil && st.ctx.Err() == nil {
				// Lookups stay correct, only slower: pebble's own
				// compactions still run.
				st.log.Warn("compacting a bulk-loaded table's state", "table", id, "error", err)
			}
		}
		if len(tables) > 0 && st.ctx.Err() == nil {
			// Idle cached iterators still read the sstables the compaction
			// replaced, through every level: let lookups open new ones.
			st.iters.invalidate()
			returnFreedCMemory() // trim_cgo.go
		}
		st.mu.Lock()
		st.busy = false
		if len(st.pending) == 0 {
			st.cond.Broadcast()
		}
		st.mu.Unlock()
	}
}

// wait returns once nothing is pending or running (tests and benchmarks
// measure the settled state with it).
func (st *settler) wait() {
	st.mu.Lock()
	for len(st.pending) > 0 || st.busy {
		st.cond.Wait()
	}
	st.mu.Unlock()
}

// close stops the settler (a compaction under way is cancelled or, once
// started inside pebble, finished by pebble's Close) and waits for it.
func (st *settler) close() {
	st.stop()
	<-st.done
}
