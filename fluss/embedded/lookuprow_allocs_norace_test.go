//go:build !race

// The race detector changes what allocates (sync.Pool drops a share of
// what is put back): allocation budgets are checked without it (make
// test-allocs).

package embedded

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
)

// A point lookup of a present key through LookupRow into builders with room
// allocates nothing (its key stays on the stack, the cached iterator seeks
// to its own copy), and Lookup's one-row record no more than its arrays
// need: every allocation per lookup is paid again by the collector.
func TestPointLookupAllocations(t *testing.T) {
	ctx := context.Background()
	_, tb := hundredRowPKTable(t)
	schema := tb.Info().ArrowSchema()
	keys := keyBatch(42)
	defer keys.Release()
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	const runs = 200
	for _, f := range rb.Fields() {
		f.Reserve(runs + 1)
	}
	rb.Field(5).(*array.StringBuilder).ReserveData(64 * (runs + 1))
	rl := tb.(fluss.RowLookuper)
	if got := testing.AllocsPerRun(runs, func() {
		if ok, err := rl.LookupRow(ctx, keys, 0, rb.Fields()); !ok || err != nil {
			t.Fatalf("LookupRow: %v, %v", ok, err)
		}
	}); got != 0 {
		t.Errorf("LookupRow: %v allocations per lookup, want 0", got)
	}
	// Lookup: the record with its column list (1), the columns' Data and
	// buffer headers (1), the slab (1) and per column its array (6).
	if got := testing.AllocsPerRun(runs, func() {
		rec, err := tb.Lookup(ctx, keys, nil)
		if err != nil || rec.NumRows() != 1 {
			t.Fatalf("Lookup: %v", err)
		}
		rec.Release()
	}); got > 9 {
		t.Errorf("Lookup: %v allocations per lookup, want at most 9", got)
	}
}
