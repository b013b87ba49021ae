package difftest

import (
	"context"
	"fmt"
	"testing"
)

// distinctPairs are operand pairs of IS [NOT] DISTINCT FROM: arrays (NULL
// elements, NULL arrays, nested, numeric scales, typmods, unknown
// literals), rows holding arrays, jsonb, and the pairs PostgreSQL has no =
// for (int[] vs bigint[], json, text vs integer), whose 42883 names =.
var distinctPairs = [][2]string{
	{"ARRAY[1, NULL]", "ARRAY[1, NULL]"},
	{"ARRAY[1, NULL]", "ARRAY[1, 2]"},
	{"ARRAY[1, 2]", "ARRAY[1, 3]"},
	{"ARRAY[1]", "NULL::int[]"},
	{"NULL::int[]", "NULL"},
	{"NULL::text[]", "NULL::text[]"},
	{"ARRAY[1]", "ARRAY[1, 1]"},
	{"ARRAY[[1, 2], [3, 4]]", "ARRAY[[1, 2], [3, 4]]"},
	{"ARRAY[1.0]", "ARRAY[1.00]"},
	{"ARRAY[interval '1 day']", "ARRAY[interval '24 hours']"},
	{"ARRAY['a', NULL]::varchar(3)[]", "ARRAY['a', NULL]::varchar(5)[]"},
	{"'{1,2}'", "ARRAY[1, 2]"},
	{"ARRAY[1, 2]", "'{1,NULL}'"},
	{"'{}'::int[]", "ARRAY[]::int[]"},
	{"ARRAY['{\"a\": 1}'::jsonb]", "ARRAY['{\"a\":1}'::jsonb]"},
	{"ROW(ARRAY[1], 2)", "ROW(ARRAY[1], 2)"},
	{"ROW(ARRAY[1, NULL], NULL)", "ROW(ARRAY[1, NULL], NULL)"},
	{"ROW(1, NULL)", "ROW(1, NULL)"},
	{"(1, 'a')", "(1, 'b')"},
	{"'{\"a\": 1}'::jsonb", "'{\"a\":1}'::jsonb"},
	{"ARRAY[1]", "ARRAY[1::bigint]"},
	{"'1'::json", "'1'::json"},
	{"ARRAY['1'::json]", "ARRAY['1'::json]"},
	{"'a'::text", "1"},
}

// TestIsDistinctFromDifferential runs each of distinctPairs with IS
// DISTINCT FROM and IS NOT DISTINCT FROM, alone and on a table's rows, on
// sqlgate and PostgreSQL 15: the same values, or the same SQLSTATE,
// message and position.
func TestIsDistinctFromDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{"CREATE TABLE dfa (id int PRIMARY KEY, a int[])",
		"INSERT INTO dfa VALUES (1, ARRAY[1, NULL]), (2, NULL), (3, ARRAY[1, 2]), (4, '{}')"}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	var queries []string
	for _, p := range distinctPairs {
		for _, op := range []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"} {
			queries = append(queries, fmt.Sprintf("SELECT %s %s %s", p[0], op, p[1]),
				fmt.Sprintf("SELECT 1 AS k, NOT (%s %s %s) AS v", p[0], op, p[1]))
		}
	}
	for _, op := range []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"} {
		queries = append(queries,
			fmt.Sprintf("SELECT x.id, y.id, x.a %s y.a FROM dfa x, dfa y ORDER BY 1, 2", op),
			fmt.Sprintf("SELECT id FROM dfa WHERE a %s ARRAY[1, NULL] ORDER BY id", op),
			fmt.Sprintf("SELECT id FROM dfa WHERE a %s NULL ORDER BY id", op))
	}
	stats := map[string]int{}
	for _, q := range queries {
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true, placed: everyCode})
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
