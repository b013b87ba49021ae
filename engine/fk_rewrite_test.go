package engine_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestDeferredCheckAfterRewrite: a transaction's deferred foreign-key
// checks run at COMMIT against the key as the catalog has it then: another
// session's ALTER TABLE that rewrote the referenced table (a column
// dropped before the key: its position moved) or the referencing one
// leaves a valid transaction committing, as in PostgreSQL, and an invalid
// one failing with 23503.
func TestDeferredCheckAfterRewrite(t *testing.T) {
	for _, c := range []struct {
		name, write, alter string
		want               sqlerr.Code // "" commits
		count              string      // dc2's rows after
	}{
		{"parent rewritten, valid row", "INSERT INTO dc2 VALUES (5, 0, 1)", "ALTER TABLE dp2 DROP COLUMN x", "", "2"},
		{"parent rewritten, orphan", "INSERT INTO dc2 VALUES (5, 0, 9)", "ALTER TABLE dp2 DROP COLUMN x", "23503", "1"},
		{"parent retyped, valid row", "INSERT INTO dc2 VALUES (5, 0, 1)", "ALTER TABLE dp2 ALTER COLUMN id TYPE bigint", "", "2"},
		{"child rewritten, key still referenced", "DELETE FROM dp2 WHERE id = 2", "ALTER TABLE dc2 DROP COLUMN y", "23503", "1"},
		{"child rewritten, key free", "DELETE FROM dp2 WHERE id = 1", "ALTER TABLE dc2 DROP COLUMN y", "", "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, session := newEngine(t, openStore(t))
			a, b := session("a"), session("b")
			mustRun(t, a, "CREATE TABLE dp2 (x int, id int PRIMARY KEY)")
			mustRun(t, a, "CREATE TABLE dc2 (id int PRIMARY KEY, y int, pid int REFERENCES dp2 (id) DEFERRABLE INITIALLY DEFERRED)")
			mustRun(t, a, "INSERT INTO dp2 VALUES (10, 1), (20, 2)")
			mustRun(t, a, "INSERT INTO dc2 VALUES (1, 0, 2)")
			mustRun(t, a, "BEGIN")
			mustRun(t, a, c.write)
			mustRun(t, b, c.alter)
			_, _, err := run(t, a, "COMMIT")
			if got := sqlerr.CodeOf(err); err != nil && got != c.want || err == nil && c.want != "" {
				t.Fatalf("COMMIT: got %v, want %q", err, c.want)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM dc2"); len(got) != 1 || got[0] != c.count {
				t.Errorf("dc2's rows: %v, want %s", got, c.count)
			}
			// the key is enforced on
			if _, _, err := run(t, b, "INSERT INTO dc2 (id, pid) VALUES (7, 99)"); sqlerr.CodeOf(err) != "23503" {
				t.Errorf("an orphan after: %v, want 23503", err)
			}
		})
	}
}
