package binder_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestSelectFromTreeNamesColumnsAsPostgres: the SELECT list binds from
// sqlgate's tree (issue 32) and its column labels are PostgreSQL 15's
// (checked there), FigureColname's rules read from the tree's nodes.
func TestSelectFromTreeNamesColumnsAsPostgres(t *testing.T) {
	cases := []struct{ sql, names string }{
		{"SELECT id, n + 1, n::text, 1::int::text, CASE WHEN n > 1 THEN name END, CASE WHEN true THEN 1 ELSE n END, EXISTS (SELECT 1), NOT EXISTS (SELECT 1) FROM t",
			"id ?column? n text case n exists ?column?"},
		{"SELECT count(*), sum(score) FILTER (WHERE id > 1), string_agg(name, ',' ORDER BY id), variance(n), stddev(n) FROM t",
			"count sum string_agg variance stddev"},
		{"SELECT row_number() OVER (), sum(n) OVER (PARTITION BY id), rank() OVER w FROM t WINDOW w AS (ORDER BY id)",
			"row_number sum rank"},
		{"SELECT trim(name), trim(both 'x' from name), trim(leading 'x' from name), trim(trailing from name), EXTRACT(year FROM date '2020-01-01'), position('a' in name) FROM t",
			"btrim btrim ltrim rtrim extract position"},
		// (1, 2) is "row" as ROW(1, 2) is, in PostgreSQL
		{"SELECT ARRAY[1], ARRAY(SELECT 1), ROW(1, 2), (1, 2), (ARRAY[1])[1], (ARRAY[1,2])[1:2], 1 = ANY(ARRAY[1]) FROM t",
			"array array row row array array ?column?"},
		{"SELECT name || 'x', concat(name, 'x'), 2 ^ 3, '{}'::jsonb -> 'a', |/ 4.0, (ROW(1,2)).f1 FROM t",
			"?column? concat ?column? ?column? ?column? f1"},
		// a scalar subquery is named after its query's first column: an
		// alias, an expression's name, VALUES' column1
		{"SELECT (SELECT max(id) FROM u), (SELECT label AS l FROM u LIMIT 1), (SELECT (VALUES (1))), (SELECT DISTINCT ON (id) id FROM u)",
			"max l column1 id"},
		{"SELECT (ROW(1, 'a')).*, n AS k FROM t", "f1 f2 k"},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var names []string
		for _, col := range st.(*binder.Query).Plan.Columns() {
			names = append(names, col.Name)
		}
		if got := strings.Join(names, " "); got != c.names {
			t.Errorf("%s: columns %q, want %q", c.sql, got, c.names)
		}
	}
}

// TestSelectFromTreeKeepsErrors: WHERE, GROUP BY, HAVING, DISTINCT ON,
// VALUES and the grouping constructs keep the SQLSTATEs, messages and
// cursor positions they had from TiDB's nodes.
func TestSelectFromTreeKeepsErrors(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		msg  string
		pos  int
	}{
		{"SELECT * FROM t WHERE count(*) > 1", sqlerr.GroupingError, "aggregate functions are not allowed in WHERE", 23},
		{"SELECT * FROM t WHERE id > 1 AND GROUPING(id) = 1", sqlerr.GroupingError, "grouping operations are not allowed in WHERE", 34},
		{"SELECT n FROM t GROUP BY 7", sqlerr.InvalidColumnReference, "GROUP BY position 7 is not in select list", 26},
		{"SELECT n FROM t GROUP BY count(*)", sqlerr.GroupingError, "aggregate functions are not allowed in GROUP BY", 26},
		{"SELECT DISTINCT ON (n) n, id FROM t ORDER BY id", sqlerr.InvalidColumnReference, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions", 21},
		{"VALUES (1, 2), (3)", sqlerr.SyntaxError, "VALUES lists must all be the same length", 17},
		{"VALUES (DEFAULT)", sqlerr.SyntaxError, "DEFAULT is not allowed in this context", 9},
		{"SELECT id FROM t HAVING id > 1", sqlerr.GroupingError, `column "t.id" must appear in the GROUP BY clause or be used in an aggregate function`, 8},
		{"SELECT n FROM t GROUP BY n HAVING 1", sqlerr.DatatypeMismatch, "argument of HAVING must be type boolean, not type integer", 35},
		{"SELECT * FROM t WHERE 1", sqlerr.DatatypeMismatch, "argument of WHERE must be type boolean, not type integer", 23},
		{"SELECT DISTINCT id FROM t FOR UPDATE", sqlerr.FeatureNotSupported, "FOR UPDATE is not allowed with DISTINCT clause", 0},
		{"SELECT n, count(*) FROM t GROUP BY CUBE (ROLLUP (n))", sqlerr.UndefinedFunction, "function rollup(integer) does not exist", 42},
		{"SELECT id FROM t WINDOW w AS (PARTITION BY nope)", sqlerr.UndefinedColumn, `column "nope" does not exist`, 44},
		{"SELECT sum(n) OVER (ORDER BY max(n)) FROM t", sqlerr.GroupingError, `column "t.n" must appear in the GROUP BY clause or be used in an aggregate function`, 12},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s: got %v, want %s %q at %d", c.sql, err, c.code, c.msg, c.pos)
		}
	}
}
