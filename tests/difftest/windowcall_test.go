package difftest

import (
	"context"
	"strings"
	"testing"
)

// windowCallParts are the pieces a drawn window call is made of: a
// function (window functions, aggregates, plain functions, a set-returning
// one, one that does not exist), its arguments (a bad column among them),
// the aggregate decorations PostgreSQL's grammar takes (DISTINCT, an
// ORDER BY inside the arguments, FILTER; each valid or faulty) and the
// OVER clause (a bad window among them).
var windowCallParts = struct {
	funcs, args, orders, filters, overs []string
}{
	funcs:   []string{"sum", "count", "max", "string_agg", "array_agg", "json_agg", "lag", "ntile", "first_value", "lower", "abs", "generate_series", "nosuch_fn"},
	args:    []string{"a", "b", "nosuch_arg", "a, b", "b, ','", "a, 1"},
	orders:  []string{"", "", " ORDER BY k", " ORDER BY nosuch_ord DESC", " ORDER BY b, k NULLS FIRST"},
	filters: []string{"", "", " FILTER (WHERE a > 1)", " FILTER (WHERE nosuch_filt)", " FILTER (WHERE 1)"},
	overs:   []string{"()", "(ORDER BY k)", "(PARTITION BY nosuch_part)", "w", "nosuch_w"},
}

// windowCallStatement draws a SELECT with one window call, sometimes beside
// a faulty select-list item or WHERE clause.
func windowCallStatement(pick func(int) int) string {
	p := windowCallParts
	one := func(xs []string) string { return xs[pick(len(xs))] }
	distinct := ""
	if pick(4) == 0 {
		distinct = "DISTINCT "
	}
	call := one(p.funcs) + "(" + distinct + one(p.args) + one(p.orders) + ")" + one(p.filters) + " OVER " + one(p.overs)
	var sb strings.Builder
	sb.WriteString("SELECT ")
	if pick(5) == 0 {
		sb.WriteString("nosuch_before, ")
	}
	sb.WriteString(call)
	if pick(5) == 0 {
		sb.WriteString(", nosuch_after")
	}
	sb.WriteString(" FROM cw")
	if pick(5) == 0 {
		sb.WriteString(" WHERE nosuch_where = 1")
	}
	sb.WriteString(" WINDOW w AS (ORDER BY a)")
	return sb.String()
}

// TestWindowCallDifferential runs drawn window calls on sqlgate and
// PostgreSQL 15: the error of each is PostgreSQL's ParseFuncOrColumn's
// first, in its order (the arguments, the FILTER, the function's lookup,
// then for a function that is no aggregate its DISTINCT / ORDER BY /
// FILTER / OVER refusal, for a window aggregate DISTINCT, then the ORDER
// BY inside its arguments, then FILTER of a true window function, then the
// window), compared by SQLSTATE, message and position; a call that runs
// gives PostgreSQL's rows. SQLGATE_DIFF_WINDOWCALL_QUERIES sets the count
// (default 300).
func TestWindowCallDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE TABLE cw (k int PRIMARY KEY, a int, b text)",
		"INSERT INTO cw VALUES (1, 1, 'x'), (2, 2, 'y'), (3, NULL, 'z')",
	}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	n := envInt(t, "SQLGATE_DIFF_WINDOWCALL_QUERIES", 300)
	rng := seededRand(t, 41)
	stats := map[string]int{}
	for range n {
		q := windowCallStatement(rng.IntN)
		tallyBy(t, ctx, r, q, stats, tallyRule{placed: everyCode})
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["refused alike"] < n/2 {
		t.Errorf("outcomes: %v", stats)
	}
}
