package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestServeQueryMemoryFlag(t *testing.T) {
	for _, v := range []string{"0", "-5", "2000000000000"} {
		var out, errOut bytes.Buffer
		if rc := serve([]string{"--query-memory-mib", v, "--data", t.TempDir()}, &out, &errOut); rc != 2 {
			t.Errorf("--query-memory-mib %s: rc %d, want 2", v, rc)
		}
		if !strings.Contains(errOut.String(), "--query-memory-mib") {
			t.Errorf("--query-memory-mib %s: stderr %q", v, errOut.String())
		}
	}
}
