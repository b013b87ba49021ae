package pgtypes

import (
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// sharedPG is the one PostgreSQL cluster of the package's tests that
// compare values with PostgreSQL's, each test in a database of its own
// (pgtest.Shared): they read types' output and send functions, which every
// database has, and reach nothing cluster-wide.
var sharedPG pgtest.Shared

func TestMain(m *testing.M) {
	os.Exit(pgtest.RunShared(m, &sharedPG))
}
