package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// stmtResult is what a statement run on another goroutine answered.
type stmtResult struct {
	lines []string
	err   error
}

// runAsync runs sql on s on a goroutine of its own; its answer arrives on
// the channel.
func runAsync(t *testing.T, s pgwire.Session, sql string) <-chan stmtResult {
	ch := make(chan stmtResult, 1)
	go func() {
		lines, _, err := run(t, s, sql)
		ch <- stmtResult{lines, err}
	}()
	return ch
}

// waiting reports whether ch has no answer yet after a while: the
// statement waits for a lock.
func waiting(ch <-chan stmtResult) bool {
	select {
	case <-ch:
		return false
	case <-time.After(200 * time.Millisecond):
		return true
	}
}

func answer(t *testing.T, ch <-chan stmtResult, what string) stmtResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still waiting", what)
	}
	return stmtResult{}
}

// TestTruncateInTransactionTwoSessions: TRUNCATE inside a block is the
// block's own until COMMIT (other sessions read the committed rows), takes
// the table whole as PostgreSQL's ACCESS EXCLUSIVE does (a writer waits
// for the block's end; the TRUNCATE waits for a transaction holding rows
// of the table), and ROLLBACK forgets it.
func TestTruncateInTransactionTwoSessions(t *testing.T) {
	for _, table := range []struct{ name, ddl string }{
		{"primary key", "CREATE TABLE t (id INT PRIMARY KEY, v TEXT)"},
		{"log", "CREATE TABLE t (id INT, v TEXT)"},
	} {
		t.Run(table.name, func(t *testing.T) {
			open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
			a, b, c := open(), open(), open()
			mustRun(t, a, table.ddl)
			mustRun(t, a, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
			count := func(s pgwire.Session) string { return mustRun(t, s, "SELECT count(*) FROM t")[0] }

			// ROLLBACK: nothing happened, for either session; a reader
			// waits for the block (ACCESS EXCLUSIVE), then reads the rows.
			mustRun(t, a, "BEGIN; TRUNCATE t")
			if got := count(a); got != "0" {
				t.Errorf("the block reads %s rows after its TRUNCATE", got)
			}
			read := runAsync(t, b, "SELECT count(*) FROM t")
			if !waiting(read) {
				t.Fatalf("a reader did not wait for the TRUNCATE's block")
			}
			mustRun(t, a, "ROLLBACK")
			if r := answer(t, read, "SELECT after ROLLBACK"); r.err != nil || strings.Join(r.lines, ",") != "3" {
				t.Errorf("after ROLLBACK: %v rows, %v", r.lines, r.err)
			}

			// COMMIT: a reader waits for it.
			mustRun(t, a, "BEGIN; TRUNCATE t; INSERT INTO t VALUES (10, 'ten')")
			read = runAsync(t, b, "SELECT count(*) FROM t")
			if !waiting(read) {
				t.Fatalf("a reader did not wait for the TRUNCATE's block")
			}
			if table.name == "primary key" {
				// A writer of the table waits for the block (ACCESS
				// EXCLUSIVE), then writes into the emptied table (a
				// session of its own: b is still waiting on its read).
				ins := runAsync(t, c, "INSERT INTO t VALUES (20, 'twenty')")
				if !waiting(ins) {
					t.Fatalf("an INSERT did not wait for the TRUNCATE's block")
				}
				mustRun(t, a, "COMMIT")
				if r := answer(t, ins, "INSERT after COMMIT"); r.err != nil {
					t.Fatalf("INSERT after the block: %v", r.err)
				}
			} else {
				mustRun(t, a, "COMMIT")
			}
			// the reader and the writer are let in together at COMMIT: the
			// read sees the block's row, and the writer's when it went first
			if r := answer(t, read, "SELECT after COMMIT"); r.err != nil || strings.Join(r.lines, ",") != "1" && (table.name != "primary key" || strings.Join(r.lines, ",") != "2") {
				t.Errorf("a reader that waited for COMMIT: %v rows, %v; want 1 (or 2 after the waiting INSERT)", r.lines, r.err)
			}
			if table.name != "primary key" {
				mustRun(t, b, "INSERT INTO t VALUES (20, 'twenty')")
			}
			if got := mustRun(t, b, "SELECT id FROM t ORDER BY id"); strings.Join(got, ",") != "10,20" {
				t.Errorf("after COMMIT: %v, want 10,20", got)
			}
			if table.name != "primary key" {
				return
			}

			// The TRUNCATE waits for a block holding rows of the table.
			mustRun(t, b, "BEGIN; INSERT INTO t VALUES (30, 'thirty')")
			tr := runAsync(t, a, "BEGIN; TRUNCATE t")
			if !waiting(tr) {
				t.Fatalf("TRUNCATE did not wait for the block writing the table")
			}
			mustRun(t, b, "COMMIT")
			if r := answer(t, tr, "TRUNCATE after COMMIT"); r.err != nil {
				t.Fatalf("TRUNCATE after the other block: %v", r.err)
			}
			if got := count(a); got != "0" {
				t.Errorf("the block reads %s rows after its TRUNCATE", got)
			}
			mustRun(t, a, "ROLLBACK")
			if got := count(b); got != "3" {
				t.Errorf("after ROLLBACK: %s rows, want 3 (10, 20, 30)", got)
			}

			// lock_timeout bounds the wait, as PostgreSQL's (55P03).
			mustRun(t, b, "BEGIN; INSERT INTO t VALUES (40, 'forty')")
			mustRun(t, a, "SET lock_timeout = '100ms'")
			if _, _, err := run(t, a, "BEGIN; TRUNCATE t"); sqlerr.CodeOf(err) != sqlerr.LockNotAvailable {
				t.Errorf("TRUNCATE past lock_timeout: %v", err)
			}
			mustRun(t, a, "ROLLBACK")
			mustRun(t, b, "ROLLBACK")
		})
	}
}

// TestTruncateInTransactionWithoutLocks: a store other servers write (a
// Fluss cluster) has no lock those writers honour, so TRUNCATE still
// refuses a block there, saying why; outside a block it runs.
func TestTruncateInTransactionWithoutLocks(t *testing.T) {
	_, session := newEngine(t, sharedStore{openStore(t)})
	s := session("a")
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY)")
	mustRun(t, s, "INSERT INTO t VALUES (1)")
	_, _, err := run(t, s, "BEGIN; TRUNCATE t")
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.ActiveSQLTransaction || !strings.Contains(se.Detail, "lock") {
		t.Errorf("TRUNCATE in a block without locks: %v", err)
	}
	mustRun(t, s, "ROLLBACK")
	mustRun(t, s, "TRUNCATE t")
	if got := mustRun(t, s, "SELECT count(*) FROM t"); got[0] != "0" {
		t.Errorf("TRUNCATE outside a block left %s rows", got[0])
	}
}

// TestDDLAfterTruncateInBlock: DDL on a table the block truncated is
// refused (0A000) until COMMIT, naming the TRUNCATE, as DDL on a table the
// block wrote rows to is (txddl.go).
func TestDDLAfterTruncateInBlock(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	s := open()
	mustRun(t, s, "CREATE TABLE t (id INT PRIMARY KEY)")
	mustRun(t, s, "BEGIN; TRUNCATE t")
	_, _, err := run(t, s, "ALTER TABLE t ADD COLUMN z INT")
	if se := sqlerr.As(err); se == nil || se.Code != sqlerr.FeatureNotSupported || !strings.Contains(se.Message, "truncated table \"t\"") {
		t.Errorf("ALTER TABLE after TRUNCATE in a block: %v", err)
	}
	mustRun(t, s, "ROLLBACK")
	mustRun(t, s, "ALTER TABLE t ADD COLUMN z INT")
}
