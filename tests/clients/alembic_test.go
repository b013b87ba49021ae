package clients

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestAlembicHistory runs an Alembic history of five revisions (create
// tables, add a column and widen another (its downgrade narrows it and
// drops the column: table rewrites), create an index, set a comment, drop
// a table) up
// to head and down to base, twice, with Alembic's transactional DDL
// (python/alembic_history.py): every revision's DDL runs inside the
// transaction block psycopg2 opens. It compares the outputs of sqlgate and
// PostgreSQL 15 section by section.
func TestAlembicHistory(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import alembic, sqlalchemy, psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("Alembic, SQLAlchemy or psycopg2 is not installed (scripts/install-test-deps.sh installs python3-alembic): %v\n%s", err, out)
	}
	p := startOraclePair(t)
	run := func(host, port string) string {
		url := "postgresql+psycopg2://sqlgate@" + host + ":" + port + "/sqlgate?sslmode=disable"
		out, err := exec.Command(debianPython, filepath.Join("python", "alembic_history.py"), url).CombinedOutput()
		if err != nil {
			t.Fatalf("alembic_history.py against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, alembicGaps)
}

// alembicGaps are the sections where sqlgate's answer differs from
// PostgreSQL's, with sqlgate's exact output; the test fails once one
// answers anything else.
var alembicGaps = map[string]string{
	// A table without a comment shows its Fluss layout as its description
	// (pgcatalog/doc.go).
	"comment at r2": "'fluss primary-key table, 1 bucket, bucket key (id)'",
}
