package clients

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestPsycopg2NamedCursors runs psycopg2's server-side cursors (itersize
// iteration, fetchone/fetchmany/fetchall with their rowcounts, scroll,
// withhold across COMMIT, a NO SCROLL cursor's backward scroll, a cursor
// ended by its transaction) against sqlgate and PostgreSQL 15 and compares
// what each step returned.
func TestPsycopg2NamedCursors(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("psycopg2 is not installed (.ci/run installs python3-psycopg2): %v\n%s", err, out)
	}
	pg := pgtest.Start(t)
	srv := startServer(t)
	host, port := hostPort(t, srv.Addr().String())
	run := func(dsn string) string {
		out, err := exec.Command(debianPython, filepath.Join("python", "named_cursor.py"), dsn).CombinedOutput()
		if err != nil {
			t.Fatalf("named_cursor.py on %s: %v\n%s", dsn, err, out)
		}
		return string(out)
	}
	want := run(fmt.Sprintf("host=127.0.0.1 port=%d dbname=postgres user=postgres sslmode=disable", pg.Port()))
	got := run("host=" + host + " port=" + port + " dbname=sqlgate user=sqlgate sslmode=disable")
	if got != want {
		t.Errorf("psycopg2 named cursors differ\nsqlgate:    %s\npostgresql: %s", got, want)
	}
}
