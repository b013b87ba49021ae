package embedded

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// soloSyncer records every fdatasync of pebble's write-ahead log or of the
// commit log: which file, and whether the store had marked the group
// committing as a lone one (walSolo: pebble's WAL file makes its calls raw
// where rawCalls, see fsys.go).
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
		c.seen = append(c.seen, soloSync{commitLog: filepath.Base(name) == commitLogName, solo: c.store.walSolo.Load()})
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
// write-ahead log; a commit that does not wait for its sync makes none;
// the next waiting commit, which must make that one durable too, syncs
// pebble's log as a lone group (raw calls where rawCalls), the flag down
// again once it returns; and the one after it is logged again.
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
			t.Fatal(err)
		}
	}
	logged := []soloSync{{commitLog: true}}
	pebbleLone := []soloSync{{solo: true}}
	sc.take()
	for k := range int32(3) {
		upsert(ctx, k)
		if seen := sc.take(); !slices.Equal(seen, logged) {
			t.Fatalf("write %d: syncs %v, want %v", k, seen, logged)
		}
	}
	upsert(fluss.WithoutSyncWait(ctx), 10)
	if seen := sc.take(); len(seen) != 0 {
		t.Fatalf("a commit that does not wait for its sync synced: %v", seen)
	}
	upsert(ctx, 11)
	if seen := sc.take(); !slices.Equal(seen, pebbleLone) {
		t.Fatalf("after an unsynced commit: syncs %v, want %v", seen, pebbleLone)
	}
	if s.walSolo.Load() {
		t.Fatal("the lone-group flag is still up after the commit returned")
	}
	upsert(ctx, 12)
	if seen := sc.take(); !slices.Equal(seen, logged) {
		t.Fatalf("after a synced pebble commit: syncs %v, want %v", seen, logged)
	}
}
