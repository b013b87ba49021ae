package txnstore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/fluss"
)

// TestFrozen: a Frozen copy reads the table as the transaction read it
// when it was taken (its pending upserts and deletes over the store's
// rows), by Scan and Lookup, whatever the transaction writes after; the
// table itself reads the later writes.
func TestFrozen(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name          string
		before, after func(t *testing.T, pt *txnstore.Table)
		frozen, live  []string
	}{
		{
			name:   "no pending rows",
			before: func(*testing.T, *txnstore.Table) {},
			after:  func(t *testing.T, pt *txnstore.Table) { del(t, pt, 1) },
			frozen: []string{"1|a|10", "2|b|20", "3|c|30"},
			live:   []string{"2|b|20", "3|c|30"},
		},
		{
			name: "upserts, then deletes and upserts of the same keys",
			before: func(t *testing.T, pt *txnstore.Table) {
				upsert(t, pt, fluss.UpsertOptions{}, row{1, "x", 1}, row{4, "d", 40})
			},
			after: func(t *testing.T, pt *txnstore.Table) {
				del(t, pt, 1, 4)
				upsert(t, pt, fluss.UpsertOptions{}, row{2, "y", 2}, row{5, "e", 50})
			},
			frozen: []string{"1|x|1", "2|b|20", "3|c|30", "4|d|40"},
			live:   []string{"2|y|2", "3|c|30", "5|e|50"},
		},
		{
			name:   "a delete, then the key written again",
			before: func(t *testing.T, pt *txnstore.Table) { del(t, pt, 3) },
			after:  func(t *testing.T, pt *txnstore.Table) { upsert(t, pt, fluss.UpsertOptions{}, row{3, "again", 3}) },
			frozen: []string{"1|a|10", "2|b|20"},
			live:   []string{"1|a|10", "2|b|20", "3|again|3"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := openStore(t)
			tb := createTable(t, s, "t", true, row{1, "a", 10}, row{2, "b", 20}, row{3, "c", 30})
			tx := txnstore.New(0, 0)
			defer tx.Release()
			pt := tx.Table(tb)
			c.before(t, pt)
			f, err := pt.Frozen()
			if err != nil {
				t.Fatal(err)
			}
			c.after(t, pt)
			if got := scanRows(t, f, fluss.ScanOptions{}); !slices.Equal(got, c.frozen) {
				t.Errorf("frozen Scan = %v, want %v", got, c.frozen)
			}
			if got := scanRows(t, pt, fluss.ScanOptions{}); !slices.Equal(got, c.live) {
				t.Errorf("live Scan = %v, want %v", got, c.live)
			}
			// Lookup of every key either side knows
			k := keys(pt.Info(), 1, 2, 3, 4, 5)
			defer k.Release()
			rec, err := f.Lookup(ctx, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsOf(rec); !slices.Equal(got, c.frozen) {
				t.Errorf("frozen Lookup = %v, want %v", got, c.frozen)
			}
			rec.Release()
			f.Release()
		})
	}
}
