package testbin

import (
	"os"
	"path/filepath"
)

// ToolPath is the path of a test tool scripts/install-test-deps.sh
// installs into the user's cache ($XDG_CACHE_HOME/sqlgate, else
// ~/.cache/sqlgate), such as a Python virtualenv: parts joined under it.
func ToolPath(parts ...string) string {
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(append([]string{cache, "sqlgate"}, parts...)...)
}
