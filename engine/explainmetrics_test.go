package engine_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
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

// EXPLAIN (ANALYZE, METRICS level): counts alone, counts and each node's
// own time, or everything with stalls (the default); the counts are the
// same exact ones at every level.
func TestExplainAnalyzeMetricsLevels(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE m (id BIGINT PRIMARY KEY, v BIGINT); INSERT INTO m SELECT g, g FROM generate_series(1, 100) g"); err != nil {
		t.Fatal(err)
	}
	counts := regexp.MustCompile(`filter.*\(actual batches_in=1 batches_out=1 rows_in=100 rows_out=50`)
	for _, c := range []struct {
		level         string
		timing, stall bool
	}{{"counts", false, false}, {"timing", true, false}, {"stalls", true, true}, {"", true, true}} {
		q := "EXPLAIN (ANALYZE, METRICS " + c.level + ") SELECT v FROM m WHERE v > 50"
		if c.level == "" {
			q = "EXPLAIN ANALYZE SELECT v FROM m WHERE v > 50"
		}
		lines, _, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		plan := strings.Join(lines, "\n")
		if !counts.MatchString(plan) {
			t.Errorf("%s: the counts are not exact:\n%s", q, plan)
		}
		if strings.Contains(plan, "processing_time_ns=") != c.timing || strings.Contains(plan, "stall_time_ns=") != c.stall ||
			strings.Contains(plan, "queue_depth") != c.stall {
			t.Errorf("%s: timing %v, stalls %v wanted:\n%s", q, c.timing, c.stall, plan)
		}
	}
	for _, q := range []string{"EXPLAIN (METRICS timing) SELECT 1", "EXPLAIN (ANALYZE, METRICS everything) SELECT 1"} {
		if _, _, err := run(t, s, q); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
			t.Errorf("%s: %v, want 22023", q, err)
		}
	}
}
