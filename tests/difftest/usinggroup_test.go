package difftest

import (
	"context"
	"fmt"
	"testing"
)

// TestJoinUsingGroupingDifferential runs GROUP BY, grouping sets, DISTINCT
// ON, ORDER BY and window PARTITION BY over a JOIN USING's merged column and
// each side's column, spelled either way in the key and in the SELECT list,
// for INNER, LEFT, RIGHT and FULL joins of int4 and int8 columns and a USING
// over a join that has a merged column itself, on sqlgate and PostgreSQL
// 15: PostgreSQL's merged column is the left side's column itself (the
// right's for RIGHT) unless a cast or a FULL join's COALESCE makes it
// another expression, so d and a.d group as one column or are refused
// alike (42803) by the same rule.
func TestJoinUsingGroupingDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	setup := []string{
		"CREATE TABLE ug4 (d int, v int)",
		"CREATE TABLE ug8 (d bigint, v int)",
		"INSERT INTO ug4 VALUES (1, 10), (1, 11), (2, 20), (NULL, 30), (3, 40)",
		"INSERT INTO ug8 VALUES (1, 100), (2, 200), (4, 400), (NULL, 500)",
	}
	for _, q := range setup {
		for _, ex := range []Executor{r.SQLGate, r.Postgres} {
			if o := ex.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, describe(o))
			}
		}
	}
	var froms []string
	for _, kind := range []string{"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"} {
		for _, pair := range [][2]string{{"ug4", "ug4"}, {"ug4", "ug8"}, {"ug8", "ug4"}} {
			froms = append(froms, fmt.Sprintf("%s a %s %s b USING (d)", pair[0], kind, pair[1]))
		}
		froms = append(froms, fmt.Sprintf("(ug4 a LEFT JOIN ug4 b USING (d)) %s ug4 c USING (d)", kind))
	}
	shapes := []string{
		"SELECT %[1]s, %[2]s FROM %[3]s GROUP BY %[2]s",
		"SELECT %[1]s, %[2]s, count(*) FROM %[3]s GROUP BY GROUPING SETS ((%[1]s, %[2]s), (%[1]s), ())",
		"SELECT %[2]s, count(*) FROM %[3]s GROUP BY ROLLUP (%[1]s)",
		"SELECT DISTINCT ON (%[1]s) %[2]s, a.v FROM %[3]s ORDER BY %[2]s, a.v",
		"SELECT DISTINCT %[2]s FROM %[3]s ORDER BY %[1]s",
		"SELECT %[1]s, a.v, rank() OVER (PARTITION BY %[2]s ORDER BY %[1]s, a.v) FROM %[3]s ORDER BY 1, 2",
		"SELECT (SELECT %[1]s) FROM %[3]s GROUP BY %[2]s",
	}
	stats := map[string]int{}
	n := 0
	for _, from := range froms {
		for _, names := range [][2]string{{"d", "a.d"}, {"a.d", "d"}, {"d", "b.d"}, {"b.d", "d"}} {
			for _, shape := range shapes {
				q := fmt.Sprintf(shape, names[0], names[1], from)
				tallyBy(t, ctx, r, q, stats, tallyRule{placed: everyCode})
				n++
			}
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
