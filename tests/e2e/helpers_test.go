package e2e

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// startServer runs an in-process sqlgate on a free port and a temp directory.
func startServer(t *testing.T) *server.Server {
	t.Helper()
	return startServerIn(t, t.TempDir())
}

func startServerIn(t *testing.T, dir string) *server.Server {
	t.Helper()
	return testbin.StartServer(t, dir)
}

func connect(t *testing.T, connString string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, connString)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func mustExec(t *testing.T, conn *pgx.Conn, sql string, args ...any) pgconn.CommandTag {
	t.Helper()
	tag, err := conn.Exec(context.Background(), sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return tag
}

// pgError returns the *pgconn.PgError in err, failing the test otherwise.
func pgError(t *testing.T, err error) *pgconn.PgError {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("want a PostgreSQL error, got %v", err)
	}
	return pe
}

// bins builds cmd/sqlgate once for this test binary.
var bins testbin.Cache

// process is a sqlgate serve child process.
type process struct {
	cmd  *exec.Cmd
	port int
}

// startProcess runs `sqlgate serve` on dir and waits for its ready line.
func startProcess(t *testing.T, dir string) *process {
	t.Helper()
	port := testbin.FreePort(t)
	cmd := exec.Command(bins.Sqlgate(t), "serve", "--listen", "127.0.0.1:"+strconv.Itoa(port), "--data", dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := sc.Text(); strings.Contains(line, "listening on") {
				ready <- line
			}
		}
	}()
	select {
	case line := <-ready:
		if !strings.Contains(line, "psql -h 127.0.0.1 -p "+strconv.Itoa(port)) {
			t.Errorf("ready line does not show the psql command: %q", line)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("sqlgate did not print its ready line")
	}
	p := &process{cmd: cmd, port: port}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

func (p *process) connString() string {
	return "postgres://sqlgate@127.0.0.1:" + strconv.Itoa(p.port) + "/sqlgate?sslmode=disable"
}
