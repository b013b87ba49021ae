package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// distinctAggValues are the column values of TestDistinctAggregateDifferential's
// rows, per type: duplicates, NULLs and values whose text order differs
// from their order (10 before 9 as text, 'B' before 'a').
var distinctAggValues = map[string][]string{
	"int":     {"1", "9", "10", "-3", "1", "NULL", "10"},
	"text":    {"'b'", "'a'", "'B'", "'a b'", "''", "NULL", "'b'"},
	"numeric": {"1.50", "1.5", "-0.25", "10", "NULL", "2"},
	"date":    {"date '2024-01-02'", "date '2023-12-31'", "NULL", "date '2024-01-02'"},
}

// distinctAggCalls are the aggregates whose result shows their input's
// order, each over the column x (and the key k); a NULL object key is
// 22023 on both.
var distinctAggCalls = []string{
	"string_agg(DISTINCT x::text, ',')", "array_agg(DISTINCT x)", "json_agg(DISTINCT x)", "jsonb_agg(DISTINCT x)",
	"array_agg(DISTINCT x) FILTER (WHERE x IS NOT NULL)", "string_agg(DISTINCT x::text, '|' ORDER BY x::text DESC)",
	// DISTINCT over the (key, value) pair, sorted by both
	"json_object_agg(DISTINCT k, x::text)", "jsonb_object_agg(DISTINCT x::text, k) FILTER (WHERE x IS NOT NULL)",
	"json_object_agg(DISTINCT x::text, k ORDER BY k DESC) FILTER (WHERE x IS NOT NULL)", "json_object_agg(DISTINCT x::text, k)",
}

// TestDistinctAggregateDifferential: an aggregate with DISTINCT and no
// ORDER BY reads its input sorted by its arguments in PostgreSQL, which
// removes the duplicates by sorting, so string_agg(DISTINCT ...) and
// array_agg(DISTINCT ...) list values ascending, NULLs last, whatever
// order the rows arrive in. Random rows, with and without GROUP BY, on
// sqlgate and PostgreSQL 15: the same result.
func TestDistinctAggregateDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 23))))
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	kinds := []string{"int", "text", "numeric", "date"}
	for i := 0; i < 240; i++ {
		kind := kinds[i%len(kinds)]
		vals := distinctAggValues[kind]
		rows := make([]string, 3+rng.Intn(6))
		for j := range rows {
			rows[j] = fmt.Sprintf("(%d, %s)", rng.Intn(3), vals[rng.Intn(len(vals))])
		}
		if !strings.Contains(strings.Join(rows, ""), "NULL)") {
			rows[0] = "(0, NULL::" + map[string]string{"int": "int", "text": "text", "numeric": "numeric", "date": "date"}[kind] + ")"
		}
		from := "(VALUES " + strings.Join(rows, ", ") + ") AS v(k, x)"
		call := distinctAggCalls[rng.Intn(len(distinctAggCalls))]
		if rng.Intn(2) == 0 {
			tallyBy(t, ctx, r, "SELECT "+call+" FROM "+from, stats, ordered)
		} else {
			tallyBy(t, ctx, r, "SELECT k, "+call+" FROM "+from+" GROUP BY k ORDER BY k", stats, ordered)
		}
	}
	t.Logf("DISTINCT aggregates: %v", stats)
	if stats["same"] < 200 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
