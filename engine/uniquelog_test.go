package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
)

// TestLogTableUniqueWaitsForWriter: two transactions appending the same
// value to a table without a primary key take turns on the value's index
// entry: the second waits for the first and then fails with 23505 if it
// committed, or writes if it rolled back.
func TestLogTableUniqueWaitsForWriter(t *testing.T) {
	for _, end := range []string{"COMMIT", "ROLLBACK"} {
		t.Run(end, func(t *testing.T) {
			open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
			a, b := open(), open()
			mustRun(t, a, "CREATE TABLE l (id INT, u INT UNIQUE)")
			mustRun(t, a, "BEGIN; INSERT INTO l VALUES (1, 7)")
			second := runAsync(t, b, "INSERT INTO l VALUES (2, 7)")
			if !waiting(second) {
				t.Fatalf("the second writer of the value did not wait for the first")
			}
			mustRun(t, a, end)
			r := answer(t, second, "the second writer after "+end)
			switch {
			case end == "COMMIT" && (r.err == nil || !strings.Contains(r.err.Error(), `"l_u_key"`)):
				t.Fatalf("after COMMIT the second writer got %v, want 23505 of l_u_key", r.err)
			case end == "ROLLBACK" && r.err != nil:
				t.Fatalf("after ROLLBACK the second writer got %v", r.err)
			}
		})
	}
}

// TestLogTableTruncateMovesIndexes: TRUNCATE of a table without a primary
// key makes a new table (a new id), which gets its constraints' index
// tables, empty, while the old id's are dropped; outside a block and in
// one, where the rows written after the TRUNCATE keep their entries.
func TestLogTableTruncateMovesIndexes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string
		taken string // a value the table holds after, refused
		free  string // a value it no longer holds, written
	}{
		{"outside a block", []string{"TRUNCATE l"}, "", "1"},
		{"in a block", []string{"BEGIN", "TRUNCATE l", "INSERT INTO l VALUES (3, 3)", "COMMIT"}, "3", "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store := openStore(t)
			open := sessionsOf(t, engine.New(store, engine.Options{}))
			a := open()
			mustRun(t, a, "CREATE TABLE l (id INT, u INT UNIQUE)")
			mustRun(t, a, "INSERT INTO l VALUES (1, 1), (2, 2)")
			path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "l"}
			old, err := store.GetTable(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.stmts {
				mustRun(t, a, s)
			}
			now, err := store.GetTable(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			if now.TableID == old.TableID {
				t.Fatalf("TRUNCATE kept the table's id")
			}
			id := fluss.MetaOf(now.Descriptor).Uniques[0].ID
			if _, err := store.GetTable(ctx, fluss.IndexTablePath(old.TableID, id)); err == nil {
				t.Errorf("the old table's index table is left")
			}
			if _, err := store.GetTable(ctx, fluss.IndexTablePath(now.TableID, id)); err != nil {
				t.Errorf("the new table has no index table: %v", err)
			}
			if tc.taken != "" {
				if _, _, err := run(t, a, "INSERT INTO l VALUES (9, "+tc.taken+")"); err == nil || !strings.Contains(err.Error(), "l_u_key") {
					t.Errorf("a value written after the TRUNCATE: %v, want 23505", err)
				}
			}
			mustRun(t, a, "INSERT INTO l VALUES (10, "+tc.free+")")
		})
	}
}

// TestLogTableIndexBuiltAgain: a log table's index table lost (a crash
// between a DDL statement's steps) is built again from the rows by the
// first write that needs it, which then finds the value taken.
func TestLogTableIndexBuiltAgain(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	open := sessionsOf(t, engine.New(store, engine.Options{}))
	a := open()
	mustRun(t, a, "CREATE TABLE l (id INT, u INT)")
	mustRun(t, a, "INSERT INTO l VALUES (1, 1), (2, NULL), (3, NULL)")
	mustRun(t, a, "ALTER TABLE l ADD UNIQUE (u)")
	info, err := store.GetTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "l"})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.DropTable(ctx, fluss.IndexTablePath(info.TableID, fluss.MetaOf(info.Descriptor).Uniques[0].ID), false); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, a, "INSERT INTO l VALUES (4, 1)"); err == nil || !strings.Contains(err.Error(), "l_u_key") {
		t.Fatalf("a value the rows hold, after the index table was lost: %v, want 23505", err)
	}
	mustRun(t, a, "INSERT INTO l VALUES (4, NULL), (5, 5)")
}

// TestLogTableBuildWaitsForAppender: ALTER TABLE ... ADD UNIQUE of a log
// table waits for a transaction that appended to it (as PostgreSQL's
// index build waits for the INSERT's ROW EXCLUSIVE lock), then builds
// from its rows: a duplicate among them fails the build, else their
// values are taken.
func TestLogTableBuildWaitsForAppender(t *testing.T) {
	for _, tc := range []struct {
		name, rows string
		fails      bool
	}{
		{"distinct", "(2, 2)", false},
		{"duplicated", "(2, 1)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
			a, b := open(), open()
			mustRun(t, a, "CREATE TABLE l (id INT, u INT)")
			mustRun(t, a, "INSERT INTO l VALUES (1, 1)")
			mustRun(t, a, "BEGIN; INSERT INTO l VALUES "+tc.rows)
			build := runAsync(t, b, "ALTER TABLE l ADD UNIQUE (u)")
			if !waiting(build) {
				t.Fatalf("ADD UNIQUE did not wait for the appending transaction")
			}
			mustRun(t, a, "COMMIT")
			r := answer(t, build, "ADD UNIQUE after the COMMIT")
			if tc.fails {
				if r.err == nil || !strings.Contains(r.err.Error(), "could not create unique index") {
					t.Fatalf("ADD UNIQUE over a committed duplicate: %v", r.err)
				}
				return
			}
			if r.err != nil {
				t.Fatalf("ADD UNIQUE: %v", r.err)
			}
			if _, _, err := run(t, a, "INSERT INTO l VALUES (3, 2)"); err == nil || !strings.Contains(err.Error(), "l_u_key") {
				t.Fatalf("a value the waited-for transaction wrote: %v, want 23505", err)
			}
		})
	}
}
