package rowlock

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestAdvisoryLocks: holds count per mode, share locks share, an
// exclusive one excludes other sessions but never the holder's own other
// owner (session-level and transaction-level locks of one session), the
// try form reports false, and Locks shows one row per session, mode and
// key.
func TestAdvisoryLocks(t *testing.T) {
	ctx := context.Background()
	m := New(Options{})
	a, b := m.NewTxn(1), m.NewTxn(2)
	as, bs := m.NewSessionTxn(a), m.NewSessionTxn(b)
	k := BigintAdvisory(5, 42)
	lock := func(tx *Txn, shared bool, wait Wait) bool {
		t.Helper()
		ok, err := tx.LockAdvisory(ctx, AdvisoryRequest{Key: k, Shared: shared, Wait: wait, Timeout: 20 * time.Millisecond})
		if err != nil && sqlerr.CodeOf(err) != sqlerr.LockNotAvailable {
			t.Fatal(err)
		}
		return ok
	}
	for _, c := range []struct {
		name string
		got  bool
		want bool
	}{
		{"session lock", lock(as, false, Block), true},
		{"again, counted", lock(as, false, Block), true},
		{"own transaction, same session", lock(a, false, Block), true},
		{"other session's try", lock(bs, true, SkipLocked), false},
		{"other session waits, times out", lock(b, false, Block), false},
		{"first unlock", as.UnlockAdvisory(k, false), true},
		{"still held once: other session's try", lock(bs, false, SkipLocked), false},
		{"second unlock", as.UnlockAdvisory(k, false), true},
		{"unlock of none held", as.UnlockAdvisory(k, false), false},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %t, want %t", c.name, c.got, c.want)
		}
	}
	a.Release(false) // the transaction's hold ends
	if !lock(bs, true, SkipLocked) || !lock(as, true, SkipLocked) {
		t.Fatal("share locks of two sessions should both be granted")
	}
	if lock(b, false, SkipLocked) {
		t.Fatal("an exclusive lock granted beside another session's share lock")
	}
	var rows []string
	for _, l := range m.Locks() {
		if l.Kind == "advisory" {
			rows = append(rows, l.Mode)
			if l.Advisory != k {
				t.Errorf("tag %+v, want %+v", l.Advisory, k)
			}
		}
	}
	if len(rows) != 2 || rows[0] != "ShareLock" || rows[1] != "ShareLock" {
		t.Errorf("advisory rows of pg_locks: %v", rows)
	}
}

// TestAdvisoryDeadlock: session 1 holds a row lock and waits for an
// advisory lock session 2 holds at session level while session 2 waits for
// the row: the cycle passes through both owners of each session, and the
// check that comes first fails with 40P01 naming the advisory lock.
func TestAdvisoryDeadlock(t *testing.T) {
	ctx := context.Background()
	m := New(Options{})
	a, b := m.NewTxn(1), m.NewTxn(2)
	bs := m.NewSessionTxn(b)
	if _, err := a.Lock(ctx, Request{Table: 1, Name: "t", Key: "k", Mode: Update}); err != nil {
		t.Fatal(err)
	}
	key := PairAdvisory(5, 1, 2)
	if ok, err := bs.LockAdvisory(ctx, AdvisoryRequest{Key: key}); !ok || err != nil {
		t.Fatal(ok, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := b.Lock(ctx, Request{Table: 1, Name: "t", Key: "k", Mode: Update, DeadlockTimeout: time.Hour})
		done <- err
	}()
	for m.waiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	_, err := a.LockAdvisory(ctx, AdvisoryRequest{Key: key, DeadlockTimeout: 10 * time.Millisecond})
	if sqlerr.CodeOf(err) != sqlerr.DeadlockDetected {
		t.Fatalf("got %v, want 40P01", err)
	}
	if e, _ := err.(*sqlerr.Error); e == nil || !strings.Contains(e.Detail, "ExclusiveLock on advisory lock [5,1,2,2]") {
		t.Errorf("detail: %v", err)
	}
	a.Release(false)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func (m *Manager) waiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, r := range m.res {
		n += len(r.waiters)
	}
	return n
}
