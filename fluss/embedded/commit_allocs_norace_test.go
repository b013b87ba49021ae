//go:build !race

package embedded

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
)

// A transaction's COMMIT of one updated row (W10's, synchronous_commit
// off: an atomic group of one write) allocates within a budget: every
// allocation per commit is paid again by the collector. The lone write
// is queued as it is, not as a group's unit (atomic.go); the changelog's
// entries, the committed length's key and value and the append record's
// key stay on the stack, the record itself in the committer's buffer
// (durable.go), and a group's few bucket writes are published without a
// map. 44 before those (27 after); what is left is the request, its validated
// record, keys, row, changelog batch, state overlay and the group's
// bookkeeping, and the read view's pebble snapshot.
func TestOneRowCommitAllocations(t *testing.T) {
	ctx := fluss.WithoutSyncWait(t.Context())
	s := openStore(t, t.TempDir())
	defer s.Close()
	tb := createTable(t, s, "ledger", ledgerDesc(true))
	sch := tb.Info().ArrowSchema()
	load := ledgerRows(sch, 1, 1000, 0)
	if _, err := tb.Upsert(ctx, load, fluss.UpsertOptions{}); err != nil {
		t.Fatal(err)
	}
	load.Release()
	const n = 64
	rows := make([]arrow.RecordBatch, n)
	for i := range rows {
		rows[i] = ledgerRows(sch, 1+int64(i)*7919%1000, 1, int64(i))
		defer rows[i].Release()
	}
	info := tb.Info()
	w := []fluss.TableWrite{{Path: info.Path, TableID: info.TableID, Kind: fluss.WriteUpsert}}
	i := 0
	got := testing.AllocsPerRun(500, func() {
		w[0].Rec = rows[i%n]
		i++
		res, err := s.WriteAtomically(ctx, w)
		if err != nil || len(res) != 1 || res[0].Rows != 1 {
			t.Fatalf("WriteAtomically: %v, %v", res, err)
		}
	})
	const budget = 30
	if got > budget {
		t.Errorf("one-row commit: %v allocations, want at most %d", got, budget)
	}
	t.Logf("one-row commit: %v allocations", got)
}
