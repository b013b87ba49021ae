package difftest

import (
	"context"
	"strings"
	"testing"
)

// TestRegprocedurePolymorphicDifferential: every built-in signature
// sqlgate's pg_proc lists with a polymorphic pseudo-type (anyarray,
// anyelement, anycompatible, anycompatiblearray, anynonarray) is read by
// regprocedure input and to_regprocedure, and printed back, as on
// PostgreSQL 15, whose pg_proc must list it too. Left out: sqlgate's own
// pg__ functions and _pg_expandarray, which sqlgate lists in pg_catalog
// and PostgreSQL in information_schema (regprocedure input of its bare
// name is 42883 there).
func TestRegprocedurePolymorphicDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	o := r.SQLGate.Run(ctx, `SELECT p.oid::regprocedure::text FROM pg_proc p
		WHERE p.proargtypes::oid[] && ARRAY[2277, 2283, 2776, 5077, 5078]::oid[] AND p.proname NOT LIKE 'pg\_\_%'
		AND p.proname <> '_pg_expandarray'
		ORDER BY 1`)
	if o.Err != nil {
		t.Fatalf("sqlgate pg_proc: %s", o.Err.Message)
	}
	if len(o.Rows) < 10 {
		t.Fatalf("only %d polymorphic signatures listed", len(o.Rows))
	}
	stats := map[string]int{}
	for _, row := range o.Rows {
		sig := strings.ReplaceAll(row[0].Text, "'", "''")
		tally(t, ctx, r, "SELECT '"+sig+"'::regprocedure::text, to_regprocedure('"+sig+"')::text", stats)
	}
	t.Logf("%d signatures: %v", len(o.Rows), stats)
	if stats["same"] != len(o.Rows) {
		t.Errorf("outcomes: %v", stats)
	}
	// the other way: each of PostgreSQL's polymorphic pg_catalog
	// signatures whose name and number of arguments sqlgate's pg_proc
	// has names sqlgate's function too
	names := r.SQLGate.Run(ctx, `SELECT DISTINCT proname || '/' || pronargs FROM pg_proc`)
	if names.Err != nil {
		t.Fatalf("sqlgate pg_proc: %s", names.Err.Message)
	}
	has := map[string]bool{}
	for _, row := range names.Rows {
		has[row[0].Text] = true
	}
	pg := r.Postgres.Run(ctx, `SELECT proname || '/' || pronargs, p.oid::regprocedure::text FROM pg_proc p
		WHERE p.proargtypes::oid[] && ARRAY[2277, 2283, 2776, 5077, 5078]::oid[] AND p.pronamespace = 11`)
	if pg.Err != nil {
		t.Fatalf("PostgreSQL pg_proc: %s", pg.Err.Message)
	}
	checked := 0
	for _, row := range pg.Rows {
		if !has[row[0].Text] {
			continue
		}
		checked++
		sig := strings.ReplaceAll(row[1].Text, "'", "''")
		if got := r.SQLGate.Run(ctx, "SELECT to_regprocedure('"+sig+"')::text"); got.Err != nil || len(got.Rows) != 1 || got.Rows[0][0].Text != row[1].Text {
			t.Errorf("sqlgate does not find PostgreSQL's %s: %+v", row[1].Text, got)
		}
	}
	if checked < 10 {
		t.Errorf("only %d of PostgreSQL's polymorphic signatures are sqlgate's names", checked)
	}
}
