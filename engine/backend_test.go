package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestBackendSettingAndHint(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, f DOUBLE PRECISION); INSERT INTO t VALUES (1, 10, 1.5), (2, 20, 'NaN'), (3, 30, -0.0)"); err != nil {
		t.Fatal(err)
	}
	show := func() string {
		lines, _, err := run(t, s, "SHOW sqlgate.backend")
		if err != nil || len(lines) != 1 {
			t.Fatalf("SHOW sqlgate.backend: %q %v", lines, err)
		}
		return lines[0]
	}
	if got := show(); got != "auto" {
		t.Errorf("default backend %q, want auto", got)
	}
	const q = "EXPLAIN SELECT v * 2 FROM t WHERE v >= 20 AND f = f"
	explain := func(sql string) []string {
		lines, _, err := run(t, s, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return lines
	}
	lines := explain(q)
	if !strings.Contains(lines[0], "requested_backend=auto") || !strings.Contains(lines[0], "int_mul=") {
		t.Errorf("auto: %q", lines[0])
	}
	if _, tag, err := run(t, s, "SET sqlgate.backend = arrow"); err != nil || tag != "SET" {
		t.Fatalf("SET: %q %v", tag, err)
	}
	if got := show(); got != "arrow" {
		t.Errorf("after SET: %q", got)
	}
	lines = explain(q)
	// the projection's multiply runs on arrow-go; the filter mixes arrow
	// (bigint >=, AND, the filter itself) with native float comparison
	if !strings.Contains(lines[0], "requested_backend=arrow selected_backend=arrow") {
		t.Errorf("projection under arrow: %q", lines[0])
	}
	if !strings.Contains(lines[1], "requested_backend=arrow selected_backend=mixed") ||
		!strings.Contains(lines[1], "float_cmp=native (PostgreSQL's float order") || !strings.Contains(lines[1], "int_cmp=arrow") {
		t.Errorf("filter under arrow: %q", lines[1])
	}
	// a scan runs no kernel: it selects none, whatever was requested
	if !strings.Contains(lines[2], "scan:") || !strings.Contains(lines[2], "selected_backend=none") || !strings.Contains(lines[2], "executor_tier=go_operator") {
		t.Errorf("scan: %q", lines[2])
	}
	// a hint overrides the setting for its statement only
	lines = explain("EXPLAIN SELECT /*+ backend(native) */ v * 2 FROM t WHERE v >= 20")
	if !strings.Contains(lines[0], "requested_backend=native selected_backend=native") {
		t.Errorf("hinted: %q", lines[0])
	}
	lines = explain("EXPLAIN /*+ BACKEND(native) */ SELECT v * 2 FROM t")
	if !strings.Contains(lines[0], "requested_backend=native") {
		t.Errorf("hint after EXPLAIN: %q", lines[0])
	}
	// a hint inside a string is not a hint
	lines = explain("EXPLAIN SELECT v * 2, '/*+ backend(native) */' FROM t")
	if !strings.Contains(lines[0], "requested_backend=arrow") {
		t.Errorf("hint in a literal: %q", lines[0])
	}
	// both backends give PostgreSQL's answers
	for _, b := range []string{"native", "arrow", "auto"} {
		got, _, err := run(t, s, "SELECT /*+ backend("+b+") */ v * 2 FROM t WHERE v >= 20 AND f = f ORDER BY 1")
		if err != nil || strings.Join(got, ",") != "40,60" {
			t.Errorf("%s: %q %v", b, got, err)
		}
		_, _, err = run(t, s, "SELECT /*+ backend("+b+") */ v * 922337203685477580 FROM t")
		if sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
			t.Errorf("%s: overflow gave %v", b, err)
		}
	}
	if _, _, err := run(t, s, "SET sqlgate.backend = 'fast'"); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
		t.Errorf("bad value: %v", err)
	}
	if _, _, err := run(t, s, "SELECT /*+ backend(fast) */ 1"); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
		t.Errorf("bad hint: %v", err)
	}
	if _, _, err := run(t, s, "RESET sqlgate.backend"); err != nil {
		t.Fatal(err)
	}
	if got := show(); got != "auto" {
		t.Errorf("after RESET: %q", got)
	}
}

// Issue 4's acceptance queries give PostgreSQL's answers on every backend.
func TestAcceptanceQueriesOnEveryBackend(t *testing.T) {
	s := newSession(t)
	for _, b := range []string{"native", "arrow", "auto"} {
		if _, _, err := run(t, s, "SET sqlgate.backend = "+b); err != nil {
			t.Fatal(err)
		}
		if _, _, err := run(t, s, "SELECT 9223372036854775807::bigint + 1"); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
			t.Errorf("%s: bigint overflow gave %v", b, err)
		}
		if _, _, err := run(t, s, "SELECT (-9223372036854775807)::bigint * 2"); sqlerr.CodeOf(err) != sqlerr.NumericValueOutOfRange {
			t.Errorf("%s: bigint multiply overflow gave %v", b, err)
		}
		if _, _, err := run(t, s, "SELECT 1/0"); sqlerr.CodeOf(err) != sqlerr.DivisionByZero {
			t.Errorf("%s: 1/0 gave %v", b, err)
		}
		for _, q := range []string{"SELECT 'NaN'::float8 = 'NaN'::float8", "SELECT '-0'::float8 = 0::float8", "SELECT 'NaN'::float8 > 'Infinity'::float8"} {
			lines, _, err := run(t, s, q)
			if err != nil || len(lines) != 1 || lines[0] != "true" {
				t.Errorf("%s: %s gave %q %v", b, q, lines, err)
			}
		}
	}
}

func TestExplainAnalyzeStallsAndJSON(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)"); err != nil {
		t.Fatal(err)
	}
	lines, _, err := run(t, s, "EXPLAIN ANALYZE SELECT v + 1 FROM t WHERE v > 10")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		// synchronous operators cannot stall (not applicable, not 0) and
		// have no queue to sample
		if !strings.Contains(l, "stall_time_ns=n/a queue_depth=unsampled") {
			t.Errorf("line %d %q lacks the stall fields", i, l)
		}
	}
	lines, _, err = run(t, s, "EXPLAIN (ANALYZE, FORMAT JSON) SELECT /*+ backend(arrow) */ v + 1 FROM t WHERE v > 10")
	if err != nil || len(lines) != 1 {
		t.Fatalf("%q %v", lines, err)
	}
	var doc []struct {
		Plan map[string]any
	}
	if err := json.Unmarshal([]byte(lines[0]), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc[0].Plan
	if p["Requested Backend"] != "arrow" || p["Selected Backend"] != "native" || !hasNull(p, "Stall Time Ns") ||
		p["Queue Depth Samples"] != float64(0) || p["Actual Rows"] != float64(2) {
		t.Errorf("projection node %v", p)
	}
	ks, _ := p["Kernels"].([]any)
	if len(ks) != 1 || ks[0].(map[string]any)["Family"] != "int_addsub" || !strings.Contains(ks[0].(map[string]any)["Reason"].(string), "negative overflow") {
		t.Errorf("kernels %v", p["Kernels"])
	}
}

// hasNull reports whether m has key with the value null (JSON's "not
// applicable").
func hasNull(m map[string]any, key string) bool {
	v, ok := m[key]
	return ok && v == nil
}
