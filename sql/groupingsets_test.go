package sql

import "testing"

func TestGroupingSetsRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT a FROM t GROUP BY ROLLUP (a, (b, c))", "select a from t group by pg__rollup (a, (b, c))"},
		{"SELECT a FROM t GROUP BY a, CUBE(a, b), ()", "select a from t group by a, pg__cube(a, b), pg__empty_set()"},
		{"SELECT a FROM t GROUP BY GROUPING SETS ((a, b), (), ROLLUP (a), GROUPING SETS (b))",
			"select a from t group by pg__grouping_sets ((a, b), pg__empty_set(), pg__rollup (a), pg__grouping_sets (b))"},
		{"SELECT a FROM t GROUP BY ()", "select a from t group by pg__empty_set()"},
		{"SELECT a FROM t GROUP BY DISTINCT a, b", "select a from t group by pg__group_distinct(), a, b"},
		{"SELECT a FROM t GROUP BY DISTINCT ROLLUP (a)", "select a from t group by pg__group_distinct(), pg__rollup (a)"},
		{"SELECT a FROM t GROUP BY ALL a", "select a from t group by a"},
		{"SELECT grouping(a, b), count(*) FROM t GROUP BY a, b", "select grouping(a, b), count(*) from t group by a, b"},
		// outside GROUP BY, rollup and cube are function names
		{"SELECT cube(1), f(a, rollup(b)) FROM t", `select "cube"(1), f(a, "rollup"(b)) from t`},
		{"SELECT a FROM t GROUP BY (SELECT cube(a) FROM u)", `select a from t group by (select "cube"(a) from u)`},
		{"SELECT now() FROM t GROUP BY a HAVING count(*) > 0 ORDER BY rollup(a)", `select now() from t group by a having count(*) > 0 order by "rollup"(a)`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if st.Rewritten != tc.want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, tc.want)
			}
		})
	}
}

func TestWithinGroupRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) FROM t",
			"select group_concat(pg__within_group(0.5) order by x separator 'pg__agg:percentile_cont') from t"},
		{"SELECT mode() WITHIN GROUP (ORDER BY x DESC NULLS LAST) FROM t",
			"select group_concat(pg__within_group() order by pg__nulls(x, 'last') desc separator 'pg__agg:mode') from t"},
		{"SELECT rank(3, 'a') WITHIN GROUP (ORDER BY x, y) FILTER (WHERE x > 1) FROM t",
			"select pg__filter(group_concat(pg__within_group(3, 'a') order by x, y separator 'pg__agg:rank'), x > 1) from t"},
		{"SELECT percentile_disc(ARRAY[0.5, 0.1]) WITHIN GROUP (ORDER BY x) AS p FROM t",
			`select group_concat(pg__within_group(pg__array(0.5, 0.1)) order by x separator 'pg__agg:percentile_disc') as "p" from t`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if st.Rewritten != tc.want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, tc.want)
			}
		})
	}
}
