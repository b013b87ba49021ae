package embedded

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// followed is one change a follow returned: bucket, offset, change type and
// the first table column.
type followed struct {
	bucket int
	offset int64
	kind   string
	id     int32
}

// pollAll polls until the follow has nothing more now.
func pollAll(t *testing.T, f fluss.ChangelogFollow) []followed {
	t.Helper()
	var out []followed
	for {
		cb, err := f.Poll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if cb.Record == nil {
			return out
		}
		rec := cb.Record
		for i := range int(rec.NumRows()) {
			if cb.Snapshot {
				out = append(out, followed{bucket: cb.Bucket, offset: -1, kind: "snapshot", id: rec.Column(0).(*array.Int32).Value(i)})
				continue
			}
			out = append(out, followed{bucket: cb.Bucket, offset: rec.Column(1).(*array.Int64).Value(i),
				kind: rec.Column(0).(*array.String).Value(i), id: rec.Column(3).(*array.Int32).Value(i)})
		}
		rec.Release()
	}
}

// waitWoken waits for the follow's channel (a commit must close it).
func waitWoken(t *testing.T, f fluss.ChangelogFollow) {
	t.Helper()
	select {
	case <-f.Wait():
	case <-time.After(10 * time.Second):
		t.Fatal("a commit did not wake the follower")
	}
}

func TestFollowWakesAndResumesExactly(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "lf", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v")}, BucketCount: 2, BucketKey: []string{"id"}})
	appendRows := func(ids ...int32) {
		rows := make([][]int32, len(ids))
		for i, id := range ids {
			rows[i] = []int32{id, id * 10}
		}
		rec := intRecord([]string{"id", "v"}, rows...)
		defer rec.Release()
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	appendRows(1, 2, 3, 4)
	latest, err := tb.(fluss.ChangelogFollower).FollowChangelog(ctx, fluss.FollowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer latest.Close()
	if got := pollAll(t, latest); len(got) != 0 {
		t.Fatalf("a follow from the latest offsets returned what was committed before it: %v", got)
	}
	// Waiting while the commit runs; only the test's goroutine may fail
	// it (t.Fatal in this one would leave the test blocked on woke).
	woke := make(chan bool, 1)
	go func() {
		select {
		case <-latest.Wait():
			woke <- true
		case <-time.After(10 * time.Second):
			woke <- false
		}
	}()
	appendRows(5, 6, 7, 8, 9, 10)
	if !<-woke {
		t.Fatal("a commit did not wake the follower")
	}
	got := pollAll(t, latest)
	if len(got) != 6 {
		t.Fatalf("after the commit: %v", got)
	}
	// Every change once, in offset order per bucket, from a stored
	// position in the middle of a stored batch.
	all, err := tb.(fluss.ChangelogFollower).FollowChangelog(ctx, fluss.FollowOptions{From: []int64{0, 0}, MaxRows: 3})
	if err != nil {
		t.Fatal(err)
	}
	everything := pollAll(t, all)
	all.Close()
	if len(everything) != 10 {
		t.Fatalf("from the earliest offsets: %v", everything)
	}
	for k := range len(everything) {
		from := []int64{0, 0}
		for _, c := range everything[:k] {
			from[c.bucket] = c.offset + 1
		}
		f, err := tb.(fluss.ChangelogFollower).FollowChangelog(ctx, fluss.FollowOptions{From: from})
		if err != nil {
			t.Fatal(err)
		}
		rest := pollAll(t, f)
		f.Close()
		seen := map[string]int{}
		for _, c := range append(append([]followed(nil), everything[:k]...), rest...) {
			seen[fmt.Sprintf("%d@%d", c.bucket, c.offset)]++
		}
		if len(seen) != 10 || len(everything[:k])+len(rest) != 10 {
			t.Fatalf("resumed after %d changes at %v: %v then %v", k, from, everything[:k], rest)
		}
	}
	// A drop wakes a waiting follower, whose next poll says so.
	go func() {
		if err := s.DropTable(ctx, path("lf"), false); err != nil {
			t.Error(err)
		}
	}()
	waitWoken(t, latest)
	if _, err := latest.Poll(ctx); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("poll after DROP TABLE: %v", err)
	}
}

func TestFollowSnapshotMeetsChanges(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	id := intCols("id")[0]
	id.Type.NotNull = true
	tb := createTable(t, s, "pf", fluss.TableDescriptor{Schema: fluss.Schema{Columns: append([]fluss.Column{id}, intCols("v")...), PrimaryKey: []string{"id"}}, BucketCount: 3})
	upsert := func(id, v int32) {
		rec := intRecord([]string{"id", "v"}, []int32{id, v})
		defer rec.Release()
		if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range int32(20) {
		upsert(i, 0)
	}
	f, err := tb.(fluss.ChangelogFollower).FollowChangelog(ctx, fluss.FollowOptions{Snapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Written after the follow started: changes, not snapshot rows.
	upsert(3, 1)
	upsert(20, 1)
	got := pollAll(t, f)
	snap, changes := map[int32]bool{}, []string{}
	for _, c := range got {
		if c.kind == "snapshot" {
			snap[c.id] = true
			continue
		}
		changes = append(changes, fmt.Sprintf("%s %d", c.kind, c.id))
	}
	if len(snap) != 20 || snap[20] {
		t.Fatalf("snapshot rows %v", snap)
	}
	// Per key in order (the buckets of keys 3 and 20 may come either way).
	if k := fmt.Sprint(changes); k != "[update_before 3 update_after 3 insert 20]" && k != "[insert 20 update_before 3 update_after 3]" {
		t.Fatalf("changes after the snapshot: %v", changes)
	}
}
