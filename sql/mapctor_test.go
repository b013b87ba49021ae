package sql

import "testing"

func TestMapConstructorRewrite(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"pairs", "SELECT MAP['a', 1, 'b', 2]", "SELECT pg__map('a', 1, 'b', 2)"},
		{"empty", "SELECT MAP[]::map<string, int>", "SELECT pg__cast(pg__map(), 'map<string, int>')"},
		{"lower case", "SELECT map['k', x[1]]", "SELECT pg__map('k', pg__subscript(x, 1))"},
		{"nested in array", "SELECT ARRAY[MAP['a', ARRAY[1]]]", "SELECT pg__array(pg__map('a', pg__array(1)))"},
		{"nested values", "SELECT MAP['a', MAP[1, ROW(1, 'x')]]", "SELECT pg__map('a', pg__map(1, pg__row(1, 'x')))"},
		{"insert", "INSERT INTO cx VALUES (2, MAP['a', 1], ROW(1, 'x'), ARRAY[4])", "INSERT INTO cx VALUES (2, pg__map('a', 1), pg__row(1, 'x'), pg__array(4))"},
		{"column named map", "SELECT t.map[1] FROM t", "SELECT pg__subscript(t.map, 1) FROM t"},
		{"one-field row", "SELECT ROW(1)::row<a int>", "SELECT pg__cast(pg__row(1), 'row<a int>')"},
		{"row field select", "SELECT (ROW(1, 2)).f1", "SELECT pg__field((pg__row(1, 2)), 'f1')"},
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
