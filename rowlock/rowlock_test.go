package rowlock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func req(key string, mode Mode) Request {
	return Request{Table: 1, Name: "t", Key: key, Mode: mode, Statement: "UPDATE t " + key}
}

// TestConflictTable checks rowConflict against PostgreSQL's table of
// conflicting row-level locks, by taking the locks for real.
func TestConflictTable(t *testing.T) {
	modes := []Mode{KeyShare, Share, NoKeyUpdate, Update}
	// PostgreSQL 15 docs, Table 13.3: X marks a conflict.
	want := map[[2]Mode]bool{
		{KeyShare, Update}:   true,
		{Share, NoKeyUpdate}: true, {Share, Update}: true,
		{NoKeyUpdate, Share}: true, {NoKeyUpdate, NoKeyUpdate}: true, {NoKeyUpdate, Update}: true,
		{Update, KeyShare}: true, {Update, Share}: true, {Update, NoKeyUpdate}: true, {Update, Update}: true,
	}
	for _, a := range modes {
		for _, b := range modes {
			m := New(Options{})
			t1, t2 := m.NewTxn(1), m.NewTxn(2)
			ctx := context.Background()
			if _, err := t1.Lock(ctx, req("k", a)); err != nil {
				t.Fatal(err)
			}
			r := req("k", b)
			r.Wait = NoWait
			_, err := t2.Lock(ctx, r)
			got := sqlerr.CodeOf(err) == sqlerr.LockNotAvailable
			if got != want[[2]Mode{a, b}] {
				t.Errorf("%v held, %v asked: conflict=%v, want %v (err %v)", a, b, got, want[[2]Mode{a, b}], err)
			}
			t1.Release(false)
			t2.Release(false)
			if m.Held() != 0 || len(m.res) != 0 {
				t.Errorf("%v/%v: %d locks left, %d resources", a, b, m.Held(), len(m.res))
			}
		}
	}
}

func TestWaitThenGrantMarksChanged(t *testing.T) {
	m := New(Options{})
	t1, t2 := m.NewTxn(1), m.NewTxn(2)
	ctx := context.Background()
	since := m.Seq()
	w := req("k", NoKeyUpdate)
	w.Write = true
	if _, err := t1.Lock(ctx, w); err != nil {
		t.Fatal(err)
	}
	done := make(chan Result)
	go func() {
		r := req("k", NoKeyUpdate)
		r.Since = since
		res, err := t2.Lock(ctx, r)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case <-done:
		t.Fatal("granted while held")
	case <-time.After(50 * time.Millisecond):
	}
	t1.Release(true)
	res := <-done
	if res.Outcome != Waited || !res.Changed {
		t.Fatalf("got %+v, want waited and changed", res)
	}
	t2.Release(false)
	// A later reader that started after the commit sees no change.
	t3 := m.NewTxn(3)
	r := req("k", Update)
	r.Since = m.Seq()
	if res, err := t3.Lock(ctx, r); err != nil || res.Changed || res.Outcome != Granted {
		t.Fatalf("fresh lock: %+v %v", res, err)
	}
	t3.Release(false)
}

// TestStampWithoutWait: the writer committed between the reader's start
// and its lock, so nothing waited, yet the row changed.
func TestStampWithoutWait(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	reader, writer := m.NewTxn(1), m.NewTxn(2)
	since := m.Seq()
	w := req("k", Update)
	w.Write = true
	if _, err := writer.Lock(ctx, w); err != nil {
		t.Fatal(err)
	}
	writer.Release(true)
	r := req("k", Update)
	r.Since = since
	res, err := reader.Lock(ctx, r)
	if err != nil || !res.Changed || res.Outcome != Granted {
		t.Fatalf("got %+v %v, want granted and changed", res, err)
	}
	// A lock-only transaction (FOR UPDATE, no write) stamps nothing.
	reader.Release(true)
	if m.Changed(1, "k", m.Seq()) {
		t.Fatal("stamped without a write")
	}
	// A rollback stamps nothing either.
	since = m.Seq()
	if _, err := writer.Lock(ctx, w); err != nil {
		t.Fatal(err)
	}
	writer.Release(false)
	if m.Changed(1, "k", since) {
		t.Fatal("a rolled-back write stamped the row")
	}
}

func TestSkipLockedAndNoWait(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	t1, t2 := m.NewTxn(1), m.NewTxn(2)
	if _, err := t1.Lock(ctx, req("a", Update)); err != nil {
		t.Fatal(err)
	}
	r := req("a", Update)
	r.Wait = SkipLocked
	if res, err := t2.Lock(ctx, r); err != nil || res.Outcome != Skipped {
		t.Fatalf("skip locked: %+v %v", res, err)
	}
	r.Key = "b"
	if res, err := t2.Lock(ctx, r); err != nil || res.Outcome != Granted {
		t.Fatalf("skip locked, free row: %+v %v", res, err)
	}
	r.Key, r.Wait = "a", NoWait
	_, err := t2.Lock(ctx, r)
	if sqlerr.CodeOf(err) != sqlerr.LockNotAvailable || err.Error() != `could not obtain lock on row in relation "t"` {
		t.Fatalf("nowait: %v", err)
	}
	t1.Release(false)
	t2.Release(false)
	if m.Held() != 0 {
		t.Fatalf("%d locks left", m.Held())
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	m := New(Options{})
	t1, t2 := m.NewTxn(1), m.NewTxn(2)
	if _, err := t1.Lock(context.Background(), req("a", Update)); err != nil {
		t.Fatal(err)
	}
	r := req("a", Share)
	r.Timeout = 20 * time.Millisecond
	_, err := t2.Lock(context.Background(), r)
	if sqlerr.CodeOf(err) != sqlerr.LockNotAvailable || !strings.Contains(err.Error(), "lock timeout") {
		t.Fatalf("lock_timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = t2.Lock(ctx, req("a", Share))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
	// The abandoned waits left nothing behind: t1's release frees all.
	t1.Release(false)
	t2.Release(false)
	if m.Held() != 0 || len(m.res) != 0 {
		t.Fatalf("%d locks, %d resources left", m.Held(), len(m.res))
	}
}

// waitUntilWaiting blocks until tx waits for a lock.
func waitUntilWaiting(m *Manager, tx *Txn) {
	for {
		m.mu.Lock()
		w := tx.waiting != nil
		m.mu.Unlock()
		if w {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestDeadlock: as in PostgreSQL, the transaction whose deadlock check
// comes first fails: the one that has waited longest, unless its check ran
// already (it waited longer than deadlock_timeout before the cycle closed),
// and then the one closing the cycle.
func TestDeadlock(t *testing.T) {
	// The margins are wide so that a loaded machine keeps the order: with
	// t1's 500 ms the cycle has closed (t2 is seen waiting) long before
	// t1's check; with its 1 ms, t1's check has run 200 ms before t2
	// waits, and t2's own check (100 ms) then finds the cycle.
	for _, firstTimeout := range []time.Duration{500 * time.Millisecond, time.Millisecond} {
		m := New(Options{})
		ctx := context.Background()
		t1, t2 := m.NewTxn(101), m.NewTxn(102)
		if _, err := t1.Lock(ctx, req("a", Update)); err != nil {
			t.Fatal(err)
		}
		if _, err := t2.Lock(ctx, req("b", Update)); err != nil {
			t.Fatal(err)
		}
		first := make(chan error)
		go func() {
			r := req("b", Update)
			r.DeadlockTimeout = firstTimeout
			_, err := t1.Lock(ctx, r)
			first <- err
		}()
		waitUntilWaiting(m, t1)
		early := firstTimeout < 100*time.Millisecond // t1's check runs before the cycle closes
		if early {
			time.Sleep(200 * time.Millisecond)
		}
		second := make(chan error)
		go func() {
			r := req("a", Update)
			r.DeadlockTimeout = 100 * time.Millisecond
			if !early {
				r.DeadlockTimeout = time.Minute
			}
			_, err := t2.Lock(ctx, r)
			second <- err
		}()
		victim, survivor, winner, loser := first, second, t2, t1
		vpid, opid := 101, 102
		if early {
			victim, survivor, winner, loser = second, first, t1, t2
			vpid, opid = 102, 101
		}
		var err error
		select {
		case err = <-victim:
		case err = <-survivor:
			t.Fatalf("deadlock_timeout %v: process %d's lock ended first (%v), want %d's 40P01", firstTimeout, opid, err, vpid)
		case <-time.After(30 * time.Second):
			t.Fatalf("deadlock_timeout %v: no deadlock reported in 30 s", firstTimeout)
		}
		if sqlerr.CodeOf(err) != sqlerr.DeadlockDetected {
			t.Fatalf("deadlock_timeout %v: got %v, want 40P01", firstTimeout, err)
		}
		se := sqlerr.As(err)
		want := []string{
			fmt.Sprintf("Process %d waits for ShareLock on transaction", vpid),
			fmt.Sprintf("blocked by process %d.", opid),
			fmt.Sprintf("Process %d waits for ShareLock", opid),
			"Process 101: UPDATE t b", "Process 102: UPDATE t a"}
		for _, w := range want {
			if !strings.Contains(se.Detail, w) {
				t.Errorf("detail %q lacks %q", se.Detail, w)
			}
		}
		if !strings.HasPrefix(se.Detail, want[0]) {
			t.Errorf("detail %q does not start with the victim", se.Detail)
		}
		// The victim rolls back; the survivor gets its lock.
		loser.Release(false)
		if err := <-survivor; err != nil {
			t.Fatal(err)
		}
		winner.Release(true)
		if m.Held() != 0 || len(m.res) != 0 {
			t.Fatalf("%d locks, %d resources left", m.Held(), len(m.res))
		}
	}
}

func TestThreeWayDeadlock(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	ts := []*Txn{m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)}
	keys := []string{"a", "b", "c"}
	for i, tx := range ts {
		if _, err := tx.Lock(ctx, req(keys[i], Update)); err != nil {
			t.Fatal(err)
		}
	}
	errs := make([]chan error, 3)
	for i := range ts {
		errs[i] = make(chan error, 1)
		go func(i int) {
			r := req(keys[(i+1)%3], Update)
			r.DeadlockTimeout = 10 * time.Second
			if i == 0 {
				r.DeadlockTimeout = 50 * time.Millisecond
			}
			_, err := ts[i].Lock(ctx, r)
			errs[i] <- err
		}(i)
		waitUntilWaiting(m, ts[i])
		if i < 2 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	// ts[0]'s check comes first: it is the victim.
	err := <-errs[0]
	if sqlerr.CodeOf(err) != sqlerr.DeadlockDetected || strings.Count(sqlerr.As(err).Detail, "waits for") != 3 {
		t.Fatalf("got %v", err)
	}
	ts[0].Release(false)
	if err := <-errs[2]; err != nil {
		t.Fatal(err)
	}
	ts[2].Release(true)
	if err := <-errs[1]; err != nil {
		t.Fatal(err)
	}
	ts[1].Release(true)
	if m.Held() != 0 {
		t.Fatalf("%d locks left", m.Held())
	}
}

// TestCounter: many transactions incrementing one row under the lock, as
// an UPDATE does, lose nothing.
func TestCounter(t *testing.T) {
	m := New(Options{})
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for c := 0; c < 8; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			tx := m.NewTxn(int32(c))
			for i := 0; i < 200; i++ {
				r := req("ctr", NoKeyUpdate)
				r.Write = true
				if _, err := tx.Lock(context.Background(), r); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				v := n
				mu.Unlock()
				mu.Lock()
				n = v + 1
				mu.Unlock()
				tx.Release(true)
			}
		}(c)
	}
	wg.Wait()
	if n != 1600 {
		t.Fatalf("counter %d, want 1600", n)
	}
}

func TestEscalationAndLimit(t *testing.T) {
	m := New(Options{EscalateAt: 10, MaxLocks: 25})
	ctx := context.Background()
	t1, t2 := m.NewTxn(1), m.NewTxn(2)
	since := m.Seq()
	for i := 0; i < 30; i++ {
		r := req(string(rune('a'+i)), Update)
		r.Write = true
		if _, err := t1.Lock(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if m.Held() != 0 {
		t.Fatalf("escalated transaction still holds %d row locks", m.Held())
	}
	// Another transaction waits for the whole table.
	r := req("zz", KeyShare)
	r.Wait = NoWait
	if _, err := t2.Lock(ctx, r); sqlerr.CodeOf(err) != sqlerr.LockNotAvailable {
		t.Fatalf("row of a table locked whole: %v", err)
	}
	t1.Release(true)
	if !m.Changed(1, "anything", since) {
		t.Fatal("a table written whole is not stamped")
	}
	// With another holder in the table there is no escalation, and the
	// server-wide limit applies.
	if _, err := t2.Lock(ctx, req("held", KeyShare)); err != nil {
		t.Fatal(err)
	}
	var err error
	for i := 0; i < 30 && err == nil; i++ {
		_, err = t1.Lock(ctx, req(string(rune('A'+i)), Update))
	}
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("past the limit: %v", err)
	}
	t1.Release(false)
	t2.Release(false)
	if m.Held() != 0 || len(m.res) != 0 {
		t.Fatalf("%d locks, %d resources left", m.Held(), len(m.res))
	}
	// LockTable refuses while someone else holds a row of the table.
	if _, err := t2.Lock(ctx, req("x", KeyShare)); err != nil {
		t.Fatal(err)
	}
	if t1.LockTable(1, "t", "COPY", true) {
		t.Fatal("table locked over another transaction's row lock")
	}
	t2.Release(false)
	if !t1.LockTable(1, "t", "COPY", true) {
		t.Fatal("free table not locked")
	}
	t1.Release(false)
}

func TestLocksListing(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	t1, t2 := m.NewTxn(7), m.NewTxn(8)
	if _, err := t1.Lock(ctx, req("a", Update)); err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = t2.Lock(ctx, req("a", Share))
	}()
	for {
		m.mu.Lock()
		w := t2.waiting != nil
		m.mu.Unlock()
		if w {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var got []string
	for _, l := range m.Locks() {
		got = append(got, l.Kind+" "+l.Mode+" "+map[bool]string{true: "granted", false: "waiting"}[l.Granted])
	}
	// (row locks of SELECT ... FOR UPDATE / FOR SHARE: their tables' ROW SHARE)
	want := "relation RowShareLock granted|transactionid ExclusiveLock granted|tuple AccessExclusiveLock granted|" +
		"relation RowShareLock granted|transactionid ExclusiveLock granted|tuple RowShareLock waiting"
	if strings.Join(got, "|") != want {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	t1.Release(false)
	for m.Held() != 1 {
		time.Sleep(time.Millisecond)
	}
	t2.Release(false)
}

// BenchmarkLockRelease is the lock manager's cost in an uncontended
// write transaction: one row lock (with its table's intent lock), its
// stamp and release at commit, and the statement's Seq.
func BenchmarkLockRelease(b *testing.B) {
	m := New(Options{})
	ctx := context.Background()
	tx := m.NewTxn(1)
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = fmt.Sprintf("key%08d", i)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		since := m.Seq()
		if _, err := tx.Lock(ctx, Request{Table: 1, Name: "t", Key: keys[i&(len(keys)-1)], Mode: NoKeyUpdate, Write: true, Since: since}); err != nil {
			b.Fatal(err)
		}
		tx.Release(true)
	}
}

// BenchmarkLockReleaseParallel is the same from every core at once, on
// different rows: what the manager's one mutex costs under concurrency.
func BenchmarkLockReleaseParallel(b *testing.B) {
	m := New(Options{})
	ctx := context.Background()
	var next atomic.Int32
	b.RunParallel(func(pb *testing.PB) {
		id := next.Add(1)
		tx := m.NewTxn(id)
		i := 0
		for pb.Next() {
			i++
			key := fmt.Sprintf("k%d-%d", id, i&1023)
			if _, err := tx.Lock(ctx, Request{Table: 1, Name: "t", Key: key, Mode: NoKeyUpdate, Write: true, Since: m.Seq()}); err != nil {
				b.Fatal(err)
			}
			tx.Release(true)
		}
	})
}

// TestLockIntent: the intent lock alone (a log table's append) is shared
// with other appenders and row lockers, conflicts with the table locked
// whole both ways, and is released with the transaction.
func TestLockIntent(t *testing.T) {
	ctx := context.Background()
	noWait := func(r Request) Request { r.Wait = NoWait; return r }
	for _, c := range []struct {
		name  string
		first func(*Txn) error
		then  func(*Txn) error
		fails bool
	}{
		{"two appenders", func(t1 *Txn) error { return t1.LockIntent(ctx, req("", 0)) },
			func(t2 *Txn) error { return t2.LockIntent(ctx, noWait(req("", 0))) }, false},
		{"appender, then a row lock", func(t1 *Txn) error { return t1.LockIntent(ctx, req("", 0)) },
			func(t2 *Txn) error { _, err := t2.Lock(ctx, noWait(req("k", Update))); return err }, false},
		{"appender, then the table whole", func(t1 *Txn) error { return t1.LockIntent(ctx, req("", 0)) },
			func(t2 *Txn) error { return t2.LockWhole(ctx, noWait(req("", 0))) }, true},
		{"the table whole, then an appender", func(t1 *Txn) error { return t1.LockWhole(ctx, req("", 0)) },
			func(t2 *Txn) error { return t2.LockIntent(ctx, noWait(req("", 0))) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{})
			t1, t2 := m.NewTxn(1), m.NewTxn(2)
			if err := c.first(t1); err != nil {
				t.Fatal(err)
			}
			err := c.then(t2)
			if got := sqlerr.CodeOf(err) == sqlerr.LockNotAvailable; got != c.fails {
				t.Fatalf("second lock: %v, want a conflict %v", err, c.fails)
			}
			t1.Release(true)
			t2.Release(false)
			if m.Held() != 0 || len(m.res) != 0 {
				t.Fatalf("%d locks, %d resources left", m.Held(), len(m.res))
			}
		})
	}
}

// TestAwaitWriters: AwaitWriters waits for a transaction that wrote the
// row, not for one that only locked it, takes no lock, and reports
// whether the writer committed; a Lock that waited for a locker that then
// wrote the row reports Overwritten too.
func TestAwaitWriters(t *testing.T) {
	cases := []struct {
		name            string
		holderWrites    bool // the holder's lock marks the row written
		holderMode      Mode
		commit          bool
		wantWait        bool
		wantOverwritten bool
	}{
		{"locker", false, Update, true, false, false},
		{"key share", false, KeyShare, true, false, false},
		{"writer commits", true, NoKeyUpdate, true, true, true},
		{"writer rolls back", true, Update, false, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{})
			holder, asker := m.NewTxn(1), m.NewTxn(2)
			ctx := context.Background()
			h := req("k", c.holderMode)
			h.Write = c.holderWrites
			if _, err := holder.Lock(ctx, h); err != nil {
				t.Fatal(err)
			}
			done := inBackground(t, func() (Result, error) { return asker.AwaitWriters(ctx, req("k", Update)) })
			if c.wantWait {
				waitUntilWaiting(m, asker)
				if pids := blockingTxn(m); pids != 1 {
					t.Errorf("pg_locks shows the wait on transaction of pid %d, want 1", pids)
				}
			}
			var res Result
			if !c.wantWait {
				res = <-done
			}
			holder.Release(c.commit)
			if c.wantWait {
				res = <-done
			}
			if got := res.Outcome == Waited; got != c.wantWait {
				t.Errorf("waited %v, want %v", got, c.wantWait)
			}
			if res.Overwritten != c.wantOverwritten {
				t.Errorf("overwritten %v, want %v", res.Overwritten, c.wantOverwritten)
			}
			// no row lock was taken: another transaction locks it at once
			other := m.NewTxn(3)
			r := req("k", Update)
			r.Wait = NoWait
			if _, err := other.Lock(ctx, r); err != nil {
				t.Errorf("AwaitWriters left a lock: %v", err)
			}
			for _, tx := range []*Txn{asker, other} {
				tx.Release(false)
			}
		})
	}
	// a locker that writes the row before it commits: the waiter's lock
	// reports Overwritten
	m := New(Options{})
	holder, asker := m.NewTxn(1), m.NewTxn(2)
	ctx := context.Background()
	if _, err := holder.Lock(ctx, req("k", Update)); err != nil {
		t.Fatal(err)
	}
	done := inBackground(t, func() (Result, error) { return asker.Lock(ctx, req("k", NoKeyUpdate)) })
	waitUntilWaiting(m, asker)
	w := req("k", Update)
	w.Write = true
	if _, err := holder.Lock(ctx, w); err != nil {
		t.Fatal(err)
	}
	holder.Release(true)
	if res := <-done; !res.Overwritten {
		t.Errorf("a lock that waited for a committed writer: overwritten %v, want true", res.Overwritten)
	}
	asker.Release(false)
}

// blockingTxn is the pid whose transaction id the one "transactionid"
// wait of m's pg_locks waits for (0: none).
func blockingTxn(m *Manager) int32 {
	locks := m.Locks()
	for _, w := range locks {
		if w.Kind != "transactionid" || w.Granted {
			continue
		}
		for _, h := range locks {
			if h.Kind == "transactionid" && h.Granted && h.XID == w.XID {
				return h.PID
			}
		}
	}
	return 0
}

// TestUnwait: Unwait gives back a lock obtained by waiting, and keeps one
// granted at once.
func TestUnwait(t *testing.T) {
	for _, waits := range []bool{true, false} {
		m := New(Options{})
		holder, asker, other := m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)
		ctx := context.Background()
		w := req("k", Update)
		w.Write = true
		if waits {
			if _, err := holder.Lock(ctx, w); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := asker.Lock(ctx, w)
			done <- err
		}()
		if waits {
			waitUntilWaiting(m, asker)
			holder.Release(true)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		asker.Unwait(1, "k")
		r := req("k", KeyShare)
		r.Wait = NoWait
		_, err := other.Lock(ctx, r)
		if got := err == nil; got != waits {
			t.Errorf("waited %v: another's lock granted %v (err %v)", waits, got, err)
		}
		for _, tx := range []*Txn{asker, other} {
			tx.Release(false)
		}
		if m.Held() != 0 {
			t.Errorf("waited %v: %d locks left", waits, m.Held())
		}
	}
}

// TestStopOnWrite: a waiter that stops on a write leaves the queue, not
// locked, when the writer commits; one that does not is granted the lock.
func TestStopOnWrite(t *testing.T) {
	for _, commit := range []bool{true, false} {
		m := New(Options{})
		holder, follower, stopper := m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)
		ctx := context.Background()
		writeLocked(t, holder, NoKeyUpdate)
		var results [2]<-chan Result
		for i, c := range []struct {
			tx   *Txn
			stop bool
		}{{follower, false}, {stopper, true}} {
			r := req("k", NoKeyUpdate)
			r.StopOnWrite = c.stop
			results[i] = inBackground(t, func() (Result, error) { return c.tx.Lock(ctx, r) })
			waitUntilWaiting(m, c.tx)
		}
		holder.Release(commit)
		first := <-results[0]
		if !commit {
			// the follower holds the lock: the stopper waits for it
			follower.Release(false)
		}
		second := <-results[1]
		outcomes := map[Outcome]int{first.Outcome: 1}
		outcomes[second.Outcome]++
		want := map[Outcome]int{Waited: 2}
		if commit {
			want = map[Outcome]int{Waited: 1, Stopped: 1}
		}
		if fmt.Sprint(outcomes) != fmt.Sprint(want) {
			t.Errorf("commit %v: outcomes %v, want %v", commit, outcomes, want)
		}
		follower.Release(false)
		stopper.Release(false)
		if m.Held() != 0 {
			t.Errorf("commit %v: %d locks left", commit, m.Held())
		}
	}
}

// TestAwaitWritersAfterGrant: a write's lock waiter and an AwaitWriters
// waiter woken by one commit: the lock is granted first and, taken to
// write, is waited for (PostgreSQL's waiting writer updates the row before
// the ON CONFLICT check looks again); a lock only is not.
func TestAwaitWritersAfterGrant(t *testing.T) {
	for _, write := range []bool{true, false} {
		m := New(Options{})
		holder, asker, locker := m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)
		ctx := context.Background()
		writeLocked(t, holder, Update)
		asked := inBackground(t, func() (Result, error) { return asker.AwaitWriters(ctx, req("k", NoKeyUpdate)) })
		waitUntilWaiting(m, asker)
		l := req("k", NoKeyUpdate)
		l.Write = write
		locked := inBackground(t, func() (Result, error) { return locker.Lock(ctx, l) })
		waitUntilWaiting(m, locker)
		holder.Release(true)
		<-locked
		var res Result
		if !write {
			res = <-asked
		} else if pid := blockingTxn(m); pid != 3 {
			t.Errorf("the ON CONFLICT check waits for pid %d, want 3 (the new writer)", pid)
		}
		locker.Release(true)
		if write {
			res = <-asked
		}
		if res.Outcome != Waited {
			t.Errorf("write %v: outcome %v, want Waited", write, res.Outcome)
		}
		asker.Release(false)
		if m.Held() != 0 {
			t.Errorf("write %v: %d locks left", write, m.Held())
		}
	}
}

// TestUnwrite: a write's row lock that Unwrite made a lock only is not
// waited for by AwaitWriters, and its commit stamps nothing; the lock is
// still held.
func TestUnwrite(t *testing.T) {
	for _, unwrite := range []bool{false, true} {
		m := New(Options{})
		holder, asker, other := m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)
		ctx := context.Background()
		writeLocked(t, holder, NoKeyUpdate)
		before := m.Seq()
		asked := inBackground(t, func() (Result, error) { return asker.AwaitWriters(ctx, req("k", NoKeyUpdate)) })
		waitUntilWaiting(m, asker)
		if unwrite {
			holder.Unwrite(1, "k")
			<-asked // let go without the holder's end
			r := req("k", Update)
			r.Wait = NoWait
			if _, err := other.Lock(ctx, r); err == nil {
				t.Errorf("Unwrite gave the lock back")
			}
		}
		holder.Release(true)
		if !unwrite {
			<-asked
		}
		if got := m.Changed(1, "k", before); got != !unwrite {
			t.Errorf("unwrite %v: the commit stamped the row %v", unwrite, got)
		}
		for _, tx := range []*Txn{asker, other} {
			tx.Release(false)
		}
		if m.Held() != 0 {
			t.Errorf("unwrite %v: %d locks left", unwrite, m.Held())
		}
	}
}

// writeLocked has tx lock row "k" of table 1 in mode to write it.
func writeLocked(t *testing.T, tx *Txn, mode Mode) {
	t.Helper()
	w := req("k", mode)
	w.Write = true
	if _, err := tx.Lock(context.Background(), w); err != nil {
		t.Fatal(err)
	}
}

// inBackground runs lock in a goroutine: its result comes on the channel.
func inBackground(t *testing.T, lock func() (Result, error)) <-chan Result {
	done := make(chan Result, 1)
	go func() {
		res, err := lock()
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	return done
}

// TestKeyShareAfterNoKeyWrite: a FOR KEY SHARE request with NOWAIT or SKIP
// LOCKED waits for a holder that wrote the row under FOR NO KEY UPDATE and
// then raised its lock to change the key (PostgreSQL locks the unchanged
// key's version, then waits for the newer version's key change whatever
// its wait policy); it skips (or fails) at once when the holder changed the
// key first, only locked the row before, or the request is not FOR KEY
// SHARE.
func TestKeyShareAfterNoKeyWrite(t *testing.T) {
	type step struct {
		mode  Mode
		write bool
	}
	cases := []struct {
		name  string
		steps []step
		mode  Mode
		wait  Wait
		waits bool
	}{
		{"no key write, then key: skip locked", []step{{NoKeyUpdate, true}, {Update, true}}, KeyShare, SkipLocked, true},
		{"no key write, then key: nowait", []step{{NoKeyUpdate, true}, {Update, true}}, KeyShare, NoWait, true},
		{"key written first", []step{{Update, true}}, KeyShare, SkipLocked, false},
		{"no key lock only, then key", []step{{NoKeyUpdate, false}, {Update, true}}, KeyShare, SkipLocked, false},
		{"for share", []step{{NoKeyUpdate, true}, {Update, true}}, Share, SkipLocked, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := New(Options{})
			ctx := context.Background()
			holder, asker := m.NewTxn(1), m.NewTxn(2)
			for _, s := range c.steps {
				r := req("k", s.mode)
				r.Write = s.write
				if _, err := holder.Lock(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			r := req("k", c.mode)
			r.Wait = c.wait
			if !c.waits {
				res, err := asker.Lock(ctx, r)
				if c.wait == SkipLocked && (err != nil || res.Outcome != Skipped) {
					t.Fatalf("got %+v %v, want skipped", res, err)
				}
				holder.Release(false)
				asker.Release(false)
				return
			}
			done := inBackground(t, func() (Result, error) { return asker.Lock(ctx, r) })
			for waiting := false; !waiting; {
				select {
				case res := <-done:
					t.Fatalf("answered %+v, want a wait", res)
				default:
				}
				m.mu.Lock()
				waiting = asker.waiting != nil
				m.mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			holder.Release(true)
			if res := <-done; res.Outcome != Waited {
				t.Fatalf("got %+v, want a wait", res)
			}
			asker.Release(false)
		})
	}
}
