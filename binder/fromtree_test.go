package binder_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestFromAndOrderFromTreeKeepErrors: FROM, LATERAL, ORDER BY and the
// locking clause bind from sqlgate's tree (issue 32) with the SQLSTATEs,
// messages and cursor positions they had from TiDB's nodes.
func TestFromAndOrderFromTreeKeepErrors(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		msg  string
		pos  int
	}{
		{"SELECT * FROM t JOIN missing ON true", sqlerr.UndefinedTable, `relation "missing" does not exist`, 22},
		{"SELECT * FROM t LEFT JOIN u ON t.id = nope", sqlerr.UndefinedColumn, `column "nope" does not exist`, 39},
		{"SELECT id FROM t ORDER BY 9", sqlerr.InvalidColumnReference, "ORDER BY position 9 is not in select list", 27},
		{"SELECT id FROM t ORDER BY nope NULLS FIRST", sqlerr.UndefinedColumn, `column "nope" does not exist`, 27},
		{"SELECT * FROM t FULL JOIN u USING (nope)", sqlerr.UndefinedColumn, `column "nope" specified in USING clause does not exist in left table`, 0},
		{"SELECT * FROM t, LATERAL (SELECT nope) s", sqlerr.UndefinedColumn, `column "nope" does not exist`, 34},
		{"SELECT * FROM (SELECT 1) AS s (a, b)", sqlerr.InvalidColumnReference, `table "s" has 1 columns available but 2 columns specified`, 0},
		{"SELECT * FROM t RIGHT JOIN LATERAL (SELECT t.id) s ON true", sqlerr.InvalidColumnReference, `invalid reference to FROM-clause entry for table "t"`, 0},
		{"SELECT * FROM generate_series(1, 2) AS g(a, b, c)", sqlerr.InvalidColumnReference, `table "g" has 1 columns available but 3 columns specified`, 0},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil || e.Code != c.code || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s: got %v, want %s %q at %d", c.sql, err, c.code, c.msg, c.pos)
		}
	}
	if _, err := bind(t, "SELECT id FROM t FOR UPDATE OF t"); err != nil {
		t.Errorf("FOR UPDATE OF t: %v", err)
	}
}
