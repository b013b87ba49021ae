package remote_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestPyflussScriptsLeaveQuickly: pyfluss 1.0.0 now and then aborts while
// the interpreter tears its runtime down, after a script has printed
// everything (testdata/quick_exit.py), so each script that imports fluss
// must end through quick_exit.run; a script that returns through the
// interpreter's teardown fails the cluster tests on a crash that says
// nothing about the values they compare.
func TestPyflussScriptsLeaveQuickly(t *testing.T) {
	scripts, err := filepath.Glob("testdata/*.py")
	if err != nil {
		t.Fatal(err)
	}
	importsFluss := regexp.MustCompile(`(?m)^(import fluss|from fluss )`)
	endsQuickly := regexp.MustCompile(`(?m)^\s+quick_exit\.run\(`)
	checked := 0
	for _, path := range scripts {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !importsFluss.Match(src) {
			continue
		}
		checked++
		if !endsQuickly.Match(src) {
			t.Errorf("%s imports fluss but does not end through quick_exit.run", path)
		}
	}
	if checked == 0 {
		t.Fatal("no testdata script imports fluss: the glob or the pattern is wrong")
	}
}
