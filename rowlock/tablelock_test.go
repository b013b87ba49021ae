package rowlock

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func tableReq(mode TableMode) Request {
	return Request{Table: 1, Name: "t", TableMode: mode, Statement: "LOCK t IN " + mode.String()}
}

// TestTableConflictTable checks the table modes against PostgreSQL 15's
// table of conflicting lock modes (Table 13.2), by taking them for real:
// one transaction holds a mode, another asks for a mode without waiting.
func TestTableConflictTable(t *testing.T) {
	// rows: requested mode; columns: held mode, AccessShare first; X marks
	// a conflict.
	table := []string{
		".......X", // ACCESS SHARE
		"......XX", // ROW SHARE
		"....XXXX", // ROW EXCLUSIVE
		"...XXXXX", // SHARE UPDATE EXCLUSIVE
		"..XX.XXX", // SHARE
		"..XXXXXX", // SHARE ROW EXCLUSIVE
		".XXXXXXX", // EXCLUSIVE
		"XXXXXXXX", // ACCESS EXCLUSIVE
	}
	ctx := context.Background()
	m := New(Options{})
	for i, row := range table {
		want := TableMode(i + 1)
		for j := range row {
			held := TableMode(j + 1)
			t1, t2 := m.NewTxn(1), m.NewTxn(2)
			if err := t1.LockRelation(ctx, tableReq(held)); err != nil {
				t.Fatal(err)
			}
			r := tableReq(want)
			r.Wait = NoWait
			err := t2.LockRelation(ctx, r)
			if conflict := err != nil; conflict != (row[j] == 'X') || conflict != TableModesConflict(want, held) {
				t.Errorf("%v requested while %v is held: error %v, want conflict %v", want, held, err, row[j] == 'X')
			}
			if err != nil && sqlerr.CodeOf(err) != sqlerr.LockNotAvailable {
				t.Errorf("%v after %v: %v, want 55P03", want, held, err)
			}
			t1.Release(false)
			t2.Release(false)
		}
	}
	if m.res == nil || len(m.res) != 0 || len(m.owners) != 0 {
		t.Fatalf("locks left: %d resources, %d owners", len(m.res), len(m.owners))
	}
}

// lockAsync runs LockRelation in a goroutine and returns its outcome's
// channel once the request waits (or has ended).
func lockAsync(t *testing.T, tx *Txn, r Request) chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- tx.LockRelation(context.Background(), r) }()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		tx.m.mu.Lock()
		w := tx.waiting != nil
		tx.m.mu.Unlock()
		if w || len(done) > 0 {
			return done
		}
	}
	t.Fatal("request neither waits nor ends")
	return nil
}

func blocked(done chan error) bool {
	select {
	case <-done:
		return false
	case <-time.After(50 * time.Millisecond):
		return true
	}
}

// TestTableLockQueue: a reader's lock holds off DDL's ACCESS EXCLUSIVE, and
// a reader that comes after the waiting DDL waits behind it (as in
// PostgreSQL), while a transaction already holding a lock of the table
// goes ahead of the DDL.
func TestTableLockQueue(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	reader, ddl, late := m.NewTxn(1), m.NewTxn(2), m.NewTxn(3)
	if err := reader.LockRelation(ctx, tableReq(AccessShareLock)); err != nil {
		t.Fatal(err)
	}
	ddlDone := lockAsync(t, ddl, tableReq(AccessExclusiveLock))
	lateDone := lockAsync(t, late, tableReq(AccessShareLock))
	if !blocked(ddlDone) || !blocked(lateDone) {
		t.Fatal("the DDL or the reader behind it did not wait")
	}
	// the first reader, a holder, writes the table: it passes the DDL
	if err := reader.LockRelation(ctx, tableReq(RowExclusiveLock)); err != nil {
		t.Fatal(err)
	}
	var modes []string
	for _, l := range m.Locks() {
		modes = append(modes, l.Kind+" "+l.Mode+map[bool]string{true: "", false: " waiting"}[l.Granted])
	}
	want := "relation AccessShareLock|relation RowExclusiveLock|transactionid ExclusiveLock|" +
		"relation AccessExclusiveLock waiting|transactionid ExclusiveLock|relation AccessShareLock waiting"
	if got := strings.Join(modes, "|"); got != want {
		t.Fatalf("pg_locks:\n%s\nwant\n%s", got, want)
	}
	reader.Release(true)
	if err := <-ddlDone; err != nil {
		t.Fatal(err)
	}
	if !blocked(lateDone) {
		t.Fatal("the late reader did not wait for the DDL holding the table")
	}
	ddl.Release(true)
	if err := <-lateDone; err != nil {
		t.Fatal(err)
	}
	late.Release(false)
}

// TestAwaitRelation: a statement bound outside a transaction waits for the
// DDL holding its table but keeps no lock.
func TestAwaitRelation(t *testing.T) {
	m := New(Options{})
	ctx := context.Background()
	ddl, reader := m.NewTxn(1), m.NewTxn(2)
	if err := reader.AwaitRelation(ctx, tableReq(AccessShareLock)); err != nil {
		t.Fatal(err)
	}
	if err := ddl.LockWhole(ctx, tableReq(AccessExclusiveLock)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- reader.AwaitRelation(ctx, tableReq(AccessShareLock)) }()
	if !blocked(done) {
		t.Fatal("did not wait for the DDL")
	}
	ddl.Release(true)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(m.Locks()); n != 0 || reader.ID() != 0 {
		t.Fatalf("%d locks listed, reader's id %d: want none", n, reader.ID())
	}
	// one already held stays
	if err := reader.LockRelation(ctx, tableReq(AccessShareLock)); err != nil {
		t.Fatal(err)
	}
	if err := reader.AwaitRelation(ctx, tableReq(RowExclusiveLock)); err != nil {
		t.Fatal(err)
	}
	if ls := m.Locks(); len(ls) != 1 || ls[0].Mode != "AccessShareLock" {
		t.Fatalf("locks %+v, want the AccessShareLock alone", ls)
	}
	reader.Release(false)
}

func TestParseTableMode(t *testing.T) {
	for _, c := range []struct {
		in   string
		want TableMode
	}{
		{"ACCESS SHARE", AccessShareLock}, {"row  exclusive", RowExclusiveLock}, {"SHARE", ShareLock},
		{"share update exclusive", ShareUpdateExclusiveLock}, {"AccessExclusiveLock", AccessExclusiveLock},
		{"exclusive", ExclusiveLock}, {"SHARE ROW EXCLUSIVE", ShareRowExclusiveLock}, {"row share", RowShareLock},
	} {
		if got, ok := ParseTableMode(c.in); !ok || got != c.want {
			t.Errorf("ParseTableMode(%q) = %v, %v; want %v", c.in, got, ok, c.want)
		}
	}
	if _, ok := ParseTableMode("shared"); ok {
		t.Error("shared accepted")
	}
}
