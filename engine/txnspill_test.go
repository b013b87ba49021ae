package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// spillSessions opens two sessions over a store that stages bulk upserts
// past 16 KiB, with transactions staged past 32 KiB and held in memory up
// to 1 MiB at most (spill < 0: never staged).
func spillSessions(t *testing.T, dir string, spill int64) (a, b pgwire.Session) {
	t.Helper()
	store, err := embedded.Open(dir, embedded.Options{StageBytes: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng := engine.New(store, engine.Options{TransactionMemoryLimit: 1 << 20, TransactionSpillBytes: spill})
	open := sessionsOf(t, eng)
	return open(), open()
}

// TestTransactionStagedOnDisk: writes past the transaction's memory limit
// (a COPY, an INSERT ... SELECT, a block of INSERTs, into a primary-key and
// a log table) commit whole once staged, stay invisible to other sessions
// until COMMIT, leave nothing after ROLLBACK or a failed statement, and
// refuse with 0A000 what a staged table cannot serve.
func TestTransactionStagedOnDisk(t *testing.T) {
	dir := t.TempDir()
	a, b := spillSessions(t, dir, 32<<10)
	mustRun(t, a, "CREATE TABLE pk (id INT PRIMARY KEY, pad TEXT)")
	mustRun(t, a, "CREATE TABLE lg (id INT, pad TEXT)")
	mustRun(t, a, "CREATE TABLE other (id INT PRIMARY KEY)")
	count := func(s pgwire.Session, table string) string {
		return mustRun(t, s, "SELECT count(*) || ',' || coalesce(sum(id), 0) FROM "+table)[0]
	}
	const fill = "repeat('x', 40)"

	// Outside a block: a COPY and an INSERT ... SELECT far past 1 MiB.
	if tag, err := copyFrom(t, a, "COPY pk FROM STDIN", &batchesOf{batches: 20, n: 2000, nullAt: -1}); err != nil || tag != "COPY 40000" {
		t.Fatalf("COPY: %s %v", tag, err)
	}
	if got := count(b, "pk"); got != "40000,799980000" {
		t.Fatalf("after COPY: %s", got)
	}
	mustRun(t, a, "INSERT INTO pk SELECT g, "+fill+" FROM generate_series(30000, 69999) g")
	if got := count(b, "pk"); got != "70000,2449965000" {
		t.Fatalf("after INSERT ... SELECT: %s", got)
	}
	// A failed one leaves nothing (the NULL key comes last).
	if _, _, err := run(t, a, "INSERT INTO pk SELECT CASE WHEN g < 109999 THEN g END, "+fill+" FROM generate_series(70000, 109999) g"); sqlerr.CodeOf(err) != sqlerr.NotNullViolation {
		t.Fatalf("INSERT of a NULL key: %v, want 23502", err)
	}
	if got := count(b, "pk"); got != "70000,2449965000" {
		t.Fatalf("after a failed INSERT: %s", got)
	}

	for _, table := range []string{"pk", "lg"} {
		before := count(b, table)
		// ROLLBACK forgets a staged block.
		mustRun(t, a, "BEGIN")
		mustRun(t, a, "INSERT INTO "+table+" SELECT g, "+fill+" FROM generate_series(100000, 129999) g")
		mustRun(t, a, "INSERT INTO "+table+" VALUES (1000000, 'y')")
		mustRun(t, a, "ROLLBACK")
		if got := count(b, table); got != before {
			t.Fatalf("%s after ROLLBACK: %s, want %s", table, got, before)
		}
		// COMMIT makes it visible, whole, and not before.
		mustRun(t, a, "BEGIN")
		mustRun(t, a, "INSERT INTO "+table+" SELECT g, "+fill+" FROM generate_series(100000, 129999) g")
		if tag, err := copyFrom(t, a, "COPY "+table+" FROM STDIN", &batchesOf{batches: 5, n: 2000, nullAt: -1}); err != nil || tag != "COPY 10000" {
			t.Fatalf("COPY in a block: %s %v", tag, err)
		}
		mustRun(t, a, "INSERT INTO "+table+" VALUES (1000000, 'y')")
		if got := count(b, table); got != before {
			t.Fatalf("%s before COMMIT: %s, want %s", table, got, before)
		}
		mustRun(t, a, "COMMIT")
		// The block's rows: 100000..129999, the COPY's 0..9999 (keys the
		// primary-key table has already) and 1000000.
		want := addCounts(t, before, "30001,3450985000")
		if table == "lg" {
			want = addCounts(t, before, "40001,3500980000")
		}
		if got := count(b, table); got != want {
			t.Fatalf("%s after COMMIT: %s, want %s", table, got, want)
		}
		// What a staged table cannot serve: 0A000, and the block rolls back.
		for _, stmt := range []string{
			"SELECT count(*) FROM " + table,
			"SAVEPOINT s",
			"INSERT INTO other VALUES (1)",
		} {
			mustRun(t, a, "BEGIN")
			mustRun(t, a, "INSERT INTO "+table+" SELECT g, "+fill+" FROM generate_series(200000, 229999) g")
			if _, _, err := run(t, a, stmt); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
				t.Fatalf("%s after staging %s: %v, want 0A000", stmt, table, err)
			}
			mustRun(t, a, "COMMIT") // rolls back the failed block
			if got := count(b, table); got != want {
				t.Fatalf("%s after a failed block: %s, want %s", table, got, want)
			}
		}
	}
	if got := count(b, "other"); got != "0,0" {
		t.Fatalf("other: %s", got)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "staging")); len(ents) > 0 {
		t.Fatalf("staging holds %d entries after every transaction ended", len(ents))
	}
}

// addCounts adds two "count,sum" strings.
func addCounts(t *testing.T, x, y string) string {
	t.Helper()
	var c1, s1, c2, s2 int64
	if _, err := fmt.Sscanf(x, "%d,%d", &c1, &s1); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscanf(y, "%d,%d", &c2, &s2); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d,%d", c1+c2, s1+s2)
}

// TestTransactionMemoryLimitWithoutStaging: writes a transaction cannot
// stage (here: staging off) still end at the memory limit with 53200, and
// leave nothing.
func TestTransactionMemoryLimitWithoutStaging(t *testing.T) {
	a, b := spillSessions(t, t.TempDir(), -1)
	mustRun(t, a, "CREATE TABLE pk (id INT PRIMARY KEY, pad TEXT)")
	mustRun(t, a, "BEGIN")
	_, _, err := run(t, a, "INSERT INTO pk SELECT g, repeat('x', 40) FROM generate_series(1, 40000) g")
	if sqlerr.CodeOf(err) != sqlerr.OutOfMemory {
		t.Fatalf("INSERT past the limit: %v, want 53200", err)
	}
	mustRun(t, a, "ROLLBACK")
	if got := mustRun(t, b, "SELECT count(*) FROM pk")[0]; got != "0" {
		t.Fatalf("%s rows", got)
	}
	_ = context.Background()
}
