package difftest

import (
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// sharedPG is the one PostgreSQL cluster of the package's tests, each test
// in a database of its own (pgtest.Shared): the tests compare answers
// within their database and reach nothing cluster-wide, and a cluster per
// test (about 170 of them) cost a start, a copy of the template and a
// shutdown each.
var sharedPG pgtest.Shared

func TestMain(m *testing.M) {
	os.Exit(pgtest.RunShared(m, &sharedPG))
}
