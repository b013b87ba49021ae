package clients

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSQLAlchemyInspector compares what SQLAlchemy's inspector (Debian's
// python3-sqlalchemy over psycopg2) answers on sqlgate with what it answers
// on PostgreSQL 15 for the same tables, call by call, without
// normalisation except one: get_table_names' query has no ORDER BY, so the
// script prints its names sorted.
func TestSQLAlchemyInspector(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import sqlalchemy, psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("SQLAlchemy or psycopg2 is not installed (.ci/run installs python3-sqlalchemy and python3-psycopg2): %v\n%s", err, out)
	}
	p := startOraclePair(t)
	run := func(host, port string) string {
		url := "postgresql+psycopg2://sqlgate@" + host + ":" + port + "/sqlgate?sslmode=disable"
		out, err := exec.Command(debianPython, filepath.Join("python", "inspect_tables.py"), url).CombinedOutput()
		if err != nil {
			t.Fatalf("inspect_tables.py against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, sqlalchemyGaps)
}

// sqlalchemyGaps are the inspector calls sqlgate cannot answer yet, with
// the exact error it gives; the test fails once one answers anything else.
// SQLAlchemy 1.4's queries use PostgreSQL's reserved words as column
// aliases (") AS DEFAULT", "cons.conkey as key"), which PostgreSQL allows
// after AS and the TiDB grammar does not; the fix belongs to sql/'s
// rewrite (reported).
var sqlalchemyGaps = map[string]string{
	"get_columns('every_type')":            `ERROR 42601: syntax error at or near "DEFAULT" LINE 9:               ) AS DEFAULT,                            ^`,
	"get_columns('events')":                `ERROR 42601: syntax error at or near "DEFAULT" LINE 9:               ) AS DEFAULT,                            ^`,
	"get_unique_constraints('every_type')": `ERROR 42601: syntax error at or near "key" LINE 4:                 cons.conkey as key,                                        ^`,
	"get_unique_constraints('events')":     `ERROR 42601: syntax error at or near "key" LINE 4:                 cons.conkey as key,                                        ^`,
}
