package binder_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A table alias used as a value is the whole row; a column of the same
// name wins, as in PostgreSQL.
func TestWholeRowReference(t *testing.T) {
	cases := []struct {
		sql  string
		name string
		typ  string
		code sqlerr.Code // "" when it binds
	}{
		{sql: "SELECT row_to_json(t) FROM t", name: "row_to_json", typ: "json"},
		{sql: "SELECT row_to_json(x) FROM t AS x JOIN u ON x.n = u.id", name: "row_to_json", typ: "json"},
		{sql: "SELECT row_to_json(s) FROM (SELECT 1 AS a, 'x' AS b) s", name: "row_to_json", typ: "json"},
		{sql: "SELECT row_to_json(ROW(1, 'x'))", name: "row_to_json", typ: "json"},
		{sql: "SELECT to_json(ROW(n, name)) FROM t", name: "to_json", typ: "json"},
		{sql: "SELECT id FROM (SELECT 1 AS id) id", name: "id", typ: "int"}, // the column, not the row
		{sql: "SELECT row_to_json(nosuch) FROM t", code: sqlerr.UndefinedColumn},
		{sql: "SELECT row_to_json(u) FROM t", code: sqlerr.UndefinedColumn},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code {
				t.Errorf("%s: %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cols := st.(*binder.Query).Plan.Columns()
		if len(cols) != 1 || cols[0].Name != c.name || cols[0].T.String() != c.typ {
			t.Errorf("%s: columns %v, want %s %s", c.sql, cols, c.name, c.typ)
		}
	}
}
