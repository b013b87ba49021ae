package binder_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Column names and PostgreSQL type names of VALUES queries and derived
// tables with column alias lists (expected values from PostgreSQL 15).
func TestValuesAndColumnAliasLists(t *testing.T) {
	cases := []struct {
		sql  string
		cols string // name type, ...
	}{
		{"VALUES (1, 'a'), (2, 'b')", "column1 integer, column2 text"},
		{"VALUES (1), ('2')", "column1 integer"},
		{"VALUES (NULL), (NULL)", "column1 text"},
		{"VALUES (NULL), (1)", "column1 integer"},
		{"VALUES (1), (2.5)", "column1 numeric"},
		{"VALUES (1), (9999999999)", "column1 bigint"},
		{"VALUES (1, 'x'), (2, 'y') ORDER BY column2 DESC LIMIT 1", "column1 integer, column2 text"},
		{"VALUES (1, 'x'), (2, 'y') ORDER BY column1 + 1, 2", "column1 integer, column2 text"},
		{"SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name)", "id integer, name text"},
		{"SELECT t.column2 FROM (VALUES (1, 'a')) t", "column2 text"},
		{"SELECT * FROM (VALUES (1, 'a')) AS t(id)", "id integer, column2 text"},
		{"WITH v(x) AS (VALUES (1), (2)) SELECT x FROM v", "x integer"},
		{"SELECT 1 UNION VALUES (2)", "?column? integer"},
		{"VALUES (1.5) UNION SELECT n FROM t", "column1 numeric"},
		{"SELECT id FROM t WHERE n IN (VALUES (1), (2))", "id bigint"},
		{"SELECT * FROM (SELECT 1 a, 2 b) AS t(x, y)", "x integer, y integer"},
		{"SELECT * FROM (SELECT 1 a, 2 b) AS t(x)", "x integer, b integer"},
		{"SELECT t.x, b FROM (SELECT 1 a, 2 b) t(x)", "x integer, b integer"},
		{`SELECT "X" FROM (SELECT id FROM t) s("X")`, "X bigint"},
		{"SELECT * FROM generate_series(1, 3) AS g(n)", "n integer"},
		{"SELECT * FROM unnest(ARRAY[1, 2]) AS u(x)", "x integer"},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got []string
		for _, col := range st.(*binder.Query).Plan.Columns() {
			got = append(got, col.Name+" "+col.T.PGName())
		}
		if g := strings.Join(got, ", "); g != c.cols {
			t.Errorf("%s: columns %q, want %q", c.sql, g, c.cols)
		}
	}
}

func TestValuesErrors(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		msg  string
		pos  int
	}{
		{"values (1),('a'::text)", sqlerr.DatatypeMismatch, "VALUES types integer and text cannot be matched", 13},
		{"values (1),(true)", sqlerr.DatatypeMismatch, "VALUES types integer and boolean cannot be matched", 13},
		{"values (1,2),(3)", sqlerr.SyntaxError, "VALUES lists must all be the same length", 15},
		{"SELECT * FROM (VALUES (1), (2, 3)) v", sqlerr.SyntaxError, "VALUES lists must all be the same length", 29},
		{"values (1),('x')", sqlerr.InvalidTextRepresentation, `invalid input syntax for type integer: "x"`, 13},
		{"select * from (select 1 a, 2 b) as t(x,y,z)", sqlerr.InvalidColumnReference, `table "t" has 2 columns available but 3 columns specified`, 0},
		{"SELECT * FROM (VALUES (1)) v(a, b)", sqlerr.InvalidColumnReference, `table "v" has 1 columns available but 2 columns specified`, 0},
		{"WITH t(x, y) AS (SELECT 1) SELECT * FROM t", sqlerr.InvalidColumnReference, `WITH query "t" has 1 columns available but 2 columns specified`, 0},
		{"SELECT a FROM (SELECT 1 a) t(x)", sqlerr.UndefinedColumn, `column "a" does not exist`, 8},
		{"VALUES (DEFAULT)", sqlerr.SyntaxError, "DEFAULT is not allowed in this context", 9},
		{"VALUES (1) ORDER BY nope", sqlerr.UndefinedColumn, `column "nope" does not exist`, 21},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: want %s, got %v", c.sql, c.code, err)
			continue
		}
		if e.Code != c.code || (c.msg != "" && e.Message != c.msg) {
			t.Errorf("%s: %s %q, want %s %q", c.sql, e.Code, e.Message, c.code, c.msg)
		}
		if e.Position != c.pos {
			t.Errorf("%s: position %d, want %d", c.sql, e.Position, c.pos)
		}
	}
}

// A parameter in a VALUES list takes its column's type, as in PostgreSQL
// (PREPARE p AS VALUES ($1), (2) has parameter_types {integer}).
func TestValuesParameterTypes(t *testing.T) {
	cases := []struct {
		sql  string
		want string
	}{
		{"VALUES ($1), (2)", "integer"},
		{"SELECT * FROM (VALUES (1.5, 'x'), ($1, $2)) t(a, b)", "numeric,text"},
		{"VALUES ($1)", "text"},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got []string
		for _, p := range st.Params() {
			got = append(got, p.PGName())
		}
		if g := strings.Join(got, ","); g != c.want {
			t.Errorf("%s: params %s, want %s", c.sql, g, c.want)
		}
	}
}
