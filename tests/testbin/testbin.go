// Package testbin builds the sqlgate binary for tests that run it as a child
// process (crash tests, signal handling), once per test process, finds free
// loopback ports for it, starts in-process servers for tests that need
// no child process, and names the test tools installed in the user's cache
// (toolcache.go). It holds no other logic.
package testbin

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/server"
)

// StartServer runs an in-process sqlgate on a free loopback port over the
// data directory dir, stopped when the test ends.
func StartServer(t testing.TB, dir string) *server.Server {
	t.Helper()
	return StartServerConfig(t, server.Config{Listen: "127.0.0.1:0", DataDir: dir})
}

// StartServerConfig runs an in-process sqlgate configured by cfg, stopped
// when the test ends.
func StartServerConfig(t testing.TB, cfg server.Config) *server.Server {
	t.Helper()
	srv, err := server.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	return srv
}

// Cache builds cmd/sqlgate at most once; its zero value is ready to use.
type Cache struct {
	once sync.Once
	path string
	err  error
}

// Sqlgate returns the path of a freshly built cmd/sqlgate.
func (c *Cache) Sqlgate(t testing.TB) string {
	t.Helper()
	c.once.Do(func() {
		dir, err := os.MkdirTemp("", "sqlgate-bin-*")
		if err != nil {
			c.err = err
			return
		}
		c.path = filepath.Join(dir, "sqlgate")
		if out, err := exec.Command("go", "build", "-o", c.path, "github.com/sqlgate/sqlgate/cmd/sqlgate").CombinedOutput(); err != nil {
			c.err = errors.New("go build: " + string(out))
		}
	})
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c.path
}

// FreePort returns a free loopback port (pgtest.FreePort, failing the test).
func FreePort(t testing.TB) int {
	t.Helper()
	p, err := pgtest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
