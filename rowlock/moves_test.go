package rowlock

import (
	"context"
	"testing"
)

// TestMovesLog checks what a commit logs of its statements' moves and what
// Moved answers after it: each row from its key before the transaction to
// the key the transaction leaves it at, a statement's moves at once (a
// swap), moves rolled back to a savepoint or with the transaction
// forgotten, and a question about a commit older than the log keeps.
func TestMovesLog(t *testing.T) {
	type stmt struct{ from, to []string }
	cases := []struct {
		name  string
		stmts []stmt
		// rollback: the moves from this statement on are rolled back to
		// a savepoint (-1: none); abort: the transaction rolls back
		rollback int
		abort    bool
		want     map[string]string // key -> where Moved says it went ("": not moved)
	}{
		{"one move", []stmt{{[]string{"a"}, []string{"b"}}}, -1, false,
			map[string]string{"a": "b", "b": ""}},
		{"chain in one transaction", []stmt{{[]string{"a"}, []string{"b"}}, {[]string{"b"}, []string{"c"}}}, -1, false,
			map[string]string{"a": "c", "b": ""}},
		{"swap in one statement", []stmt{{[]string{"a", "b"}, []string{"b", "a"}}}, -1, false,
			map[string]string{"a": "b", "b": "a"}},
		{"moved back", []stmt{{[]string{"a"}, []string{"b"}}, {[]string{"b"}, []string{"a"}}}, -1, false,
			map[string]string{"a": "", "b": ""}},
		{"old key's row moved first", []stmt{{[]string{"b"}, []string{"x"}}, {[]string{"a"}, []string{"b"}}, {[]string{"b"}, []string{"c"}}}, -1, false,
			map[string]string{"a": "c", "b": "x"}},
		{"rolled back to a savepoint", []stmt{{[]string{"a"}, []string{"b"}}, {[]string{"b"}, []string{"c"}}}, 1, false,
			map[string]string{"a": "b", "b": ""}},
		{"transaction rolled back", []stmt{{[]string{"a"}, []string{"b"}}}, -1, true,
			map[string]string{"a": ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, tx, since := lockingTxn(t)
			mark := -1
			for i, s := range c.stmts {
				if i == c.rollback {
					mark = tx.MovesMark()
				}
				tx.Moved(1, s.from, s.to)
			}
			if mark >= 0 {
				tx.RollbackMoves(mark)
			}
			tx.Release(!c.abort)
			for k, want := range c.want {
				to, seq, st := m.Moved(1, k, since)
				if want == "" {
					if st != NotMoved {
						t.Errorf("%s: moved to %q (state %d), want not moved", k, to, st)
					}
					continue
				}
				if st != RowMoved || to != want || seq <= since {
					t.Errorf("%s: moved to %q at %d (state %d), want %q after %d", k, to, seq, st, want, since)
				}
				if _, _, st := m.Moved(1, k, seq); st != NotMoved {
					t.Errorf("%s: moved again after its commit", k)
				}
				if _, _, st := m.Moved(2, k, since); st != NotMoved {
					t.Errorf("%s: moved in another table", k)
				}
			}
		})
	}
}

// TestDeletedEndsChain: a delete logs the end of the row's chain, which
// Moved reports as RowDeleted, for the row deleted at its key or after a
// move; a row moved onto a key whose row the transaction deleted before
// is a move, and the key's own row is deleted.
func TestDeletedEndsChain(t *testing.T) {
	type stmt struct {
		del      []string
		from, to []string
	}
	cases := []struct {
		name  string
		stmts []stmt
		moved map[string]string // key -> where it went
		gone  []string          // keys whose rows were deleted
	}{
		{"deleted", []stmt{{del: []string{"a"}}}, nil, []string{"a"}},
		{"moved, then deleted", []stmt{{from: []string{"a"}, to: []string{"b"}}, {del: []string{"b"}}}, nil, []string{"a"}},
		{"deleted, then a row moved there", []stmt{{del: []string{"b"}}, {from: []string{"a"}, to: []string{"b"}}},
			map[string]string{"a": "b"}, []string{"b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, tx, since := lockingTxn(t)
			for _, s := range c.stmts {
				if s.del != nil {
					tx.Deleted(1, s.del)
				} else {
					tx.Moved(1, s.from, s.to)
				}
			}
			tx.Release(true)
			for k, want := range c.moved {
				if to, _, st := m.Moved(1, k, since); st != RowMoved || to != want {
					t.Errorf("%s: moved to %q (state %d), want %q", k, to, st, want)
				}
			}
			for _, k := range c.gone {
				if _, seq, st := m.Moved(1, k, since); st != RowDeleted || seq <= since {
					t.Errorf("%s: state %d at %d, want deleted after %d", k, st, seq, since)
				}
			}
		})
	}
}

// TestMovesLogBounded checks that the log forgets its older half past
// Options.MaxMoves and says so for a question reaching back that far.
func TestMovesLogBounded(t *testing.T) {
	const max = 64
	m := New(Options{MaxMoves: max})
	tx := m.NewTxn(1)
	ctx := context.Background()
	since := m.Seq()
	for i := 0; i <= max; i++ {
		if _, err := tx.Lock(ctx, req("k", Update)); err != nil {
			t.Fatal(err)
		}
		k := string(rune('a' + i))
		tx.Moved(1, []string{k}, []string{k + "'"})
		tx.Release(true)
	}
	if len(m.moveOrder) > max {
		t.Fatalf("log holds %d moves, over %d", len(m.moveOrder), max)
	}
	if _, _, st := m.Moved(1, "zz", since); st != MoveForgotten {
		t.Errorf("a question from before the forgotten moves: state %d, want MoveForgotten", st)
	}
	if _, _, st := m.Moved(1, "zz", m.Seq()); st != NotMoved {
		t.Errorf("a question from now: state %d, want NotMoved", st)
	}
}

// lockingTxn is a new manager's transaction holding a lock (so that it
// has begun) and the manager's sequence number before its commit.
func lockingTxn(t *testing.T) (*Manager, *Txn, uint64) {
	t.Helper()
	m := New(Options{})
	tx := m.NewTxn(1)
	if _, err := tx.Lock(context.Background(), req("a", Update)); err != nil {
		t.Fatal(err)
	}
	return m, tx, m.Seq()
}

// TestWrittenLog checks Written against the commits it logs: a row a
// commit after since wrote is written (whatever its values), a row only
// locked or whose write rolled back is not, a row sharing every stamp
// slot with a written one is not (what Changed cannot tell), and a
// question older than what the bounded log keeps, or about a table a
// commit wrote whole (escalated), is unknown.
func TestWrittenLog(t *testing.T) {
	ctx := context.Background()
	type commit struct {
		keys  []string
		write bool
		abort bool
	}
	cases := []struct {
		name         string
		commits      []commit
		maxMoves     int
		escalateAt   int
		key          string
		written, kno bool
	}{
		{"written", []commit{{keys: []string{"a"}, write: true}}, 0, 0, "a", true, true},
		{"other row written", []commit{{keys: []string{"b"}, write: true}}, 0, 0, "a", false, true},
		{"locked only", []commit{{keys: []string{"a"}}}, 0, 0, "a", false, true},
		{"rolled back", []commit{{keys: []string{"a"}, write: true, abort: true}}, 0, 0, "a", false, true},
		{"table written whole", []commit{{keys: []string{"a", "b", "c", "d"}, write: true}}, 0, 2, "q", false, false},
		{"forgotten", []commit{{keys: []string{"a", "b", "c", "d", "e"}, write: true}, {keys: []string{"f", "g", "h"}, write: true}}, 4, 0, "x", false, false},
		{"kept after forgetting", []commit{{keys: []string{"a", "b", "c", "d", "e"}, write: true}, {keys: []string{"f", "g", "h"}, write: true}}, 4, 0, "h", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// one stamp slot: every key collides, so Changed says yes
			m := New(Options{StampSlots: 1, MaxMoves: c.maxMoves, EscalateAt: c.escalateAt})
			since := m.Seq()
			for i, cm := range c.commits {
				tx := m.NewTxn(int32(i + 1))
				for _, k := range cm.keys {
					if _, err := tx.Lock(ctx, Request{Table: 1, Name: "t", Key: k, Mode: NoKeyUpdate, Write: cm.write}); err != nil {
						t.Fatal(err)
					}
				}
				tx.Release(!cm.abort)
			}
			written, known := m.Written(1, c.key, since)
			if written != c.written || known != c.kno {
				t.Errorf("Written(%q) = %v, %v; want %v, %v", c.key, written, known, c.written, c.kno)
			}
		})
	}
}
