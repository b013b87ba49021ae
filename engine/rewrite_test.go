package engine_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestRewriteDuringTransaction: ALTER TABLE's rewrite of a table a
// transaction has written waits for that transaction, as PostgreSQL's
// ACCESS EXCLUSIVE lock does, where the transaction holds locks in it (row
// locks of a primary-key table, a log table's append lock: txnstore's
// LockAppend): its COMMIT writes, and the rewrite then copies its rows,
// alone or beside another table. The table works on against the new
// table.
func TestRewriteDuringTransaction(t *testing.T) {
	for _, c := range []struct {
		name, create, alter string
		other, waits        bool
	}{
		{"pk table, type", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h ALTER COLUMN v TYPE bigint", false, true},
		{"log table, drop column", "CREATE TABLE h (id int, v int, w int)", "ALTER TABLE h DROP COLUMN w", false, true},
		{"log table beside another, drop column", "CREATE TABLE h (id int, v int, w int)", "ALTER TABLE h DROP COLUMN w", true, true},
		{"two tables, rename", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h RENAME COLUMN v TO vv", true, true},
		{"two tables, drop not null", "CREATE TABLE h (id int PRIMARY KEY, v int NOT NULL)", "ALTER TABLE h ALTER COLUMN v DROP NOT NULL", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, session := newEngine(t, openStore(t))
			a, b := session("a"), session("b")
			mustRun(t, a, c.create)
			mustRun(t, a, "CREATE TABLE h2 (id int PRIMARY KEY)")
			mustRun(t, a, "BEGIN")
			if strings.Contains(c.create, "w int") {
				mustRun(t, a, "INSERT INTO h VALUES (1, 50, 5)")
			} else {
				mustRun(t, a, "INSERT INTO h VALUES (1, 50)")
			}
			if c.other {
				mustRun(t, a, "INSERT INTO h2 VALUES (1)")
			}
			alter := runAsync(t, b, c.alter)
			want := "0"
			if c.waits {
				if !waiting(alter) {
					t.Fatalf("the rewrite did not wait for the transaction that wrote the table")
				}
				mustRun(t, a, "COMMIT")
				if r := answer(t, alter, c.alter); r.err != nil {
					t.Fatalf("%s: %v", c.alter, r.err)
				}
				want = "1"
			} else {
				if r := answer(t, alter, c.alter); r.err != nil {
					t.Fatalf("%s: %v", c.alter, r.err)
				}
				_, _, err := run(t, a, "COMMIT")
				if sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
					t.Fatalf("COMMIT: got %v, want 40001", err)
				}
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != want {
				t.Errorf("rows after COMMIT: %v, want %s", got, want)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h2"); c.other && (len(got) != 1 || got[0] != want) {
				t.Errorf("h2's rows after COMMIT: %v, want %s", got, want)
			}
			// the table works on
			mustRun(t, a, "INSERT INTO h (id) VALUES (2)")
			after := map[string]string{"0": "1", "1": "2"}[want]
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != after {
				t.Errorf("rows after an INSERT: %v, want %s", got, after)
			}
		})
	}
}

// TestRewriteUnderWrites: autocommit INSERTs run while another session
// rewrites the table again and again; every INSERT acknowledged is in the
// table at the end (a write that lands during a copy makes the copy run
// again, or the ALTER fail with 40001; one against the old table after
// the swap fails with 40001 and writes nothing), and readers see every
// acknowledged row throughout.
func TestRewriteUnderWrites(t *testing.T) {
	_, session := newEngine(t, openStore(t))
	w, r, alt := session("w"), session("r"), session("alt")
	mustRun(t, w, "CREATE TABLE u (id int PRIMARY KEY, v varchar(10))")
	var (
		mu    sync.Mutex
		acked []int
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_, _, err := run(t, w, fmt.Sprintf("INSERT INTO u VALUES (%d, 'x')", i))
			if err == nil {
				mu.Lock()
				acked = append(acked, i)
				mu.Unlock()
			} else if sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
				t.Errorf("INSERT %d: %v", i, err)
				return
			}
		}
	}()
	types := []string{"varchar(20)", "text", "varchar(30)"}
	rewrites := 0
	for k := 0; k < 12; k++ {
		// a type change the rows need converting for (text -> varchar
		// checks lengths): a rewrite each time
		_, _, err := run(t, alt, "ALTER TABLE u ALTER COLUMN v TYPE "+types[k%len(types)]+" USING v || ''")
		if err == nil {
			rewrites++
		} else if sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
			t.Fatalf("ALTER: %v", err)
		}
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		got := mustRun(t, r, "SELECT count(*) FROM u")
		var have int
		fmt.Sscan(got[0], &have)
		if have < n {
			t.Fatalf("a reader sees %d rows, %d were acknowledged before", have, n)
		}
	}
	close(stop)
	wg.Wait()
	if rewrites == 0 {
		t.Fatal("no rewrite succeeded")
	}
	got := mustRun(t, r, "SELECT count(*) FROM u")
	if want := fmt.Sprint(len(acked)); got[0] != want {
		t.Fatalf("%s rows at the end, %s acknowledged", got[0], want)
	}
}
