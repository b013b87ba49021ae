package binder_test

import (
	"strings"
	"testing"

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
