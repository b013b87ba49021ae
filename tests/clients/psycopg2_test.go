package clients

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// debianPython is the interpreter Debian's python3-psycopg2 installs for
// (a python3 earlier on PATH may be another installation without it).
const debianPython = "/usr/bin/python3"

func TestPsycopg2(t *testing.T) {
	if out, err := exec.Command(debianPython, "-c", "import psycopg2").CombinedOutput(); err != nil {
		t.Fatalf("psycopg2 is not installed (.ci/run installs python3-psycopg2): %v\n%s", err, out)
	}
	srv := startServer(t)
	host, port := hostPort(t, srv.Addr().String())
	dsn := "host=" + host + " port=" + port + " dbname=sqlgate user=sqlgate sslmode=disable"
	out, err := exec.Command(debianPython, filepath.Join("python", "roundtrip.py"), dsn).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "OK" {
		t.Fatalf("psycopg2 round trip: %v\n%s", err, out)
	}
	checkStored(t, srv.ConnString(), "rt_psycopg2")
}
