package engine_test

import (
	"regexp"
	"strings"
	"testing"
)

// EXPLAIN ANALYZE of a large table's scan runs it read-ahead as a client
// query would, so its line reports the queue: a measured stall time and
// sampled depths, where other nodes say n/a.
func TestExplainAnalyzeReadAheadScan(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE big (id BIGINT PRIMARY KEY, v BIGINT); INSERT INTO big SELECT g, g * 2 FROM generate_series(1, 30000) g"); err != nil {
		t.Fatal(err)
	}
	lines, _, err := run(t, s, "EXPLAIN ANALYZE SELECT * FROM big")
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	if !regexp.MustCompile(`scan.*rows_out=30000 .*stall_time_ns=\d+ queue_depth_avg=[0-9.]+ queue_depth_max=[01] queue_depth_samples=\d+\) \(scan path="row store" workers=1\)`).MatchString(plan) {
		t.Errorf("the read-ahead scan's line lacks its queue metrics:\n%s", plan)
	}
}
