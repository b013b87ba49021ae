package clients

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSQLAlchemyCreateAll runs SQLAlchemy's metadata.create_all, Core
// inserts that rely on server defaults (SERIAL, a sequence, identity,
// gen_random_uuid(), now()), a CHECK violation, reflection and drop_all
// (python/create_all.py) against sqlgate and PostgreSQL 15 and compares
// the outputs section by section.
func TestSQLAlchemyCreateAll(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import sqlalchemy, psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("SQLAlchemy or psycopg2 is not installed (.ci/run installs python3-sqlalchemy and python3-psycopg2): %v\n%s", err, out)
	}
	p := startOraclePair(t)
	run := func(host, port string) string {
		url := "postgresql+psycopg2://sqlgate@" + host + ":" + port + "/sqlgate?sslmode=disable"
		out, err := exec.Command(debianPython, filepath.Join("python", "create_all.py"), url).CombinedOutput()
		if err != nil {
			t.Fatalf("create_all.py against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, sqlalchemyCreateGaps)
}

// sqlalchemyCreateGaps are the sections where sqlgate's answer differs
// from PostgreSQL's, with sqlgate's exact output; the test fails once one
// answers anything else.
var sqlalchemyCreateGaps = map[string]string{}
