package difftest

import (
	"context"
	"fmt"
	"testing"
)

// matviewSelects are the queries materialized views are made of: filters,
// expressions, aggregates, DISTINCT, joins, set operations, WITH, VALUES
// and a column list (the first of each pair is the view's column list,
// "" for none).
var matviewSelects = [][2]string{
	{"", "SELECT k, v FROM mvb"},
	{"", "SELECT k, v FROM mvb WHERE k % 2 = 0"},
	{"(a, b)", "SELECT k * 2, upper(v) FROM mvb"},
	{"(only_first)", "SELECT k, v, k + 1 AS next FROM mvb"},
	{"", "SELECT v, count(*) AS n, sum(k) AS s, avg(k) AS a FROM mvb GROUP BY v"},
	{"", "SELECT DISTINCT v FROM mvb"},
	{"", "SELECT k::text || '-' || coalesce(v, '?') AS label, k > 2 AS big FROM mvb"},
	{"", "SELECT a.k, b.v FROM mvb a JOIN mvb b ON a.k = b.k + 1"},
	{"", "SELECT k FROM mvb UNION SELECT k + 10 FROM mvb"},
	{"", "WITH w AS (SELECT k FROM mvb WHERE v IS NOT NULL) SELECT count(*) AS c, max(k) AS m FROM w"},
	{"", "SELECT * FROM (VALUES (1, 'x'), (2, NULL)) AS t (n, s)"},
	{"", "SELECT k, 1.5::numeric(4,2) AS d, now() IS NOT NULL AS t, NULL::int AS nothing FROM mvb"},
	{"", "SELECT k, row_number() OVER (ORDER BY k DESC) AS rn FROM mvb"},
	{"", "SELECT k::varchar(5) AS vc, v::char(3) AS c, k::numeric(10,2) AS n2, k::float8 / 3 AS f, ARRAY[k, k] AS arr, k::smallint AS sm FROM mvb"},
	{"", "SELECT DATE '2024-01-01' + k AS d, TIMESTAMP '2024-01-01 00:00' + k * INTERVAL '1 hour' AS ts, k / 3.0 AS q, k * INTERVAL '1 day' AS iv FROM mvb"},
	{"", "SELECT k, ARRAY[k / 7.0] AS na, jsonb_build_object('k', k) AS j, NULL AS n FROM mvb"},
	{"", "SELECT k, TIME WITH TIME ZONE '10:00+02' AS tz, 'mvb'::regclass AS rc, v::name AS nm, v::bpchar AS bp, v::bytea AS by, k > 1 AS b FROM mvb"},
	{"", "SELECT k, ARRAY[k * INTERVAL '1 minute'] AS ivs, ARRAY[v::bpchar] AS bps, TIMESTAMPTZ '2024-05-01 12:00+00' AS tstz FROM mvb"},
	{"", "SELECT nope FROM mvb"},
	{"", "SELECT k + 'x'::text FROM mvb"},
}

// matviewReads are what is asked of each view: its rows, its columns' names
// and types as the catalog shows them, and its catalog rows.
var matviewReads = []string{
	"SELECT * FROM dmv",
	"SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'dmv'::regclass AND attnum > 0 ORDER BY attnum",
	"SELECT relkind::text, relispopulated, relnatts FROM pg_class WHERE relname = 'dmv'",
	"SELECT matviewname::text, ispopulated, hasindexes FROM pg_matviews WHERE matviewname = 'dmv'",
}

// TestMatviewDifferential: each generated materialized view (a query ×
// WITH [NO] DATA) is created on sqlgate and PostgreSQL, read, its base
// table changed and the view refreshed (plainly and WITH NO DATA) and read
// again: rows, column types, catalog rows and refusals must be
// PostgreSQL's.
func TestMatviewDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	both := func(q string) {
		t.Helper()
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			if res := s.Run(ctx, q); res.Err != nil {
				t.Fatalf("%s: %s", q, describeAt(res))
			}
		}
	}
	both("CREATE TABLE mvb (k INT PRIMARY KEY, v TEXT)")
	both("INSERT INTO mvb VALUES (1, 'a'), (2, 'b'), (3, NULL), (4, 'b')")
	stats := map[string]int{}
	for _, sel := range matviewSelects {
		for _, data := range []string{"", " WITH NO DATA"} {
			create := fmt.Sprintf("CREATE MATERIALIZED VIEW dmv %s AS %s%s", sel[0], sel[1], data)
			tallyBy(t, ctx, r, create, stats, tallyRule{placed: everyCode})
			if len(r.Postgres.Run(ctx, "SELECT 1 FROM pg_class WHERE relname = 'dmv'").Rows) == 0 {
				continue // refused alike (or reported) above
			}
			for _, step := range []string{"", "INSERT INTO mvb VALUES (5, 'c')", "REFRESH MATERIALIZED VIEW dmv", "REFRESH MATERIALIZED VIEW dmv WITH NO DATA"} {
				if step != "" {
					tally(t, ctx, r, step, stats)
				}
				for _, read := range matviewReads {
					tally(t, ctx, r, read, stats)
				}
			}
			both("DELETE FROM mvb WHERE k = 5")
			both("DROP MATERIALIZED VIEW dmv")
		}
	}
	both("DROP TABLE mvb")
	t.Logf("materialized views: %v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("the workload did not run both ways: %v", stats)
	}
}
