package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNodePostgres(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not installed: %v", err)
	}
	if _, err := os.Stat(filepath.Join("node", "node_modules", "pg", "package.json")); err != nil {
		t.Fatalf("node-postgres is not installed (.ci/run runs npm ci in tests/clients/node): %v", err)
	}
	srv := startServer(t)
	out, err := exec.Command("node", filepath.Join("node", "roundtrip.js"), srv.ConnString()).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "OK" {
		t.Fatalf("node-postgres round trip: %v\n%s", err, out)
	}
	checkStored(t, srv.ConnString(), "rt_node")
}
