package engine_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A backend hint naming a node kind or a kernel family: two nodes of one
// plan run on different backends, and EXPLAIN ANALYZE says which each
// selected and which each ran.
func TestPerNodeBackendHint(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hint               string
		projection, filter string // selected_backend
		projRan, filterRan string // kernels_ran
	}{
		{"backend(native, filter=arrow)", "native", "arrow", "[int_mul=native]", "[int_cmp=arrow; filter=arrow]"},
		{"backend(arrow, filter=native)", "arrow", "native", "[int_mul=arrow]", "[int_cmp=native; filter=native]"},
		{"backend(native, int_mul=arrow)", "arrow", "native", "[int_mul=arrow]", "[int_cmp=native; filter=native]"},
		{"backend(projection=arrow, int_cmp=native, filter=arrow)", "arrow", "arrow", "[int_mul=arrow]", "[int_cmp=arrow; filter=arrow]"},
	} {
		q := "EXPLAIN ANALYZE SELECT /*+ " + c.hint + " */ v * 2 FROM t WHERE v >= 20"
		lines, _, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(lines) < 2 || !strings.HasPrefix(lines[0], "projection") || !strings.HasPrefix(strings.TrimSpace(lines[1]), "filter") {
			t.Fatalf("%s: plan %q", q, lines)
		}
		if !strings.Contains(lines[0], "selected_backend="+c.projection+" ") || !strings.Contains(lines[0], "kernels_ran="+c.projRan) {
			t.Errorf("%s: projection %q", q, lines[0])
		}
		if !strings.Contains(lines[1], "selected_backend="+c.filter+" ") || !strings.Contains(lines[1], "kernels_ran="+c.filterRan) {
			t.Errorf("%s: filter %q", q, lines[1])
		}
		got, _, err := run(t, s, "SELECT /*+ "+c.hint+" */ v * 2 FROM t WHERE v >= 20 ORDER BY 1")
		if err != nil || strings.Join(got, ",") != "40,60" {
			t.Errorf("%s: %q %v", c.hint, got, err)
		}
	}
	// a family arrow-go lacks stays native, with the reason, whatever the node asks
	lines, _, err := run(t, s, "EXPLAIN SELECT /*+ backend(native, filter=arrow) */ v FROM t WHERE v::float8 > 1.5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lines[1], "float_cmp=native (PostgreSQL's float order") || !strings.Contains(lines[1], "requested_backend=arrow (node kind)") {
		t.Errorf("filter %q", lines[1])
	}
	for _, bad := range []string{"backend(nowhere=arrow)", "backend(filter=fast)", "backend(native, arrow)"} {
		if _, _, err := run(t, s, "SELECT /*+ "+bad+" */ 1"); sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
			t.Errorf("%s: %v, want 22023", bad, err)
		}
	}
}

// EXPLAIN of INSERT, UPDATE and DELETE: the write's node over the plan of
// its rows, with the kernels of every expression (an UPDATE's SET
// expressions are its projection's); ANALYZE runs the write under the
// transaction rules, as PostgreSQL does.
func TestExplainWrites(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v BIGINT, s TEXT); INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')"); err != nil {
		t.Fatal(err)
	}
	value := func(q string) string {
		t.Helper()
		got, _, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return strings.Join(got, ",")
	}
	explain := func(q string) []string {
		t.Helper()
		lines, tag, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if tag != "EXPLAIN" {
			t.Errorf("%s: tag %q", q, tag)
		}
		return lines
	}
	lines := explain("EXPLAIN UPDATE t SET v = v * 3 + 1, s = upper(s) WHERE id > 1")
	if !strings.HasPrefix(lines[0], "update: table=t") || !strings.Contains(lines[0], "executor_tier=go_operator") {
		t.Errorf("update node %q", lines[0])
	}
	set := strings.Join(lines[1:], "\n")
	for _, k := range []string{"int_mul=", "int_addsub=", "scalar_function=native"} {
		if !regexp.MustCompile(`projection: .*\(\(v \* 3\) \+ 1\).*kernels=\[[^]]*` + k).MatchString(set) {
			t.Errorf("the SET expressions' projection lacks %s:\n%s", k, set)
		}
	}
	if got := value("SELECT v FROM t ORDER BY id"); got != "10,20,30" {
		t.Errorf("EXPLAIN UPDATE wrote: %s", got)
	}
	// ANALYZE runs it: in an implicit transaction it commits
	lines = explain("EXPLAIN ANALYZE UPDATE t SET v = v * 3 + 1 WHERE id > 1")
	if !regexp.MustCompile(`^update: table=t .*rows_in=2 rows_out=2`).MatchString(lines[0]) {
		t.Errorf("analyzed update %q", lines[0])
	}
	if !regexp.MustCompile(`projection: .*kernels_ran=\[[^]]*int_mul=`).MatchString(strings.Join(lines, "\n")) {
		t.Errorf("analyzed update ran no multiply:\n%s", strings.Join(lines, "\n"))
	}
	if got := value("SELECT v FROM t ORDER BY id"); got != "10,61,91" {
		t.Errorf("after EXPLAIN ANALYZE UPDATE: %s", got)
	}
	// in a block, it is undone with the block
	value("BEGIN")
	explain("EXPLAIN ANALYZE DELETE FROM t WHERE v > 50")
	if got := value("SELECT count(*) FROM t"); got != "1" {
		t.Errorf("inside the block after DELETE: %s", got)
	}
	value("ROLLBACK")
	if got := value("SELECT count(*) FROM t"); got != "3" {
		t.Errorf("after ROLLBACK: %s", got)
	}
	lines = explain("EXPLAIN DELETE FROM t WHERE v % 2 = 1 RETURNING id")
	if !strings.HasPrefix(lines[0], "delete: table=t") || !strings.Contains(strings.Join(lines, "\n"), "int_divmod=native") {
		t.Errorf("delete plan:\n%s", strings.Join(lines, "\n"))
	}
	lines = explain("EXPLAIN (ANALYZE, FORMAT JSON) INSERT INTO t SELECT id + 10, v * 2, s || '!' FROM t RETURNING id * 10")
	plan := strings.Join(lines, "\n")
	for _, want := range []string{`"Node Type": "insert"`, `"Actual Rows": 3`, `"Family": "string_concat"`, `"Family": "int_mul"`} {
		if !strings.Contains(plan, want) {
			t.Errorf("insert plan lacks %s:\n%s", want, plan)
		}
	}
	if got := value("SELECT count(*) FROM t"); got != "6" {
		t.Errorf("after EXPLAIN ANALYZE INSERT: %s", got)
	}
	// a write's privileges are needed to explain it
	if _, _, err := run(t, s, "EXPLAIN UPDATE nosuch SET v = 1"); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Errorf("EXPLAIN UPDATE of a missing table: %v", err)
	}
}

// Sorting past the memory limit spills: EXPLAIN ANALYZE reports the time
// its batches waited on the disk as the sort's stall.
func TestExplainAnalyzeSpillStall(t *testing.T) {
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := engine.New(store, engine.Options{QueryMemoryLimit: 1 << 20, SpillDir: t.TempDir()}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, s, "CREATE TABLE big (id BIGINT PRIMARY KEY, v BIGINT, s TEXT); INSERT INTO big SELECT g, -g, repeat('x', 40) FROM generate_series(1, 100000) g"); err != nil {
		t.Fatal(err)
	}
	lines, _, err := run(t, s, "EXPLAIN ANALYZE SELECT id FROM big ORDER BY v, s")
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	m := regexp.MustCompile(`sort: .*rows_out=100000 .*stall_time_ns=(\d+)`).FindStringSubmatch(plan)
	if m == nil || m[1] == "0" {
		t.Errorf("the spilling sort reports no stall:\n%s", plan)
	}
	if !regexp.MustCompile(`projection.*stall_time_ns=n/a`).MatchString(plan) {
		t.Errorf("a projection cannot stall:\n%s", plan)
	}
}

// Integer to real/double casts, which arrow-go serves (int_float_cast),
// round as PostgreSQL 15 does on every backend (the expected text is
// PostgreSQL's output for the same query).
func TestIntToFloatCastOnEveryBackend(t *testing.T) {
	s := newSession(t)
	if _, _, err := run(t, s, "CREATE TABLE n (id INT PRIMARY KEY, x BIGINT, i INT); INSERT INTO n VALUES "+
		"(1, 9007199254740993, 16777217), (2, 9223372036854775807, 2147483647), (3, -9223372036854775807 - 1, -2147483648), "+
		"(4, 16777217, 123456789), (5, 123456789, 0), (6, 0, -1)"); err != nil {
		t.Fatal(err)
	}
	want := "9.007199e+15|9.007199254740992e+15|1.6777216e+07|16777217," +
		"9.223372e+18|9.223372036854776e+18|2.1474836e+09|2147483647," +
		"-9.223372e+18|-9.223372036854776e+18|-2.1474836e+09|-2147483648," +
		"1.6777216e+07|16777217|1.2345679e+08|123456789," +
		"1.2345679e+08|123456789|0|0," +
		"0|0|-1|-1"
	for _, b := range []string{"native", "arrow", "auto"} {
		q := "SELECT /*+ backend(" + b + ") */ x::float4 || '|' || x::float8 || '|' || i::float4 || '|' || i::float8 FROM n ORDER BY id"
		got, _, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%s:\n got %s\nwant %s", b, strings.Join(got, ","), want)
		}
		lines, _, err := run(t, s, "EXPLAIN "+q)
		if err != nil {
			t.Fatal(err)
		}
		wantSel := map[string]string{"native": "native", "arrow": "arrow", "auto": "arrow"}[b]
		if plan := strings.Join(lines, "\n"); !strings.Contains(plan, "int_float_cast="+wantSel+" (") {
			t.Errorf("%s: the casts' kernels:\n%s", b, plan)
		}
	}
}
