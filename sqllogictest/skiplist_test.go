package sqllogictest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// A skip list's records are not run and count as skipped; an entry that
// names no record of a file that ran is a failure of its own.
func TestSkipList(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.slt")
	script := "statement ok\nCREATE TABLE s (a int)\n\nstatement ok\nINSERT INTO s VALUES (1)\n\n" +
		"query I\nSELECT a FROM s\n----\n2\n\nquery I\nSELECT 1\n----\n1\n"
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	list, err := ParseSkipList(filepath.Join(dir, "x.skips"),
		"# comment\nf.slt:7 the target cannot do it\nf.slt:9,20 not records\nother.slt:1 a file that did not run\n")
	if err != nil {
		t.Fatal(err)
	}
	srv := pgtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	sum, err := Run(ctx, []string{file}, Options{Label: "postgresql", Connect: freshDatabases(t, srv), Out: &out, Skips: list})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.String(), "3 passed, 2 failed, 1 skipped"; got != want {
		t.Fatalf("summary %q, want %q\n%s", got, want, out.String())
	}
	for _, want := range []string{"f.slt:9: skip list entry " + filepath.Join(dir, "x.skips") + ":3 names no record here",
		"f.slt:20: skip list entry"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	for _, bad := range []string{"f.slt 7 reason", "f.slt:7", "f.slt:x reason", "f.slt:0 reason", "f.slt:7 a\nf.slt:7 b"} {
		if _, err := ParseSkipList("x.skips", bad); err == nil {
			t.Errorf("ParseSkipList(%q) accepted it", bad)
		}
	}
}
