package sql

import "testing"

func TestOrderedAggregateRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT string_agg(s, ',' ORDER BY s DESC) FROM t", "SELECT group_concat(s, ',' order by s DESC separator 'pg__agg:string_agg') FROM t"},
		{"SELECT array_agg(DISTINCT x ORDER BY x NULLS FIRST) FROM t", "SELECT group_concat(distinct x order by pg__nulls(x, 'first') separator 'pg__agg:array_agg') FROM t"},
		{"SELECT array_agg(x ORDER BY f(x, y), (z)) FILTER (WHERE x > 0) FROM t",
			"SELECT pg__filter(group_concat(x order by f(x, y), (z) separator 'pg__agg:array_agg'), x > 0) FROM t"},
		{"SELECT f(x) FROM t ORDER BY x", "SELECT f(x) FROM t ORDER BY x"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if want := foldOutsideQuotes(tc.want); st.Rewritten != want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
			}
		})
	}
}
