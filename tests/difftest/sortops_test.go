package difftest

import (
	"context"
	"fmt"
	"testing"
)

// sortOpValues are values of types with and without PostgreSQL's ordering
// and equality operators (json, jsonpath, anyarray and arrays of them have
// neither, xid and its arrays equality only, pg_node_tree text's; the
// catalog types' values are NULLs of their column's type, having no
// input).
var sortOpValues = []string{
	`'{"a":1}'::json`, `'$.a'::jsonpath`, `ARRAY['{}'::json]`, `'{"a":1}'::jsonb`, `1`, `'x'::text`, `ARRAY[1, 2]`,
	`'7'::xid`, `ARRAY['7'::xid]`, `(SELECT adbin FROM pg_attrdef WHERE false)`, `(SELECT attmissingval FROM pg_attribute WHERE false)`,
}

// sortOpContexts use a column c of each value's type as a sort key or a
// grouping key, or compare rows (every one but UNION ALL needs equality).
var sortOpContexts = []string{
	"SELECT c FROM s ORDER BY c",
	"SELECT c FROM s ORDER BY c DESC NULLS FIRST",
	"SELECT DISTINCT c FROM s",
	"SELECT DISTINCT ON (c) k FROM s",
	"SELECT count(*) FROM s GROUP BY c",
	"SELECT count(*) FROM s GROUP BY ROLLUP (c)",
	"SELECT c FROM s UNION SELECT c FROM s",
	"SELECT c FROM s UNION ALL SELECT c FROM s",
	"SELECT c FROM s INTERSECT SELECT c FROM s",
	"SELECT c FROM s EXCEPT ALL SELECT c FROM s",
	"SELECT count(*) OVER (PARTITION BY c) FROM s",
	"SELECT count(*) OVER (ORDER BY c) FROM s",
	"SELECT k FROM s GROUP BY k, c",
	"SELECT count(DISTINCT c) FROM s",
	"SELECT string_agg('a', ',' ORDER BY c) FROM s",
	"SELECT greatest(c, c) FROM s",
	"SELECT least(c, NULL) FROM s",
	"SELECT least(c) FROM s",
}

// TestSortOperatorsDifferential runs every context of sortOpContexts over
// every value of sortOpValues on sqlgate and PostgreSQL 15: the same rows,
// or the same SQLSTATE, message and position (42883 "could not identify
// an ordering / equality operator for type ..." for json and jsonpath,
// "a comparison function" without a position for GREATEST and LEAST).
func TestSortOperatorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	n := 0
	for _, v := range sortOpValues {
		for _, c := range sortOpContexts {
			q := fmt.Sprintf("WITH s AS (SELECT %s AS c, 1 AS k) %s", v, c)
			tallyBy(t, ctx, r, q, stats, tallyRule{placed: func(code string) bool { return code == "42883" }})
			n++
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] == 0 || stats["refused alike"] < 2*len(sortOpContexts)-4 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
