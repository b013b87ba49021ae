package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSequelizeApp runs a Sequelize application (node/sequelize.js, over
// node-postgres) against sqlgate's embedded store and PostgreSQL 15:
// sync({force: true}) of two models with a foreign key, a unique column,
// JSONB, ARRAY, DECIMAL and timestamps, describeTable, showIndex and the
// foreign-key references; the model queries (operators, JSON paths,
// include with and without required, group by the primary key with count,
// findAndCountAll, increment, upsert, findOrCreate, SELECT ... FOR
// UPDATE); managed and unmanaged transactions with a savepoint; then
// sync({alter: true}) of changed models. Each connection starts with
// Sequelize's SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE. It compares
// the outputs section by section.
func TestSequelizeApp(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join("node", "node_modules", "sequelize", "package.json")); err != nil {
		t.Fatalf("Sequelize is not installed (scripts/install-test-deps.sh runs npm ci in tests/clients/node): %v", err)
	}
	p := startOraclePair(t)
	run := func(url string) string {
		out, err := exec.Command("node", filepath.Join("node", "sequelize.js"), url).CombinedOutput()
		if err != nil {
			t.Fatalf("sequelize.js against %s (sqlgate is on port %s): %v\n%s", url, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgURL())
	got := run(p.sgURL())
	compareSections(t, got, want, sequelizeGaps)
}

// sequelizeGaps are the sections where sqlgate's answer differs from
// PostgreSQL's, with sqlgate's exact output; the test fails once one
// answers anything else.
var sequelizeGaps = map[string]string{
	// findOrCreate's INSERT runs in a temporary PL/pgSQL function
	// (pg_temp.testfunc) whose EXCEPTION block catches unique_violation:
	// sqlgate has temporary functions (engine/tempfunctions.go), but only
	// LANGUAGE sql ones, and no PL/pgSQL.
	"findOrCreate": `ERROR 0A000: CREATE FUNCTION ... LANGUAGE plpgsql (sqlgate runs LANGUAGE sql and python functions) is not supported`,
}
