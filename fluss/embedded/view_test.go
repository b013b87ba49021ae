package embedded

import (
	"context"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestUnsyncedGroupInvisible holds a group's write-ahead log sync and reads
// what it wrote meanwhile, by each read path of a primary-key table: pebble
// makes a batch visible before its sync completes, and a row a reader saw
// must not be lost to a power failure before its writer is acknowledged
// (issue 33: nothing unacknowledged visible). Once the sync returns the
// reads show the group.
func TestUnsyncedGroupInvisible(t *testing.T) {
	ctx := context.Background()
	g := &gateSyncer{blocked: make(chan struct{}), release: make(chan struct{})}
	s, err := Open(t.TempDir(), Options{Syncer: g})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pt := createTable(t, s, "vis_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	upsert := func(rows ...[]int32) error {
		rec := intRecord([]string{"k", "v"}, rows...)
		defer rec.Release()
		_, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{})
		return err
	}
	// lookup returns v of each key's row, -1 when absent.
	lookup := func(keys ...int32) []int32 {
		t.Helper()
		var rows [][]int32
		for _, k := range keys {
			rows = append(rows, []int32{k})
		}
		key := intRecord([]string{"k"}, rows...)
		defer key.Release()
		got, err := pt.Lookup(ctx, key, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer got.Release()
		ks, vs := int32Values(got, 0), int32Values(got, 1)
		out := make([]int32, len(keys))
		for i, k := range keys {
			out[i] = -1
			if j := slices.Index(ks, k); j >= 0 {
				out[i] = vs[j]
			}
		}
		return out
	}
	scan := func() map[int32]int32 {
		t.Helper()
		rec, _ := scanAll(t, pt, fluss.ScanOptions{})
		defer rec.Release()
		out := map[int32]int32{}
		for i, k := range int32Values(rec, 0) {
			out[k] = int32Values(rec, 1)[i]
		}
		return out
	}
	if err := upsert([]int32{1, 10}, []int32{3, 30}); err != nil {
		t.Fatal(err)
	}
	// Read key 1 twice so that the row cache and an iterator hold it.
	for range 2 {
		if got := lookup(1); got[0] != 10 {
			t.Fatalf("before: key 1 = %d, want 10", got[0])
		}
	}
	g.armed.Store(true)
	done := make(chan error, 1)
	go func() { done <- upsert([]int32{1, 11}, []int32{2, 20}) }()
	<-g.blocked
	// The group is applied (its batch is in the memtable) but not synced.
	for round := range 3 {
		if got := lookup(1); got[0] != 10 {
			t.Errorf("syncing, round %d: point read of key 1 = %d, want 10 (the update is not durable yet)", round, got[0])
		}
		if got := lookup(2); got[0] != -1 {
			t.Errorf("syncing, round %d: point read of key 2 = %d, want absent", round, got[0])
		}
		if got := lookup(1, 2, 3); !slices.Equal(got, []int32{10, -1, 30}) {
			t.Errorf("syncing, round %d: lookup of keys 1, 2, 3 = %v, want [10 -1 30]", round, got)
		}
		if got := scan(); len(got) != 2 || got[1] != 10 || got[3] != 30 {
			t.Errorf("syncing, round %d: scan = %v, want map[1:10 3:30]", round, got)
		}
	}
	select {
	case err := <-done:
		t.Fatalf("the write returned before its sync: %v", err)
	default:
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := lookup(1); got[0] != 11 {
		t.Errorf("after: point read of key 1 = %d, want 11", got[0])
	}
	if got := lookup(2); got[0] != 20 {
		t.Errorf("after: point read of key 2 = %d, want 20", got[0])
	}
	if got := lookup(1, 2, 3); !slices.Equal(got, []int32{11, 20, 30}) {
		t.Errorf("after: lookup of keys 1, 2, 3 = %v, want [11 20 30]", got)
	}
	if got := scan(); len(got) != 3 || got[1] != 11 || got[2] != 20 || got[3] != 30 {
		t.Errorf("after: scan = %v, want map[1:11 2:20 3:30]", got)
	}
}
