package functions

import "testing"

// TestVolatileInPostgresAreVolatile: every function PostgreSQL marks
// volatile exists here and is never constant-folded (Func.Volatile).
func TestVolatileInPostgresAreVolatile(t *testing.T) {
	for name := range volatileInPostgres {
		fs := Lookup(name)
		if len(fs) == 0 {
			t.Errorf("%s: no such function", name)
		}
		for _, f := range fs {
			if !f.Volatile {
				t.Errorf("%s%v: volatile in PostgreSQL but foldable here", name, f.Args)
			}
		}
	}
}
