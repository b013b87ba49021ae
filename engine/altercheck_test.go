package engine_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCheckAddedDuringTransaction: ALTER TABLE ... ADD CONSTRAINT ... CHECK
// checks the committed rows, so a transaction that wrote the table before
// the constraint came (its rows checked against the constraints as they
// were) fails at COMMIT with 40001 and writes nothing, where it would
// otherwise store a row the new, valid-marked constraint refuses; so does
// one that wrote another table too (the store's atomic group). Written
// rows that merely meet a dropped constraint, or a table whose
// constraints did not change, commit.
func TestCheckAddedDuringTransaction(t *testing.T) {
	const pk = "CREATE TABLE h (id int PRIMARY KEY, v int)"
	for _, c := range []struct {
		name, create, alter string
		other               bool // the transaction writes a second table too
		wantCode            sqlerr.Code
	}{
		{"pk table, check added", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", false, sqlerr.SerializationFailure},
		{"log table, check added", "CREATE TABLE h (id int, v int)", "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", false, sqlerr.SerializationFailure},
		{"check added NOT VALID", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10) NOT VALID", false, sqlerr.SerializationFailure},
		{"two tables, check added", pk, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", true, sqlerr.SerializationFailure},
		{"check dropped", "CREATE TABLE h (id int PRIMARY KEY, v int CONSTRAINT big CHECK (v > 0))", "ALTER TABLE h DROP CONSTRAINT big", false, sqlerr.SuccessfulCompletion},
		{"default set", pk, "ALTER TABLE h ALTER COLUMN v SET DEFAULT 3", false, sqlerr.SuccessfulCompletion},
		{"two tables, default set", pk, "ALTER TABLE h ALTER COLUMN v SET DEFAULT 3", true, sqlerr.SuccessfulCompletion},
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
			mustRun(t, b, c.alter)
			_, _, err := run(t, a, "COMMIT")
			if sqlerr.CodeOf(err) != c.wantCode {
				t.Fatalf("COMMIT: got %v, want %q", err, c.wantCode)
			}
			want := "1"
			if c.wantCode != sqlerr.SuccessfulCompletion {
				want = "0"
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != want {
				t.Errorf("rows after COMMIT: %v, want %s", got, want)
			}
			if c.other { // the other table's row commits, or not, with h's
				if got := mustRun(t, b, "SELECT count(*) FROM h2"); len(got) != 1 || got[0] != want {
					t.Errorf("h2's rows after COMMIT: %v, want %s", got, want)
				}
			}
		})
	}
}
