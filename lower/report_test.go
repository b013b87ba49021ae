package lower

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// udfStore is a store whose catalog also has Go UDFs.
type udfStore struct {
	*embedded.Store
	reg *udf.Registry
}

func (c udfStore) UDFs() *udf.Registry { return c.reg }

// reportRequests are backend requests the report test runs each query
// under: statement-wide, and per node kind and family (the hint's forms).
var reportRequests = []struct {
	name string
	req  *exec.BackendRequest
}{
	{"none (auto)", nil},
	{"native", &exec.BackendRequest{Default: exec.BackendNative}},
	{"arrow", &exec.BackendRequest{Default: exec.BackendArrow}},
	{"native, filter=arrow", &exec.BackendRequest{Default: exec.BackendNative, Nodes: map[string]exec.Backend{"filter": exec.BackendArrow}}},
	{"arrow, int_cmp=native, projection=native", &exec.BackendRequest{Default: exec.BackendArrow,
		Families: map[exec.Family]exec.Backend{exec.FamIntCmp: exec.BackendNative}, Nodes: map[string]exec.Backend{"projection": exec.BackendNative}}},
	{"auto, hash_join=arrow, window=arrow", &exec.BackendRequest{
		Nodes: map[string]exec.Backend{"hash_join": exec.BackendArrow, "window": exec.BackendArrow}}},
}

// TestReportLabelsMatchKernelsRun checks the execution report against
// what ran: each plan is run with every node's operator recording the
// kernel families it evaluates and the backend each ran on (exec.KernelLog,
// kept by the kernels themselves), and every node's report (EXPLAIN's
// JSON: its kernels, selected backend, executor tier) must say exactly
// that. The plans join with a condition beyond the keys, aggregate,
// compute windows and call a Go UDF, under backend requests that differ
// per node and per family; the data makes every expression run.
func TestReportLabelsMatchKernelsRun(t *testing.T) {
	s := openStore(t)
	rows := func(n int) [][3]any {
		out := make([][3]any, n)
		for i := range out {
			out[i] = [3]any{int64(i % 7), int64(i), fmt.Sprintf("k%d", i%3)}
			if i%5 == 4 {
				out[i][2] = nil
			}
		}
		return out
	}
	s.createTable(t, "t1", rows(40))
	s.createTable(t, "t2", rows(30))
	reg := udf.NewRegistry()
	identity := func(_ context.Context, a []arrow.Array) (arrow.Array, error) { a[0].Retain(); return a[0], nil }
	if err := reg.AddScalar(udf.Scalar{Name: "g", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: identity}); err != nil {
		t.Fatal(err)
	}
	cat := udfStore{s.Store, reg}
	queries := []string{
		// a join, an aggregate, a window and a UDF in one plan
		"SELECT t1.c, g(max(t1.a)) + 1 AS m, sum(t2.b * 2) AS s, rank() OVER (ORDER BY t1.c) FROM t1 JOIN t2 ON t1.a = t2.a AND t1.b <= t2.b + 100 " +
			"WHERE t1.b > 0 GROUP BY t1.c",
		"SELECT t1.a, t2.c FROM t1 JOIN t2 ON t1.a = t2.a AND t1.b * 2 > t2.b - 3 WHERE t1.b IS NOT NULL AND t2.c <> 'zz'",
		"SELECT c, sum(b * 3), count(*) FILTER (WHERE a > 1), max(-b) FROM t1 GROUP BY c HAVING count(*) > 1",
		"SELECT a, b, sum(b + 1) OVER (PARTITION BY c ORDER BY a), row_number() OVER (ORDER BY b DESC) FROM t1",
		"SELECT g(a) + 1, upper(c) || 'x' FROM t1 WHERE g(b) > 2",
		"SELECT CASE WHEN a > 2 THEN b ELSE 0 END, COALESCE(c, 'n'), (SELECT max(b) FROM t2), a::float8 / 2.0, b::numeric + 1, a::int4 FROM t1",
		"SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.b > t1.b)",
		"SELECT x * 2 FROM (VALUES (1), (2), (3)) v(x) ORDER BY 1 LIMIT 2",
	}
	ctx := context.Background()
	for _, q := range queries {
		stmts, err := sql.NewParser().Parse(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		st, err := binder.Bind(ctx, cat, stmts[0], nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		root, err := Plan(st.(*binder.Query).Plan)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, r := range reportRequests {
			ec := &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}
			if r.req != nil {
				ec.Backend, ec.Families = r.req.Default, r.req.Families
			}
			rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: ec, Backends: r.req, Metrics: map[Node]*exec.Metrics{}, MetricsLevel: exec.MetricsCounts}
			ec.Env = rt
			op, err := Build(rt, root)
			if err != nil {
				t.Fatalf("%s [%s]: %v", q, r.name, err)
			}
			for {
				b, err := op.Next(ctx)
				if err != nil {
					t.Fatalf("%s [%s]: %v", q, r.name, err)
				}
				if b == nil {
					break
				}
				b.Release()
			}
			op.Close()
			checkReport(t, q+" ["+r.name+"]", root, rt.Metrics, r.req)
		}
	}
}

// checkReport compares each node's report with the kernels its operator
// ran.
func checkReport(t *testing.T, what string, root Node, metrics map[Node]*exec.Metrics, req *exec.BackendRequest) {
	t.Helper()
	var doc []map[string]any
	if err := json.Unmarshal([]byte(ExplainJSONFor(root, metrics, req)), &doc); err != nil {
		t.Fatal(err)
	}
	var reports []map[string]any
	var flatten func(m map[string]any)
	flatten = func(m map[string]any) {
		reports = append(reports, m)
		kids, _ := m["Plans"].([]any)
		for _, k := range kids {
			flatten(k.(map[string]any))
		}
	}
	flatten(doc[0]["Plan"].(map[string]any))
	var nodes []Node
	var walk func(n Node)
	walk = func(n Node) {
		nodes = append(nodes, n)
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(root)
	if len(nodes) != len(reports) {
		t.Fatalf("%s: %d nodes, %d reported", what, len(nodes), len(reports))
	}
	sawKernels := false
	for i, n := range nodes {
		rep := reports[i]
		kind := rep["Node Type"]
		m := metrics[n]
		if m == nil {
			t.Errorf("%s: node %d (%s) was not built", what, i, kind)
			continue
		}
		ran := map[exec.Family]string{}
		for _, c := range m.Kernels.Ran() {
			if prev, twice := ran[c.Family]; twice {
				t.Errorf("%s: %s ran %s on %s and %s", what, kind, c.Family, prev, c.Selected)
			}
			ran[c.Family] = c.Selected.String()
		}
		sawKernels = sawKernels || len(ran) > 0
		reported := map[exec.Family]string{}
		key := "Kernels"
		if rep["Lowerable"] == false {
			key = "Argument Kernels"
		}
		ks, _ := rep[key].([]any)
		for _, k := range ks {
			k := k.(map[string]any)
			f, sel, reason := exec.Family(k["Family"].(string)), k["Selected Backend"].(string), k["Reason"].(string)
			reported[f] = sel
			if !exec.ArrowServes(f) && (sel != "native" || reason == "" || strings.HasPrefix(reason, "requested")) {
				t.Errorf("%s: %s reports %s, which arrow-go lacks, as %s (%q): want native with the reason", what, kind, f, sel, reason)
			}
		}
		if !maps.Equal(ran, reported) {
			t.Errorf("%s: %s reports kernels %v, ran %v", what, kind, reported, ran)
		}
		var wantTier string
		_, opaque := n.(opaqueNode)
		switch {
		case opaque:
			wantTier = "go_udf"
		case len(ran) > 0:
			wantTier = "arrow_batch_kernel"
		default:
			wantTier = "go_operator"
		}
		if rep["Executor Tier"] != wantTier || rep["Lowerable"] != !opaque {
			t.Errorf("%s: %s reports lowerable=%v executor_tier=%v, its kernels say %v %s", what, kind, rep["Lowerable"], rep["Executor Tier"], !opaque, wantTier)
		}
		if opaque {
			continue
		}
		want := "none"
		for _, b := range ran {
			switch {
			case want == "none":
				want = b
			case want != b:
				want = "mixed"
			}
		}
		if rep["Selected Backend"] != want {
			t.Errorf("%s: %s reports selected_backend=%v, ran %v", what, kind, rep["Selected Backend"], ran)
		}
	}
	if !sawKernels {
		t.Errorf("%s: no node ran a kernel", what)
	}
}

// TestPerNodeBackends: a hint naming a node kind runs that node's kernels
// on its backend while the rest of the plan runs on the statement's, and
// the report says so for each node.
func TestPerNodeBackends(t *testing.T) {
	s := openStore(t)
	s.createTable(t, "t", [][3]any{{int64(1), int64(10), "a"}, {int64(2), int64(20), "b"}, {int64(3), int64(30), "c"}})
	ctx := context.Background()
	stmts, err := sql.NewParser().Parse("SELECT a * 2 FROM t WHERE b >= 20")
	if err != nil {
		t.Fatal(err)
	}
	st, err := binder.Bind(ctx, s.Store, stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		req                 *exec.BackendRequest
		projection, filter  string
		projected, filtered map[exec.Family]exec.Backend
	}{
		{&exec.BackendRequest{Default: exec.BackendNative, Nodes: map[string]exec.Backend{"filter": exec.BackendArrow}}, "native", "arrow",
			map[exec.Family]exec.Backend{exec.FamIntMul: exec.BackendNative},
			map[exec.Family]exec.Backend{exec.FamIntCmp: exec.BackendArrow, exec.FamFilter: exec.BackendArrow}},
		{&exec.BackendRequest{Default: exec.BackendArrow, Nodes: map[string]exec.Backend{"filter": exec.BackendNative}}, "arrow", "native",
			map[exec.Family]exec.Backend{exec.FamIntMul: exec.BackendArrow},
			map[exec.Family]exec.Backend{exec.FamIntCmp: exec.BackendNative, exec.FamFilter: exec.BackendNative}},
		{&exec.BackendRequest{Default: exec.BackendNative, Families: map[exec.Family]exec.Backend{exec.FamIntMul: exec.BackendArrow}}, "arrow", "native",
			map[exec.Family]exec.Backend{exec.FamIntMul: exec.BackendArrow},
			map[exec.Family]exec.Backend{exec.FamIntCmp: exec.BackendNative, exec.FamFilter: exec.BackendNative}},
	} {
		ec := &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator, Backend: c.req.Default, Families: c.req.Families}
		rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: ec, Backends: c.req, Metrics: map[Node]*exec.Metrics{}}
		ec.Env = rt
		op, err := Build(rt, root)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			b, err := op.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			got = append(got, rowsText(b)...)
			b.Release()
		}
		op.Close()
		if strings.Join(got, ",") != "4,6" {
			t.Errorf("%s: rows %q", c.req, got)
		}
		lines := ExplainFor(root, rt.Metrics, c.req)
		proj, filt := lines[0], lines[1]
		if !strings.HasPrefix(proj, "projection") || !strings.Contains(proj, "selected_backend="+c.projection+" ") {
			t.Errorf("%s: projection line %q, want selected_backend=%s", c.req, proj, c.projection)
		}
		if !strings.HasPrefix(strings.TrimSpace(filt), "filter") || !strings.Contains(filt, "selected_backend="+c.filter+" ") {
			t.Errorf("%s: filter line %q, want selected_backend=%s", c.req, filt, c.filter)
		}
		var nodes []Node
		for n := root; n != nil; {
			nodes = append(nodes, n)
			if ins := n.Inputs(); len(ins) > 0 {
				n = ins[0]
			} else {
				n = nil
			}
		}
		for i, want := range []map[exec.Family]exec.Backend{c.projected, c.filtered} {
			got := map[exec.Family]exec.Backend{}
			for _, ch := range rt.Metrics[nodes[i]].Kernels.Ran() {
				got[ch.Family] = ch.Selected
			}
			if !maps.Equal(got, want) {
				t.Errorf("%s: node %d ran %v, want %v", c.req, i, got, want)
			}
		}
	}
}

// TestFiltersBeforeUDFs: a WHERE clause's conjuncts that call no UDF run
// below the UDF's node (its crossing costs more than a kernel's,
// qualCost), so the UDF sees only the rows they keep; those after the
// first UDF conjunct in PostgreSQL's order stay above.
func TestFiltersBeforeUDFs(t *testing.T) {
	s := openStore(t)
	var rows [][3]any
	for i := range 40 {
		rows = append(rows, [3]any{int64(i), int64(i % 10), "x"})
	}
	s.createTable(t, "t", rows)
	reg := udf.NewRegistry()
	var seen int64
	counted := func(_ context.Context, a []arrow.Array) (arrow.Array, error) {
		seen += int64(a[0].Len())
		a[0].Retain()
		return a[0], nil
	}
	if err := reg.AddScalar(udf.Scalar{Name: "counted", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: counted}); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddScalar(udf.Scalar{Name: "pyfn", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: counted, Language: "python"}); err != nil {
		t.Fatal(err)
	}
	cat := udfStore{s.Store, reg}
	ctx := context.Background()
	for _, c := range []struct {
		sql   string
		seen  int64
		rows  int
		kinds []string // the plan's node kinds, top down
	}{
		{"SELECT a FROM t WHERE counted(a) >= 0 AND b < 3", 12, 12, []string{"projection", "projection", "filter", "opaque_udf", "filter", "scan"}},
		// cost order: b < 3 (1), a * 2 > 10 (2), then the call (3 + 1)
		{"SELECT a FROM t WHERE b < 3 AND counted(a) >= 0 AND a * 2 > 10", 9, 9, []string{"projection", "projection", "filter", "opaque_udf", "filter", "scan"}},
		// a conjunct calling a UDF alone: nothing to run before it
		{"SELECT a FROM t WHERE pyfn(a) >= 0", 40, 40, []string{"projection", "projection", "filter", "opaque_udf", "scan"}},
	} {
		seen = 0
		stmts, err := sql.NewParser().Parse(c.sql)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		st, err := binder.Bind(ctx, cat, stmts[0], nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		root, err := Plan(st.(*binder.Query).Plan)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var kinds []string
		for n := root; n != nil; {
			kinds = append(kinds, nodeKind(n))
			if ins := n.Inputs(); len(ins) > 0 {
				n = ins[0]
			} else {
				n = nil
			}
		}
		if strings.Join(kinds, ",") != strings.Join(c.kinds, ",") {
			t.Errorf("%s: plan %v, want %v\n%s", c.sql, kinds, c.kinds, strings.Join(Explain(root, nil), "\n"))
		}
		rt := &Runtime{Ctx: ctx, Tables: s.Store, EC: &exec.EvalContext{Ctx: ctx, Mem: memory.DefaultAllocator}}
		rt.EC.Env = rt
		op, err := Build(rt, root)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			b, err := op.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if b == nil {
				break
			}
			n += int(b.NumRows())
			b.Release()
		}
		op.Close()
		if seen != c.seen || n != c.rows {
			t.Errorf("%s: the UDF saw %d rows (want %d), %d rows out (want %d)", c.sql, seen, c.seen, n, c.rows)
		}
	}
}
