package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestCreateUniqueIndexWaitsOutsideDDLLock: CREATE UNIQUE INDEX waits for
// a transaction that wrote the table (its rows are built into the index)
// without holding the server-wide DDL lock: that transaction's next
// statement runs (it deadlocked with the build before), and another
// session's SELECT of another table answers while the build waits.
func TestCreateUniqueIndexWaitsOutsideDDLLock(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b, c := open(), open(), open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)")
	mustRun(t, a, "CREATE TABLE other (id INT PRIMARY KEY)")
	mustRun(t, a, "INSERT INTO other VALUES (1)")
	mustRun(t, a, "BEGIN; INSERT INTO t VALUES (1, 1)")
	build := runAsync(t, b, "CREATE UNIQUE INDEX t_v ON t (v)")
	if !waiting(build) {
		t.Fatalf("CREATE UNIQUE INDEX did not wait for the writing transaction")
	}
	sel := runAsync(t, c, "SELECT count(*) FROM other")
	if r := answer(t, sel, "SELECT of another table during the build"); r.err != nil || strings.Join(r.lines, ",") != "1" {
		t.Fatalf("SELECT of another table during the build: %v %v", r.lines, r.err)
	}
	select {
	case r := <-build:
		t.Fatalf("the build answered before the writer's COMMIT: %v %v", r.lines, r.err)
	default:
	}
	next := runAsync(t, a, "INSERT INTO t VALUES (2, 2)")
	if r := answer(t, next, "the writer's next statement during the build"); r.err != nil {
		t.Fatalf("the writer's next statement: %v", r.err)
	}
	mustRun(t, a, "COMMIT")
	if r := answer(t, build, "CREATE UNIQUE INDEX after COMMIT"); r.err != nil {
		t.Fatalf("CREATE UNIQUE INDEX: %v", r.err)
	}
	_, _, err := run(t, c, "INSERT INTO t VALUES (3, 2)")
	if err == nil || !strings.Contains(err.Error(), `"t_v"`) {
		t.Fatalf("a duplicate of a row the build waited for: %v", err)
	}
}

// TestDropSchemaDropsIndexTables: DROP SCHEMA ... CASCADE drops the index
// tables of its tables' unique constraints (kept in the default
// database, under the table's id), as DROP TABLE does.
func TestDropSchemaDropsIndexTables(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	open := sessionsOf(t, engine.New(store, engine.Options{}))
	a := open()
	mustRun(t, a, "CREATE SCHEMA s")
	mustRun(t, a, "CREATE TABLE s.t (id INT PRIMARY KEY, u INT UNIQUE, v TEXT, UNIQUE (v))")
	mustRun(t, a, "INSERT INTO s.t VALUES (1, 1, 'a')")
	info, err := store.GetTable(ctx, fluss.TablePath{Database: "s", Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	exists := func(id int) bool {
		_, err := store.GetTable(ctx, fluss.IndexTablePath(info.TableID, id))
		return err == nil
	}
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if !exists(c.ID) {
			t.Fatalf("no index table for %s after CREATE TABLE", c.Name)
		}
	}
	mustRun(t, a, "DROP SCHEMA s CASCADE")
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if exists(c.ID) {
			t.Errorf("the index table of %s is left after DROP SCHEMA ... CASCADE", c.Name)
		}
	}
}

// TestCommitAfterUniqueIndexChanged: DROP CONSTRAINT of a unique
// constraint waits for a transaction that wrote the table (ddllock.go, as
// PostgreSQL's ACCESS EXCLUSIVE lock does), whose COMMIT then writes its
// row and index entry; the constraint goes after. It ran at once before,
// dropping the index table under the transaction, whose COMMIT failed
// with 40001.
func TestCommitAfterUniqueIndexChanged(t *testing.T) {
	for _, ddl := range []string{"ALTER TABLE t DROP CONSTRAINT t_u_key"} {
		t.Run(ddl, func(t *testing.T) {
			open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
			a, b := open(), open()
			mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, u INT UNIQUE)")
			mustRun(t, a, "BEGIN; INSERT INTO t VALUES (1, 1)")
			drop := runAsync(t, b, ddl)
			if !waiting(drop) {
				t.Fatalf("%s did not wait for the writing transaction", ddl)
			}
			if _, _, err := run(t, a, "COMMIT"); err != nil {
				t.Fatalf("COMMIT before %s: %v", ddl, err)
			}
			if d := answer(t, drop, ddl); d.err != nil {
				t.Fatalf("%s: %v", ddl, d.err)
			}
			mustRun(t, a, "INSERT INTO t VALUES (2, 1)") // the constraint is gone
			if got := mustRun(t, b, "SELECT count(*) FROM t"); got[0] != "2" {
				t.Errorf("rows: %v", got)
			}
		})
	}
}

// TestTruncateWaitsForUniqueWriter: TRUNCATE (outside a block) of a table
// with unique constraints waits for a transaction writing it, as
// PostgreSQL's ACCESS EXCLUSIVE lock does, and that transaction's COMMIT
// succeeds (it failed with 40001: TRUNCATE made the index tables again
// under it). The truncated table's values are free again, and the index
// still holds the values written after.
func TestTruncateWaitsForUniqueWriter(t *testing.T) {
	for _, stmt := range []string{"TRUNCATE t", "TRUNCATE t RESTART IDENTITY", "TRUNCATE t CASCADE"} {
		t.Run(stmt, func(t *testing.T) {
			open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
			a, b := open(), open()
			mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, u INT UNIQUE, v TEXT, UNIQUE (v))")
			mustRun(t, a, "INSERT INTO t VALUES (1, 1, 'a'), (2, 2, 'b')")
			mustRun(t, a, "BEGIN; INSERT INTO t VALUES (3, 3, 'c')")
			tr := runAsync(t, b, stmt)
			if !waiting(tr) {
				t.Fatalf("%s did not wait for the writing transaction", stmt)
			}
			if _, _, err := run(t, a, "COMMIT"); err != nil {
				t.Fatalf("COMMIT of the writer %s waited for: %v", stmt, err)
			}
			if r := answer(t, tr, stmt); r.err != nil {
				t.Fatalf("%s: %v", stmt, r.err)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM t"); got[0] != "0" {
				t.Fatalf("rows after %s: %v", stmt, got)
			}
			mustRun(t, b, "INSERT INTO t VALUES (4, 1, 'a'), (5, 3, 'c')")
			for _, q := range []string{"INSERT INTO t VALUES (6, 1, 'z')", "INSERT INTO t VALUES (7, 7, 'c')"} {
				if _, _, err := run(t, b, q); sqlerr.CodeOf(err) != sqlerr.UniqueViolation {
					t.Errorf("%s after %s: %v, want 23505", q, stmt, err)
				}
			}
		})
	}
}

// TestStartDropsOrphanIndexTables: the server's start drops the index
// tables no unique constraint names — one a crash left between making it
// and the catalog write naming it (ADD UNIQUE), one whose constraint was
// dropped from the catalog before the crash could drop it, one of a table
// dropped alike — and keeps those of the live constraints, which still
// refuse a duplicate.
func TestStartDropsOrphanIndexTables(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := sessionsOf(t, engine.New(store, engine.Options{}))()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, u INT UNIQUE, v INT UNIQUE, w INT)")
	mustRun(t, a, "CREATE TABLE gone (id INT PRIMARY KEY, u INT UNIQUE)")
	mustRun(t, a, "INSERT INTO t VALUES (1, 1, 1, 1)")
	info, err := store.GetTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := store.GetTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	var vID int
	for _, c := range fluss.MetaOf(info.Descriptor).Uniques {
		if c.Name == "t_v_key" {
			vID = c.ID
		}
	}
	mustRun(t, a, "ALTER TABLE t DROP CONSTRAINT t_v_key")
	mustRun(t, a, "DROP TABLE gone")
	// what the crashes left: the index tables made again under the ids
	// no constraint has any more, and one of a constraint never written
	desc := fluss.TableDescriptor{BucketCount: 1}
	desc.Schema.Columns = []fluss.Column{{Name: "k1", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "p1", Type: types.T{Kind: types.Int32, NotNull: true}}}
	desc.Schema.PrimaryKey = []string{"k1"}
	orphans := []fluss.TablePath{fluss.IndexTablePath(info.TableID, vID), fluss.IndexTablePath(info.TableID, 99), fluss.IndexTablePath(gone.TableID, 1)}
	for _, p := range orphans {
		if _, err := store.CreateTable(ctx, p, desc, false); err != nil {
			t.Fatalf("making orphan %s: %v", p, err)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	store, err = embedded.Open(dir, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	b := sessionsOf(t, engine.New(store, engine.Options{}))()
	for _, p := range orphans {
		if _, err := store.GetTable(ctx, p); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			t.Errorf("orphan index table %s after the restart: %v", p, err)
		}
	}
	left, err := store.ListIndexTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 {
		t.Errorf("index tables after the restart: %v, want t_u_key's alone", left)
	}
	if _, _, err := run(t, b, "INSERT INTO t VALUES (2, 1, 2, 2)"); sqlerr.CodeOf(err) != sqlerr.UniqueViolation {
		t.Errorf("a duplicate of t_u_key after the restart: %v", err)
	}
	mustRun(t, b, "INSERT INTO t VALUES (3, 3, 1, 3)")
}

// TestUniqueForeignKeyLocks: a foreign key to a UNIQUE column locks the
// referenced row as one to a key does. A transaction inserting a
// referencing row holds the row FOR KEY SHARE, so an UPDATE changing the
// referenced value in place waits for it (FOR UPDATE: it took FOR NO KEY
// UPDATE and went through, leaving the committed row referencing
// nothing) and then fails with 23503; a referencing row inserted while
// such an UPDATE is under way waits for it and fails once the value is
// gone.
func TestUniqueForeignKeyLocks(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE p (id INT PRIMARY KEY, u INT UNIQUE, v INT)")
	mustRun(t, a, "CREATE TABLE c (id INT PRIMARY KEY, pu INT REFERENCES p (u))")
	mustRun(t, a, "INSERT INTO p VALUES (1, 10, 0), (2, 20, 0)")

	mustRun(t, a, "BEGIN; INSERT INTO c VALUES (1, 10)")
	up := runAsync(t, b, "UPDATE p SET u = 11 WHERE id = 1")
	if !waiting(up) {
		t.Fatalf("the UPDATE of a referenced UNIQUE value did not wait for the referencing transaction")
	}
	mustRun(t, a, "COMMIT")
	if r := answer(t, up, "UPDATE after the referencing COMMIT"); sqlerr.CodeOf(r.err) != "23503" {
		t.Fatalf("UPDATE of a value referenced meanwhile: %v, want 23503", r.err)
	}
	// an UPDATE of another column keeps FOR NO KEY UPDATE: no wait
	mustRun(t, a, "BEGIN; INSERT INTO c VALUES (2, 10)")
	if r := answer(t, runAsync(t, b, "UPDATE p SET v = 1 WHERE id = 1"), "UPDATE of a column no key has"); r.err != nil {
		t.Fatalf("UPDATE of a column no key has: %v", r.err)
	}
	mustRun(t, a, "COMMIT")

	mustRun(t, b, "BEGIN; UPDATE p SET u = 21 WHERE id = 2")
	ins := runAsync(t, a, "INSERT INTO c VALUES (3, 20)")
	if !waiting(ins) {
		t.Fatalf("the referencing INSERT did not wait for the UPDATE of the value")
	}
	mustRun(t, b, "COMMIT")
	if r := answer(t, ins, "INSERT after the UPDATE's COMMIT"); sqlerr.CodeOf(r.err) != "23503" {
		t.Fatalf("INSERT referencing a value an UPDATE moved meanwhile: %v, want 23503", r.err)
	}
	if got := mustRun(t, a, "SELECT count(*) FROM c"); got[0] != "2" {
		t.Errorf("referencing rows: %v, want 2", got)
	}
}
