// Package testbin builds the sqlgate binary for tests that run it as a child
// process (crash tests, signal handling), once per test process, and finds
// free loopback ports for it. It holds no other logic.
package testbin

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

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
