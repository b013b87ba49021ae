package functions

import (
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// sharedPG is the one PostgreSQL cluster of the package's tests that ask
// PostgreSQL, each test in a database of its own (pgtest.Shared): they read
// catalogs and functions' answers, which every database has, and reach
// nothing cluster-wide, so a cluster per test was a start, a copy of the
// template and a shutdown each for nothing.
var sharedPG pgtest.Shared

func TestMain(m *testing.M) {
	os.Exit(pgtest.RunShared(m, &sharedPG))
}
