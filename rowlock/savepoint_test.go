package rowlock

import (
	"context"
	"testing"
)

// TestRollbackLocks: ROLLBACK TO SAVEPOINT ends the row locks taken after
// the savepoint and lowers those raised after it, as PostgreSQL's
// subtransaction abort does; a lock held before the savepoint stays.
func TestRollbackLocks(t *testing.T) {
	type lock struct {
		key  string
		mode Mode
	}
	cases := []struct {
		name          string
		before, after []lock // a's locks before and after the savepoint
		probe         lock   // b's NOWAIT request after ROLLBACK TO
		free          bool   // whether b gets it
	}{
		{"taken after: ended", nil, []lock{{"r", Update}}, lock{"r", Update}, true},
		{"taken before: kept", []lock{{"r", Update}}, nil, lock{"r", KeyShare}, false},
		{"raised after: lowered", []lock{{"r", Share}}, []lock{{"r", Update}}, lock{"r", Share}, true},
		{"raised after: still the mode before", []lock{{"r", Share}}, []lock{{"r", Update}}, lock{"r", NoKeyUpdate}, false},
		{"taken before and again after: kept", []lock{{"r", Update}}, []lock{{"r", Update}}, lock{"r", KeyShare}, false},
		{"another row after: ended", []lock{{"q", Update}}, []lock{{"r", Update}, {"r", Share}}, lock{"r", Update}, true},
	}
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{})
			a, b := m.NewTxn(1), m.NewTxn(2)
			take := func(tx *Txn, l lock, w Wait) (Result, error) {
				return tx.Lock(ctx, Request{Table: 1, Name: "t", Key: l.key, Mode: l.mode, Wait: w})
			}
			for _, l := range c.before {
				if _, err := take(a, l, Block); err != nil {
					t.Fatal(err)
				}
			}
			mark := a.LocksMark()
			for _, l := range c.after {
				if _, err := take(a, l, Block); err != nil {
					t.Fatal(err)
				}
			}
			a.RollbackLocks(mark)
			_, err := take(b, c.probe, NoWait)
			if got := err == nil; got != c.free {
				t.Errorf("b's %v of %q granted %v (err %v), want %v", c.probe.mode, c.probe.key, got, err, c.free)
			}
			b.Release(false)
			a.Release(false)
		})
	}
}
