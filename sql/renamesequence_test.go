package sql

import "testing"

func TestRenameRelationInRegclass(t *testing.T) {
	cases := []struct {
		name, text                     string
		fromSchema, from, toSchema, to string
		want                           string
	}{
		{"nextval bare", "nextval('s'::regclass)", "public", "s", "public", "s2", "nextval('s2'::regclass)"},
		{"nextval no cast", "nextval('s') + 1", "public", "s", "public", "s2", "nextval('s2') + 1"},
		{"qualified stays qualified", "nextval('public.s'::regclass)", "public", "s", "public", "s2", "nextval('public.s2'::regclass)"},
		{"moved to another schema", "currval('s')", "public", "s", "r", "s", "currval('r.s')"},
		{"moved back", "nextval('r.s'::regclass)", "r", "s", "public", "s", "nextval('public.s'::regclass)"},
		{"quoted new name", "setval('s', 5)", "public", "s", "public", "Q 2", `setval('"Q 2"', 5)`},
		{"quoted old name", `nextval('"Q 2"'::regclass)`, "public", "Q 2", "public", "q", "nextval('q'::regclass)"},
		{"folded old name", "nextval('S')", "public", "s", "public", "t", "nextval('t')"},
		{"cast", "CAST('s' AS regclass)", "public", "s", "public", "t", "CAST('t' AS regclass)"},
		{"typed constant", "regclass 's'", "public", "s", "public", "t", "regclass 't'"},
		{"pg_catalog call", "pg_catalog.nextval('s')", "public", "s", "public", "t", "pg_catalog.nextval('t')"},
		{"other schema's name kept", "nextval('r.s')", "public", "s", "public", "t", "nextval('r.s')"},
		{"text argument kept", "pg_get_serial_sequence('s', 'id')", "public", "s", "public", "t", "pg_get_serial_sequence('s', 'id')"},
		{"text cast kept", "'s'::text", "public", "s", "public", "t", "'s'::text"},
		{"other function's call kept", "f('s')", "public", "s", "public", "t", "f('s')"},
		{"second argument kept", "setval('x', 's')", "public", "s", "public", "t", "setval('x', 's')"},
		{"a query", "SELECT nextval('s') AS n, 's' AS name", "public", "s", "public", "t", "SELECT nextval('t') AS n, 's' AS name"},
		{"another relation", "nextval('s1')", "public", "s", "public", "t", "nextval('s1')"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, changed, ok := RenameRelationInRegclass(c.text, "public", c.fromSchema, c.from, c.toSchema, c.to)
			if !ok || got != c.want || changed != (c.want != c.text) {
				t.Errorf("RenameRelationInRegclass(%q) = %q, %v, %v; want %q", c.text, got, changed, ok, c.want)
			}
		})
	}
}
