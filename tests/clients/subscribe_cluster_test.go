//go:build fluss_cluster

package clients

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// SUBSCRIBE on a Fluss cluster (issue 28): the subscription tests of the
// embedded store, each against sqlgate serving the cluster
// SQLGATE_FLUSS_BOOTSTRAP names (`make test-cluster` starts one), where
// the changes come from the tablet servers' logs by FetchLog
// (fluss/remote/follow.go); and changes written by Fluss's own Python
// client reaching a pgx subscription.

// clusterBackend serves the cluster through schemas of the test's own (a
// database prefix unique to the server), so that its tables' names cannot
// meet another test's; rows change by upsert (the cluster has no UPDATE).
var clusterBackend = subscribeBackend{start: startClusterServer, upsertOnly: true, quiet: "2s"}

func startClusterServer(t testing.TB) *server.Server {
	t.Helper()
	boot := os.Getenv("SQLGATE_FLUSS_BOOTSTRAP")
	if boot == "" {
		t.Fatal("SQLGATE_FLUSS_BOOTSTRAP is not set: run with make test-cluster")
	}
	prefix := fmt.Sprintf("sub%d_", time.Now().UnixNano()%1e9)
	return testbin.StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(boot, ","), DatabasePrefix: prefix}})
}

func TestClusterSubscribeCursorPgx(t *testing.T)   { subscribeCursorPgx(t, clusterBackend) }
func TestClusterSubscribeResumeExact(t *testing.T) { subscribeResumeExact(t, clusterBackend) }
func TestClusterSubscribeSnapshot(t *testing.T)    { subscribeSnapshot(t, clusterBackend) }
func TestClusterSubscribeRowsStream(t *testing.T)  { subscribeRowsStream(t, clusterBackend) }
func TestClusterSubscribeRefusals(t *testing.T)    { subscribeRefusals(t, clusterBackend) }
func TestClusterSubscribeProgressAndTimestamp(t *testing.T) {
	subscribeProgressAndTimestamp(t, clusterBackend)
}
func TestClusterSubscribePgCancelBackend(t *testing.T) {
	subscribePgCancelBackend(t, clusterBackend)
}
func TestClusterSubscribePsqlCopy(t *testing.T) { subscribePsqlCopy(t, clusterBackend) }
func TestClusterSubscribePsycopg2(t *testing.T) { subscribePsycopg2(t, clusterBackend) }
func TestClusterSubscribePgJDBC(t *testing.T)   { subscribePgJDBC(t, clusterBackend) }

// TestClusterSubscribeSoak is the soak (its default size here; set
// SQLGATE_SUBSCRIBE_SOAK for more) with the changes read from the cluster.
func TestClusterSubscribeSoak(t *testing.T) { subscribeSoak(t, clusterBackend) }

// TestClusterSubscribePyfluss: rows pyfluss appends to a log table and
// the upserts and delete it writes to a primary-key table reach pgx
// cursors over SUBSCRIBE declared before the writes, each change once,
// with the change type Fluss's changelog gives it.
func TestClusterSubscribePyfluss(t *testing.T) {
	python := os.Getenv("SQLGATE_PYFLUSS_PYTHON")
	if python == "" {
		python = testbin.ToolPath("pyfluss-1.0.0", "bin", "python")
	}
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("pyfluss is not installed (%v): run scripts/install-test-deps.sh or set SQLGATE_PYFLUSS_PYTHON", err)
	}
	prefix := fmt.Sprintf("subpy%d_", time.Now().UnixNano()%1e9)
	boot := os.Getenv("SQLGATE_FLUSS_BOOTSTRAP")
	if boot == "" {
		t.Fatal("SQLGATE_FLUSS_BOOTSTRAP is not set: run with make test-cluster")
	}
	srv := testbin.StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(),
		Fluss: &remote.Config{Bootstrap: strings.Split(boot, ","), DatabasePrefix: prefix}})
	w := connectPgx(t, srv.ConnString())
	sub := connectPgx(t, srv.ConnString())
	mustExec(t, w, "CREATE TABLE pyl (id INT, v TEXT) WITH ('bucket.num' = '2', 'bucket.key' = 'id')")
	mustExec(t, w, "CREATE TABLE pyk (id INT PRIMARY KEY, v TEXT) WITH ('bucket.num' = '2')")
	mustExec(t, sub, "BEGIN")
	mustExec(t, sub, "DECLARE cl CURSOR FOR SUBSCRIBE pyl WITH (SNAPSHOT = false)")
	mustExec(t, sub, "DECLARE ck CURSOR FOR SUBSCRIBE pyk WITH (SNAPSHOT = false)")
	cmd := exec.Command(python, filepath.Join("python", "pyfluss_writes.py"), boot, prefix+"public", "pyl", "pyk")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("pyfluss_writes.py: %v %q\n%s", err, out, stderr.String())
	}
	perKey := func(got []change) string {
		by := map[int32][]string{}
		for _, c := range got {
			by[c.id] = append(by[c.id], c.kind+" "+c.v)
		}
		return fmt.Sprint(by)
	}
	logs := fetchChanges(t, sub, "cl", 3)
	checkOnce(t, logs)
	if got, want := perKey(logs), fmt.Sprint(map[int32][]string{1: {"+A a"}, 2: {"+A b"}, 3: {"+A c"}}); got != want {
		t.Fatalf("pyfluss's appends in the subscription: %s, want %s (%v)", got, want, logs)
	}
	kv := fetchChanges(t, sub, "ck", 5)
	checkOnce(t, kv)
	if got, want := perKey(kv), fmt.Sprint(map[int32][]string{1: {"+I x", "-U x", "+U x2"}, 2: {"+I y", "-D y"}}); got != want {
		t.Fatalf("pyfluss's upserts and delete in the subscription: %s, want %s (%v)", got, want, kv)
	}
	mustExec(t, sub, "COMMIT")
}
