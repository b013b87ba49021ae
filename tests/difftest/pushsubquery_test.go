package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// PostgreSQL plans a derived table it does not pull up (DISTINCT, GROUP
// BY, aggregates, a window, ORDER BY, UNION or INTERSECT, a volatile or
// set-returning output) as a query of its own, after moving into it each
// restriction clause that is safe to move (allpaths.c's
// set_subquery_pathlist: subquery_push_qual), the derived table's output
// expressions in place of its columns; that query's planning folds them,
// so SELECT * FROM (SELECT DISTINCT 'AB' FROM t) s(c) WHERE c::boolean
// fails over an empty t, and a clause that folds to false empties the
// derived table unread. Not through LIMIT, grouping sets or EXCEPT, not a
// clause on a window's non-PARTITION BY output, a DISTINCT ON's non-key,
// a volatile or set-returning output, not into a UNION ALL PostgreSQL
// flattens, nor from a WHERE over an outer join's nullable side. The
// generator draws foldnested_test.go's expressions over fc(id, t) (two
// constant outputs of such a derived table, k a column of the table)
// and reads them in WHERE, ON and subqueries over it, over a table with
// rows, WHERE false and an empty table: SQLSTATEs and rows, no allowance.
// SQLGATE_DIFF_PUSHSUBQUERY_QUERIES sets the count (default 60).

// pushLevels are the derived tables of the constants %[1]s (an int) and
// %[2]s (a text) and a column over the table %[3]s with the condition
// %[4]s.
var pushLevels = []string{
	"SELECT DISTINCT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s",
	"SELECT DISTINCT %[1]s, %[2]s, 1 FROM %[3]s WHERE %[4]s",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s GROUP BY id",
	"SELECT %[1]s, %[2]s, count(*)::int FROM %[3]s WHERE %[4]s",
	"SELECT %[1]s, %[2]s, count(*)::int FROM %[3]s WHERE %[4]s GROUP BY 1, 2",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s GROUP BY id HAVING count(*) > 0",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s GROUP BY ROLLUP (id)",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s UNION SELECT %[1]s, %[2]s, id FROM %[3]s",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s INTERSECT SELECT %[1]s, %[2]s, id FROM %[3]s",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s EXCEPT SELECT 5, 'q', -1",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s UNION ALL SELECT %[1]s, %[2]s, id FROM %[3]s",
	"SELECT DISTINCT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s UNION ALL SELECT %[1]s, %[2]s, id FROM %[3]s",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s UNION SELECT 5, 'q', -1 UNION SELECT %[1]s, %[2]s, 0",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s LIMIT 5",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s ORDER BY id",
	"SELECT %[1]s, %[2]s, row_number() OVER (PARTITION BY id)::int FROM %[3]s WHERE %[4]s",
	"SELECT %[1]s, %[2]s, id, row_number() OVER () FROM %[3]s WHERE %[4]s",
	"SELECT DISTINCT ON (id) %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s ORDER BY id",
	"SELECT %[1]s, %[2]s, id, random() FROM %[3]s WHERE %[4]s",
	"SELECT %[1]s, %[2]s, generate_series(1, 2) FROM %[3]s WHERE %[4]s",
	"SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s",
	"SELECT DISTINCT n, c, k FROM (SELECT DISTINCT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s) x(n, c, k)",
	"SELECT n, c, max(k) FROM (SELECT %[1]s, %[2]s, id FROM %[3]s WHERE %[4]s) x(n, c, k) GROUP BY n, c",
}

// pushReads are the queries that read an expression %[2]s over the
// derived table %[1]s as fc(id, t, k).
var pushReads = []string{
	"SELECT fc.k FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NOT NULL",
	"SELECT fc.k FROM (%[1]s) fc(id, t, k) WHERE fc.k > 0 AND (%[2]s) IS NOT NULL",
	"SELECT count(*) FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NULL",
	"SELECT fc.k FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NOT NULL OR fc.k > 5",
	"SELECT fc.k FROM (SELECT * FROM (%[1]s) fc(id, t, k)) fc WHERE (%[2]s) IS NOT NULL",
	"SELECT x.id FROM fs x JOIN (%[1]s) fc(id, t, k) ON (%[2]s) IS NOT NULL",
	"SELECT x.id FROM fs x JOIN (%[1]s) fc(id, t, k) ON x.id = fc.k WHERE (%[2]s) IS NOT NULL",
	"SELECT x.id FROM fs x LEFT JOIN (%[1]s) fc(id, t, k) ON (%[2]s) IS NOT NULL",
	"SELECT x.id FROM fs x LEFT JOIN (%[1]s) fc(id, t, k) ON true WHERE (%[2]s) IS NULL",
	"SELECT x.id FROM fs x FULL JOIN (%[1]s) fc(id, t, k) ON x.id = fc.k AND (%[2]s) IS NOT NULL",
	"SELECT (SELECT count(*) FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NOT NULL)",
	"SELECT x.id FROM fs x WHERE EXISTS (SELECT 1 FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NOT NULL)",
	"SELECT x.id, l.k FROM fs x, LATERAL (SELECT fc.k FROM (%[1]s) fc(id, t, k) WHERE (%[2]s) IS NOT NULL AND fc.k <> x.id) l",
}

// TestPushSubqueryQualDifferential: see above.
func TestPushSubqueryQualDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r, "CREATE TABLE fs (id int PRIMARY KEY, t text)", "INSERT INTO fs VALUES (1, 'b'), (2, '12'), (3, NULL)", "CREATE TABLE fs0 (id int PRIMARY KEY, t text)")
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 45045))))
	n := envInt(t, "SQLGATE_DIFF_PUSHSUBQUERY_QUERIES", 60)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		e := readsFc(rng, "int", "boolean", "int2")
		p := pickFrom(rng)
		id := p("0", "1", "7", "2147483647", "-2147483648", "NULL::int", "2")
		text := p("'b'", "' 7 '", "'12'", "'x'", "'('", "''", "NULL::text", "'2147483648'", "'true'", "'b'::text", "'12'::varchar")
		level := pushLevels[rng.Intn(len(pushLevels))]
		read := pushReads[rng.Intn(len(pushReads))]
		for _, from := range [][2]string{{"fs", "false"}, {"fs0", "true"}, {"fs", "true"}} {
			q := fmt.Sprintf(read, fmt.Sprintf(level, id, text, from[0], from[1]), e)
			tallyBy(t, ctx, r, q, stats, tallyRule{codeOnly: true})
		}
	}
	t.Logf("%d expressions: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/2 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
