package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// batchesOf is a COPY source of batches of (INT id, TEXT pad) rows: n rows
// a batch, ids from 0; id NULL for row nullAt (none when negative).
type batchesOf struct {
	batches, n, nullAt, next int
}

func (b *batchesOf) Next(context.Context) (arrow.RecordBatch, error) {
	if b.next == b.batches {
		return nil, nil
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "pad", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for j := range b.n {
		row := b.next*b.n + j
		if row == b.nullAt {
			rb.Field(0).AppendNull()
		} else {
			rb.Field(0).(*array.Int32Builder).Append(int32(row))
		}
		rb.Field(1).(*array.StringBuilder).Append(strings.Repeat("x", 40))
	}
	b.next++
	return rb.NewRecordBatch(), nil
}

func copyFrom(t *testing.T, s pgwire.Session, sql string, src pgwire.BatchSource) (string, error) {
	t.Helper()
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, ok := stmts[0].(pgwire.CopyStatement)
	if !ok || !cs.CopyIn() {
		t.Fatalf("%s is not a COPY FROM", sql)
	}
	return cs.CopyFrom(context.Background(), src)
}

// TestCopyIntoPrimaryKeyTable: outside a transaction block a COPY into a
// primary-key table hands its batches to the store as they come (a bulk
// upsert); it still writes all or nothing, is not held against the
// transaction memory limit, and inside a block it joins the transaction.
func TestCopyIntoPrimaryKeyTable(t *testing.T) {
	s := sessions(t, t.TempDir(), engine.Options{TransactionMemoryLimit: 1 << 20}, "u")[0]
	mustRun(t, s, "CREATE TABLE c (id INT PRIMARY KEY, pad TEXT)")
	count := func() string { return mustRun(t, s, "SELECT count(*) FROM c")[0] }

	// A NULL key in the fourth of five batches: nothing is kept.
	if _, err := copyFrom(t, s, "COPY c FROM STDIN", &batchesOf{batches: 5, n: 2000, nullAt: 7000}); sqlerr.CodeOf(err) != sqlerr.NotNullViolation {
		t.Fatalf("COPY with a NULL key: %v, want 23502", err)
	}
	if n := count(); n != "0" {
		t.Fatalf("a failed COPY left %s rows", n)
	}
	// Past the transaction memory limit (about 50 bytes a row): the store
	// holds it, staged on disk past its own budget, not the transaction.
	mustRun(t, s, "CREATE TABLE c2 (id INT PRIMARY KEY, pad TEXT)")
	if tag, err := copyFrom(t, s, "COPY c2 FROM STDIN", &batchesOf{batches: 20, n: 2000, nullAt: -1}); err != nil || tag != "COPY 40000" {
		t.Fatalf("COPY past the transaction memory limit: %s %v", tag, err)
	}
	if n := mustRun(t, s, "SELECT count(*) FROM c2")[0]; n != "40000" {
		t.Fatalf("%s rows after COPY 40000", n)
	}
	tag, err := copyFrom(t, s, "COPY c FROM STDIN", &batchesOf{batches: 5, n: 2000, nullAt: -1})
	if err != nil || tag != "COPY 10000" {
		t.Fatalf("COPY: %s %v", tag, err)
	}
	if n := count(); n != "10000" {
		t.Fatalf("%s rows after COPY 10000", n)
	}
	// In a block the rows are the transaction's until it ends.
	mustRun(t, s, "BEGIN")
	if tag, err := copyFrom(t, s, "COPY c (id) FROM STDIN", &idsFrom{first: 10000, n: 5}); err != nil || tag != "COPY 5" {
		t.Fatalf("COPY in a block: %s %v", tag, err)
	}
	if n := count(); n != "10005" {
		t.Fatalf("%s rows inside the block, want 10005", n)
	}
	mustRun(t, s, "ROLLBACK")
	if n := count(); n != "10000" {
		t.Fatalf("%s rows after ROLLBACK, want 10000", n)
	}
}

// idsFrom is a COPY source of one batch of (INT id) rows first, first+1, ...
type idsFrom struct {
	first, n int
	done     bool
}

func (s *idsFrom) Next(context.Context) (arrow.RecordBatch, error) {
	if s.done {
		return nil, nil
	}
	s.done = true
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := range s.n {
		b.Append(int32(s.first + i))
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(s.n)), nil
}
