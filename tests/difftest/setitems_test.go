package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestSetItemOperatorsDifferential assigns, in UPDATE's SET list (alone
// and after another item) and in ON CONFLICT DO UPDATE's, the value of
// each operator whose rewrite scans back for its left operand (IS [NOT]
// DISTINCT FROM, IS [NOT] TRUE / UNKNOWN, BETWEEN, LIKE / ILIKE /
// SIMILAR TO, IN, AT TIME ZONE, COLLATE, ::) with comparisons on either
// side: PostgreSQL's grammar parses SET col = a_expr, so the scan must
// stop at the item's = (SET b = x IS DISTINCT FROM y was 42601). The
// table's rows must then match PostgreSQL 15's.
func TestSetItemOperatorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{"DROP TABLE IF EXISTS si",
		"CREATE TABLE si (id int PRIMARY KEY, a int, b boolean, x int, y int, s text, ts timestamptz, u text)",
		"INSERT INTO si VALUES (1, 0, NULL, 1, 2, 'ab', '2020-01-01 10:00+00', NULL), (2, 0, NULL, 3, 3, 'Ba', '2021-06-01 00:00+00', NULL)," +
			" (3, 0, NULL, NULL, 4, NULL, NULL, NULL), (4, 0, NULL, 2, NULL, 'a_c', '2019-12-31 23:00+00', NULL)"} {
		for _, e := range []Executor{r.SQLGate, r.Postgres} {
			if res := e.Run(ctx, q); res.Err != nil {
				t.Fatalf("%s: %s", q, res.Err.Message)
			}
		}
	}
	// boolean values for b
	values := []string{
		"x IS DISTINCT FROM y", "x IS NOT DISTINCT FROM y", "x = 1 IS DISTINCT FROM y = 2",
		"x IS DISTINCT FROM y AND y > 1", "NOT x IS DISTINCT FROM 3", "x < y IS NOT DISTINCT FROM true",
		"x IS DISTINCT FROM y = true", "s LIKE 'a%' IS DISTINCT FROM x = 1",
		"x = 1 IS TRUE", "x < y IS NOT TRUE", "x = y IS UNKNOWN", "x > 1 IS NOT UNKNOWN", "(x = 1) IS FALSE",
		"x BETWEEN 1 AND 2", "x NOT BETWEEN y AND 3", "y BETWEEN 1 AND 3 = (x = 1)", "x BETWEEN 1 AND 2 IS DISTINCT FROM true",
		"s LIKE 'a%'", "s NOT ILIKE 'A%'", "s SIMILAR TO '(a|B)%'", "s LIKE 'a%' = (x = 1)", "s ILIKE 'b%' IS NOT TRUE",
		"x IN (1, 2)", "x NOT IN (y, 3)", "x IN (1) = (y = 2)", "x IN (1, 3) IS DISTINCT FROM false",
		"ts AT TIME ZONE 'UTC' < '2020-06-01'", "ts AT TIME ZONE 'UTC' IS DISTINCT FROM '2020-01-01 10:00'",
		"s COLLATE \"C\" < 'b'", "s COLLATE \"C\" IS DISTINCT FROM 'ab'", "x::text = '1'", "x::text LIKE '1%' IS DISTINCT FROM false",
		"x::text IS NOT DISTINCT FROM y::text", "x IS NULL OR y IS DISTINCT FROM 2",
	}
	stats := map[string]int{}
	for i, v := range values {
		for _, q := range []string{
			fmt.Sprintf("UPDATE si SET b = %s", v),
			fmt.Sprintf("UPDATE si SET a = a + 1, b = %s, u = 'v%d'", v, i),
			fmt.Sprintf("UPDATE si AS t SET (a, u) = (a + 1, 'w%d'), b = %s", i, v),
		} {
			tallyBy(t, ctx, r, q, stats, tallyRule{})
			tallyBy(t, ctx, r, "SELECT id, a, b, u FROM si ORDER BY id", stats, tallyRule{ordered: true})
		}
	}
	// ON CONFLICT's SET, its columns qualified (a bare x is 42702 there:
	// the target's or EXCLUDED's)
	for i, v := range []string{"excluded.x IS DISTINCT FROM si.y", "si.x IS NOT DISTINCT FROM excluded.y",
		"excluded.x = 5 IS DISTINCT FROM si.y = 2", "si.x < excluded.y IS NOT TRUE", "excluded.x BETWEEN si.x AND 9",
		"si.s LIKE 'a%' IS DISTINCT FROM excluded.x = 5", "excluded.x IN (si.y, 5)", "si.x::text IS DISTINCT FROM excluded.s",
		"si.ts AT TIME ZONE 'UTC' < '2020-06-01'", "si.s COLLATE \"C\" IS DISTINCT FROM excluded.s"} {
		q := fmt.Sprintf("INSERT INTO si (id, x, y, s) VALUES (%d, 5, 5, 'ab') ON CONFLICT (id) DO UPDATE SET a = excluded.x + %d, b = %s", 1+i%4, i, v)
		tallyBy(t, ctx, r, q, stats, tallyRule{})
		tallyBy(t, ctx, r, "SELECT id, a, b, u FROM si ORDER BY id", stats, tallyRule{ordered: true})
	}
	// text values for u
	for _, v := range []string{"s COLLATE \"C\"", "x::text", "(ts AT TIME ZONE 'UTC')::text", "x::text || s"} {
		tallyBy(t, ctx, r, "UPDATE si SET a = 1, u = "+v, stats, tallyRule{})
		tallyBy(t, ctx, r, "SELECT id, a, b, u FROM si ORDER BY id", stats, tallyRule{ordered: true})
	}
	t.Logf("SET items: %v", stats)
	if stats["same"] < len(values)*6+20 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
	for _, e := range []Executor{r.SQLGate, r.Postgres} {
		e.Run(ctx, "DROP TABLE si")
	}
}
