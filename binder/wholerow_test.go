package binder_test

import (
	"sort"
	"strings"
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

// An outer join's nullable FROM item gets a row marker (a hidden column
// named "row of ALIAS", true where the item has a row) only when its query
// may read the item's whole row: a join whose query reads no whole row
// keeps its inputs as they are.
func TestWholeRowMarkers(t *testing.T) {
	cases := []struct {
		sql     string
		markers []string
	}{
		{sql: "SELECT t.n, u.label FROM t LEFT JOIN u ON t.n = u.id"},
		{sql: "SELECT * FROM t FULL JOIN u ON t.n = u.id"},
		{sql: "SELECT t FROM t JOIN u ON t.n = u.id"},
		{sql: "SELECT t FROM t LEFT JOIN u ON t.n = u.id"}, // t is never made up
		{sql: "SELECT u FROM t LEFT JOIN u ON t.n = u.id", markers: []string{"row of u"}},
		{sql: "SELECT t FROM t RIGHT JOIN u ON t.n = u.id", markers: []string{"row of t"}},
		{sql: "SELECT t, u FROM t FULL JOIN u ON t.n = u.id", markers: []string{"row of t", "row of u"}},
		{sql: "SELECT (SELECT row_to_json(x)) FROM t LEFT JOIN u AS x ON t.n = x.id", markers: []string{"row of x"}},
		{sql: "SELECT t.n FROM t LEFT JOIN (u JOIN u AS v ON u.id = v.id) ON t.n = u.id WHERE v IS NULL", markers: []string{"row of v"}},
		{sql: "SELECT t.n FROM t LEFT JOIN (u LEFT JOIN u AS v ON u.id = v.id) ON t.n = u.id WHERE v IS NULL", markers: []string{"row of v"}},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		found := map[string]bool{}
		var walk func(n binder.Node)
		walk = func(n binder.Node) {
			for _, col := range n.Columns() {
				if strings.HasPrefix(col.Name, "row of ") {
					found[col.Name] = true
				}
			}
			for _, ch := range n.Children() {
				walk(ch)
			}
		}
		walk(st.(*binder.Query).Plan)
		var got []string
		for name := range found {
			got = append(got, name)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(c.markers, ",") {
			t.Errorf("%s: markers %v, want %v", c.sql, got, c.markers)
		}
	}
}
