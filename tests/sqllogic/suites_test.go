package sqllogic_test

import (
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/sqllogic"
)

// TestSuites runs sqlgate's own suites (tests/sqllogic/*.slt) against a
// fresh in-process server per file, as `sqlgate slt` does.
func TestSuites(t *testing.T) {
	files, err := filepath.Glob("*.slt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no suites found: %v", err)
	}
	sum := sqllogic.RunT(t, files, sqllogic.Options{Label: "sqlgate", Connect: server.InProcess})
	if sum.Passed == 0 {
		t.Fatal("no record passed")
	}
}
