package embedded

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestPipelinedGroupInvisibleUntilSynced holds the sync of a group the
// committer goroutine applied and sends another writer meanwhile: it is
// prepared on top of the syncing group (its changelog's update-before
// image is that group's row, its log offsets follow) and applied before
// the sync returns, yet no reader sees either group and no writer is
// answered until the sync that covers it returns; then both show, the
// row cache holds the newest row of a key both wrote, the changelog is
// whole and in order, and the store opens again clean.
func TestPipelinedGroupInvisibleUntilSynced(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	g := &gateSyncer{blocked: make(chan struct{}), release: make(chan struct{})}
	s, err := Open(dir, Options{Syncer: g})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	pt := createTable(t, s, "pipe_pk", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 1})
	upsert := func(rows ...[]int32) error {
		rec := intRecord([]string{"k", "v"}, rows...)
		defer rec.Release()
		_, err := pt.Upsert(ctx, rec, fluss.UpsertOptions{})
		return err
	}
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
	if err := upsert([]int32{1, 10}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the row cache and an iterator hold key 1
		if got := lookup(1); got[0] != 10 {
			t.Fatalf("before: key 1 = %d, want 10", got[0])
		}
	}
	// Two writers gathered into one group by the committer goroutine (a
	// group of two is not logged alone in commit.wal).
	s.lastWriters.Store(2)
	s.lastSync, s.gatherMax = time.Hour, time.Minute
	g.armed.Store(true)
	aheads := s.aheads.Load()
	errs := make(chan error, 3)
	go func() { errs <- upsert([]int32{1, 11}, []int32{2, 20}) }()
	time.Sleep(2 * time.Millisecond) // gathering when the second comes
	go func() { errs <- upsert([]int32{3, 30}) }()
	<-g.blocked
	// The third rewrites key 1 while the group that wrote it syncs.
	go func() { errs <- upsert([]int32{1, 12}, []int32{4, 40}) }()
	for deadline := time.Now().Add(10 * time.Second); s.aheads.Load() == aheads; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			close(g.release)
			t.Fatal("the third writer's group was not applied while the first group synced")
		}
	}
	for round := range 3 {
		if got := lookup(1, 2, 3, 4); !slices.Equal(got, []int32{10, -1, -1, -1}) {
			t.Errorf("syncing, round %d: keys 1-4 = %v, want [10 -1 -1 -1] (nothing synced yet)", round, got)
		}
		if got, _ := scanAll(t, pt, fluss.ScanOptions{}); got != nil {
			if n := got.NumRows(); n != 1 {
				t.Errorf("syncing, round %d: a scan found %d rows, want 1", round, n)
			}
			got.Release()
		}
	}
	select {
	case err := <-errs:
		t.Fatalf("a write returned before its sync: %v", err)
	default:
	}
	close(g.release)
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := lookup(1, 2, 3, 4); !slices.Equal(got, []int32{12, 20, 30, 40}) {
		t.Errorf("after: keys 1-4 = %v, want [12 20 30 40]", got)
	}
	// Key 1 once more: its update-before image comes from the row cache,
	// which must hold the third writer's row, not the first group's.
	used := s.hints.used.Load()
	if err := upsert([]int32{1, 13}); err != nil {
		t.Fatal(err)
	}
	if s.hints.used.Load() == used {
		t.Error("the last update did not take its stored row from the row cache")
	}
	// The changelog (type, log offset, v): offsets in order, key 1's
	// update-before images the rows the earlier groups wrote.
	want := "insert 0 10|update_before 1 10|update_after 2 11|insert 3 20|insert 4 30|update_before 5 11|update_after 6 12|insert 7 40|update_before 8 12|update_after 9 13"
	check := func(when string) {
		t.Helper()
		if got := strings.Join(changelogLines(t, pt, 0, 1, 4), "|"); got != want {
			t.Errorf("%s: changelog %q, want %q", when, got, want)
		}
	}
	check("after")
	s = reopenClean(t, s, dir)
	pt, err = s.Table(ctx, path("pipe_pk"))
	if err != nil {
		t.Fatal(err)
	}
	check("reopened")
	if got := lookup(1, 2, 3, 4); !slices.Equal(got, []int32{13, 20, 30, 40}) {
		t.Errorf("reopened: keys 1-4 = %v, want [13 20 30 40]", got)
	}
}
