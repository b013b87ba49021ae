package functions

import (
	"testing"

	"github.com/sqlgate/sqlgate/sql"
)

// TestCollationsAreTheGrammars checks that pg_collation's rows are the
// collations a COLLATE clause names (sql.KnownCollation), and no other.
func TestCollationsAreTheGrammars(t *testing.T) {
	for _, c := range Collations() {
		if !sql.KnownCollation(c.Name) {
			t.Errorf("pg_collation row %q is no collation a COLLATE clause names", c.Name)
		}
	}
	for _, name := range []string{"c", "C.UTF-8", "en_US", "und-x-icu", "posix"} {
		if sql.KnownCollation(name) {
			t.Errorf("%q is a collation a COLLATE clause names, with no pg_collation row", name)
		}
	}
}
