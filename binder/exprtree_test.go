package binder_test

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestTreeBoundErrorsKeepTheirCursor: the expression kinds that bind from
// sql/tree report their errors where PostgreSQL puts the cursor (at, a
// substring of the statement whose first occurrence is the position).
func TestTreeBoundErrorsKeepTheirCursor(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		at   string
	}{
		{"SELECT nosuch FROM t", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT id FROM t WHERE n > 0 AND nosuch = 1", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT id FROM t WHERE name + 1 > 0", sqlerr.UndefinedFunction, "+ 1"},
		{"SELECT id FROM t WHERE n BETWEEN 1 AND nosuch", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT id FROM t WHERE n BETWEEN SYMMETRIC 1 AND nosuch", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT NOT 1 FROM t", sqlerr.DatatypeMismatch, "1 FROM"},
		{"SELECT CASE WHEN 2 THEN 3 END FROM t", sqlerr.DatatypeMismatch, "2 THEN"},
		{"SELECT id FROM t WHERE n IN (1, nosuch)", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT id FROM t WHERE name LIKE nosuch", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT id FROM t WHERE name ~ nosuch", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT nosuch::int FROM t", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT 'x'::int FROM t", sqlerr.InvalidTextRepresentation, "'x'"},
		{"SELECT $1 + nosuch FROM t", sqlerr.UndefinedColumn, "nosuch"},
		// arrays, subqueries, ANY/ALL, EXTRACT, position, MAP, WITHIN GROUP
		{"SELECT n = ANY (n) FROM t", sqlerr.WrongObjectType, "= ANY"},
		{"SELECT n[1] FROM t", sqlerr.DatatypeMismatch, "n[1]"},
		{"SELECT (ARRAY[1])[nosuch]", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT (ARRAY[1])[1:nosuch]", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT ARRAY[1, 'x']", sqlerr.InvalidTextRepresentation, "'x'"},
		{"SELECT ARRAY[1, nosuch]", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT (SELECT id, n FROM t)", sqlerr.SyntaxError, "(SELECT"},
		{"SELECT ARRAY(SELECT id, n FROM t)", sqlerr.SyntaxError, "ARRAY("},
		{"SELECT 1 IN (SELECT id, n FROM t)", sqlerr.SyntaxError, "IN ("},
		{"SELECT true = ANY (SELECT id FROM t)", sqlerr.UndefinedFunction, "= ANY"},
		{"SELECT EXISTS (SELECT nosuch FROM t)", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT MAP[NULL, 1]", sqlerr.NullValueNotAllowed, "NULL"},
		{"SELECT EXTRACT(year FROM nosuch)", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT position('a' IN nosuch)", sqlerr.UndefinedColumn, "nosuch"},
		{"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY name) FROM t", sqlerr.UndefinedFunction, "percentile_cont"},
		{"SELECT rank(1, 2) WITHIN GROUP (ORDER BY n) FROM t", sqlerr.UndefinedFunction, "rank"},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		se := sqlerr.As(err)
		if se == nil || se.Code != c.code {
			t.Errorf("%s: %v, want %s", c.sql, err, c.code)
			continue
		}
		if want := strings.Index(c.sql, c.at) + 1; se.Position != want {
			t.Errorf("%s: %s at %d, want %d (%q)", c.sql, se.Message, se.Position, want, c.at)
		}
	}
}

// TestTreeBoundCallsKeepPostgresLabels: the syntax that binds to a
// function names its column after that function, as PostgreSQL does
// (select.go reads the label from TiDB's node, which the binding renames:
// exprbind.go's relabelCall), and the moved kinds keep theirs.
func TestTreeBoundCallsKeepPostgresLabels(t *testing.T) {
	cases := []struct{ sql, name string }{
		{"SELECT EXTRACT(year FROM DATE '2020-01-02')", "extract"},
		{"SELECT trim(LEADING 'x' FROM 'xa')", "ltrim"},
		{"SELECT trim(TRAILING 'x' FROM 'ax')", "rtrim"},
		{"SELECT trim(BOTH 'x' FROM 'xax')", "btrim"},
		{"SELECT position('a' IN 'ba')", "position"},
		{"SELECT 2 ^ 3", "?column?"},
		{"SELECT MAP['a', 1]", "map"},
		{"SELECT (ARRAY[n])[1] FROM t", "array"},
		{"SELECT EXISTS (SELECT 1)", "exists"},
		{"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n) FROM t", "percentile_disc"},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cols := st.(*binder.Query).Plan.Columns()
		if len(cols) != 1 || cols[0].Name != c.name {
			t.Errorf("%s: columns %v, want one named %s", c.sql, cols, c.name)
		}
	}
}
