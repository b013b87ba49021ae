package embedded

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// walSyncs counts the durable syncs of pebble's write-ahead log among calls.
func walSyncs(calls []syncCall) int {
	n := 0
	for _, c := range calls {
		if c.kind != SyncRange && isWAL(c.name) {
			n++
		}
	}
	return n
}

// TestAsyncCommitSyncs checks when writes made without waiting for their
// sync (fluss.WithoutSyncWait, synchronous_commit = off) are synced: not
// before they return; once, shortly after, for any number of them; at once
// by the next write that waits; before a bulk load's ingestion; and at
// Close. Every write is visible when it returns either way.
func TestAsyncCommitSyncs(t *testing.T) {
	ctx := context.Background()
	async := fluss.WithoutSyncWait(ctx)
	sc := &countingSyncer{}
	// A 20000-row bulk upsert passes 512 KiB of state and is ingested; a
	// few rows (and the tables' distinct-count sketches, tens of KiB,
	// persisted with them now and then) are committed as a batch.
	s, err := Open(t.TempDir(), Options{Syncer: sc, IngestBytes: 512 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close() // a no-op after the test closes it
	pt := createTable(t, s, "async_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	lt := createTable(t, s, "async_log", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "k")}, BucketCount: 2})
	upsert := func(ctx context.Context, k int32) {
		t.Helper()
		rec := intRecord([]string{"k", "v"}, []int32{k, k})
		defer rec.Release()
		if _, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	visible := func(k int32) bool {
		t.Helper()
		key := intRecord([]string{"k"}, []int32{k})
		defer key.Release()
		rows, err := pt.Lookup(ctx, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Release()
		return rows.NumRows() == 1
	}
	// waitWALSync waits (bounded) for the timer's sync.
	waitWALSync := func() []syncCall {
		t.Helper()
		var calls []syncCall
		deadline := time.Now().Add(5 * time.Second)
		for walSyncs(calls) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
			calls = append(calls, sc.take()...)
		}
		return calls
	}
	sc.take()

	type step struct {
		name string
		run  func(k int32) // writes key k (and maybe others)
		// syncsAtReturn: durable syncs of the WAL when run returns;
		// later: whether the timer must sync after it.
		syncsAtReturn int
		later         bool
	}
	steps := []step{
		{"one write without waiting", func(k int32) { upsert(async, k) }, 0, true},
		{"twenty writes without waiting", func(k int32) {
			for i := range int32(20) {
				upsert(async, k+i)
			}
		}, 0, true},
		{"writes without waiting, then one that waits", func(k int32) {
			upsert(async, k+1)
			upsert(async, k+2)
			upsert(ctx, k)
		}, 1, false},
		{"a write that waits", func(k int32) { upsert(ctx, k) }, 1, false},
		{"a write without waiting, then an ingested bulk load that waits neither", func(k int32) {
			upsert(async, k)
			b, err := pt.(fluss.BulkUpserter).BeginUpsert(async)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Discard()
			rows := make([][]int32, 20000)
			for i := range rows {
				rows[i] = []int32{k + 1 + int32(i), 1}
			}
			rec := intRecord([]string{"k", "v"}, rows...)
			defer rec.Release()
			if err := b.Add(async, rec); err != nil {
				t.Fatal(err)
			}
			if _, err := b.Commit(async); err != nil {
				t.Fatal(err)
			}
		}, -1, false}, // the ingestion syncs the WAL first (and its files)
		{"a two-table transaction without waiting", func(k int32) {
			ws := []fluss.TableWrite{
				{Path: path("async_log"), TableID: lt.Info().TableID, Kind: fluss.WriteAppend, Rec: intRecord([]string{"id", "k"}, []int32{k, k})},
				{Path: path("async_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert, Rec: intRecord([]string{"k", "v"}, []int32{k, k})},
			}
			defer ws[0].Rec.Release()
			defer ws[1].Rec.Release()
			if _, err := s.WriteAtomically(async, ws); err != nil {
				t.Fatal(err)
			}

		}, 0, true},
	}
	for i, st := range steps {
		k := int32(100_000 * (i + 1))
		st.run(k)
		calls := sc.take()
		if !visible(k) {
			t.Fatalf("%s: key %d is not visible when the write returned", st.name, k)
		}
		switch got := walSyncs(calls); {
		case st.syncsAtReturn >= 0 && got != st.syncsAtReturn:
			t.Errorf("%s: %d syncs of the write-ahead log when it returned (%s), want %d", st.name, got, describe(calls), st.syncsAtReturn)
		case st.syncsAtReturn < 0 && got == 0:
			t.Errorf("%s: the write-ahead log was not synced before the ingestion (%s)", st.name, describe(calls))
		}
		if st.later {
			calls = waitWALSync()
			if got := walSyncs(calls); got != 1 {
				t.Errorf("%s: %d syncs of the write-ahead log after it returned (%s), want 1 within %v", st.name, got, describe(calls), asyncSyncDelay)
			}
		}
		// Nothing is left to sync: no sync comes later.
		time.Sleep(2 * asyncSyncDelay)
		if calls := sc.take(); walSyncs(calls) != 0 {
			t.Errorf("%s: %d more syncs of the write-ahead log while idle (%s), want 0", st.name, walSyncs(calls), describe(calls))
		}
	}

	// Close syncs what is left, at once.
	upsert(async, 1)
	sc.take()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if calls := sc.take(); walSyncs(calls) == 0 {
		t.Errorf("Close did not sync the write-ahead log after a write that did not wait (%s)", describe(calls))
	}
}

// TestAsyncWritersCombine queues writers that wait for no sync behind a
// taken token: once it is given back, every queued request must commit as
// one group (not one group per writer: a writer that waits for the token
// instead of queueing, wal33's lever 2, lost at 32 clients where that split
// the groups; bench/LEDGER.md), each writer must see its row
// when it returns, and writers still queued when the store closes must be
// answered (the error of a closed store), not left waiting.
func TestAsyncWritersCombine(t *testing.T) {
	ctx := context.Background()
	async := fluss.WithoutSyncWait(ctx)
	for _, tc := range []struct {
		name    string
		writers int
		close   bool // close the store instead of giving the token back
	}{
		{name: "two", writers: 2},
		{name: "many", writers: 40},
		{name: "closed", writers: 8, close: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close() // a no-op after the test closes it
			pt := createTable(t, s, "combine_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
			visible := func(k int32) bool {
				t.Helper()
				key := intRecord([]string{"k"}, []int32{k})
				defer key.Release()
				rows, err := pt.Lookup(ctx, key, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Release()
				return rows.NumRows() == 1
			}
			<-s.turn // a group in progress
			groups := s.groups.Load()
			type answer struct {
				k       int32
				err     error
				visible bool
			}
			answers := make(chan answer, tc.writers)
			for k := range int32(tc.writers) {
				go func() {
					rec := intRecord([]string{"k", "v"}, []int32{k, k})
					defer rec.Release()
					_, err := pt.Upsert(async, rec, fluss.UpsertOptions{})
					a := answer{k: k, err: err}
					if err == nil && !tc.close {
						a.visible = visible(k)
					}
					answers <- a
				}()
			}
			// All queued: the committer goroutine holds one request (it
			// waits for the token) and the channel the rest (queued counts
			// a request before it is sent).
			deadline := time.Now().Add(10 * time.Second)
			for s.queued.Load() < int64(tc.writers) || len(s.reqs) < tc.writers-1 {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d writers queued", s.queued.Load(), tc.writers)
				}
				time.Sleep(time.Millisecond)
			}
			if tc.close {
				s.turn <- struct{}{}
				// Close may race the writers for the token: each is
				// committed or told the store closed, none waits on.
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				for range tc.writers {
					a := <-answers
					if a.err != nil {
						wantCode(t, a.err, sqlerr.AdminShutdown, "closed")
					}
				}
				return
			}
			s.turn <- struct{}{}
			for range tc.writers {
				a := <-answers
				if a.err != nil {
					t.Fatalf("writer %d: %v", a.k, a.err)
				}
				if !a.visible {
					t.Errorf("writer %d's row is not visible when it returns", a.k)
				}
			}
			if got := s.groups.Load() - groups; got != 1 {
				t.Errorf("%d group commits for %d queued writers, want 1", got, tc.writers)
			}
		})
	}
}

// walGate blocks the first durable sync of pebble's write-ahead log made
// once armed, until release is closed.
type walGate struct {
	countingSyncer
	armed   atomic.Bool
	blocked chan struct{}
	release chan struct{}
}

func (g *walGate) Sync(name string, kind SyncKind, sync func() error) error {
	if kind != SyncRange && strings.HasSuffix(name, ".log") && g.armed.CompareAndSwap(true, false) {
		close(g.blocked)
		<-g.release
	}
	return g.countingSyncer.Sync(name, kind, sync)
}

// TestTimedWALSyncLeavesTokenFree: while the timer's sync of unsynced
// commits waits for the disk, writes that do not wait for their sync still
// commit (the sync does not hold the committer's token); those commits,
// which the sync in flight may not cover, are synced by a later one within
// the timer's delay, after which nothing is synced while idle; every row
// survives Close and Open.
func TestTimedWALSyncLeavesTokenFree(t *testing.T) {
	async := fluss.WithoutSyncWait(context.Background())
	dir := t.TempDir()
	g := &walGate{blocked: make(chan struct{}), release: make(chan struct{})}
	s, err := Open(dir, Options{Syncer: g})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pt := createTable(t, s, "timed_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 1})
	k := int32(0)
	upsert := func() {
		t.Helper()
		rec := intRecord([]string{"k", "v"}, []int32{k, k})
		defer rec.Release()
		if _, err := pt.Upsert(async, rec, fluss.UpsertOptions{}); err != nil {
			t.Error(err)
		}
		k++
	}
	g.armed.Store(true)
	upsert() // arms the committer's timer
	select {
	case <-g.blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("the timer's sync did not come")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			upsert()
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		close(g.release)
		t.Fatal("writes without a sync wait waited for the timer's sync")
	}
	g.take()
	close(g.release)
	// The held sync, then the one of the writes it may not cover.
	deadline := time.Now().Add(asyncSyncDelay + 5*time.Second)
	for n := 0; n < 2; n += walSyncs(g.take()) {
		if time.Now().After(deadline) {
			t.Fatal("the writes committed during the timer's sync were never synced")
		}
		time.Sleep(asyncSyncDelay / 10)
	}
	time.Sleep(2 * asyncSyncDelay)
	if calls := g.take(); walSyncs(calls) != 0 {
		t.Errorf("%d more syncs of the write-ahead log while idle (%s), want 0", walSyncs(calls), describe(calls))
	}
	s = reopenClean(t, s, dir)
	defer s.Close()
	if got := countRows(t, mustTable(t, s, "timed_pk")); got != int(k) {
		t.Fatalf("%d rows after reopening, want %d", got, k)
	}
}
