//go:build fluss_cluster

package remote

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
)

// TestClusterFollow: a follow of a log table on the cluster (follow.go)
// started at an offset inside a stored batch returns the records from
// that offset on, each with its offset; one started past the end waits
// for the log to reach its offset; Next is the offset after the last
// record returned; Close ends the fetchers (no goroutine outlives it).
func TestClusterFollow(t *testing.T) {
	ctx := ctxT(t)
	_, s, _ := storeInTestDB(t)
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "fl"}
	cols := []fluss.Column{{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}}
	if _, err := s.CreateTable(ctx, path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols}, BucketCount: 1}, false); err != nil {
		t.Fatal(err)
	}
	tb, err := s.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	appendIDs := func(ids ...int32) {
		t.Helper()
		b := array.NewInt32Builder(memory.DefaultAllocator)
		b.AppendValues(ids, nil)
		col := b.NewArray()
		b.Release()
		rec := array.NewRecordBatch(tb.Info().ArrowSchema(), []arrow.Array{col}, int64(len(ids)))
		col.Release()
		defer rec.Release()
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	// read polls f until it has n changes ("offset:id"), waiting on Wait.
	read := func(f fluss.ChangelogFollow, n int) []string {
		t.Helper()
		var out []string
		for len(out) < n {
			cb, err := f.Poll(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if cb.Record == nil {
				select {
				case <-f.Wait():
				case <-time.After(10 * time.Second):
					t.Fatalf("no change within 10s; have %v", out)
				}
				continue
			}
			offs := cb.Record.Column(1).(*array.Int64)
			ids := cb.Record.Column(3).(*array.Int32)
			for i := 0; i < int(cb.Record.NumRows()); i++ {
				out = append(out, fmt.Sprintf("%d:%d", offs.Value(i), ids.Value(i)))
			}
			cb.Record.Release()
		}
		return out
	}
	appendIDs(10, 11, 12) // offsets 0-2, one batch
	appendIDs(13, 14)     // offsets 3-4
	before := runtime.NumGoroutine()
	fl := tb.(fluss.ChangelogFollower)
	mid, err := fl.FollowChangelog(ctx, fluss.FollowOptions{From: []int64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(read(mid, 4)); got != "[1:11 2:12 3:13 4:14]" {
		t.Fatalf("follow from offset 1: %s", got)
	}
	ahead, err := fl.FollowChangelog(ctx, fluss.FollowOptions{From: []int64{7}})
	if err != nil {
		t.Fatal(err)
	}
	if cb, err := ahead.Poll(ctx); err != nil || cb.Record != nil {
		t.Fatalf("a follow past the log's end returned %v, %v before the log reached it", cb.Record, err)
	}
	appendIDs(15, 16, 17, 18) // offsets 5-8
	if got := fmt.Sprint(read(ahead, 2)); got != "[7:17 8:18]" {
		t.Fatalf("follow from offset 7: %s", got)
	}
	if got := fmt.Sprint(read(mid, 4)); got != "[5:15 6:16 7:17 8:18]" {
		t.Fatalf("follow from offset 1, after the append: %s", got)
	}
	if n := ahead.Next(); len(n) != 1 || n[0] != 9 {
		t.Fatalf("Next after offset 8: %v", n)
	}
	mid.Close()
	ahead.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after the follows closed, %d before", runtime.NumGoroutine(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
