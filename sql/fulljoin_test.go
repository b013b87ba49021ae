package sql

import "testing"

func TestFullJoinRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT * FROM a FULL JOIN b ON a.x = b.x", "SELECT * FROM a LEFT JOIN b ON pg__full_join((a.x = b.x))"},
		{"SELECT * FROM a FULL OUTER JOIN b ON a.x = b.x OR a.y = 1 WHERE a.z", "SELECT * FROM a LEFT JOIN b ON pg__full_join((a.x = b.x OR a.y = 1)) WHERE a.z"},
		{`SELECT * FROM a full join b USING (x, "Y")`, "SELECT * FROM a LEFT JOIN b ON pg__full_join_using('x', 'Y')"},
		{"SELECT * FROM a NATURAL FULL JOIN b ORDER BY 1", "SELECT * FROM a LEFT JOIN b ON pg__full_join_natural() ORDER BY 1"},
		{"SELECT * FROM a FULL JOIN (SELECT x FROM c WHERE y) s ON a.x = s.x JOIN d ON true",
			"SELECT * FROM a LEFT JOIN (SELECT x FROM c WHERE y) s ON pg__full_join((a.x = s.x)) JOIN d ON true"},
		{"SELECT * FROM a FULL JOIN b ON a.x = b.x, c", "SELECT * FROM a LEFT JOIN b ON pg__full_join((a.x = b.x)), c"},
		{"SELECT t.full FROM t", `SELECT t."full" FROM t`}, // a column named full is a name, not FULL JOIN
	} {
		t.Run(tc.in, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if want := foldOutsideQuotes(tc.want); st.Rewritten != want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
			}
		})
	}
	for _, bad := range []string{
		"SELECT * FROM a FULL JOIN b",
		"SELECT * FROM a FULL JOIN b USING ()",
		"SELECT * FROM a FULL JOIN b USING (x +)",
		"SELECT * FROM a FULL JOIN",
		"SELECT * FROM a FULL JOIN b ON",
	} {
		if _, err := NewParser().Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
