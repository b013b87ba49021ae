//go:build fluss_cluster

package reliability

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// TestClusterCrashSequenceNeverRepeats is TestCrashSequenceNeverRepeats on
// a Fluss cluster (the one SQLGATE_FLUSS_BOOTSTRAP names; `make
// test-cluster` starts it): the sequence lives in the cluster
// (fluss/remote/sequences.go), sqlgate is killed with SIGKILL holding a
// reserved block, and the next server never hands out a value again.
func TestClusterCrashSequenceNeverRepeats(t *testing.T) {
	boot := os.Getenv("SQLGATE_FLUSS_BOOTSTRAP")
	if boot == "" {
		t.Fatal("SQLGATE_FLUSS_BOOTSTRAP is not set: run with make test-cluster")
	}
	rounds := envInt(t, "SQLGATE_SEQ_CRASH_ROUNDS", 3)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	sfx := fmt.Sprint(time.Now().UnixNano() % 1e9)
	crashSequenceRounds(t, rounds, "crash_s_"+sfx, "crash_orders_"+sfx, 2*time.Second, func() *process { return startProcess(t, bin, dir, "--fluss", boot) })
}
