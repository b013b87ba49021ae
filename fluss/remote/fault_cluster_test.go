//go:build fluss_cluster

package remote

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestClusterTabletServerLoss (issue 26, acceptance 4, at the client): a
// cluster of its own, a primary-key table replicated three times, writes in
// a loop while the leader of one bucket is killed with SIGKILL. Every write
// succeeds or fails with an error; writes succeed again once Fluss has
// elected new leaders; every acknowledged row is read back afterwards.
func TestClusterTabletServerLoss(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	bs, stop, err := startCluster(dir, "SQLGATE_FLUSS_TABLETS=3") // replication factor 3
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx := ctxT(t)
	s, err := OpenStore(ctx, Config{Bootstrap: []string{bs}, RequestTimeout: 10 * time.Second, Retries: 40,
		RetryBackoff: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "fault"}
	desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4, PrimaryKey: []string{"id"}}, BucketCount: 3,
		Properties: map[string]string{"table.replication.factor": "3"}}
	if _, err := s.CreateTable(ctx, path, desc, false); err != nil {
		t.Fatal(err)
	}
	tab, err := s.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	schema := tab.Info().ArrowSchema()
	write := func(id int32) error {
		wctx, cancel := context.WithTimeout(ctx, 45*time.Second)
		defer cancel()
		rec := buildRecord(schema, []row{{id: id, name: strp(fmt.Sprint("v", id)), v: float64(id), big: int64(id)}})
		defer rec.Release()
		_, err := tab.Upsert(wctx, rec, fluss.UpsertOptions{})
		return err
	}

	start := time.Now()
	var acked []int32
	var failures []string
	killed := time.Time{}
	afterKill := 0
	for id := int32(0); ; id++ {
		if err := write(id); err != nil {
			failures = append(failures, err.Error())
		} else {
			acked = append(acked, id)
			if !killed.IsZero() {
				if afterKill == 0 {
					t.Logf("first write acknowledged %v after the kill", time.Since(killed))
				}
				afterKill++
			}
		}
		if len(acked) == 30 && killed.IsZero() {
			victim := leaderOf(t, s.Client(), path, 0)
			killTablet(t, dir, victim)
			killed = time.Now()
			t.Logf("killed after %v of writes", killed.Sub(start))
		}
		if afterKill >= 30 {
			break
		}
		if !killed.IsZero() && time.Since(killed) > 90*time.Second {
			t.Fatalf("no %d acknowledged writes within 90s of the kill (%d after it); errors: %v", 30, afterKill, failures)
		}
	}
	t.Logf("%d writes acknowledged, %d failed (%v); done %v after the kill", len(acked), len(failures), failures, time.Since(killed))

	// Every acknowledged row is there, with its value.
	r, err := tab.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, r)
	var want []string
	for _, id := range acked {
		want = append(want, fmt.Sprintf("(%d,v%d,%d,%d)", id, id, id, id))
	}
	for _, w := range want {
		if _, found := slices.BinarySearch(got, w); !found {
			t.Errorf("acknowledged row %s missing after the kill", w)
		}
	}
}

// leaderOf returns the tablet server id leading a bucket.
func leaderOf(t *testing.T, c *Client, path fluss.TablePath, bucket int32) int32 {
	t.Helper()
	if _, err := c.leader(ctxT(t), path, bucket, true); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tables[path].leaders[bucket]
}

// killTablet sends SIGKILL to tablet server id of the cluster in dir (its
// pid is in the script's pids file: "PID tabletN" lines).
func killTablet(t *testing.T, dir string, id int32) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pids"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[1] == fmt.Sprint("tablet", id) {
			pid, _ := strconv.Atoi(f[0])
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			t.Logf("killed tablet server %d (pid %d)", id, pid)
			return
		}
	}
	t.Fatalf("tablet server %d not in %s/pids", id, dir)
}
