package engine_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCheckAddedDuringTransaction: ALTER TABLE ... ADD CONSTRAINT ... CHECK
// checks the committed rows, so a transaction that wrote the table before
// the constraint came (its rows checked against the constraints as they
// were) fails at COMMIT with 40001 and writes nothing, where it would
// otherwise store a row the new, valid-marked constraint refuses. Written
// rows that merely meet a dropped constraint, or a table whose
// constraints did not change, commit.
func TestCheckAddedDuringTransaction(t *testing.T) {
	for _, c := range []struct {
		name, create, alter string
		wantCode            sqlerr.Code
	}{
		{"pk table, check added", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", sqlerr.SerializationFailure},
		{"log table, check added", "CREATE TABLE h (id int, v int)", "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)", sqlerr.SerializationFailure},
		{"check added NOT VALID", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10) NOT VALID", sqlerr.SerializationFailure},
		{"check dropped", "CREATE TABLE h (id int PRIMARY KEY, v int CONSTRAINT big CHECK (v > 0))", "ALTER TABLE h DROP CONSTRAINT big", ""},
		{"default set", "CREATE TABLE h (id int PRIMARY KEY, v int)", "ALTER TABLE h ALTER COLUMN v SET DEFAULT 3", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, session := newEngine(t, openStore(t))
			a, b := session("a"), session("b")
			mustRun(t, a, c.create)
			mustRun(t, a, "BEGIN")
			mustRun(t, a, "INSERT INTO h VALUES (1, 50)")
			mustRun(t, b, c.alter)
			_, _, err := run(t, a, "COMMIT")
			if sqlerr.CodeOf(err) != c.wantCode && !(c.wantCode == "" && err == nil) {
				t.Fatalf("COMMIT: got %v, want %q", err, c.wantCode)
			}
			want := "1"
			if c.wantCode != "" {
				want = "0"
			}
			if got := mustRun(t, b, "SELECT count(*) FROM h"); len(got) != 1 || got[0] != want {
				t.Errorf("rows after COMMIT: %v, want %s", got, want)
			}
		})
	}
}
