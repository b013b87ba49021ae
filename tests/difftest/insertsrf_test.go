package difftest

import (
	"context"
	"fmt"
	"testing"
)

// insertSRFCells are the cells of generated one-row VALUES lists: plain
// values, set-returning calls (alone, in an expression, two of different
// lengths), a subquery holding one, a value of the wrong type, and
// DEFAULT beside a call.
var insertSRFCells = [][2]string{ // (v int, w text)
	{"generate_series(1, 3)", "'x'"},
	{"unnest(ARRAY[4, 5])", "generate_series(1, 3)::text"},
	{"generate_series(1, 2) * 10", "'y' || generate_series(1, 2)"},
	{"(SELECT generate_series(7, 7))", "'z'"},
	{"8", "unnest(ARRAY['p', 'q'])"},
	{"generate_series(1, 0)", "'none'"},
	{"'a' || generate_series(1, 2)", "'bad'"},
	{"9", "'plain'"},
	{"generate_series(1, 2)", "DEFAULT"},
	{"DEFAULT", "generate_series(1, 2)::text"},
}

// TestInsertValuesSetCallsDifferential inserts one-row VALUES lists that
// call set-returning functions (and two-row lists, which PostgreSQL
// refuses) into a table on sqlgate and PostgreSQL 15, with and without a
// column list and RETURNING, then compares the table: the same rows, or
// the same refusal. sqlgate refused every set-returning call in VALUES.
func TestInsertValuesSetCallsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		if o := s.Run(ctx, "CREATE TABLE isrf (v int, w text)"); o.Err != nil {
			t.Fatal(o.Err.Message)
		}
	}
	stats := map[string]int{}
	n := 0
	for _, c := range insertSRFCells {
		for _, q := range []string{
			fmt.Sprintf("INSERT INTO isrf VALUES (%s, %s) RETURNING v, w", c[0], c[1]),
			fmt.Sprintf("INSERT INTO isrf (w, v) VALUES (%s, %s) RETURNING w", c[1], c[0]),
			fmt.Sprintf("INSERT INTO isrf VALUES (%s, %s), (0, 'second')", c[0], c[1]),
		} {
			tally(t, ctx, r, q, stats)
			tally(t, ctx, r, "SELECT * FROM isrf", stats)
			n += 2
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["same"] < n/2 || stats["refused alike"] < 4 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
