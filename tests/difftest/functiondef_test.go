package difftest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestFunctionDefDifferential takes every built-in function sqlgate's
// pg_proc lists in pg_catalog, finds the same signature in PostgreSQL 15
// (to_regprocedure of its identity arguments), and compares what the two
// say of it: pg_get_functiondef, provolatile, proisstrict, proparallel,
// prosrc and the language's name.
func TestFunctionDefDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	// aggregates have no definition to write (pg_get_functiondef's error)
	procs := r.SQLGate.Run(ctx, `SELECT p.oid::text, n.nspname::text, p.proname::text, pg_get_function_identity_arguments(p.oid)
		FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'pg_catalog' AND p.prokind <> 'a' ORDER BY p.oid`)
	if procs.Err != nil {
		t.Fatal(procs.Err.Message)
	}
	// one query on each side: PostgreSQL's rows keyed by sqlgate's OIDs
	const cols = `pg_get_functiondef(p.oid), p.provolatile::text, p.proisstrict::text, p.proparallel::text, p.prosrc, l.lanname::text
		FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang`
	var values []string
	for _, row := range procs.Rows {
		if oid, _ := strconv.Atoi(row[0].Text); oid < 16384 {
			// PostgreSQL's own row (pgcatalog's pgprocrows.go): the same OID
			values = append(values, fmt.Sprintf("(%s, '')", row[0].Text))
			continue
		}
		if strings.Contains(row[3].Text, "OUT ") {
			continue // regprocedure input reads argument types alone
		}
		sig := row[1].Text + "." + quoteName(row[2].Text) + "(" + strings.ReplaceAll(row[3].Text, "VARIADIC ", "") + ")"
		values = append(values, fmt.Sprintf("(%s, '%s')", row[0].Text, strings.ReplaceAll(sig, "'", "''")))
	}
	pg := r.Postgres.Run(ctx, fmt.Sprintf("SELECT v.k::text, v.s, %s JOIN (VALUES %s) v(k, s) ON p.oid = CASE WHEN v.s = '' THEN v.k::oid ELSE to_regprocedure(v.s) END ORDER BY v.k", cols, strings.Join(values, ", ")))
	sg := r.SQLGate.Run(ctx, fmt.Sprintf("SELECT p.oid::text, %s WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind <> 'a' ORDER BY p.oid", cols))
	for _, o := range []Outcome{pg, sg} {
		if o.Err != nil {
			t.Fatal(o.Err.Message)
		}
	}
	mine := map[string][]Cell{}
	for _, row := range sg.Rows {
		mine[row[0].Text] = row[1:]
	}
	compared, different := 0, 0
	for _, row := range pg.Rows {
		compared++
		got, want := mine[row[0].Text], row[2:]
		if fmt.Sprint(got) != fmt.Sprint(want) {
			different++
			if different <= 10 {
				t.Errorf("%s:\n  sqlgate:    %v\n  PostgreSQL: %v", row[1].Text, got, want)
			}
		}
	}
	absent := len(procs.Rows) - compared // signatures PostgreSQL spells otherwise ("any" for its anyelement)
	t.Logf("%d built-in signatures compared, %d not in PostgreSQL by their identity arguments, %d different", compared, absent, different)
	if compared < 800 {
		t.Errorf("only %d signatures compared: the identity arguments no longer name PostgreSQL's functions", compared)
	}
}

// quoteName double-quotes a function name that regprocedure input would
// otherwise read as a keyword or fold.
func quoteName(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
