package engine_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCheckAddedDuringTransaction: ALTER TABLE ... ADD CONSTRAINT ... CHECK
// (and every other ALTER TABLE that changes what a write reads) waits for
// the transaction that wrote the table, as PostgreSQL's ACCESS EXCLUSIVE
// lock does (ddllock.go): the transaction's COMMIT succeeds, rows of
// another table with it, and the constraint then checks the committed
// rows (23514 when one breaks it; NOT VALID does not look). It ran at
// once before and failed the COMMIT with 40001.
func TestCheckAddedDuringTransaction(t *testing.T) {
	const pk = "CREATE TABLE h (id int PRIMARY KEY, v int)"
	for _, c := range []struct {
		name, create, alter string
		other               bool // the transaction writes a second table too
		wantCode            sqlerr.Code
	}{
		{"pk table, check added", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", false, sqlerr.Code("23514")},
		{"log table, check added", "CREATE TABLE h (id int, v int)", "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", false, sqlerr.Code("23514")},
		{"check added NOT VALID", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10) NOT VALID", false, ""},
		{"two tables, check added", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", true, sqlerr.Code("23514")},
		{"check dropped", "CREATE TABLE h (id int PRIMARY KEY, v int CONSTRAINT big CHECK (v > 0))", "ALTER TABLE h DROP CONSTRAINT big", false, ""},
		{"default set", pk, "ALTER TABLE h ALTER COLUMN v SET DEFAULT 3", false, ""},
		{"two tables, default set", pk, "ALTER TABLE h ALTER COLUMN v SET DEFAULT 3", true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, session := newEngine(t, openStore(t))
			a, b := session("a"), session("b")
			mustRun(t, a, c.create)
			mustRun(t, a, "CREATE TABLE h2 (id int PRIMARY KEY)")
			mustRun(t, a, "BEGIN")
			mustRun(t, a, "INSERT INTO h VALUES (1, 50)")
			if c.other {
				mustRun(t, a, "INSERT INTO h2 VALUES (1)")
			}
			alter := runAsync(t, b, c.alter) // truncate_test.go
			if !waiting(alter) {
				t.Fatalf("%s did not wait for the transaction", c.alter)
			}
			if _, _, err := run(t, a, "COMMIT"); err != nil {
				t.Fatalf("COMMIT: %v", err)
			}
			if r := answer(t, alter, c.alter); sqlerr.CodeOf(r.err) != c.wantCode && !(c.wantCode == "" && r.err == nil) {
				t.Fatalf("%s: got %v, want %q", c.alter, r.err, c.wantCode)
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != "1" {
				t.Errorf("rows after COMMIT: %v, want 1", got)
			}
			if c.other {
				if got := mustRun(t, b, "SELECT count(*) FROM h2"); len(got) != 1 || got[0] != "1" {
					t.Errorf("h2's rows after COMMIT: %v, want 1", got)
				}
			}
		})
	}
}
