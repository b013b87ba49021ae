package e2e

import (
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// sharedPG is the one PostgreSQL cluster of the package's tests that
// compare with PostgreSQL, each test in a database of its own
// (pgtest.Shared): their tables, COPY, labels and prepared statements live
// in their database and they reach nothing cluster-wide.
var sharedPG pgtest.Shared

func TestMain(m *testing.M) {
	os.Exit(pgtest.RunShared(m, &sharedPG))
}
