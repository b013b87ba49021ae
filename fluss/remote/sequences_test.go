package remote

import (
	"math"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The sequences' state machine (seqState.apply): whatever order two
// servers' records reach the log in, every value is reserved once, and a
// server gives back only what no other server may hold.
func TestSequenceLogApply(t *testing.T) {
	def := fluss.SequenceDef{Type: "bigint", Start: 1, Increment: 1, Min: 1, Max: math.MaxInt64, Cache: 1}
	newState := func() *seqState {
		return &seqState{nextID: 1, seqs: map[fluss.TablePath]*seqEntry{}, blocks: map[int64]*seqValues{}}
	}
	ev := func(op string, mod func(*seqEvent)) seqEvent {
		e := seqEvent{Op: op, DB: "public", Name: "s"}
		if mod != nil {
			mod(&e)
		}
		return e
	}
	reserve := func(n int64) seqEvent { return ev("reserve", func(e *seqEvent) { e.N = n }) }

	t.Run("reservations are disjoint and in log order", func(t *testing.T) {
		q := newState()
		if r := q.apply(ev("create", func(e *seqEvent) { e.Def = &def })); r.err != nil || r.id != 1 {
			t.Fatalf("create: %+v", r)
		}
		seen := map[int64]bool{}
		for i := 0; i < 50; i++ {
			r := q.apply(reserve(int64(1 + i%7)))
			if r.err != nil {
				t.Fatal(r.err)
			}
			for v := r.first; v <= r.last; v++ {
				if seen[v] {
					t.Fatalf("value %d reserved twice", v)
				}
				seen[v] = true
			}
		}
		if !seen[1] {
			t.Fatal("the first reservation does not start at START")
		}
	})
	t.Run("create", func(t *testing.T) {
		q := newState()
		q.apply(ev("create", func(e *seqEvent) { e.Def = &def }))
		if r := q.apply(ev("create", func(e *seqEvent) { e.Def = &def })); sqlerr.CodeOf(r.err) != sqlerr.DuplicateTable {
			t.Fatalf("second create: %v", r.err)
		}
		if r := q.apply(ev("create", func(e *seqEvent) { e.Def = &def; e.IfNotExists = true })); r.err != nil || r.id != 1 {
			t.Fatalf("create IF NOT EXISTS: %+v", r)
		}
	})
	t.Run("a request for a dropped sequence fails, also after a new one of its name", func(t *testing.T) {
		q := newState()
		q.apply(ev("create", func(e *seqEvent) { e.Def = &def }))
		q.apply(ev("drop", nil))
		q.apply(ev("create", func(e *seqEvent) { e.Def = &def }))
		r := q.apply(ev("reserve", func(e *seqEvent) { e.ID, e.N = 1, 10 }))
		if sqlerr.CodeOf(r.err) != sqlerr.UndefinedTable {
			t.Fatalf("reserve of the dropped id: %+v", r)
		}
		if r := q.apply(ev("reserve", func(e *seqEvent) { e.ID, e.N = 2, 10 })); r.err != nil || r.first != 1 {
			t.Fatalf("reserve of the new id: %+v", r)
		}
	})
	t.Run("unused values come back only from the last reservation", func(t *testing.T) {
		q := newState()
		q.apply(ev("create", func(e *seqEvent) { e.Def = &def }))
		a := q.apply(reserve(10)) // server A: 1..10
		b := q.apply(reserve(10)) // server B: 11..20
		// A gives back 4..10: B's block came after, so nothing comes back.
		q.apply(ev("release", func(e *seqEvent) { e.Unused = &seqUnused{Last: 3, End: a.last, Called: true} }))
		if r := q.apply(reserve(1)); r.first != b.last+1 {
			t.Fatalf("after a release behind another block: %d, want %d", r.first, b.last+1)
		}
		// Now the last block (21..21 above, then this one) is given back whole.
		c := q.apply(reserve(10))
		q.apply(ev("release", func(e *seqEvent) { e.Unused = &seqUnused{Last: c.first, End: c.last} }))
		if r := q.apply(reserve(1)); r.first != c.first {
			t.Fatalf("after giving back a whole block: %d, want %d", r.first, c.first)
		}
	})
	t.Run("alter, setval, bounds and cycle", func(t *testing.T) {
		q := newState()
		small := fluss.SequenceDef{Type: "integer", Start: 5, Increment: 10, Min: 5, Max: 30, Cache: 1}
		q.apply(ev("create", func(e *seqEvent) { e.Def = &small }))
		if r := q.apply(reserve(100)); r.first != 5 || r.last != 25 {
			t.Fatalf("block within MAXVALUE: %+v", r)
		}
		if r := q.apply(reserve(100)); r.err == nil || sqlerr.CodeOf(r.err) != "2200H" {
			t.Fatalf("past MAXVALUE: %+v", r)
		}
		restart := int64(15)
		cyc := small
		cyc.Cycle = true
		q.apply(ev("alter", func(e *seqEvent) { e.Def, e.Restart = &cyc, &restart }))
		if r := q.apply(reserve(100)); r.first != 15 || r.last != 25 {
			t.Fatalf("after RESTART 15: %+v", r)
		}
		if r := q.apply(reserve(100)); r.first != 5 {
			t.Fatalf("CYCLE: %+v", r)
		}
		if r := q.apply(ev("setval", func(e *seqEvent) { e.Value = 99 })); sqlerr.CodeOf(r.err) != sqlerr.NumericValueOutOfRange {
			t.Fatalf("setval out of bounds: %+v", r)
		}
		q.apply(ev("setval", func(e *seqEvent) { e.Value, e.Called = 15, true }))
		if r := q.apply(reserve(1)); r.first != 25 {
			t.Fatalf("after setval(15, true): %+v", r)
		}
	})
}
