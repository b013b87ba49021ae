package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCurrentOfRefusals: where sqlgate differs from PostgreSQL 15 on WHERE
// CURRENT OF it says so with 0A000 (the differential and
// tests/sqllogic/cursor_current_of.slt compare the rest with PostgreSQL):
// a log table has no primary key (nor ctid) to find the row by, and a
// cursor must return the key columns of the row it is on.
func TestCurrentOfRefusals(t *testing.T) {
	ps := internalSession(t)
	execAll(t, ps, "CREATE TABLE lg (a INT, b TEXT)")
	execAll(t, ps, "INSERT INTO lg VALUES (1, 'x')")
	execAll(t, ps, "CREATE TABLE pk (id INT PRIMARY KEY, v TEXT)")
	execAll(t, ps, "INSERT INTO pk VALUES (1, 'x')")
	tests := []struct {
		cursor, stmt, want string
	}{
		{"SELECT a FROM lg", "DELETE FROM lg WHERE CURRENT OF c", "log table"},
		{"SELECT a, b FROM lg", "UPDATE lg SET b = 'y' WHERE CURRENT OF c", "log table"},
		{"SELECT v FROM pk", "UPDATE pk SET v = 'y' WHERE CURRENT OF c", `column "id" is not in its select list`},
		{"SELECT id + 0 AS id, v FROM pk", "DELETE FROM pk WHERE CURRENT OF c", `column "id" is not in its select list`},
	}
	ctx := context.Background()
	for _, tt := range tests {
		execAll(t, ps, "BEGIN")
		execAll(t, ps, "DECLARE c CURSOR FOR "+tt.cursor)
		execAll(t, ps, "FETCH c")
		err := func() error {
			stmts, err := ps.Prepare(ctx, tt.stmt, nil)
			if err != nil {
				return err
			}
			res, err := stmts[0].Execute(ctx, nil)
			if err == nil {
				res.Close()
			}
			return err
		}()
		e := sqlerr.As(err)
		if e == nil || e.Code != sqlerr.FeatureNotSupported || !strings.Contains(e.Message, tt.want) {
			t.Errorf("cursor %s, %s: got %v, want 0A000 with %q", tt.cursor, tt.stmt, err, tt.want)
		}
		execAll(t, ps, "ROLLBACK")
	}
}
