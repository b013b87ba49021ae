package reliability

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// envInt reads a positive integer from the environment, def when unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

// process is a `sqlgate serve` child process.
type process struct {
	cmd    *exec.Cmd
	port   int
	exited chan struct{}
}

// startProcess runs `sqlgate serve` on dir on a free port (with the extra
// flags, such as --fluss) and waits for its ready line. The process is
// killed at the end of the test if still running.
func startProcess(t *testing.T, bin, dir string, extra ...string) *process {
	t.Helper()
	// FreePort's port is free when it answers, not when the server binds
	// it: another test's connection may take it in between. Such a start
	// is tried again on another port.
	for attempt := 1; ; attempt++ {
		p, stderr := tryStartProcess(t, bin, dir, extra...)
		if p != nil {
			return p
		}
		if attempt == 3 || !strings.Contains(stderr, "address already in use") {
			t.Fatalf("sqlgate exited before its ready line; stderr:\n%s", stderr)
		}
	}
}

// tryStartProcess is one start of startProcess: nil and the process's
// stderr when it exited before its ready line.
func tryStartProcess(t *testing.T, bin, dir string, extra ...string) (*process, string) {
	t.Helper()
	port := testbin.FreePort(t)
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:" + strconv.Itoa(port), "--data", dir}, extra...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &lockedWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, port: port, exited: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		signalled := false
		for sc.Scan() {
			if !signalled && strings.Contains(sc.Text(), "listening on") {
				close(ready)
				signalled = true
			}
		}
		io.Copy(io.Discard, stdout)
	}()
	go func() { cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() { p.kill() })
	select {
	case <-ready:
	case <-p.exited:
		return nil, cmd.Stderr.(*lockedWriter).String()
	case <-time.After(60 * time.Second):
		t.Fatalf("sqlgate did not print its ready line; stderr:\n%s", cmd.Stderr.(*lockedWriter).String())
	}
	return p, ""
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *process) kill() {
	p.cmd.Process.Kill()
	<-p.exited
}

func (p *process) connString() string {
	return "postgres://sqlgate@127.0.0.1:" + strconv.Itoa(p.port) + "/sqlgate?sslmode=disable&connect_timeout=10"
}

// lockedWriter collects a child's stderr safely.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

func connect(t *testing.T, connString string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// sqlState is err's SQLSTATE, "" when err is not a server error.
func sqlState(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// killWhileRunning connects one client per connection string, runs each
// on its connection, kills the server after 30ms plus up to spread while
// they are busy, waits for the clients to see it, and closes their
// connections: one round of a crash test.
func killWhileRunning(t *testing.T, round int, proc *process, connStrings []string, spread time.Duration, rng interface{ Int64N(int64) int64 },
	run func(i int, conn *pgx.Conn, stop <-chan struct{})) {
	t.Helper()
	conns := make([]*pgx.Conn, len(connStrings))
	for i, cs := range connStrings {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		c, err := pgx.Connect(ctx, cs)
		cancel()
		if err != nil {
			t.Fatalf("round %d: connect: %v", round, err)
		}
		conns[i] = c
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run(i, conns[i], stop)
		}()
	}
	time.Sleep(30*time.Millisecond + time.Duration(rng.Int64N(int64(spread))))
	proc.kill()
	close(stop)
	wg.Wait()
	for _, c := range conns {
		c.Close(context.Background())
	}
}
