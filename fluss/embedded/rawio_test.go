package embedded

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// soloSyncer records, for every sync of pebble's write-ahead log, whether
// the store had marked the group committing as a lone one (walSolo), and
// whether the WAL file would then make its calls raw.
type soloSyncer struct {
	mu    sync.Mutex
	store *Store
	seen  []bool
}

func (c *soloSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	if strings.HasSuffix(name, ".log") && kind == SyncData {
		c.mu.Lock()
		c.seen = append(c.seen, c.store.walSolo.Load())
		c.mu.Unlock()
	}
	return sync()
}

func (c *soloSyncer) take() []bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.seen
	c.seen = nil
	return out
}

// TestLoneCommitSyncsRaw: a commit alone in its group, with nothing queued,
// syncs the write-ahead log as a lone group (raw calls where rawCalls, see
// fsys.go); the flag is down again once the commit returns, so pebble's own
// later syncs (a flush, a checkpoint) are made the ordinary way; and a
// commit that does not wait for its sync makes none.
func TestLoneCommitSyncsRaw(t *testing.T) {
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
	sc.take()
	for k := range int32(3) {
		upsert(ctx, k)
		seen := sc.take()
		if len(seen) != 1 || !seen[0] {
			t.Fatalf("write %d: WAL syncs seen as lone %v, want one, lone", k, seen)
		}
		if s.walSolo.Load() {
			t.Fatalf("write %d: the lone-group flag is still up after the commit returned", k)
		}
	}
	upsert(fluss.WithoutSyncWait(ctx), 10)
	if seen := sc.take(); len(seen) != 0 {
		t.Fatalf("a commit that does not wait for its sync synced the WAL: %v", seen)
	}
	// The next waiting commit syncs the unsynced one too, still alone.
	upsert(ctx, 11)
	if seen := sc.take(); len(seen) != 1 || !seen[0] {
		t.Fatalf("after an unsynced commit: WAL syncs seen as lone %v, want one, lone", seen)
	}
}
