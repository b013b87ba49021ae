package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestReadHoldsTableUntilItsEnd: a read takes its table's ACCESS SHARE
// lock, as PostgreSQL's does: outside a transaction until its result has
// been read (ALTER TABLE waits for the stream, which reads every
// row as it began), in a block until the block ends (DROP TABLE waits, the
// block reads on). LOCK TABLE takes any mode, in a block only.
func TestReadHoldsTableUntilItsEnd(t *testing.T) {
	ctx := context.Background()
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE t (id INT PRIMARY KEY, v INT)")
	mustRun(t, a, "INSERT INTO t SELECT g, g FROM generate_series(1, 5000) g")

	stmts, err := a.Prepare(ctx, "SELECT id, v FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := res.Next(ctx)
	if err != nil || first == nil {
		t.Fatalf("first batch: %v", err)
	}
	rows := first.NumRows()
	first.Release()
	alter := runAsync(t, b, "ALTER TABLE t ADD COLUMN w INT DEFAULT 1")
	if !waiting(alter) {
		t.Fatal("ALTER TABLE did not wait for a result being read")
	}
	for {
		bt, err := res.Next(ctx)
		if err != nil {
			t.Fatalf("reading on while ALTER TABLE waits: %v", err)
		}
		if bt == nil {
			break
		}
		if bt.NumCols() != 2 {
			t.Errorf("a batch of %d columns", bt.NumCols())
		}
		rows += bt.NumRows()
		bt.Release()
	}
	if rows != 5000 {
		t.Errorf("the stream read %d rows, want 5000", rows)
	}
	res.Close() // (the stream's end released it already)
	if r := answer(t, alter, "ALTER after the result's end"); r.err != nil {
		t.Fatal(r.err)
	}

	mustRun(t, a, "BEGIN")
	mustRun(t, a, "SELECT count(*) FROM t")
	drop := runAsync(t, b, "DROP TABLE t")
	if !waiting(drop) {
		t.Fatal("DROP TABLE did not wait for a block that read the table")
	}
	if got := mustRun(t, a, "SELECT sum(w) FROM t"); len(got) != 1 || got[0] != "5000" {
		t.Errorf("the block reads %v, want 5000", got)
	}
	mustRun(t, a, "COMMIT")
	if r := answer(t, drop, "DROP after COMMIT"); r.err != nil {
		t.Fatal(r.err)
	}

	mustRun(t, a, "CREATE TABLE u (id INT PRIMARY KEY)")
	if _, _, err := run(t, a, "LOCK TABLE u"); sqlerr.CodeOf(err) != sqlerr.NoActiveSQLTransaction {
		t.Errorf("LOCK outside a block: %v, want 25P01", err)
	}
	mustRun(t, a, "BEGIN")
	mustRun(t, a, "LOCK TABLE u IN SHARE MODE")
	mustRun(t, b, "SELECT count(*) FROM u") // SHARE admits readers
	ins := runAsync(t, b, "INSERT INTO u VALUES (1)")
	if !waiting(ins) {
		t.Fatal("an INSERT did not wait for LOCK TABLE ... IN SHARE MODE")
	}
	mustRun(t, a, "COMMIT")
	if r := answer(t, ins, "INSERT after COMMIT"); r.err != nil {
		t.Fatal(r.err)
	}
	mustRun(t, b, "BEGIN")
	mustRun(t, b, "SELECT count(*) FROM u")
	mustRun(t, a, "BEGIN")
	if _, _, err := run(t, a, "LOCK u IN ACCESS EXCLUSIVE MODE NOWAIT"); sqlerr.CodeOf(err) != sqlerr.LockNotAvailable {
		t.Errorf("LOCK ... NOWAIT against a reader: %v, want 55P03", err)
	}
	mustRun(t, a, "ROLLBACK")
	mustRun(t, b, "COMMIT")
}
