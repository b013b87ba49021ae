//go:build !race

// The race detector changes what allocates (sync.Pool drops a share of
// what is put back, instrumented code escapes more): allocation budgets are
// checked without it.

package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/pgwire"
)

// TestPreparedPointLookupAllocations: executing a prepared primary-key
// lookup and reading its row stays within a budget of allocations (the
// execution state, the key, the store's one-row record: no relabelled
// copy of the record, no per-value context allocations).
func TestPreparedPointLookupAllocations(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE t (k BIGINT PRIMARY KEY, i INT, f DOUBLE PRECISION, v TEXT, ts TIMESTAMP(6))")
	mustRun(t, s, "INSERT INTO t VALUES (1, 2, 3.5, 'x', TIMESTAMP '2026-01-01 00:00:00'), (2, NULL, NULL, NULL, NULL)")
	sel := prepareOne(t, s, "SELECT * FROM t WHERE k = $1")
	ctx := context.Background()
	params := []any{int64(1)}
	lookup := func() {
		res, err := sel.Execute(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		b, err := res.Next(ctx)
		if err != nil || b == nil || b.NumRows() != 1 {
			t.Fatalf("lookup: %v, %v", b, err)
		}
		b.Release()
		res.Close()
	}
	lookup() // caches: the store's projection plan, cached iterators
	// 6 before the execution's memory account moved into its state and
	// the BIGINT key record into the Lookup operator (issue 33), 4 after,
	// 4 with the statement's context in the execution's state, 3 since the
	// session's SchemaUsable is a func value made once (a method value taken
	// at every execution allocated).
	const budget = 3
	if n := testing.AllocsPerRun(200, lookup); n > budget {
		t.Errorf("%.1f allocations per prepared lookup, want at most %d", n, budget)
	} else {
		t.Logf("%.1f allocations per prepared lookup", n)
	}
}

// TestWriteTransactionAllocations: bench's W10 transaction (BEGIN; UPDATE
// by key; SELECT of the row it wrote; COMMIT, prepared) stays within a
// budget of allocations, the store's commit included: the changelog batch
// written without arrow-go's IPC writer, the commit's stored row taken
// from the UPDATE's lookup.
func TestWriteTransactionAllocations(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "CREATE TABLE ledger (id BIGINT PRIMARY KEY, bal BIGINT NOT NULL)")
	mustRun(t, s, "INSERT INTO ledger SELECT g, 0 FROM generate_series(1, 100) AS g")
	begin := prepareOne(t, s, "BEGIN")
	upd := prepareOne(t, s, "UPDATE ledger SET bal = bal + $1 WHERE id = $2")
	sel := prepareOne(t, s, "SELECT bal FROM ledger WHERE id = $1")
	commit := prepareOne(t, s, "COMMIT")
	ctx := context.Background()
	id := int64(0)
	tx := func() {
		id = id%100 + 1
		for _, st := range []struct {
			s      pgwire.Statement
			params []any
		}{{begin, nil}, {upd, []any{int64(1), id}}, {sel, []any{id}}, {commit, nil}} {
			if err := runStatement(ctx, st.s, st.params, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	tx() // caches: plans, the store's projection plans and log prefixes
	// 192 before the row hints and the small batch encoder (fluss/embedded,
	// fluss/format), 169 with them, 162 with Upsert's encoding on the stack,
	// 142 with the row schema cached and records of that schema validated
	// without copies (exec.rowSchema, fluss.ValidateRecordAs), 133 with
	// the store's one handle per table and rowlock's spare resources, 128
	// with the commit's changelog sized for an update and no overlay kept
	// for a group's last request, 126 with the store's row cache answering the
	// UPDATE's lookup, 127 at the start of the twenty-sixth session, 74
	// with the engine's cuts then (shared tags, the transaction's tables,
	// memory account, Recheck and first table, record and row in storage
	// already allocated, one-allocation records, no key index for one
	// row, checks cached per session: bench/LEDGER.md).
	// 53 before the statement's context moved into the execution's state,
	// 51 after; 40 at the thirty-fourth session's start, 38 with
	// SchemaUsable made once per session; the rest of the budget is the
	// store's.
	const budget = 60
	if n := testing.AllocsPerRun(100, tx); n > budget {
		t.Errorf("%.1f allocations per transaction, want at most %d", n, budget)
	} else {
		t.Logf("%.1f allocations per transaction", n)
	}
}
