package clients

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// soakTarget is the server a soak runs against and how its memory is read.
type soakTarget struct {
	connString string
	// what names whose memory sample reads: serverProcess, or the test's
	// own process when the server runs inside it.
	what   string
	sample func(at time.Duration) memSample
}

const serverProcess = "server process"

// memSample is one reading of a process's memory, in KiB; -1 where
// unknown. VmRSS is RssAnon (heaps: Go's, pebble's C allocations, stacks)
// plus RssFile (resident pages of mapped files: the embedded store's
// bucket logs, which scans and subscriptions read through mmap, and the
// binary's text).
type memSample struct {
	at                         time.Duration
	rss, anon, file, heapInUse int64
	logs                       int64 // the bucket logs' bytes on disk
}

// memHeader and row lay the samples out as a table.
const memHeader = "    at   VmRSS  RssAnon  RssFile  Go-heap-in-use  logs-on-disk (MiB; a server process's heap counts its 64 MiB floor, never resident)"

func (m memSample) row() string {
	mib := func(kib int64) string {
		if kib < 0 {
			return "?"
		}
		return strconv.FormatInt(kib>>10, 10)
	}
	return fmt.Sprintf("%5.0fs %7s %8s %8s %15s %13s", m.at.Seconds(), mib(m.rss), mib(m.anon), mib(m.file), mib(m.heapInUse), mib(m.logs))
}

// readMem samples process pid's memory; heapInUse and logs are the
// caller's.
func readMem(pid int, at time.Duration, heapInUse, logs int64) memSample {
	f := statusKiB(pid, "VmRSS", "RssAnon", "RssFile")
	return memSample{at: at, rss: f[0], anon: f[1], file: f[2], heapInUse: heapInUse, logs: logs}
}

// logKiB is the size of the bucket logs (bucket-N.log) under an embedded
// store's data directory, in KiB.
func logKiB(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "bucket-") && strings.HasSuffix(d.Name(), ".log") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n >> 10
}

// soakServer starts the backend's server for a soak: as a child process
// when the backend can (its memory then measured apart), else in-process.
func (be subscribeBackend) soakServer(t *testing.T) *soakTarget {
	t.Helper()
	if be.process != nil {
		return be.process(t)
	}
	srv := be.start(t)
	return &soakTarget{connString: srv.ConnString(), what: "test process (the server in it)", sample: func(at time.Duration) memSample {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return readMem(os.Getpid(), at, int64(ms.HeapInuse>>10), -1)
	}}
}

// startServerProcess runs `sqlgate serve` on the embedded store in a
// temporary directory as a child process, with its metrics endpoint on
// (the Go heap comes from there), killed when the test ends.
func startServerProcess(t *testing.T) *soakTarget {
	t.Helper()
	var bins testbin.Cache
	bin, dir := bins.Sqlgate(t), t.TempDir()
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(bin)) }) // the build's own temporary directory
	cmd := exec.Command(bin, "serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0",
		"--max-connections", "200", "--data", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	type addrs struct{ pg, metrics string }
	ready := make(chan addrs, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		var a addrs
		for sc.Scan() {
			l := sc.Text()
			if _, rest, ok := strings.Cut(l, " listening on "); ok {
				a.pg, _, _ = strings.Cut(rest, " ")
			}
			if rest, ok := strings.CutPrefix(l, "metrics on http://"); ok {
				a.metrics, _, _ = strings.Cut(rest, "/")
			}
			if a.pg != "" && a.metrics != "" {
				ready <- a
				break
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	var a addrs
	select {
	case a = <-ready:
	case <-exited:
		t.Fatalf("sqlgate serve exited before it listened; stderr:\n%s", stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("sqlgate serve did not print where it listens; stderr:\n%s", stderr.String())
	}
	pid := cmd.Process.Pid
	t.Logf("server process %d: PostgreSQL on %s, metrics on http://%s/metrics", pid, a.pg, a.metrics)
	client := &http.Client{Timeout: 5 * time.Second}
	return &soakTarget{
		connString: "postgres://sqlgate@" + a.pg + "/sqlgate?sslmode=disable&connect_timeout=10",
		what:       serverProcess,
		sample: func(at time.Duration) memSample {
			return readMem(pid, at, metricKiB(client, a.metrics, "go_memstats_heap_inuse_bytes"), logKiB(dir))
		},
	}
}

// statusKiB reads kB fields (VmRSS, RssAnon) of /proc/PID/status, -1
// for each it cannot.
func statusKiB(pid int, fields ...string) []int64 {
	out := make([]int64, len(fields))
	for i := range out {
		out[i] = -1
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(b), "\n") {
		name, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		for i, f := range fields {
			if name != f {
				continue
			}
			if v := strings.Fields(v); len(v) > 0 {
				if kb, err := strconv.ParseInt(v[0], 10, 64); err == nil {
					out[i] = kb
				}
			}
		}
	}
	return out
}

// metricKiB reads a gauge in bytes from a Prometheus endpoint, in KiB; -1
// when it cannot.
func metricKiB(client *http.Client, addr, name string) int64 {
	resp, err := client.Get("http://" + addr + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return -1
	}
	for _, l := range bytes.Split(body, []byte("\n")) {
		if v, ok := bytes.CutPrefix(l, []byte(name+" ")); ok {
			if f, err := strconv.ParseFloat(string(v), 64); err == nil {
				return int64(f) >> 10
			}
		}
	}
	return -1
}

// lockedBuffer collects a child's stderr safely.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
