package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// jdbcJar is where Debian's libpostgresql-jdbc-java puts pgJDBC.
const jdbcJar = "/usr/share/java/postgresql.jar"

func TestPgJDBC(t *testing.T) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (.ci/run installs default-jdk-headless): %v", tool, err)
		}
	}
	if _, err := os.Stat(jdbcJar); err != nil {
		t.Fatalf("pgJDBC is not installed (.ci/run installs libpostgresql-jdbc-java): %v", err)
	}
	srv := startServer(t)
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-encoding", "UTF-8", "-d", dir, "-cp", jdbcJar, filepath.Join("java", "RoundTrip.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	host, port := hostPort(t, srv.Addr().String())
	url := "jdbc:postgresql://" + host + ":" + port + "/sqlgate?user=sqlgate&sslmode=disable"
	out, err := exec.Command("java", "-cp", jdbcJar+string(os.PathListSeparator)+dir, "RoundTrip", url).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "OK" {
		t.Fatalf("pgJDBC round trip: %v\n%s", err, out)
	}
	checkStored(t, srv.ConnString(), "rt_jdbc")
}
