// Package procstat reads a process's CPU time and context switches from
// /proc, for the bench commands that weigh a server by its CPU per round
// trip (cmd/waitbench, cmd/wirewait).
package procstat

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// TaskStats sums the CPU time (schedstat) and the context switches
// (voluntary and not) of the threads of pid.
func TaskStats(pid int) (time.Duration, int64, error) {
	dirs, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	if err != nil {
		return 0, 0, err
	}
	var cpu time.Duration
	var cs int64
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/schedstat")
		if err != nil {
			continue // the thread ended meanwhile
		}
		first, _, _ := bytes.Cut(b, []byte{' '})
		ns, _ := strconv.ParseInt(string(first), 10, 64)
		cpu += time.Duration(ns)
		st, err := os.ReadFile(d + "/status")
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(st, []byte{'\n'}) {
			if k, v, ok := bytes.Cut(line, []byte{':'}); ok && bytes.HasSuffix(k, []byte("ctxt_switches")) {
				x, _ := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
				cs += x
			}
		}
	}
	return cpu, cs, nil
}
