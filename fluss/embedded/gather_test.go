package embedded

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestGatherLoneSyncedCommit: after a group of several writers, a lone
// writer waiting for its sync is gathered with the writers that arrive
// within the bounds (one group, one sync); alone, it commits once the
// gather's bound passes; a writer that does not wait for its sync is never
// gathered; and a lone group turns the gather off for the next writer.
func TestGatherLoneSyncedCommit(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pt := createTable(t, s, "gather_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	upsert := func(ctx context.Context, k int32) error {
		w := fluss.TableWrite{Path: path("gather_pk"), TableID: pt.Info().TableID, Kind: fluss.WriteUpsert,
			Rec: intRecord([]string{"k", "v"}, []int32{k, k})}
		defer w.Rec.Release()
		_, err := w.Apply(ctx, pt)
		return err
	}
	// The committer is idle: these fields are read by it only after a
	// request's send, which orders them.
	arm := func(bound time.Duration) {
		s.lastWriters.Store(2)
		s.lastSync = time.Hour
		s.gatherMax = bound
	}

	t.Run("two writers share one group", func(t *testing.T) {
		arm(time.Minute) // the gather ends when the second arrives
		before := s.groups.Load()
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() { errs[i] = upsert(ctx, int32(10+i)) })
			time.Sleep(2 * time.Millisecond) // the first is gathering when the second comes
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if g := s.groups.Load() - before; g != 1 {
			t.Errorf("group commits = %d, want 1", g)
		}
		if w := s.lastWriters.Load(); w != 2 {
			t.Errorf("lastWriters = %d, want 2", w)
		}
	})

	t.Run("alone, it commits after the bound", func(t *testing.T) {
		arm(20 * time.Millisecond)
		start := time.Now()
		if err := upsert(ctx, 20); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < 20*time.Millisecond || d > 10*time.Second {
			t.Errorf("a lone gathered commit took %v, want the bound of 20ms or a little more", d)
		}
		if w := s.lastWriters.Load(); w != 1 {
			t.Errorf("lastWriters = %d after a lone group, want 1", w)
		}
		// Now the next lone writer commits at once.
		s.lastSync, s.gatherMax = time.Hour, 30*time.Second
		start = time.Now()
		if err := upsert(ctx, 21); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("a lone commit after a lone group took %v: it was gathered", d)
		}
	})

	t.Run("a write without sync wait is not gathered", func(t *testing.T) {
		arm(30 * time.Second)
		start := time.Now()
		if err := upsert(fluss.WithoutSyncWait(ctx), 30); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("an unsynced write took %v: it was gathered", d)
		}
	})

	// Every write is there.
	rec, _ := scanAll(t, pt, fluss.ScanOptions{})
	if rec == nil {
		t.Fatal("no rows")
	}
	defer rec.Release()
	if n := rec.NumRows(); n != 5 {
		t.Errorf("rows = %d, want 5", n)
	}
}
