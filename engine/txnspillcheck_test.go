package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestCheckAddedDuringSpilledTransaction is TestCheckAddedDuringTransaction
// for a transaction whose writes were staged on disk (past its spill
// size, txnstore's spill.go): a CHECK constraint another session adds to
// the table waits for the transaction, whose COMMIT writes every staged
// row, and then finds the rows that break it (23514), on a primary-key
// and on a log table; the staging is empty afterwards.
func TestCheckAddedDuringSpilledTransaction(t *testing.T) {
	for _, create := range []string{
		"CREATE TABLE h (id int PRIMARY KEY, v int, pad text)",
		"CREATE TABLE h (id int, v int, pad text)",
	} {
		t.Run(create, func(t *testing.T) {
			dir := t.TempDir()
			staged := func() int {
				ents, _ := os.ReadDir(filepath.Join(dir, "staging"))
				return len(ents)
			}
			a, b := spillSessions(t, dir, 32<<10)
			mustRun(t, a, create)
			mustRun(t, a, "INSERT INTO h VALUES (1, 5, 'committed')")
			mustRun(t, a, "BEGIN")
			// far past 32 KiB: staged on disk; every v breaks the check
			mustRun(t, a, "INSERT INTO h SELECT g, 50, repeat('x', 40) FROM generate_series(2, 20001) g")
			if staged() == 0 {
				t.Fatal("the transaction's rows are not staged on disk")
			}
			alter := runAsync(t, b, "ALTER TABLE h ADD CONSTRAINT small CHECK (v < 10)") // truncate_test.go
			if !waiting(alter) {
				t.Fatal("the ALTER TABLE did not wait for the transaction")
			}
			if _, _, err := run(t, a, "COMMIT"); err != nil {
				t.Fatalf("COMMIT: %v", err)
			}
			if r := answer(t, alter, "ALTER TABLE"); sqlerr.CodeOf(r.err) != sqlerr.Code("23514") {
				t.Fatalf("ALTER TABLE after the COMMIT: got %v, want 23514", r.err)
			}
			if got := mustRun(t, b, "SELECT count(*) || ',' || max(v) FROM h"); len(got) != 1 || got[0] != "20001,50" {
				t.Errorf("rows after COMMIT: %v, want 20001,50", got)
			}
			if n := staged(); n != 0 {
				t.Errorf("staging holds %d entries after the transaction ended", n)
			}
		})
	}
}
