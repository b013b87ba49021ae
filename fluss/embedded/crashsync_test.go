package embedded

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The crash test of the one-sync commit (durable.go): the writer child of
// crash_test.go runs with a Syncer that kills it with SIGKILL at a chosen
// sync — right after the n-th sync of pebble's write-ahead log (the commit
// point: the group is durable, its bucket-log bytes are in the page cache
// only, its state not yet applied or visible, its writers not answered),
// just before it, or in the middle of a checkpoint (after a bucket log's
// fsync, before the append records are dropped). The child reports each
// bucket log's size after each of its fsyncs; after the kill, every bucket
// log is cut back to that size, which is what a power loss leaves of a file
// whose later writes were never synced. Reopening must then lose nothing
// acknowledged and show every write whole or not at all.

const (
	// crashSyncKillEnv selects the kill point: "wal-after:N",
	// "wal-before:N" or "checkpoint:N".
	crashSyncKillEnv = "SQLGATE_EMBEDDED_CRASH_SYNCKILL"
	// crashCheckpointBytes makes the child checkpoint often.
	crashCheckpointBytes = 64 << 10
)

// killSyncer kills its process at the chosen sync and reports bucket-log
// syncs as "synced PATH SIZE" lines on the child's output.
type killSyncer struct {
	point string
	n     int
	outMu *sync.Mutex
	out   *bufio.Writer
	mu    sync.Mutex
	seen  int
}

func newKillSyncer(spec string, outMu *sync.Mutex, out *bufio.Writer) (*killSyncer, error) {
	point, num, ok := strings.Cut(spec, ":")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return nil, fmt.Errorf("bad %s %q", crashSyncKillEnv, spec)
	}
	return &killSyncer{point: point, n: n, outMu: outMu, out: out}, nil
}

func (k *killSyncer) Sync(name string, kind SyncKind, sync func() error) error {
	wal := isWAL(name)
	bucket := strings.HasPrefix(filepath.Base(name), "bucket-")
	count := func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		k.seen++
		return k.seen == k.n
	}
	if wal && kind != SyncRange && k.point == "wal-before" && count() {
		die()
	}
	if err := sync(); err != nil {
		return err
	}
	if bucket {
		if st, err := os.Stat(name); err == nil {
			k.outMu.Lock()
			fmt.Fprintf(k.out, "synced %s %d\n", name, st.Size())
			k.out.Flush()
			k.outMu.Unlock()
		}
		if k.point == "checkpoint" && count() {
			die()
		}
	}
	if wal && kind != SyncRange && k.point == "wal-after" && count() {
		die()
	}
	return nil
}

func die() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}

// TestCrashBetweenLogSyncAndState kills the writer between the commit's
// one sync and everything after it, loses the bucket logs' unsynced bytes
// as a power loss would, and checks the store.
func TestCrashBetweenLogSyncAndState(t *testing.T) {
	crashAtSyncs(t, max(crashRounds()/2, 3))
}

// TestCrashLoneCommits is TestCrashBetweenLogSyncAndState with one writer:
// every commit is a lone group whose commit point is the commit log's
// sync (commitlog.go), pebble holding it unsynced, in a buffer the kill
// takes; Open must commit those records again.
func TestCrashLoneCommits(t *testing.T) {
	replayed := crashAtSyncs(t, max(crashRounds()/4, 3), crashWritersEnv+"=1")
	if replayed == 0 {
		t.Error("no Open committed a record of the commit log again: the kills lost nothing pebble held")
	}
}

// crashAtSyncs runs rounds of a writer child killed at a chosen sync
// (env added to the child's) and returns how many commit log records the
// Opens after the kills committed again.
func crashAtSyncs(t *testing.T, rounds int, env ...string) (replayed int) {
	dir := t.TempDir()
	acked := map[int32]bool{}
	points := []string{"wal-after", "wal-before", "checkpoint"}
	for round := 1; round <= rounds; round++ {
		point := points[(round-1)%len(points)]
		n := 20 + rand.IntN(300)
		if point == "checkpoint" {
			n = 1 + rand.IntN(8)
		}
		synced := bucketSizes(t, dir) // all durable: the last Open and Close synced them
		cmd, stdout := startCrashChild(t, dir, round, append([]string{crashSyncKillEnv + "=" + point + ":" + strconv.Itoa(n)}, env...)...)
		roundAcks := 0
		readDone := make(chan struct{})
		go func() {
			defer close(readDone)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var id int32
				var p string
				var size int64
				if _, err := fmt.Sscanf(sc.Text(), "ack %d", &id); err == nil {
					acked[id] = true
					roundAcks++
				} else if _, err := fmt.Sscanf(sc.Text(), "synced %s %d", &p, &size); err == nil {
					synced[p] = size
				}
			}
			_, _ = io.Copy(io.Discard, stdout)
		}()
		killed := false
		select {
		case <-readDone:
		case <-time.After(20 * time.Second):
			// The kill point was not reached (too few checkpoints): a kill
			// at a random moment still tests the rest.
			killed = true
			_ = cmd.Process.Signal(syscall.SIGKILL)
			<-readDone
		}
		err := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: the child ended with %v, not by SIGKILL", round, err)
		}
		// A power loss: every bucket log keeps only what was fsynced (a
		// log the child created and never fsynced: nothing, as it was
		// created empty).
		cut := 0
		for p, size := range bucketSizes(t, dir) {
			if keep := synced[p]; size > keep {
				if err := os.Truncate(p, keep); err != nil {
					t.Fatal(err)
				}
				cut++
			}
		}
		s := reopenAfterKill(t, dir)
		replayed += s.clog.replayed
		t.Logf("round %d: killed at %s:%d (by the parent: %v); %d batches acknowledged; %d bucket logs cut back to their synced size; %d commit log records committed again",
			round, point, n, killed, roundAcks, cut, s.clog.replayed)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		verifyCrashStore(t, dir, acked)
	}
	return replayed
}

// bucketSizes returns the size of every bucket log in the store.
func bucketSizes(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "tables", "*", "bucket-*.log"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = st.Size()
	}
	return out
}
