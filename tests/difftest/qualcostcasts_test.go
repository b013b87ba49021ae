package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/server"
)

// qualCastCols are qcc's columns of the integer types and a double
// precision: an operator between two of them is a cross-type one in
// PostgreSQL (int48pl, int84eq, float8 after float8(int8)) or not (%:
// int8mod only, so int48(i) is a call).
var qualCastCols = []string{"s", "i", "b", "d"}

// TestQualCostCastsDifferential draws SQLGATE_DIFF_QUALCAST_QUERIES
// (default 150) WHERE clauses of two or three conditions over columns of
// mixed integer types, some of which divide by zero on every row and some
// of which are false on every row, compared with PostgreSQL 15 by
// SQLSTATE and rows, on the row path and the columnar one: PostgreSQL
// computes the conditions cheapest first (order_qual_clauses), where a
// widening cast costs a call except as the operand of a cross-type
// comparison or + - * / (there is none for %), so whether the division
// is reached depends on which is cheaper.
func TestQualCostCastsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := envInt(t, "SQLGATE_DIFF_QUALCAST_QUERIES", 150)
	rng := seededRand(t, 4502)
	setup := []string{
		"CREATE TABLE qcc (id bigint PRIMARY KEY, s smallint, i int, b bigint, d float8)",
		"INSERT INTO qcc VALUES (1, 1, 2, 3, 1.5), (2, 5, 6, 7, 0.5), (3, 0, 0, 0, 0)",
	}
	rows := startPair(t, ctx, &Schema{})
	columnar := startPairWith(t, ctx, &Schema{}, server.InProcessColumnar(1))
	runOnBoth(t, ctx, rows, setup...)
	runOnBoth(t, ctx, columnar, setup...)
	col := func() string { return qualCastCols[rng.IntN(len(qualCastCols))] }
	icol := func() string { return qualCastCols[rng.IntN(3)] }
	ops := []string{"+", "-", "*", "/", "%"}
	cond := func() string {
		a, b := icol(), icol()
		switch rng.IntN(5) {
		case 0: // divides by zero on every row
			return fmt.Sprintf("(%s %s (%s %% (%s - %s))) IS NOT NULL", a, ops[rng.IntN(len(ops))], icol(), b, b)
		case 1:
			return fmt.Sprintf("%s / (%s - %s) > 0", a, b, b)
		case 2: // false on every row (no equality between two of the
			// row's expressions: PostgreSQL's equivalence class
			// regenerates one after the other conditions, which
			// decides its ties)
			return fmt.Sprintf("id > %s + 1000", col())
		case 3:
			return fmt.Sprintf("%s %s %s < -999", a, ops[rng.IntN(len(ops)-1)], b)
		}
		return fmt.Sprintf("id %s %s > 1000", ops[rng.IntN(2)], col())
	}
	stats := map[string]int{}
	for range n {
		cs := []string{cond(), cond()}
		if rng.IntN(3) == 0 {
			cs = append(cs, cond())
		}
		q := "SELECT id FROM qcc WHERE " + strings.Join(cs, " AND ")
		tallyBy(t, ctx, rows, q, stats, tallyRule{codeOnly: true})
		tallyBy(t, ctx, columnar, q, stats, tallyRule{codeOnly: true})
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["refused alike"] == 0 || stats["same"] == 0 {
		t.Errorf("outcomes: %v (the conditions no longer cover both)", stats)
	}
}
