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
// ACCESS EXCLUSIVE lock waits for a writer's ROW EXCLUSIVE: the
// transaction holds row locks in a primary-key table, and the table's
// intent lock in a log table (whose writes lock no row; before, the
// rewrite did not wait and the transaction failed at COMMIT with 40001),
// alone or beside another table. Its COMMIT writes, the rewrite then
// copies its rows, and the table works on against the new table.
func TestRewriteDuringTransaction(t *testing.T) {
	for _, c := range []struct {
		name, create, alter string
		other               bool
	}{
		{"pk table, type", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h ALTER COLUMN v TYPE bigint", false},
		{"log table, drop column", "CREATE TABLE h (id int, v int, w int)", "ALTER TABLE h DROP COLUMN w", false},
		{"log table beside another, drop column", "CREATE TABLE h (id int, v int, w int)", "ALTER TABLE h DROP COLUMN w", true},
		{"two tables, rename", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h RENAME COLUMN v TO vv", true},
		{"two tables, drop not null", "CREATE TABLE h (id int PRIMARY KEY, v int NOT NULL)", "ALTER TABLE h ALTER COLUMN v DROP NOT NULL", true},
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
			if !waiting(alter) {
				t.Fatalf("the rewrite did not wait for the transaction that wrote the table")
			}
			mustRun(t, a, "COMMIT")
			if r := answer(t, alter, c.alter); r.err != nil {
				t.Fatalf("%s: %v", c.alter, r.err)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != "1" {
				t.Errorf("rows after COMMIT: %v, want 1", got)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h2"); c.other && (len(got) != 1 || got[0] != "1") {
				t.Errorf("h2's rows after COMMIT: %v, want 1", got)
			}
			// the table works on
			mustRun(t, a, "INSERT INTO h (id) VALUES (2)")
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != "2" {
				t.Errorf("rows after an INSERT: %v, want 2", got)
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
