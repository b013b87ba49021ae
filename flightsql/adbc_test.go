package flightsql_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// adbcPython is the interpreter of the virtualenv that
// scripts/install-test-deps.sh fills with the ADBC Flight SQL driver and
// pyarrow (SQLGATE_ADBC_PYTHON overrides it).
func adbcPython(t *testing.T) string {
	if p := os.Getenv("SQLGATE_ADBC_PYTHON"); p != "" {
		return p
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	p := filepath.Join(cache, "sqlgate", "adbc-flightsql-1.13.0", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the ADBC Flight SQL driver is not installed (%v): run scripts/install-test-deps.sh or set SQLGATE_ADBC_PYTHON", err)
	}
	return p
}

// TestADBCPython runs the ADBC Flight SQL driver from Python: queries into
// pyarrow tables, parameters, adbc_ingest of every Fluss type and with
// mode="replace"; what it wrote must read back through the PostgreSQL side
// as the source does.
func TestADBCPython(t *testing.T) {
	runADBCPython(t, startServer(t))
}

// adbcTables are the tables adbc_client.py reads and writes.
var adbcTables = []string{"alltypes", "pycopy", "pybuilt", "pycreated", "pyrows", "pyreplaced", "pyddl"}

// runADBCPython runs adbc_client.py against ts, whose default schema has
// none of adbcTables, and checks what it wrote.
func runADBCPython(t *testing.T, ts *testServer) {
	python := adbcPython(t)
	ts.pgExec(t, append([]string{allTypesDDL, strings.Replace(allTypesDDL, "alltypes", "pycopy", 1),
		strings.Replace(allTypesDDL, "alltypes", "pybuilt", 1), "CREATE TABLE pyrows (id INT, s STRING)"}, allTypesRows...)...)
	cmd := exec.Command(python, filepath.Join("testdata", "adbc_client.py"), "grpc://"+ts.srv.FlightAddr().String(), "admin", adminPassword)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("adbc_client.py: %v", err)
	}
	want := ts.pgText(t, "SELECT * FROM alltypes ORDER BY id")
	sameRows(t, "pycopy", ts.pgText(t, "SELECT * FROM pycopy ORDER BY id"), want)
	sameRows(t, "pybuilt", ts.pgText(t, "SELECT * FROM pybuilt ORDER BY id"), want)
	sameRows(t, "pycreated", ts.pgText(t, "SELECT * FROM pycreated ORDER BY id"), want)
	// mode="replace" made pyrows and pyreplaced from the pyarrow schema
	for _, table := range []string{"pyrows", "pyreplaced"} {
		sameRows(t, table+" columns", columnsOf(t, ts, table), [][]string{{"k", "bigint", "NO"}, {"v", "text", "YES"}})
		sameRows(t, table, ts.pgText(t, "SELECT * FROM "+table+" ORDER BY k"), [][]string{{"1", "x"}, {"2", "NULL"}})
	}
	noStaging(t, ts)
}
