package sqllogic

import (
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/sqllogictest"
	"github.com/sqlgate/sqlgate/sqllogictest/slttest"
)

// TestSuites runs sqlgate's own suites (tests/sqllogic/*.slt) against a
// fresh in-process server per file, as `sqlgate slt` does.
func TestSuites(t *testing.T) {
	files, err := suiteFiles()
	if err != nil || len(files) == 0 {
		t.Fatalf("no suites found: %v", err)
	}
	sum := slttest.RunT(t, files, sqllogictest.Options{Label: "sqlgate", Connect: server.InProcess})
	if sum.Passed == 0 {
		t.Fatal("no record passed")
	}
}

// suiteFiles are the hand-written suites and the generated ones
// (tests/sqllogic/gen writes their SQL; their answers are PostgreSQL's).
func suiteFiles() ([]string, error) {
	hand, err := filepath.Glob("*.slt")
	if err != nil {
		return nil, err
	}
	gen, err := filepath.Glob(filepath.Join("generated", "*.slt"))
	return append(hand, gen...), err
}
