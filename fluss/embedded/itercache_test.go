package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
)

// A point lookup reads through a cached iterator; every write in between
// must be seen by the next lookup, whether it updates, deletes or
// re-inserts the key, and lookups of absent keys find nothing.
func TestPointLookupSeesEveryWrite(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	tb := createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	lookup := func(k int32) (int32, bool) {
		t.Helper()
		keys := keyRows(k)
		defer keys.Release()
		rec, err := tb.Lookup(ctx, keys, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer rec.Release()
		if rec.NumRows() == 0 {
			return 0, false
		}
		return rec.Column(1).(*array.Int32).Value(0), true
	}
	write := func(del bool, pairs ...int32) {
		t.Helper()
		var err error
		if del {
			rec := keyRows(pairs...)
			_, err = tb.Delete(ctx, rec)
			rec.Release()
		} else {
			rec := kvRows(pairs...)
			_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
			rec.Release()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		del   bool
		write []int32 // pairs to upsert, or keys to delete
		k     int32
		v     int32
		found bool
	}{
		{false, []int32{1, 10}, 1, 10, true},
		{false, nil, 1, 10, true}, // a repeated lookup, no write between
		{false, nil, 2, 0, false},
		{false, []int32{1, 11, 2, 20}, 1, 11, true},
		{false, nil, 2, 20, true},
		{true, []int32{1}, 1, 0, false},
		{false, nil, 2, 20, true},
		{false, []int32{1, 12}, 1, 12, true},
	} {
		if step.write != nil {
			write(step.del, step.write...)
		}
		// Twice: the second lookup reuses the iterator the first put back.
		for range 2 {
			if v, ok := lookup(step.k); ok != step.found || v != step.v {
				t.Fatalf("after %v (del %v): lookup %d = %d, %v; want %d, %v", step.write, step.del, step.k, v, ok, step.v, step.found)
			}
		}
	}
	if err := s.DropTable(ctx, path("c"), false); err != nil {
		t.Fatal(err)
	}
	tb = createTable(t, s, "c", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("k", "v"), PrimaryKey: []string{"k"}}, BucketCount: 2})
	if _, ok := lookup(2); ok {
		t.Fatal("a re-created table shows a row of the dropped one")
	}
}
