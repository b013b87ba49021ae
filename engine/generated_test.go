package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCopyComputesGeneratedColumns: COPY FROM computes a table's stored
// generated columns from each row (its default column list leaves them
// out, as PostgreSQL's does), CHECK reads the computed value, naming a
// generated column in the list is PostgreSQL's 42P10, and COPY TO leaves
// them out too — outside a transaction block (the store's bulk write) and
// inside one.
func TestCopyComputesGeneratedColumns(t *testing.T) {
	s := sessions(t, t.TempDir(), engine.Options{}, "u")[0]
	mustRun(t, s, "CREATE TABLE g (id INT PRIMARY KEY, twice INT GENERATED ALWAYS AS (id * 2) STORED CHECK (twice < 40), tag TEXT GENERATED ALWAYS AS ('#' || id::text) STORED)")
	mustRun(t, s, "CREATE TABLE gl (id INT, twice INT GENERATED ALWAYS AS (id * 2) STORED)")
	for _, tc := range []struct {
		name, copy string
		first, n   int
	}{
		{"bulk upsert", "COPY g FROM STDIN", 1, 3},
		{"column list", "COPY g (id) FROM STDIN", 4, 2},
		{"log table", "COPY gl FROM STDIN", 1, 2},
	} {
		if tag, err := copyFrom(t, s, tc.copy, &idsFrom{first: tc.first, n: tc.n}); err != nil || !strings.HasPrefix(tag, "COPY") {
			t.Fatalf("%s: %s %v", tc.name, tag, err)
		}
	}
	mustRun(t, s, "BEGIN")
	if _, err := copyFrom(t, s, "COPY g FROM STDIN", &idsFrom{first: 6, n: 2}); err != nil {
		t.Fatalf("COPY in a block: %v", err)
	}
	mustRun(t, s, "COMMIT")
	got := strings.Join(mustRun(t, s, "SELECT id, twice, tag FROM g ORDER BY id"), ",")
	want := strings.Join(mustRun(t, s, "SELECT id, id * 2, '#' || id::text FROM generate_series(1, 7) AS id ORDER BY id"), ",")
	if got != want {
		t.Errorf("rows after COPY: %s, want %s", got, want)
	}
	if got := strings.Join(mustRun(t, s, "SELECT id, twice FROM gl ORDER BY id"), ","); got != strings.Join(mustRun(t, s, "VALUES (1, 2), (2, 4)"), ",") {
		t.Errorf("log table after COPY: %s", got)
	}
	// CHECK reads the computed value: 20 * 2 is not < 40
	if _, err := copyFrom(t, s, "COPY g FROM STDIN", &idsFrom{first: 19, n: 2}); sqlerr.CodeOf(err) != "23514" {
		t.Errorf("COPY of a row whose generated value fails CHECK: %v, want 23514", err)
	}
	if _, err := s.Prepare(context.Background(), "COPY g (id, twice) FROM STDIN", nil); sqlerr.CodeOf(err) != sqlerr.InvalidColumnReference ||
		!strings.Contains(err.Error(), `column "twice" is a generated column`) {
		t.Errorf("COPY naming a generated column: %v, want 42P10", err)
	}
	stmts, err := s.Prepare(context.Background(), "COPY g TO STDOUT", nil)
	if err != nil {
		t.Fatal(err)
	}
	cols := stmts[0].Columns()
	if len(cols) != 1 || cols[0].Name != "id" {
		t.Errorf("COPY g TO's columns: %v, want id alone", cols)
	}
	show := strings.Join(mustRun(t, s, "SHOW CREATE TABLE g"), "\n")
	if !strings.Contains(show, "twice int GENERATED ALWAYS AS (id * 2) STORED") {
		t.Errorf("SHOW CREATE TABLE g shows no generation expression:\n%s", show)
	}
}
