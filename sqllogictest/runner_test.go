package sqllogictest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// newOfflineRun is a fileRun with no connection: every statement or query
// that actually runs fails with "no connection", which is enough to observe
// which records the control logic lets through.
func newOfflineRun(label string) (*fileRun, *bytes.Buffer) {
	var out bytes.Buffer
	return &fileRun{
		opts:      Options{Label: label, RecordTimeout: time.Second},
		out:       &out,
		threshold: DefaultHashThreshold,
		labels:    map[string]string{},
	}, &out
}

func TestConditionsAndHaltWithoutServer(t *testing.T) {
	script := strings.Join([]string{
		"skipif SQLGATE extra words", "statement ok", "A", "",
		"onlyif mysql", "statement ok", "B", "",
		"onlyif sqlgate", "statement ok", "C", "", // runs: fails offline
		"skipif mysql", "skipif postgresql", "statement ok", "D", "", // runs
		"onlyif mysql", "halt", "",
		"skipif sqlgate", "halt", "",
		"onlyif mysql", "frobnicate", "", // skipped invalid record
		"hash-threshold 3", "",
		"halt", "",
		"statement ok", "E", "", // never reached
	}, "\n")
	r, out := newOfflineRun("sqlgate")
	r.runRecords(t.Context(), parseScript("c.slt", script), 0)
	s := r.summary
	if s.Passed != 0 || s.Failed != 2 || s.Skipped != 3 {
		t.Errorf("counts = %d passed, %d failed, %d skipped; want 0, 2, 3\n%s", s.Passed, s.Failed, s.Skipped, out)
	}
	if !r.halted || r.threshold != 3 {
		t.Errorf("halted=%v threshold=%d, want true 3", r.halted, r.threshold)
	}
	for _, line := range []string{"c.slt:10: no connection", "c.slt:15: no connection"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out)
		}
	}
}

func TestIncludeWithoutServer(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("parts/b.part", "control sortmode valuesort\n\nonlyif other\nstatement ok\nX\n")
	write("parts/a.part", "hash-threshold 5\n")
	main := write("main.slt", "include parts/*.part\n\ninclude nothing-*.part\n\ninclude main.slt\n")

	r, out := newOfflineRun("sqlgate")
	text, _ := os.ReadFile(main)
	r.runRecords(t.Context(), parseScript(main, string(text)), 0)
	if r.threshold != 5 || r.sortMode != valueSort {
		t.Errorf("included control records not applied: threshold=%d sort=%v", r.threshold, r.sortMode)
	}
	// Skips: the onlyif record in b.part, once per include level (the file
	// includes itself until the depth limit).
	if got, want := r.summary.Skipped, maxIncludeDepth; got != want {
		t.Errorf("skipped = %d, want %d", got, want)
	}
	// Failures: "matches no file" at every level below the limit, and at
	// the limit each of the three include records fails on depth.
	if got, want := r.summary.Failed, maxIncludeDepth+3; got != want {
		t.Errorf("failed = %d, want %d\n%s", got, want, out)
	}
	for _, want := range []string{"main.slt:3: include nothing-*.part matches no file", "main.slt:5: include nested deeper than"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestLabelsWithoutServer(t *testing.T) {
	r, _ := newOfflineRun("sqlgate")
	skipped := parseScript("l.slt", "onlyif mysql\nquery I rowsort a-very-long-label-that-is-truncated-1\nSELECT 1\n----\n2\n1\n")
	r.rememberSkippedLabel(&skipped[0])
	if msg := r.checkLabel("a-very-long-label-that-is-truncated-2", hashValues([]string{"1", "2"})); msg != "" {
		t.Errorf("label check against the skipped variant failed: %s", msg)
	}
	if msg := r.checkLabel("a-very-long-label-th", hashValues([]string{"1", "3"})); !strings.Contains(msg, "earlier query with this label") {
		t.Errorf("different hash under the same label passed: %q", msg)
	}
}
