package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
)

// fkBenchRows is how many parent keys the foreign key benchmarks move.
const fkBenchRows = 5000

// fkBenchDeletes is how many single-row deletes the deferred case's
// transaction makes before its COMMIT.
const fkBenchDeletes = 500

// BenchmarkForeignKeyParentEvents times one statement that deletes or
// moves the keys of a parent table referenced by a child row each (or by
// none: the checks of keys nothing references), per action, and the
// COMMIT of a transaction of single-row deletes whose NO ACTION checks
// were deferred. Each check or action reads the child once per run of
// events (fk.go fkRun), the deferred checks once per constraint at COMMIT
// (mergeChecks), not once per event (bench/LEDGER.md has the figures).
func BenchmarkForeignKeyParentEvents(b *testing.B) {
	for _, tc := range []struct {
		name, action, stmt string
		children           bool
	}{
		{"update-cascade", "ON UPDATE CASCADE", "UPDATE p SET id = id + 100000", true},
		{"delete-cascade", "ON DELETE CASCADE", "DELETE FROM p", true},
		{"delete-set-null", "ON DELETE SET NULL", "DELETE FROM p", true},
		{"delete-no-action-unreferenced", "", "DELETE FROM p WHERE id > 0", false},
		{"delete-restrict-unreferenced", "ON DELETE RESTRICT", "DELETE FROM p WHERE id > 0", false},
		{"delete-cascade-child-key", "ON DELETE CASCADE", "DELETE FROM p WHERE id <= 100", true},
		// a transaction of single-row deletes whose deferred NO ACTION
		// checks run at COMMIT
		{"deferred-deletes-commit", "DEFERRABLE INITIALLY DEFERRED", "", false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := sessions(b, b.TempDir(), engine.Options{}, "u")[0]
			child := fmt.Sprintf("CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p %s)", tc.action)
			fill := fmt.Sprintf("INSERT INTO c SELECT g, g FROM generate_series(1, %d) g", fkBenchRows)
			if tc.name == "delete-cascade-child-key" { // the child's key is the referencing column: a lookup
				child = fmt.Sprintf("CREATE TABLE c (pid int PRIMARY KEY REFERENCES p %s, n int)", tc.action)
			}
			benchRun(b, s, "CREATE TABLE p (id int PRIMARY KEY)")
			benchRun(b, s, child)
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				benchRun(b, s, "DELETE FROM c")
				benchRun(b, s, "DELETE FROM p")
				benchRun(b, s, fmt.Sprintf("INSERT INTO p SELECT g FROM generate_series(0, %d) g", fkBenchRows))
				if tc.children {
					benchRun(b, s, fill)
				} else { // child rows that reference none of the keys deleted
					benchRun(b, s, fmt.Sprintf("INSERT INTO c SELECT g, 0 FROM generate_series(1, %d) g", fkBenchRows))
				}
				if tc.stmt == "" {
					benchRun(b, s, "BEGIN")
					for k := 1; k <= fkBenchDeletes; k++ {
						benchRun(b, s, fmt.Sprintf("DELETE FROM p WHERE id = %d", k))
					}
					b.StartTimer()
					benchRun(b, s, "COMMIT")
					continue
				}
				b.StartTimer()
				benchRun(b, s, tc.stmt)
			}
		})
	}
}

func benchRun(b *testing.B, s pgwire.Session, sql string) {
	b.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
		for {
			rec, err := res.Next(ctx)
			if err != nil {
				b.Fatalf("%s: %v", sql, err)
			}
			if rec == nil {
				break
			}
			rec.Release()
		}
		res.Close()
	}
}
