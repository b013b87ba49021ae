package embedded

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// soloSyncer records every fdatasync of pebble's write-ahead log or of the
// commit log: which file, and whether the store had marked the group
// committing as one that syncs with raw calls (syncRaw: pebble's WAL file
// and the commit log make their calls raw where rawCalls, see fsys.go).
type soloSyncer struct {
	mu    sync.Mutex
	store *Store
	seen  []soloSync
}

type soloSync struct {
	commitLog bool // commit.wal, else pebble's WAL
	solo      bool
}

func (c *soloSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	if isWAL(name) && kind == SyncData {
		c.mu.Lock()
		c.seen = append(c.seen, soloSync{commitLog: filepath.Base(name) == commitLogName, solo: c.store.syncRaw.Load()})
		c.mu.Unlock()
	}
	return sync()
}

func (c *soloSyncer) take() []soloSync {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.seen
	c.seen = nil
	return out
}

// TestLoneCommitSyncs: a commit alone in its group, with nothing queued,
// makes one sync, of the commit log (commitlog.go), and none of pebble's
// write-ahead log; its sync is a raw call only once more than rawLoneRun
// groups in a row had one writer; a commit that does not wait for its sync
// makes none; the next waiting commit, which must make that one durable
// too, syncs pebble's log as a lone group (raw), the flag down again once
// it returns; the one after it is logged again; and a group of two
// writers makes the next lone groups' syncs ordinary calls again.
func TestLoneCommitSyncs(t *testing.T) {
	ctx := context.Background()
	sc := &soloSyncer{}
	s, err := Open(t.TempDir(), Options{Syncer: sc})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sc.store = s
	pt := createTable(t, s, "solo_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	upsert := func(ctx context.Context, k int32) {
		t.Helper()
		w := fluss.TableWrite{Path: path("solo_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert,
			Rec: intRecord([]string{"k", "v"}, []int32{k, k})}
		defer w.Rec.Release()
		if _, err := w.Apply(ctx, pt); err != nil {
			t.Error(err)
		}
	}
	logged := []soloSync{{commitLog: true}}
	loggedRaw := []soloSync{{commitLog: true, solo: true}}
	pebbleRaw := []soloSync{{solo: true}}
	sc.take()
	for k := range int32(rawLoneRun) {
		upsert(ctx, k)
		if seen := sc.take(); !slices.Equal(seen, logged) {
			t.Fatalf("lone write %d: syncs %v, want %v", k+1, seen, logged)
		}
	}
	upsert(ctx, 100)
	if seen := sc.take(); !slices.Equal(seen, loggedRaw) {
		t.Fatalf("lone write %d: syncs %v, want %v", rawLoneRun+1, seen, loggedRaw)
	}
	upsert(fluss.WithoutSyncWait(ctx), 101)
	if seen := sc.take(); len(seen) != 0 {
		t.Fatalf("a commit that does not wait for its sync synced: %v", seen)
	}
	upsert(ctx, 102)
	if seen := sc.take(); !slices.Equal(seen, pebbleRaw) {
		t.Fatalf("after an unsynced commit: syncs %v, want %v", seen, pebbleRaw)
	}
	if s.syncRaw.Load() {
		t.Fatal("the raw-sync flag is still up after the commit returned")
	}
	upsert(ctx, 103)
	if seen := sc.take(); !slices.Equal(seen, loggedRaw) {
		t.Fatalf("after a synced pebble commit: syncs %v, want %v", seen, loggedRaw)
	}

	// Two writers queued while the token is held commit as one group.
	<-s.turn
	var wg sync.WaitGroup
	for k := range int32(2) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			upsert(ctx, 200+k)
		}()
	}
	for s.queued.Load() < 2 {
		runtime.Gosched()
	}
	s.turn <- struct{}{}
	wg.Wait()
	if seen := sc.take(); !slices.Equal(seen, []soloSync{{}}) {
		t.Fatalf("a group of two writers: syncs %v, want one ordinary sync of pebble's log", seen)
	}
	upsert(ctx, 300)
	if seen := sc.take(); !slices.Equal(seen, logged) {
		t.Fatalf("a lone write after a group of two: syncs %v, want %v", seen, logged)
	}
}
