package sql

import "testing"

func TestMapConstructorRewrite(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"pairs", "SELECT MAP['a', 1, 'b', 2]", "SELECT __pg_map('a', 1, 'b', 2)"},
		{"empty", "SELECT MAP[]::map<string, int>", "SELECT __pg_cast(__pg_map(), 'map<string, int>')"},
		{"lower case", "SELECT map['k', x[1]]", "SELECT __pg_map('k', __pg_subscript(x, 1))"},
		{"nested in array", "SELECT ARRAY[MAP['a', ARRAY[1]]]", "SELECT __pg_array(__pg_map('a', __pg_array(1)))"},
		{"nested values", "SELECT MAP['a', MAP[1, ROW(1, 'x')]]", "SELECT __pg_map('a', __pg_map(1, __pg_row(1, 'x')))"},
		{"insert", "INSERT INTO cx VALUES (2, MAP['a', 1], ROW(1, 'x'), ARRAY[4])", "INSERT INTO cx VALUES (2, __pg_map('a', 1), __pg_row(1, 'x'), __pg_array(4))"},
		{"column named map", "SELECT t.map[1] FROM t", "SELECT __pg_subscript(t.map, 1) FROM t"},
		{"one-field row", "SELECT ROW(1)::row<a int>", "SELECT __pg_cast(__pg_row(1), 'row<a int>')"},
		{"row field select", "SELECT (ROW(1, 2)).f1", "SELECT __pg_field((__pg_row(1, 2)), 'f1')"},
		{"bare row stays", "SELECT (1, 2)", "SELECT (1, 2)"},
		{"map string stays", "SELECT 'MAP[1]'", "SELECT 'MAP[1]'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if want := foldOutsideQuotes(tc.want); st.Rewritten != want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
			}
			if st.AST == nil {
				t.Errorf("AST is nil")
			}
		})
	}
}
